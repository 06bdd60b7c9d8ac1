package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rows turns -1 into MeshNullIndex so expected polygon rows read naturally.
func rows(values ...int) []uint16 {
	out := make([]uint16, len(values))
	for i, v := range values {
		if v < 0 {
			out[i] = MeshNullIndex
		} else {
			out[i] = uint16(v)
		}
	}
	return out
}

func flatContour(region uint16, points ...[4]int32) Contour {
	return Contour{Region: region, Area: WalkableArea, Verts: points}
}

// The expected meshes below were produced by recastnavigation 1.6.0's
// rcBuildPolyMesh from the same contours.
func TestBuildPolyMesh(t *testing.T) {
	square := flatContour(1, [4]int32{0, 0, 0, 0}, [4]int32{0, 0, 10, 0}, [4]int32{10, 0, 10, 0}, [4]int32{10, 0, 0, 0})
	lShape := flatContour(5,
		[4]int32{0, 0, 0, 0}, [4]int32{0, 0, 20, 0}, [4]int32{10, 0, 20, 0},
		[4]int32{10, 0, 10, 0}, [4]int32{20, 0, 10, 0}, [4]int32{20, 0, 0, 0})
	lShapeVerts := [][3]uint16{{0, 0, 0}, {0, 0, 20}, {10, 0, 20}, {10, 0, 10}, {20, 0, 10}, {20, 0, 0}}

	tests := []struct {
		name        string
		contours    []Contour
		width       int
		height      int
		borderSize  int
		nvp         int
		wantVerts   [][3]uint16
		wantPolys   []uint16
		wantRegions []uint16
	}{
		{
			name:     "square on the tile border gets portal edges",
			contours: []Contour{square},
			width:    10, height: 10, borderSize: 3, nvp: 6,
			wantVerts:   [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}},
			wantPolys:   rows(0, 1, 2, 3, -1, -1, 0x8000, 0x8001, 0x8002, 0x8003, -1, -1),
			wantRegions: []uint16{1},
		},
		{
			name:     "L shape with six vertices per polygon",
			contours: []Contour{lShape},
			width:    20, height: 20, nvp: 6,
			wantVerts:   lShapeVerts,
			wantPolys:   rows(1, 2, 3, 0, -1, -1, -1, -1, 1, -1, -1, -1, 5, 0, 3, 4, -1, -1, -1, 0, -1, -1, -1, -1),
			wantRegions: []uint16{5, 5},
		},
		{
			name:     "L shape with four vertices per polygon",
			contours: []Contour{lShape},
			width:    20, height: 20, nvp: 4,
			wantVerts:   lShapeVerts,
			wantPolys:   rows(1, 2, 3, 0, -1, -1, 1, -1, 5, 0, 3, 4, -1, 0, -1, -1),
			wantRegions: []uint16{5, 5},
		},
		{
			name:     "L shape left as triangles",
			contours: []Contour{lShape},
			width:    20, height: 20, nvp: 3,
			wantVerts:   lShapeVerts,
			wantPolys:   rows(1, 2, 3, -1, -1, 1, 0, 1, 3, -1, 0, 3, 3, 4, 5, -1, -1, 3, 0, 3, 5, 1, 2, -1),
			wantRegions: []uint16{5, 5, 5, 5},
		},
		{
			name: "border vertex between two regions is removed and the hole refilled",
			contours: []Contour{
				flatContour(1, [4]int32{0, 0, 0, 0}, [4]int32{0, 0, 10, 0}, [4]int32{10, 0, 10, 0}, [4]int32{10, 0, 0, BorderVertex}),
				flatContour(2, [4]int32{10, 0, 0, BorderVertex}, [4]int32{10, 0, 10, 0}, [4]int32{20, 0, 10, 0}, [4]int32{20, 0, 0, 0}),
			},
			width: 20, height: 10, nvp: 6,
			wantVerts:   [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {20, 0, 10}, {20, 0, 0}},
			wantPolys:   rows(0, 1, 2, 4, -1, -1, -1, -1, 1, -1, -1, -1, 2, 3, 4, -1, -1, -1, -1, -1, 0, -1, -1, -1),
			wantRegions: []uint16{multipleRegions, multipleRegions},
		},
		{
			name: "vertices within two cells of height are welded",
			contours: []Contour{
				flatContour(1, [4]int32{0, 0, 0, 0}, [4]int32{0, 0, 10, 0}, [4]int32{10, 2, 10, 0}, [4]int32{10, 3, 0, 0}),
				flatContour(2, [4]int32{10, 0, 0, 0}, [4]int32{10, 0, 10, 0}, [4]int32{20, 0, 10, 0}, [4]int32{20, 0, 0, 0}),
			},
			width: 20, height: 10, nvp: 6,
			wantVerts:   [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 2, 10}, {10, 3, 0}, {10, 0, 0}, {20, 0, 10}, {20, 0, 0}},
			wantPolys:   rows(0, 1, 2, 3, -1, -1, -1, -1, -1, -1, -1, -1, 4, 2, 5, 6, -1, -1, -1, -1, -1, -1, -1, -1),
			wantRegions: []uint16{1, 2},
		},
		{
			name: "contour with overlapping segments",
			contours: []Contour{flatContour(1,
				[4]int32{0, 0, 0, 0}, [4]int32{0, 0, 10, 0}, [4]int32{4, 0, 10, 0}, [4]int32{4, 0, 4, 0},
				[4]int32{6, 0, 4, 0}, [4]int32{6, 0, 10, 0}, [4]int32{10, 0, 10, 0}, [4]int32{10, 0, 0, 0},
				[4]int32{6, 0, 0, 0}, [4]int32{6, 0, 4, 0}, [4]int32{4, 0, 4, 0}, [4]int32{4, 0, 0, 0})},
			width: 10, height: 10, nvp: 6,
			wantVerts: [][3]uint16{{0, 0, 0}, {0, 0, 10}, {4, 0, 10}, {4, 0, 4}, {6, 0, 4}, {6, 0, 10}, {10, 0, 10}, {10, 0, 0}, {6, 0, 0}, {4, 0, 0}},
			wantPolys: rows(
				7, 8, 4, -1, -1, -1, -1, -1, -1, -1, -1, -1,
				3, 9, 0, -1, -1, -1, -1, -1, 2, -1, -1, -1,
				1, 2, 3, 0, -1, -1, -1, -1, 1, -1, -1, -1,
				4, 5, 6, 7, -1, -1, -1, -1, -1, 5, -1, -1,
				4, 3, 1, -1, -1, -1, 5, -1, -1, -1, -1, -1,
				3, 4, 7, -1, -1, -1, 4, 3, -1, -1, -1, -1),
			wantRegions: []uint16{1, 1, 1, 1, 1, 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cset := &ContourSet{Contours: tt.contours, Width: tt.width, Height: tt.height, BorderSize: tt.borderSize, CellSize: 0.3, CellHeight: 0.2, MaxError: 1.3}
			mesh, err := BuildPolyMesh(cset, tt.nvp)
			require.NoError(t, err)
			assert.Equal(t, tt.wantVerts, mesh.Verts)
			assert.Equal(t, tt.wantPolys, mesh.Polys)
			assert.Equal(t, tt.wantRegions, mesh.Regions)
			assert.Equal(t, len(tt.wantRegions), mesh.PolyCount)
			assert.Len(t, mesh.Flags, mesh.PolyCount)
			assert.Len(t, mesh.Areas, mesh.PolyCount)
			for _, a := range mesh.Areas {
				assert.Equal(t, WalkableArea, a)
			}
			assert.Equal(t, tt.nvp, mesh.MaxVertsPerPoly)
			assert.Equal(t, tt.borderSize, mesh.BorderSize)
			assert.Equal(t, float32(1.3), mesh.MaxEdgeError)
		})
	}
}

