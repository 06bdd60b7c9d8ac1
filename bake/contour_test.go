package bake

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watershedField runs the distance field and watershed regions with the
// RecastDemo region sizes scaled to the small test fields.
func watershedField(t *testing.T, chf *CompactHeightfield, borderSize int) *CompactHeightfield {
	t.Helper()
	require.NoError(t, BuildDistanceField(chf))
	require.NoError(t, BuildRegions(chf, borderSize, 8, 20))
	return chf
}

// contourSummary is what a test checks of one contour.
type contourSummary struct {
	region   uint16
	area     uint8
	verts    [][4]int32
	rawCount int
}

func summarize(cset *ContourSet) []contourSummary {
	summaries := make([]contourSummary, len(cset.Contours))
	for i, c := range cset.Contours {
		summaries[i] = contourSummary{c.Region, c.Area, c.Verts, len(c.RawVerts)}
	}
	return summaries
}

func TestBuildContours(t *testing.T) {
	// Expected contours were produced by recastnavigation 1.6.0.
	const (
		area1Border = AreaBorder | 1
		area2Border = AreaBorder | 2
	)
	tests := []struct {
		name       string
		field      func() *CompactHeightfield
		maxEdgeLen int
		flags      ContourBuildFlags
		contours   []contourSummary
	}{
		{
			// The pillar's hole is joined to the outline at (0,10) and the
			// hole contour is left empty.
			name:       "pillar hole merged into the outline",
			field:      fieldWithObstacle,
			maxEdgeLen: 12,
			flags:      TessellateWallEdges,
			contours: []contourSummary{
				{1, WalkableArea, [][4]int32{
					{0, 0, 10, 0}, {0, 0, 20, 0}, {10, 0, 20, 0}, {20, 0, 20, 0}, {20, 0, 10, 0}, {20, 0, 0, 0}, {10, 0, 0, 0}, {0, 0, 0, 0},
					{0, 0, 10, 0}, {8, 0, 8, 0}, {12, 0, 8, 0}, {12, 0, 12, 0}, {8, 0, 12, 0}, {8, 0, 8, 0},
				}, 80},
				{1, WalkableArea, nil, 16},
			},
		},
		{
			name:       "room and island",
			field:      fieldWithIsland,
			maxEdgeLen: 12,
			flags:      TessellateWallEdges,
			contours: []contourSummary{
				{1, WalkableArea, [][4]int32{{0, 0, 0, 0}, {0, 0, 10, 0}, {10, 0, 10, 0}, {10, 0, 0, 0}}, 40},
				{2, WalkableArea, [][4]int32{{11, 0, 0, 0}, {11, 0, 3, 0}, {14, 0, 3, 0}, {14, 0, 0, 0}}, 12},
			},
		},
		{
			name:       "area portals without tessellation",
			field:      fieldWithAreas,
			maxEdgeLen: 0,
			flags:      TessellateWallEdges,
			contours: []contourSummary{
				{1, 1, [][4]int32{{5, 0, 8, area2Border}, {5, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 8, 0}}, 26},
				{2, WalkableArea, [][4]int32{{5, 0, 8, 0}, {11, 0, 8, AreaBorder}, {11, 0, 0, 0}, {5, 0, 0, area1Border}}, 28},
			},
		},
		{
			name:       "area edges split, walls kept",
			field:      fieldWithAreas,
			maxEdgeLen: 3,
			flags:      TessellateAreaEdges,
			contours: []contourSummary{
				{1, 1, [][4]int32{{5, 0, 8, area2Border}, {5, 0, 6, area2Border}, {5, 0, 4, area2Border}, {5, 0, 2, area2Border}, {5, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 8, 0}}, 26},
				{2, WalkableArea, [][4]int32{
					{5, 0, 8, 0}, {11, 0, 8, AreaBorder}, {11, 0, 6, AreaBorder}, {11, 0, 4, AreaBorder}, {11, 0, 2, AreaBorder},
					{11, 0, 0, 0}, {5, 0, 0, area1Border}, {5, 0, 2, area1Border}, {5, 0, 4, area1Border}, {5, 0, 6, area1Border},
				}, 28},
			},
		},
		{
			name:       "wall and area edges split",
			field:      fieldWithAreas,
			maxEdgeLen: 3,
			flags:      TessellateWallEdges | TessellateAreaEdges,
			contours: []contourSummary{
				{1, 1, [][4]int32{
					{5, 0, 8, area2Border}, {5, 0, 6, area2Border}, {5, 0, 4, area2Border}, {5, 0, 2, area2Border}, {5, 0, 0, 0}, {2, 0, 0, 0},
					{0, 0, 0, 0}, {0, 0, 2, 0}, {0, 0, 4, 0}, {0, 0, 6, 0}, {0, 0, 8, 0}, {2, 0, 8, 0},
				}, 26},
				{2, WalkableArea, [][4]int32{
					{5, 0, 8, 0}, {8, 0, 8, 0}, {11, 0, 8, AreaBorder}, {11, 0, 6, AreaBorder}, {11, 0, 4, AreaBorder}, {11, 0, 2, AreaBorder},
					{11, 0, 0, 0}, {8, 0, 0, 0}, {5, 0, 0, area1Border}, {5, 0, 2, area1Border}, {5, 0, 4, area1Border}, {5, 0, 6, area1Border},
				}, 28},
			},
		},
		{
			// Heights follow the ramp up to the bridge.
			name:       "ramp and bridge",
			field:      fieldWithBridge,
			maxEdgeLen: 12,
			flags:      TessellateWallEdges,
			contours: []contourSummary{
				{1, WalkableArea, [][4]int32{
					{0, 0, 8, 0}, {0, 0, 16, 0}, {8, 0, 16, 0}, {16, 0, 16, 0}, {16, 0, 8, 0}, {16, 0, 0, 0}, {8, 0, 0, 0}, {0, 0, 0, 0},
					{0, 0, 8, 0}, {3, 6, 6, 0}, {5, 0, 6, 0}, {5, 0, 10, 0}, {3, 6, 10, 2}, {3, 6, 6, 0},
				}, 64},
				{1, WalkableArea, nil, 16},
				{2, WalkableArea, [][4]int32{{3, 6, 10, 0}, {15, 10, 10, 0}, {15, 10, 6, 0}, {3, 6, 6, 1}}, 32},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chf := watershedField(t, tt.field(), 0)
			cset, err := BuildContours(chf, 1.3, tt.maxEdgeLen, tt.flags)
			require.NoError(t, err)
			assert.Equal(t, tt.contours, summarize(cset))
			assert.Empty(t, cset.Warnings)
			assert.Equal(t, chf.Width, cset.Width)
			assert.Equal(t, chf.Height, cset.Height)
			assert.Equal(t, float32(1.3), cset.MaxError)
		})
	}
}

