package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildDistanceField(t *testing.T) {
	tests := []struct {
		name        string
		field       func() *CompactHeightfield
		maxDistance uint16
		distances   []string
	}{
		{
			name:        "pillar in an open field",
			field:       fieldWithObstacle,
			maxDistance: 8,
			distances: []string{
				"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
				"0 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 0",
				"0 2 3 4 4 4 4 4 4 4 4 4 4 4 4 4 4 3 2 0",
				"0 2 4 5 6 6 6 6 6 5 5 6 6 6 6 6 5 4 2 0",
				"0 2 4 6 7 7 7 6 6 5 5 6 6 7 7 7 6 4 2 0",
				"0 2 4 6 7 7 6 5 4 4 4 4 5 6 7 7 6 4 2 0",
				"0 2 4 6 7 6 5 3 2 2 2 2 3 5 6 7 6 4 2 0",
				"0 2 4 6 6 5 3 2 0 0 0 0 2 3 5 6 6 4 2 0",
				"0 2 4 6 6 4 2 0 - - - - 0 2 4 6 6 4 2 0",
				"0 2 4 5 5 4 2 0 - - - - 0 2 4 5 5 4 2 0",
				"0 2 4 5 5 4 2 0 - - - - 0 2 4 5 5 4 2 0",
				"0 2 4 6 6 4 2 0 - - - - 0 2 4 6 6 4 2 0",
				"0 2 4 6 6 5 3 2 0 0 0 0 2 3 5 6 6 4 2 0",
				"0 2 4 6 7 6 5 3 2 2 2 2 3 5 6 7 6 4 2 0",
				"0 2 4 6 7 7 6 5 4 4 4 4 5 6 7 7 6 4 2 0",
				"0 2 4 6 7 7 7 6 6 5 5 6 6 7 7 7 6 4 2 0",
				"0 2 4 5 6 6 6 6 6 5 5 6 6 6 6 6 5 4 2 0",
				"0 2 3 4 4 4 4 4 4 4 4 4 4 4 4 4 4 3 2 0",
				"0 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 0",
				"0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
			},
		},
		{
			// The largest distance, 8, is measured before the blur.
			name:        "room and island",
			field:       fieldWithIsland,
			maxDistance: 8,
			distances: []string{
				"0 0 0 0 0 0 0 0 0 0 - 0 0 0",
				"0 2 2 2 2 2 2 2 2 0 - 0 2 0",
				"0 2 3 4 4 4 4 3 2 0 - 0 0 0",
				"0 2 4 5 6 6 5 4 2 0 - - - -",
				"0 2 4 6 7 7 6 4 2 0 - - - -",
				"0 2 4 6 7 7 6 4 2 0 - - - -",
				"0 2 4 5 6 6 5 4 2 0 - - - -",
				"0 2 3 4 4 4 4 3 2 0 - - - -",
				"0 2 2 2 2 2 2 2 2 0 - - - -",
				"0 0 0 0 0 0 0 0 0 0 - - - -",
			},
		},
		{
			// Area changes count as borders; the blur then evens out the
			// 4s of the narrow strips (the largest distance is pre-blur).
			name:        "three areas",
			field:       fieldWithAreas,
			maxDistance: 4,
			distances: []string{
				"0 0 0 0 0 0 0 0 0 0 0 0",
				"0 2 2 2 0 0 2 2 2 2 0 0",
				"0 2 3 2 0 0 2 3 3 2 0 0",
				"0 2 3 2 0 0 2 3 3 2 0 0",
				"0 2 3 2 0 0 2 3 3 2 0 0",
				"0 2 3 2 0 0 2 3 3 2 0 0",
				"0 2 2 2 0 0 2 2 2 2 0 0",
				"0 0 0 0 0 0 0 0 0 0 0 0",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := tt.field()
			require.NoError(t, BuildDistanceField(chf))
			assert.Equal(t, tt.maxDistance, chf.MaxDistance)
			assert.Equal(t, tt.distances, distanceRows(chf))
		})
	}
}

func TestBuildDistanceFieldReplacesPreviousField(t *testing.T) {
	chf := fieldWithIsland()
	chf.Dist = []uint16{1, 2, 3}
	chf.MaxDistance = 999
	require.NoError(t, BuildDistanceField(chf))
	assert.Len(t, chf.Dist, len(chf.Spans))
	assert.Equal(t, uint16(8), chf.MaxDistance)
}

func TestBuildDistanceFieldEmpty(t *testing.T) {
	chf := newTestField("###", "###")
	require.NoError(t, BuildDistanceField(chf))
	assert.Empty(t, chf.Dist)
	assert.Zero(t, chf.MaxDistance)
}

func TestBuildDistanceFieldRejectsMalformedField(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(chf *CompactHeightfield) *CompactHeightfield
		message string
	}{
		{"nil", func(*CompactHeightfield) *CompactHeightfield { return nil }, "nil compact heightfield"},
		{"cells", func(chf *CompactHeightfield) *CompactHeightfield { chf.Cells = chf.Cells[1:]; return chf }, "cells for a"},
		{"areas", func(chf *CompactHeightfield) *CompactHeightfield { chf.Areas = chf.Areas[1:]; return chf }, "areas for"},
		{"span range", func(chf *CompactHeightfield) *CompactHeightfield { chf.Cells[3].Index = 1 << 20; return chf }, "cell 3 holds spans"},
		{"negative size", func(chf *CompactHeightfield) *CompactHeightfield { chf.Width = -1; return chf }, "negative grid size"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := tt.corrupt(fieldWithIsland())
			err := BuildDistanceField(chf)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "bake: build distance field")
			assert.Contains(t, err.Error(), tt.message)
			if chf != nil {
				assert.Nil(t, chf.Dist, "a failed build leaves the field unchanged")
			}
		})
	}
}
