package bake

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowBlock is count identical rows of a region map.
type rowBlock struct {
	count int
	row   string
}

// regionRows spells out a region map from its blocks of identical rows.
func regionRows(blocks ...rowBlock) []string {
	var rows []string
	for _, b := range blocks {
		for range b.count {
			rows = append(rows, b.row)
		}
	}
	return rows
}

// bridgeRows is the region map of fieldWithBridge: 6 floor rows, 4 rows of
// ramp and bridge, 6 floor rows.
func bridgeRows(before, bridge, after string) []string {
	return regionRows(rowBlock{6, before}, rowBlock{4, bridge}, rowBlock{6, after})
}

// Region maps that several partitions give.
var (
	islandKept    = regionRows(rowBlock{3, "1111111111#222"}, rowBlock{7, "1111111111####"})
	islandRemoved = regionRows(rowBlock{3, "1111111111#---"}, rowBlock{7, "1111111111####"})
	areasApart    = regionRows(rowBlock{8, "11111222222-"})
)

// Partition methods as the table below runs them.
func watershed(borderSize, minRegionArea, mergeRegionArea int) func(*CompactHeightfield) error {
	return func(chf *CompactHeightfield) error {
		if err := BuildDistanceField(chf); err != nil {
			return err
		}
		return BuildRegions(chf, borderSize, minRegionArea, mergeRegionArea)
	}
}

func monotone(borderSize, minRegionArea, mergeRegionArea int) func(*CompactHeightfield) error {
	return func(chf *CompactHeightfield) error {
		return BuildRegionsMonotone(chf, borderSize, minRegionArea, mergeRegionArea)
	}
}

func layers(borderSize, minRegionArea int) func(*CompactHeightfield) error {
	return func(chf *CompactHeightfield) error {
		return BuildLayerRegions(chf, borderSize, minRegionArea)
	}
}