func TestBuildContoursRemovesTileBorder(t *testing.T) {
	chf := watershedField(t, fieldWithObstacle(), 3)
	cset, err := BuildContours(chf, 1.3, 12, TessellateWallEdges)
	require.NoError(t, err)

	// Vertices are relative to the tile without its border; walls along the
	// border name the border region beyond them.
	border := func(id uint16) int32 { return int32(BorderRegion | id) }
	require.Len(t, cset.Contours, 2)
	assert.Equal(t, [][4]int32{
		{0, 0, 0, border(1)}, {0, 0, 14, border(4)}, {14, 0, 14, border(2)}, {14, 0, 0, border(3)},
		{0, 0, 0, border(1)}, {5, 0, 5, 0}, {9, 0, 5, 0}, {9, 0, 9, 0}, {5, 0, 9, 0}, {5, 0, 5, 0},
	}, cset.Contours[0].Verts)
	assert.Equal(t, uint16(5), cset.Contours[0].Region)
	assert.Empty(t, cset.Contours[1].Verts)
	assert.Equal(t, [4]int32{6, 0, 5, 0}, cset.Contours[1].RawVerts[0], "raw vertices lose the border too")

	assert.Equal(t, 14, cset.Width)
	assert.Equal(t, 14, cset.Height)
	assert.Equal(t, 3, cset.BorderSize)
	assert.Equal(t, mgl32.Vec3{1.5, 0, 1.5}, cset.BMin)
	assert.Equal(t, mgl32.Vec3{8.5, 10, 8.5}, cset.BMax)
}

