package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenConnectionField returns the island field with its first span
// connected towards -z, out of the grid.
func brokenConnectionField(t *testing.T) *CompactHeightfield {
	t.Helper()
	chf := fieldWithIsland()
	require.NoError(t, BuildDistanceField(chf))
	chf.Spans[0].SetConnection(3, 0)
	return chf
}

func TestStagesRejectConnectionsOutOfTheGrid(t *testing.T) {
	stages := []struct {
		name  string
		stage string
		run   func(chf *CompactHeightfield) error
	}{
		{"distance field", "build distance field", BuildDistanceField},
		{"watershed", "build regions", func(chf *CompactHeightfield) error { return BuildRegions(chf, 0, 8, 20) }},
		{"monotone", "build monotone regions", func(chf *CompactHeightfield) error { return BuildRegionsMonotone(chf, 0, 8, 20) }},
		{"layers", "build layer regions", func(chf *CompactHeightfield) error { return BuildLayerRegions(chf, 0, 8) }},
		{"contours", "build contours", func(chf *CompactHeightfield) error {
			for i := range chf.Spans {
				chf.Spans[i].Region = 1
			}
			chf.Spans[len(chf.Spans)-1].Region = 2
			chf.MaxRegions = 3
			cset, err := BuildContours(chf, 1.3, 12, TessellateWallEdges)
			assert.Nil(t, cset)
			return err
		}},
	}
	for _, tt := range stages {
		t.Run(tt.name, func(t *testing.T) {
			chf := brokenConnectionField(t)
			distances := append([]uint16(nil), chf.Dist...)
			err := tt.run(chf)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "bake: "+tt.stage+": malformed compact heightfield")
			assert.Equal(t, distances, chf.Dist, "the field is left unchanged")
		})
	}
}
