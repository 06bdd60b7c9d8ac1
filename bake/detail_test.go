package bake

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// detailTestField is a 12×12 compact heightfield with one span per cell at
// the height given by heightAt, all spans in region spanRegion and
// connected to their four neighbours.
func detailTestField(heightAt func(x, z int) int, spanRegion uint16) *CompactHeightfield {
	const size = 12
	chf := &CompactHeightfield{
		Width: size, Height: size, WalkableHeight: 10, WalkableClimb: 4,
		CellSize: 0.3, CellHeight: 0.2, BMin: mgl32.Vec3{1, 2, 3},
		Cells: make([]CompactCell, size*size), Spans: make([]CompactSpan, size*size), Areas: make([]uint8, size*size),
	}
	for z := range size {
		for x := range size {
			i := x + z*size
			chf.Cells[i] = CompactCell{Index: uint32(i), Count: 1}
			var connections [4]uint16
			for dir := range 4 {
				nx, nz := x+DirOffsetX(dir), z+DirOffsetZ(dir)
				connections[dir] = NotConnected
				if nx >= 0 && nz >= 0 && nx < size && nz < size {
					connections[dir] = 0
				}
			}
			chf.Spans[i] = CompactSpan{Y: uint16(heightAt(x, z)), Region: spanRegion}
			chf.Spans[i].SetConnections(connections)
			chf.Spans[i].SetHeight(255)
			chf.Areas[i] = WalkableArea
		}
	}
	return chf
}

// detailTestPoly is a pentagon over the field with its vertices at the
// field's heights.
func detailTestPoly(heightAt func(x, z int) int, region uint16) *PolyMesh {
	xs := []int{1, 1, 11, 11, 6}
	zs := []int{1, 11, 11, 1, 0}
	mesh := &PolyMesh{
		Polys:   rows(0, 1, 2, 3, 4, -1, -1, -1, -1, -1, -1, -1),
		Regions: []uint16{region}, Areas: []uint8{WalkableArea}, Flags: []uint16{0},
		PolyCount: 1, MaxVertsPerPoly: 6, CellSize: 0.3, CellHeight: 0.2,
		BMin: mgl32.Vec3{1, 2, 3}, MaxEdgeError: 1.3,
	}
	for i := range xs {
		mesh.Verts = append(mesh.Verts, [3]uint16{uint16(xs[i]), uint16(heightAt(xs[i], zs[i])), uint16(zs[i])})
	}
	return mesh
}

func flatHeight(x, z int) int { return 5 }

func hillHeight(x, z int) int {
	dx, dz := float64(x-6), float64(z-6)
	return int(20 * math.Exp(-(float64(dx*dx)+float64(dz*dz))/8))
}

// Expected values from recastnavigation 1.6.0's rcBuildPolyMeshDetail on the
// same input.
var hillDetail = &PolyMeshDetail{
	Meshes: [][4]uint32{{0, 15, 0, 23}},
	Verts: []mgl32.Vec3{
		{1.29999995, 2.20000005, 3.29999995}, {1.29999995, 2.20000005, 6.30000019}, {4.30000019, 2.20000005, 6.30000019},
		{4.30000019, 2.20000005, 3.29999995}, {2.80000019, 2.20000005, 3}, {2.80007291, 6.19999981, 4.77592278},
		{3.37604356, 3.5999999, 4.2095542}, {2.21201515, 3.5999999, 4.18318462}, {2.79402924, 4.60000038, 4.19636917},
		{2.22410202, 3.5999999, 5.40229225}, {2.21805859, 4.60000038, 4.82273865}, {3.38813066, 3.5999999, 5.42866135},
		{3.38208699, 4.60000038, 4.78910732}, {2.80611634, 4.60000038, 5.4154768}, {2.76999998, 2.60000014, 3.57000017},
	},
	Tris: [][4]uint8{
		{3, 4, 14, 1}, {4, 0, 14, 1}, {0, 1, 10, 1}, {1, 2, 13, 1}, {2, 3, 12, 1}, {3, 14, 6, 0}, {14, 0, 7, 0},
		{10, 1, 9, 0}, {0, 10, 7, 0}, {13, 2, 11, 0}, {1, 13, 9, 0}, {12, 3, 6, 0}, {2, 12, 11, 0}, {6, 14, 8, 0},
		{14, 7, 8, 0}, {10, 9, 13, 0}, {7, 10, 5, 0}, {13, 11, 12, 0}, {12, 6, 5, 0}, {6, 8, 5, 0}, {8, 7, 5, 0},
		{10, 13, 5, 0}, {13, 12, 5, 0},
	},
}