func TestBuildContoursMarksBorderVertices(t *testing.T) {
	// Monotone rows split the field around the pillar into four regions of
	// one area. Where two of them meet the tile border the corner is flagged
	// BorderVertex, for the poly mesh stage to remove. Produced by
	// recastnavigation 1.6.0.
	chf := fieldWithObstacle()
	require.NoError(t, BuildRegionsMonotone(chf, 3, 0, 0))
	cset, err := BuildContours(chf, 1.3, 0, TessellateWallEdges)
	require.NoError(t, err)

	border := func(id uint16) int32 { return int32(BorderRegion | id) }
	assert.Equal(t, []contourSummary{
		{5, WalkableArea, [][4]int32{{0, 0, 5, BorderVertex | 6}, {5, 0, 5, 0}, {9, 0, 5, 7}, {14, 0, 5, BorderVertex | border(2)}, {14, 0, 0, border(3)}, {0, 0, 0, border(1)}}, 38},
		{6, WalkableArea, [][4]int32{{0, 0, 9, BorderVertex | 8}, {5, 0, 9, 0}, {5, 0, 5, 5}, {0, 0, 5, BorderVertex | border(1)}}, 18},
		{7, WalkableArea, [][4]int32{{9, 0, 9, 8}, {14, 0, 9, BorderVertex | border(2)}, {14, 0, 5, BorderVertex | 5}, {9, 0, 5, 0}}, 18},
		{8, WalkableArea, [][4]int32{{0, 0, 14, border(4)}, {14, 0, 14, border(2)}, {14, 0, 9, BorderVertex | 7}, {9, 0, 9, 0}, {5, 0, 9, 6}, {0, 0, 9, BorderVertex | border(1)}}, 38},
	}, summarize(cset))
}

func TestBuildContoursWithoutRegions(t *testing.T) {
	chf := fieldWithIsland()
	cset, err := BuildContours(chf, 1.3, 12, TessellateWallEdges)
	require.NoError(t, err)
	assert.Empty(t, cset.Contours)
}

func TestBuildContoursRejectsBadInput(t *testing.T) {
	_, err := BuildContours(nil, 1.3, 12, TessellateWallEdges)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bake: build contours: nil compact heightfield")

	chf := watershedField(t, fieldWithIsland(), 0)
	chf.Spans[0].Region = chf.MaxRegions + 1
	_, err = BuildContours(chf, 1.3, 12, TessellateWallEdges)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "above MaxRegions")

	chf = watershedField(t, fieldWithIsland(), 0)
	chf.BorderSize = 6
	_, err = BuildContours(chf, 1.3, 12, TessellateWallEdges)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "border size 6 does not fit")
}

// The simplification and geometry expectations below match the static
// functions of recastnavigation 1.6.0 run on the same input.

func TestSimplifyContourClosedWall(t *testing.T) {
	// A 4×2 rectangle traced cell corner by cell corner, no portals: the
	// simplification starts from the lower-left and upper-right corners and
	// adds the two others, which stray 2 cells from the diagonal.
	raw := [][4]int32{
		{0, 0, 1, 0}, {0, 0, 2, 0}, {1, 0, 2, 0}, {2, 0, 2, 0}, {3, 0, 2, 0}, {4, 0, 2, 0},
		{4, 0, 1, 0}, {4, 0, 0, 0}, {3, 0, 0, 0}, {2, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0},
	}
	got := simplifyContour(raw, nil, 1.3, 0, TessellateWallEdges)
	assert.Equal(t, [][4]int32{{0, 0, 0, 0}, {0, 0, 2, 0}, {4, 0, 2, 0}, {4, 0, 0, 0}}, got)

	// With a maximum edge length of 2 the long walls are split in the middle.
	got = simplifyContour(raw, nil, 1.3, 2, TessellateWallEdges)
	assert.Equal(t, [][4]int32{{0, 0, 0, 0}, {0, 0, 2, 0}, {2, 0, 2, 0}, {4, 0, 2, 0}, {4, 0, 0, 0}, {2, 0, 0, 0}}, got)
}