// TestPartitions runs the three partition methods on the hand-made fields.
// The expected partitions were produced by recastnavigation 1.6.0 on the
// same fields.
func TestPartitions(t *testing.T) {
	tests := []struct {
		method     string
		name       string
		field      func() *CompactHeightfield
		partition  func(*CompactHeightfield) error
		borderSize int
		maxRegions uint16
		regions    []string
	}{
		{
			method:     "watershed",
			name:       "pillar in an open field is one region",
			field:      fieldWithObstacle,
			partition:  watershed(0, 8, 20),
			maxRegions: 2,
			regions: regionRows(
				rowBlock{8, "11111111111111111111"},
				rowBlock{4, "11111111####11111111"},
				rowBlock{8, "11111111111111111111"}),
		},
		{
			method:     "watershed",
			name:       "island of 9 spans is kept with a minimum of 8",
			field:      fieldWithIsland,
			partition:  watershed(0, 8, 20),
			maxRegions: 3,
			regions:    islandKept,
		},
		{
			method:     "watershed",
			name:       "island of 9 spans is removed with a minimum of 10",
			field:      fieldWithIsland,
			partition:  watershed(0, 10, 20),
			maxRegions: 2,
			regions:    islandRemoved,
		},
		{
			method:     "watershed",
			name:       "areas never share a region and null spans get none",
			field:      fieldWithAreas,
			partition:  watershed(0, 8, 20),
			maxRegions: 3,
			regions:    areasApart,
		},
		{
			method:     "watershed",
			name:       "tile border gets border regions",
			field:      fieldWithObstacle,
			partition:  watershed(3, 8, 20),
			borderSize: 3,
			maxRegions: 6,
			regions: regionRows(
				rowBlock{3, "********************"},
				rowBlock{5, "***55555555555555***"},
				rowBlock{4, "***55555####55555***"},
				rowBlock{5, "***55555555555555***"},
				rowBlock{3, "********************"}),
		},
		{
			method:     "watershed",
			name:       "ramp and bridge over the floor",
			field:      fieldWithBridge,
			partition:  watershed(0, 8, 20),
			maxRegions: 3,
			regions:    bridgeRows("1111111111111111", "11122(12)(12)(12)(12)(12)(12)(12)(12)(12)(12)1", "1111111111111111"),
		},
		{
			method:     "monotone",
			name:       "island",
			field:      fieldWithIsland,
			partition:  monotone(0, 8, 20),
			maxRegions: 3,
			regions:    islandKept,
		},
		{
			// Rows split where the ramp and bridge start, and the floor
			// beyond the bridge gets a region of its own.
			method:     "monotone",
			name:       "ramp and bridge",
			field:      fieldWithBridge,
			partition:  monotone(0, 8, 20),
			maxRegions: 5,
			regions:    bridgeRows("1111111111111111", "22222(32)(32)(32)(32)(32)(32)(32)(32)(32)(32)3", "4444444444444444"),
		},
		{
			// The floor and ramp form one layer, the floor under the
			// bridge (which would overlap it) another.
			method:     "layers",
			name:       "ramp and bridge",
			field:      fieldWithBridge,
			partition:  layers(0, 8),
			maxRegions: 3,
			regions:    bridgeRows("1111111111111111", "11111(21)(21)(21)(21)(21)(21)(21)(21)(21)(21)2", "1111111111111111"),
		},
		{
			method:     "layers",
			name:       "areas stay apart",
			field:      fieldWithAreas,
			partition:  layers(0, 8),
			maxRegions: 3,
			regions:    areasApart,
		},
	}
	for _, tt := range tests {
		t.Run(tt.method+"/"+tt.name, func(t *testing.T) {
			chf := tt.field()
			require.NoError(t, tt.partition(chf))
			assert.Equal(t, tt.maxRegions, chf.MaxRegions)
			assert.Equal(t, tt.borderSize, chf.BorderSize)
			assert.Equal(t, tt.regions, regionMap(chf))
			assert.Empty(t, chf.Warnings)
			if tt.method != "watershed" {
				assert.Nil(t, chf.Dist, "only the watershed needs a distance field")
			}
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

func TestBuildLayerRegionsRemovesSmallLayers(t *testing.T) {
	chf := fieldWithIsland()
	require.NoError(t, BuildLayerRegions(chf, 0, 10))
	rows := regionMap(chf)
	assert.Equal(t, "1111111111#---", rows[0])
	assert.Equal(t, "1111111111####", rows[9])
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

func TestPartitionsRejectBadInput(t *testing.T) {
	withDistance := func() *CompactHeightfield {
		chf := fieldWithIsland()
		require.NoError(t, BuildDistanceField(chf))
		return chf
	}
	tests := []struct {
		name      string
		chf       *CompactHeightfield
		partition func(*CompactHeightfield) error
		prefix    string
		message   string
	}{
		{"watershed nil field", nil, func(chf *CompactHeightfield) error { return BuildRegions(chf, 0, 8, 20) },
			"bake: build regions: ", "nil compact heightfield"},
		{"watershed without distance field", fieldWithIsland(), func(chf *CompactHeightfield) error { return BuildRegions(chf, 0, 8, 20) },
			"bake: build regions: ", "run BuildDistanceField first"},
		{"watershed negative border", withDistance(), func(chf *CompactHeightfield) error { return BuildRegions(chf, -1, 8, 20) },
			"bake: build regions: ", "negative border size -1"},
		{"monotone nil field", nil, monotone(0, 8, 20),
			"bake: build monotone regions: ", "bake: build monotone regions: nil compact heightfield"},
		{"monotone negative border", fieldWithIsland(), monotone(-2, 8, 20),
			"bake: build monotone regions: ", "negative border size"},
		{"layers nil field", nil, layers(0, 8),
			"bake: build layer regions: ", "bake: build layer regions: nil compact heightfield"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.partition(tt.chf)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.prefix)
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