func TestBuildPolyMeshDetail(t *testing.T) {
	tests := []struct {
		name       string
		heightAt   func(x, z int) int
		polyRegion uint16
		spanRegion uint16
		want       *PolyMeshDetail
	}{
		{
			name: "flat polygon keeps its corners", heightAt: flatHeight, polyRegion: 1, spanRegion: 1,
			want: &PolyMeshDetail{
				Meshes: [][4]uint32{{0, 5, 0, 3}},
				Verts: []mgl32.Vec3{
					{1.29999995, 3.20000005, 3.29999995}, {1.29999995, 3.20000005, 6.30000019}, {4.30000019, 3.20000005, 6.30000019},
					{4.30000019, 3.20000005, 3.29999995}, {2.80000019, 3.20000005, 3},
				},
				Tris: [][4]uint8{{4, 0, 3, 17}, {0, 2, 3, 4}, {0, 1, 2, 5}},
			},
		},
		{name: "hill gets edge and interior samples", heightAt: hillHeight, polyRegion: 1, spanRegion: 1, want: hillDetail},
		{name: "polygon of several regions is seeded from its centre", heightAt: hillHeight, polyRegion: multipleRegions, spanRegion: 1, want: hillDetail},
		{name: "polygon whose region has no spans is seeded from its centre", heightAt: hillHeight, polyRegion: 1, spanRegion: 2, want: hillDetail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cellSize, cellHeight := float32(0.3), float32(0.2)
			got, err := BuildPolyMeshDetail(detailTestPoly(tt.heightAt, tt.polyRegion), detailTestField(tt.heightAt, tt.spanRegion), cellSize*2, cellHeight*1)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestBuildPolyMeshDetailWithoutSampling(t *testing.T) {
	// Recast reads past an empty hull here; the polygon outline is used.
	got, err := BuildPolyMeshDetail(detailTestPoly(hillHeight, 1), detailTestField(hillHeight, 1), 0, 0.2)
	require.NoError(t, err)
	assert.Equal(t, [][4]uint32{{0, 5, 0, 3}}, got.Meshes)
	assert.Equal(t, hillDetail.Verts[:5], got.Verts)
	for _, tri := range got.Tris {
		for _, v := range tri[:3] {
			assert.Less(t, v, uint8(5))
		}
	}
}

func TestBuildPolyMeshDetailEmptyAndErrors(t *testing.T) {
	chf := detailTestField(flatHeight, 1)
	got, err := BuildPolyMeshDetail(&PolyMesh{MaxVertsPerPoly: 6}, chf, 1, 1)
	require.NoError(t, err)
	assert.Empty(t, got.Meshes)

	_, err = BuildPolyMeshDetail(nil, chf, 1, 1)
	assert.Error(t, err)

	outside := detailTestPoly(flatHeight, 1)
	outside.Verts[2] = [3]uint16{40, 5, 40}
	outside.Verts[0] = [3]uint16{30, 5, 30}
	outside.Verts[1] = [3]uint16{30, 5, 40}
	outside.Verts[3] = [3]uint16{40, 5, 30}
	outside.Verts[4] = [3]uint16{35, 5, 29}
	_, err = BuildPolyMeshDetail(outside, chf, 1, 1)
	assert.ErrorContains(t, err, "outside")

	badIndex := detailTestPoly(flatHeight, 1)
	badIndex.Polys[2] = 9
	_, err = BuildPolyMeshDetail(badIndex, chf, 1, 1)
	assert.ErrorContains(t, err, "names vertex 9")

	shortCells := detailTestField(flatHeight, 1)
	shortCells.Cells = shortCells.Cells[:10]
	_, err = BuildPolyMeshDetail(detailTestPoly(flatHeight, 1), shortCells, 1, 1)
	assert.ErrorContains(t, err, "cells")
}

func TestMergePolyMeshDetails(t *testing.T) {
	a := &PolyMeshDetail{
		Meshes: [][4]uint32{{0, 3, 0, 1}},
		Verts:  []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}},
		Tris:   [][4]uint8{{0, 1, 2, 0x15}},
	}
	b := &PolyMeshDetail{
		Meshes: [][4]uint32{{0, 3, 0, 1}, {3, 4, 1, 2}},
		Verts:  []mgl32.Vec3{{5, 0, 5}, {6, 0, 5}, {5, 0, 6}, {7, 0, 7}, {8, 0, 7}, {8, 0, 8}, {7, 0, 8}},
		Tris:   [][4]uint8{{0, 1, 2, 0}, {0, 1, 2, 1}, {0, 2, 3, 4}},
	}
	got, err := MergePolyMeshDetails([]*PolyMeshDetail{a, nil, b})
	require.NoError(t, err)
	assert.Equal(t, [][4]uint32{{0, 3, 0, 1}, {3, 3, 1, 1}, {6, 4, 2, 2}}, got.Meshes)
	assert.Equal(t, append(append([]mgl32.Vec3(nil), a.Verts...), b.Verts...), got.Verts)
	assert.Equal(t, [][4]uint8{{0, 1, 2, 0x15}, {0, 1, 2, 0}, {0, 1, 2, 1}, {0, 2, 3, 4}}, got.Tris)

	bad := &PolyMeshDetail{Meshes: [][4]uint32{{0, 9, 0, 0}}}
	_, err = MergePolyMeshDetails([]*PolyMeshDetail{bad})
	assert.Error(t, err)
}

func TestJitter(t *testing.T) {
	// Values from the C++ getJitterX/Y.
	assert.Equal(t, float32(-1), jitterX(0))
	assert.Equal(t, float32(0.400503516), jitterX(1))
	assert.Equal(t, float32(-0.798550367), jitterX(3))
	assert.Equal(t, float32(0.00242614746), jitterX(5))
	for i := range 1000 {
		assert.True(t, jitterX(i) >= -1 && jitterX(i) <= 1)
		assert.True(t, jitterY(i) >= -1 && jitterY(i) <= 1)
	}
}

func TestCircumCircle(t *testing.T) {
	center, radius, ok := circumCircle(&mgl32.Vec3{0, 1, 0}, &mgl32.Vec3{2, 0, 0}, &mgl32.Vec3{0, 0, 2})
	require.True(t, ok)
	assert.Equal(t, mgl32.Vec3{1, 1, 1}, center)
	assert.InDelta(t, math.Sqrt2, radius, 1e-6)

	center, radius, ok = circumCircle(&mgl32.Vec3{0, 0, 0}, &mgl32.Vec3{1, 0, 1}, &mgl32.Vec3{2, 0, 2})
	assert.False(t, ok)
	assert.Equal(t, mgl32.Vec3{0, 0, 0}, center)
	assert.Zero(t, radius)
}

func TestSampleHeightSpiralsToNearestRing(t *testing.T) {
	hp := heightPatch{width: 5, height: 5, data: make([]uint16, 25)}
	for i := range hp.data {
		hp.data[i] = unsetHeight
	}
	hp.data[2+2*5] = unsetHeight
	hp.data[3+2*5] = 7 // first ring
	hp.data[1+1*5] = 4 // first ring, closer to fy
	hp.data[0+0*5] = 5 // second ring: never reached
	const cellSize, cellHeight = float32(1), float32(1)
	assert.Equal(t, uint16(4), hp.sampleHeight(2, 4, 2, 1/cellSize, cellHeight, 2))
	assert.Equal(t, uint16(7), hp.sampleHeight(2, 8, 2, 1/cellSize, cellHeight, 2))
	assert.Equal(t, uint16(7), hp.sampleHeight(3, 0, 2, 1/cellSize, cellHeight, 2), "a set cell is returned as is")

	hp.data[3+2*5], hp.data[1+1*5] = unsetHeight, unsetHeight
	assert.Equal(t, uint16(5), hp.sampleHeight(2, 0, 2, 1/cellSize, cellHeight, 2), "second ring")
	assert.Equal(t, uint16(unsetHeight), hp.sampleHeight(2, 0, 2, 1/cellSize, cellHeight, 1), "beyond the radius")
}