func TestSimplifyContourKeepsPortalEnds(t *testing.T) {
	// The top edge of the square is a portal to region 7; its two ends are
	// kept and carry the neighbour of the following raw vertex. The walls
	// are refined to within 0.5 cells.
	raw := [][4]int32{
		{0, 0, 1, 0}, {0, 0, 2, 7}, {1, 0, 2, 7}, {2, 0, 2, 0},
		{2, 0, 1, 0}, {2, 0, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0},
	}
	got := simplifyContour(raw, nil, 0.5, 0, 0)
	assert.Equal(t, [][4]int32{{0, 0, 1, 7}, {1, 0, 2, 0}, {2, 0, 2, 0}, {2, 0, 0, 0}, {0, 0, 0, 0}}, got)
}

func TestRemoveDegenerateSegments(t *testing.T) {
	tests := []struct {
		name string
		in   [][4]int32
		want [][4]int32
	}{
		{"none", [][4]int32{{0, 0, 0, 1}, {1, 0, 0, 2}, {1, 0, 1, 3}}, [][4]int32{{0, 0, 0, 1}, {1, 0, 0, 2}, {1, 0, 1, 3}}},
		{"height ignored", [][4]int32{{0, 0, 0, 1}, {0, 5, 0, 2}, {1, 0, 1, 3}}, [][4]int32{{0, 5, 0, 2}, {1, 0, 1, 3}}},
		{"last equals first", [][4]int32{{0, 0, 0, 1}, {1, 0, 0, 2}, {1, 0, 1, 3}, {0, 0, 0, 4}}, [][4]int32{{0, 0, 0, 1}, {1, 0, 0, 2}, {1, 0, 1, 3}}},
		// Like the C++, the position after a removal is not rechecked.
		{"triple", [][4]int32{{0, 0, 0, 1}, {0, 0, 0, 2}, {0, 0, 0, 3}, {1, 0, 1, 4}}, [][4]int32{{0, 0, 0, 2}, {0, 0, 0, 3}, {1, 0, 1, 4}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, removeDegenerateSegments(tt.in))
		})
	}
}

func TestContourArea2D(t *testing.T) {
	square := [][4]int32{{0, 0, 0, 0}, {0, 0, 3, 0}, {3, 0, 3, 0}, {3, 0, 0, 0}}
	assert.Equal(t, 9, contourArea2D(square), "outlines wind with positive area")
	hole := [][4]int32{{0, 0, 0, 0}, {3, 0, 0, 0}, {3, 0, 3, 0}, {0, 0, 3, 0}}
	assert.Equal(t, -8, contourArea2D(hole), "holes wind backwards; (area+1)/2 truncates toward zero")
}

func TestMergeContours(t *testing.T) {
	outline := &Contour{Verts: [][4]int32{{0, 0, 0, 0}, {0, 0, 9, 0}, {9, 0, 9, 0}, {9, 0, 0, 0}}}
	hole := &Contour{Verts: [][4]int32{{3, 0, 3, 0}, {6, 0, 3, 0}, {6, 0, 6, 0}, {3, 0, 6, 0}}}
	mergeContours(outline, hole, 1, 3)
	assert.Equal(t, [][4]int32{
		{0, 0, 9, 0}, {9, 0, 9, 0}, {9, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 9, 0},
		{3, 0, 6, 0}, {3, 0, 3, 0}, {6, 0, 3, 0}, {6, 0, 6, 0}, {3, 0, 6, 0},
	}, outline.Verts)
	assert.Nil(t, hole.Verts)
}

func TestDistancePointSegmentSqr2D(t *testing.T) {
	tests := []struct {
		name                 string
		x, z, px, pz, qx, qz int
		want                 float32
	}{
		{"beside the middle", 1, 2, 0, 0, 2, 0, 4},
		{"before the start", -3, 4, 0, 0, 2, 0, 25},
		{"past the end", 5, 0, 0, 0, 2, 0, 9},
		{"degenerate segment", 1, 1, 0, 0, 0, 0, 2},
		{"diagonal", 0, 2, 0, 0, 2, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, distancePointSegmentSqr2D(tt.x, tt.z, tt.px, tt.pz, tt.qx, tt.qz))
		})
	}
}
