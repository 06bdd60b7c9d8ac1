package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildLayerRegions(t *testing.T) {
	// Expected partitions were produced by recastnavigation 1.6.0.
	tests := []struct {
		name       string
		field      func() *CompactHeightfield
		minArea    int
		maxRegions uint16
		regions    []string
	}{
		{
			// The floor and ramp form one layer, the floor under the
			// bridge (which would overlap it) another.
			name:       "ramp and bridge",
			field:      fieldWithBridge,
			minArea:    8,
			maxRegions: 3,
			regions: []string{
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"11111(21)(21)(21)(21)(21)(21)(21)(21)(21)(21)2",
				"11111(21)(21)(21)(21)(21)(21)(21)(21)(21)(21)2",
				"11111(21)(21)(21)(21)(21)(21)(21)(21)(21)(21)2",
				"11111(21)(21)(21)(21)(21)(21)(21)(21)(21)(21)2",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
			},
		},
		{
			name:       "areas stay apart",
			field:      fieldWithAreas,
			minArea:    8,
			maxRegions: 3,
			regions: []string{
				"11111222222-",
				"11111222222-",
				"11111222222-",
				"11111222222-",
				"11111222222-",
				"11111222222-",
				"11111222222-",
				"11111222222-",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := tt.field()
			require.NoError(t, BuildLayerRegions(chf, 0, tt.minArea))
			assert.Equal(t, tt.maxRegions, chf.MaxRegions)
			assert.Equal(t, tt.regions, regionMap(chf))
		})
	}
}

func TestBuildLayerRegionsRemovesSmallLayers(t *testing.T) {
	chf := fieldWithIsland()
	require.NoError(t, BuildLayerRegions(chf, 0, 10))
	rows := regionMap(chf)
	assert.Equal(t, "1111111111#---", rows[0])
	assert.Equal(t, "1111111111####", rows[9])
}

func TestBuildLayerRegionsRejectsBadInput(t *testing.T) {
	err := BuildLayerRegions(nil, 0, 8)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bake: build layer regions: nil compact heightfield")
}