func TestBuildPolyMeshSkipsDegenerateContours(t *testing.T) {
	cset := &ContourSet{Contours: []Contour{
		flatContour(1, [4]int32{0, 0, 0, 0}, [4]int32{0, 0, 10, 0}),
		{},
	}, Width: 10, Height: 10}
	mesh, err := BuildPolyMesh(cset, 6)
	require.NoError(t, err)
	assert.Empty(t, mesh.Verts)
	assert.Zero(t, mesh.PolyCount)
	assert.Empty(t, mesh.Polys)
}

func TestBuildPolyMeshErrors(t *testing.T) {
	_, err := BuildPolyMesh(nil, 6)
	assert.ErrorContains(t, err, "nil contour set")

	square := &ContourSet{Contours: []Contour{flatContour(1, [4]int32{0, 0, 0, 0}, [4]int32{0, 0, 1, 0}, [4]int32{1, 0, 1, 0})}}
	for _, nvp := range []int{0, 2, 7} {
		_, err := BuildPolyMesh(square, nvp)
		assert.ErrorContains(t, err, "vertices per polygon", "nvp %d", nvp)
	}

	big := Contour{Region: 1, Area: WalkableArea, Verts: make([][4]int32, 0xfffe)}
	for i := range big.Verts {
		big.Verts[i] = [4]int32{int32(i % 1000), 0, int32(i / 1000), 0}
	}
	_, err = BuildPolyMesh(&ContourSet{Contours: []Contour{big}}, 6)
	assert.ErrorIs(t, err, ErrTooManyVertices)
}

