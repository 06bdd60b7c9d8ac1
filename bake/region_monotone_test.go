package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildRegionsMonotone(t *testing.T) {
	// Expected partitions were produced by recastnavigation 1.6.0.
	tests := []struct {
		name       string
		field      func() *CompactHeightfield
		maxRegions uint16
		regions    []string
	}{
		{
			name:       "island",
			field:      fieldWithIsland,
			maxRegions: 3,
			regions: []string{
				"1111111111#222",
				"1111111111#222",
				"1111111111#222",
				"1111111111####",
				"1111111111####",
				"1111111111####",
				"1111111111####",
				"1111111111####",
				"1111111111####",
				"1111111111####",
			},
		},
		{
			// Rows split where the ramp and bridge start, and the floor
			// beyond the bridge gets a region of its own.
			name:       "ramp and bridge",
			field:      fieldWithBridge,
			maxRegions: 5,
			regions: []string{
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"22222(32)(32)(32)(32)(32)(32)(32)(32)(32)(32)3",
				"22222(32)(32)(32)(32)(32)(32)(32)(32)(32)(32)3",
				"22222(32)(32)(32)(32)(32)(32)(32)(32)(32)(32)3",
				"22222(32)(32)(32)(32)(32)(32)(32)(32)(32)(32)3",
				"4444444444444444",
				"4444444444444444",
				"4444444444444444",
				"4444444444444444",
				"4444444444444444",
				"4444444444444444",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := tt.field()
			require.NoError(t, BuildRegionsMonotone(chf, 0, 8, 20))
			assert.Equal(t, tt.maxRegions, chf.MaxRegions)
			assert.Equal(t, tt.regions, regionMap(chf))
			assert.Nil(t, chf.Dist, "monotone partitioning needs no distance field")
		})
	}
}

func TestBuildRegionsMonotoneBorder(t *testing.T) {
	chf := fieldWithObstacle()
	require.NoError(t, BuildRegionsMonotone(chf, 3, 8, 20))
	assert.Equal(t, 3, chf.BorderSize)
	rows := regionMap(chf)
	assert.Equal(t, "********************", rows[0])
	assert.Equal(t, "***", rows[10][:3])
	for _, row := range rows[3:17] {
		assert.NotContains(t, row[3:17], "*")
		assert.NotContains(t, row[3:17], "-")
	}
}

func TestBuildRegionsMonotoneRejectsBadInput(t *testing.T) {
	err := BuildRegionsMonotone(nil, 0, 8, 20)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bake: build monotone regions: nil compact heightfield")

	chf := fieldWithIsland()
	err = BuildRegionsMonotone(chf, -2, 8, 20)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "negative border size")
	assert.Zero(t, chf.MaxRegions)
}
