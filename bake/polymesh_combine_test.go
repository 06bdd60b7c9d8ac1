package bake

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tileSquare is a 10×10-cell tile mesh at x offset originX holding one
// square polygon whose four edges are portals.
func tileSquare(originX float32, region uint16, flags uint16) *PolyMesh {
	return &PolyMesh{
		Verts:           [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}},
		Polys:           rows(0, 1, 2, 3, -1, -1, 0x8000, 0x8001, 0x8002, 0x8003, -1, -1),
		Regions:         []uint16{region},
		Flags:           []uint16{flags},
		Areas:           []uint8{WalkableArea},
		PolyCount:       1,
		MaxVertsPerPoly: 6,
		BMin:            mgl32.Vec3{originX, 0, 0},
		BMax:            mgl32.Vec3{originX + 3, 1, 3},
		CellSize:        0.3,
		CellHeight:      0.2,
		BorderSize:      5,
		MaxEdgeError:    1.3,
	}
}

func TestMergePolyMeshes(t *testing.T) {
	merged, err := MergePolyMeshes([]*PolyMesh{tileSquare(0, 1, 1), tileSquare(3, 2, 4)})
	require.NoError(t, err)

	assert.Equal(t, [][3]uint16{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {10, 0, 0}, {20, 0, 10}, {20, 0, 0}}, merged.Verts)
	assert.Equal(t, rows(
		0, 1, 2, 3, -1, -1, 0x8000, 0x8001, 1, 0x8003, -1, -1, // the shared x+ side now links to polygon 1
		3, 2, 4, 5, -1, -1, 0, 0x8001, 0x8002, 0x8003, -1, -1, // its x- side links back
	), merged.Polys)
	assert.Equal(t, 2, merged.PolyCount)
	assert.Equal(t, []uint16{1, 2}, merged.Regions)
	assert.Equal(t, []uint16{1, 4}, merged.Flags)
	assert.Equal(t, []uint8{WalkableArea, WalkableArea}, merged.Areas)
	assert.Equal(t, mgl32.Vec3{0, 0, 0}, merged.BMin)
	assert.Equal(t, mgl32.Vec3{6, 1, 3}, merged.BMax)
	assert.Zero(t, merged.BorderSize)
	assert.Equal(t, 6, merged.MaxVertsPerPoly)
}

func TestMergePolyMeshesErrors(t *testing.T) {
	_, err := MergePolyMeshes(nil)
	assert.Error(t, err)

	triangles := tileSquare(3, 2, 0)
	triangles.MaxVertsPerPoly = 3
	_, err = MergePolyMeshes([]*PolyMesh{tileSquare(0, 1, 0), triangles})
	assert.ErrorContains(t, err, "vertices per polygon")

	short := tileSquare(0, 1, 0)
	short.Regions = nil
	_, err = MergePolyMeshes([]*PolyMesh{short})
	assert.ErrorContains(t, err, "regions")

	badVertex := tileSquare(0, 1, 0)
	badVertex.Polys[1] = 7
	_, err = MergePolyMeshes([]*PolyMesh{badVertex})
	assert.ErrorContains(t, err, "names vertex 7")
}

func TestCopyPolyMesh(t *testing.T) {
	src := tileSquare(0, 1, 3)
	dst, err := CopyPolyMesh(src)
	require.NoError(t, err)
	assert.Equal(t, src, dst)

	dst.Verts[0][0] = 99
	dst.Polys[0] = 99
	dst.Regions[0] = 99
	dst.Flags[0] = 99
	dst.Areas[0] = 9
	assert.Equal(t, tileSquare(0, 1, 3), src, "the copy shares no memory with the source")

	_, err = CopyPolyMesh(nil)
	assert.Error(t, err)
}