func TestTriangulateSquare(t *testing.T) {
	verts := [][4]int32{{0, 0, 0, 0}, {0, 0, 10, 0}, {10, 0, 10, 0}, {10, 0, 0, 0}}
	tris, complete := triangulate(verts, []int{0, 1, 2, 3}, nil)
	assert.True(t, complete)
	assert.Equal(t, []int{0, 1, 2, 0, 2, 3}, tris)
}

func TestTriangulateReportsBrokenOutline(t *testing.T) {
	// A bow tie: its edges cross, so no ear can be cut.
	verts := [][4]int32{{0, 0, 0, 0}, {0, 0, 10, 0}, {10, 0, 0, 0}, {10, 0, 10, 0}, {5, 0, 20, 0}}
	tris, complete := triangulate(verts, []int{0, 1, 2, 3, 4}, nil)
	assert.False(t, complete)
	assert.Equal(t, 0, len(tris)%3)
}

func TestVertexWelder(t *testing.T) {
	w := newVertexWelder(4)
	assert.Equal(t, uint16(0), w.add(3, 10, 4))
	assert.Equal(t, uint16(0), w.add(3, 12, 4), "within two cells of height")
	assert.Equal(t, uint16(0), w.add(3, 8, 4))
	assert.Equal(t, uint16(1), w.add(3, 13, 4), "three cells apart")
	assert.Equal(t, uint16(1), w.add(3, 14, 4), "newest match wins")
	assert.Equal(t, uint16(2), w.add(4, 10, 3))
	assert.Equal(t, [][3]uint16{{3, 10, 4}, {3, 13, 4}, {4, 10, 3}}, w.verts)
}

func TestMergeValue(t *testing.T) {
	verts := [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}, {20, 0, 5}}
	value, edgeA, edgeB := mergeValue(rows(0, 1, 2, -1, -1, -1), rows(0, 2, 3, -1, -1, -1), 3, 3, verts, 6)
	assert.Equal(t, 200, value, "squared length of the shared diagonal")
	assert.Equal(t, 2, edgeA)
	assert.Equal(t, 0, edgeB)

	value, _, _ = mergeValue(rows(0, 1, 2, -1), rows(3, 4, 2, -1), 3, 3, verts, 4)
	assert.Equal(t, -1, value, "no shared edge")

	value, _, _ = mergeValue(rows(0, 1, 2, 3), rows(2, 4, 3, -1), 4, 3, verts, 4)
	assert.Equal(t, -1, value, "too many vertices")
}
