package bake

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Expected partitions of the hand-made fields were produced by
// recastnavigation 1.6.0 on the same fields.

func TestBuildRegions(t *testing.T) {
	tests := []struct {
		name            string
		field           func() *CompactHeightfield
		borderSize      int
		minRegionArea   int
		mergeRegionArea int
		maxRegions      uint16
		regions         []string
	}{
		{
			name:          "pillar in an open field is one region",
			field:         fieldWithObstacle,
			minRegionArea: 8, mergeRegionArea: 20,
			maxRegions: 2,
			regions: []string{
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111####11111111",
				"11111111####11111111",
				"11111111####11111111",
				"11111111####11111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
				"11111111111111111111",
			},
		},
		{
			name:          "island of 9 spans is kept with a minimum of 8",
			field:         fieldWithIsland,
			minRegionArea: 8, mergeRegionArea: 20,
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
			name:          "island of 9 spans is removed with a minimum of 10",
			field:         fieldWithIsland,
			minRegionArea: 10, mergeRegionArea: 20,
			maxRegions: 2,
			regions: []string{
				"1111111111#---",
				"1111111111#---",
				"1111111111#---",
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
			name:          "areas never share a region and null spans get none",
			field:         fieldWithAreas,
			minRegionArea: 8, mergeRegionArea: 20,
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
		{
			name:          "tile border gets border regions",
			field:         fieldWithObstacle,
			borderSize:    3,
			minRegionArea: 8, mergeRegionArea: 20,
			maxRegions: 6,
			regions: []string{
				"********************",
				"********************",
				"********************",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555####55555***",
				"***55555####55555***",
				"***55555####55555***",
				"***55555####55555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"***55555555555555***",
				"********************",
				"********************",
				"********************",
			},
		},
		{
			name:          "ramp and bridge over the floor",
			field:         fieldWithBridge,
			minRegionArea: 8, mergeRegionArea: 20,
			maxRegions: 3,
			regions: []string{
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"11122(12)(12)(12)(12)(12)(12)(12)(12)(12)(12)1",
				"11122(12)(12)(12)(12)(12)(12)(12)(12)(12)(12)1",
				"11122(12)(12)(12)(12)(12)(12)(12)(12)(12)(12)1",
				"11122(12)(12)(12)(12)(12)(12)(12)(12)(12)(12)1",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
				"1111111111111111",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := tt.field()
			require.NoError(t, BuildDistanceField(chf))
			require.NoError(t, BuildRegions(chf, tt.borderSize, tt.minRegionArea, tt.mergeRegionArea))
			assert.Equal(t, tt.maxRegions, chf.MaxRegions)
			assert.Equal(t, tt.borderSize, chf.BorderSize)
			assert.Equal(t, tt.regions, regionMap(chf))
			assert.Empty(t, chf.Warnings)
		})
	}
}

func TestBuildRegionsBorderRegionIDs(t *testing.T) {
	chf := fieldWithObstacle()
	require.NoError(t, BuildDistanceField(chf))
	require.NoError(t, BuildRegions(chf, 3, 8, 20))
	// Strips are painted -x, +x, -z, +z; the z strips paint over the corners.
	regionAt := func(x, z int) uint16 { return chf.Spans[chf.Cells[x+z*chf.Width].Index].Region }
	assert.Equal(t, BorderRegion|1, regionAt(0, 10))
	assert.Equal(t, BorderRegion|2, regionAt(19, 10))
	assert.Equal(t, BorderRegion|3, regionAt(0, 0))
	assert.Equal(t, BorderRegion|4, regionAt(19, 19))
}

func TestBuildRegionsReportsOverlappingRegions(t *testing.T) {
	// A spiral of stacked spans makes a region climb over itself; the C++
	// logs "1 overlapping regions" and keeps the partition.
	chf := randomTestField(5)
	require.NoError(t, BuildDistanceField(chf))
	require.NoError(t, BuildRegions(chf, 0, 8, 20))
	assert.Equal(t, []string{"bake: build regions: 1 overlapping regions"}, chf.Warnings)
	assert.Equal(t, uint16(9), chf.MaxRegions)
}

func TestBuildRegionsIDOverflow(t *testing.T) {
	// 65536 isolated spans, each its own region: one more than ids allow.
	const size = 512
	rows := make([]string, size)
	for z := range rows {
		if z%2 == 0 {
			rows[z] = strings.Repeat(".#", size/2)
		} else {
			rows[z] = strings.Repeat("#", size)
		}
	}
	chf := newTestField(rows...)
	chf.Dist = make([]uint16, len(chf.Spans))
	for i := range chf.Dist {
		chf.Dist[i] = 2
	}
	chf.MaxDistance = 2

	err := BuildRegions(chf, 0, 0, 0)
	require.ErrorIs(t, err, errRegionIDOverflow)
	assert.Contains(t, err.Error(), "bake: build regions")
	assert.Zero(t, chf.MaxRegions, "a failed build leaves the field unchanged")
	for _, s := range chf.Spans {
		require.Zero(t, s.Region)
	}
}

func TestBuildRegionsRejectsBadInput(t *testing.T) {
	withDistance := func() *CompactHeightfield {
		chf := fieldWithIsland()
		require.NoError(t, BuildDistanceField(chf))
		return chf
	}
	tests := []struct {
		name       string
		chf        *CompactHeightfield
		borderSize int
		message    string
	}{
		{"nil field", nil, 0, "nil compact heightfield"},
		{"no distance field", fieldWithIsland(), 0, "run BuildDistanceField first"},
		{"negative border", withDistance(), -1, "negative border size -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := BuildRegions(tt.chf, tt.borderSize, 8, 20)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "bake: build regions: ")
			assert.Contains(t, err.Error(), tt.message)
			if tt.chf != nil {
				assert.Zero(t, tt.chf.MaxRegions)
			}
		})
	}
}

func TestBuildRegionsEmptyField(t *testing.T) {
	chf := newTestField("##", "##")
	require.NoError(t, BuildDistanceField(chf))
	require.NoError(t, BuildRegions(chf, 0, 8, 20))
	assert.Equal(t, uint16(1), chf.MaxRegions)
}
