package navmesh

import (
	"bytes"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Settings of the reference bake (RecastDemo defaults).
const (
	referenceCellSize   = float32(0.3)
	referenceCellHeight = float32(0.2)
)

// buildParamsFromTile recovers the poly mesh and detail mesh a tile was
// built from, the way Recast hands them to dtCreateNavMeshData: vertices in
// cells, neighbour codes in poly-mesh form, detail sub-meshes that start
// with their polygon's vertices (lifted by one cell height, as
// rcBuildPolyMeshDetail places them).
func buildParamsFromTile(t testing.TB, data *TileData, cellSize, cellHeight float32) *BuildParams {
	t.Helper()
	h := data.Header
	p := &BuildParams{
		VertsPerPoly:   MaxVertsPerPoly,
		UserID:         h.UserID,
		TileX:          h.X,
		TileY:          h.Y,
		TileLayer:      h.Layer,
		BMin:           h.BMin,
		BMax:           h.BMax,
		WalkableHeight: h.WalkableHeight,
		WalkableRadius: h.WalkableRadius,
		WalkableClimb:  h.WalkableClimb,
		CellSize:       cellSize,
		CellHeight:     cellHeight,
		BuildBVTree:    h.BVNodeCount > 0,
	}
	for i, v := range data.Verts {
		cell := [3]uint16{
			uint16(math.Round(float64((v[0] - h.BMin[0]) / cellSize))),
			uint16(math.Round(float64((v[1] - h.BMin[1]) / cellHeight))),
			uint16(math.Round(float64((v[2] - h.BMin[2]) / cellSize))),
		}
		back := mgl32.Vec3{h.BMin[0] + float32(float32(cell[0])*cellSize), h.BMin[1] + float32(float32(cell[1])*cellHeight), h.BMin[2] + float32(float32(cell[2])*cellSize)}
		require.Equal(t, v, back, "vertex %d does not come from a cell position", i)
		p.Verts = append(p.Verts, cell)
	}
	for i := range data.Polys[:h.OffMeshBase] {
		poly := &data.Polys[i]
		var verts, neighbours [MaxVertsPerPoly]uint16
		for j := range verts {
			if j >= int(poly.VertCount) {
				verts[j], neighbours[j] = meshNullIndex, meshNullIndex
				continue
			}
			verts[j] = poly.Verts[j]
			switch code := poly.Neighbours[j]; {
			case code == 0:
				neighbours[j] = meshNullIndex
			case code&ExternalLink != 0:
				neighbours[j] = polyMeshBorderFlag | map[uint16]uint16{4: 0, 2: 1, 0: 2, 6: 3}[code&0xff]
			default:
				neighbours[j] = code - 1
			}
		}
		p.Polys = append(p.Polys, verts[:]...)
		p.Polys = append(p.Polys, neighbours[:]...)
		p.PolyFlags = append(p.PolyFlags, poly.Flags)
		p.PolyAreas = append(p.PolyAreas, poly.Area())

		mesh := data.DetailMeshes[i]
		p.DetailMeshes = append(p.DetailMeshes, [4]uint32{
			uint32(len(p.DetailVerts)), uint32(poly.VertCount) + uint32(mesh.VertCount), mesh.TriBase, uint32(mesh.TriCount),
		})
		for j := 0; j < int(poly.VertCount); j++ {
			cell := p.Verts[poly.Verts[j]]
			p.DetailVerts = append(p.DetailVerts, mgl32.Vec3{
				float32(float32(cell[0])*cellSize) + h.BMin[0],
				float32(float32(cell[1])*cellHeight) + (h.BMin[1] + cellHeight),
				float32(float32(cell[2])*cellSize) + h.BMin[2],
			})
		}
		p.DetailVerts = append(p.DetailVerts, data.DetailVerts[mesh.VertBase:mesh.VertBase+uint32(mesh.VertCount)]...)
	}
	for _, tri := range data.DetailTris {
		p.DetailTris = append(p.DetailTris, tri)
	}
	return p
}

func TestBuildTileDataReproducesDungeonBlob(t *testing.T) {
	blob := readDungeonBlob(t)
	params := buildParamsFromTile(t, readDungeonTile(t), referenceCellSize, referenceCellHeight)

	data, err := BuildTileData(params)
	require.NoError(t, err)

	var out bytes.Buffer
	require.NoError(t, WriteDNAV(&out, data))
	require.Equal(t, len(blob), out.Len())
	assert.True(t, bytes.Equal(blob, out.Bytes()), "built tile differs from the C++ tile (first difference at byte %d)", firstDifference(blob, out.Bytes()))
	sum, err := TileDataFingerprint(data)
	require.NoError(t, err)
	assert.Equal(t, uint64(dungeonTileFingerprint), sum)
}

func firstDifference(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestBuildTileDataOffMeshConnections(t *testing.T) {
	data, err := BuildTileData(offMeshTestParams())
	require.NoError(t, err)
	h := data.Header

	// Connections 0 and 3 start inside; 1 starts beyond -x and 2 above the
	// surface's height range. End points inside: 0, 1, 2 (connection 3 ends
	// beyond +x/-z).
	assert.Equal(t, int32(4), h.PolyCount, "two ground polygons and two off-mesh polygons")
	assert.Equal(t, int32(10), h.VertCount)
	assert.Equal(t, int32(2), h.OffMeshBase)
	assert.Equal(t, int32(2), h.OffMeshConCount)
	assert.Equal(t, int32(8+2*4+2*5), h.MaxLinkCount, "8 edges, 4 portals, 5 end points inside")
	assert.Equal(t, int32(2), h.DetailMeshCount)
	assert.Equal(t, int32(0), h.DetailVertCount)
	assert.Equal(t, int32(4), h.DetailTriCount)
	assert.Equal(t, int32(4), h.BVNodeCount)
	assert.Equal(t, uint32(42), h.UserID)
	assert.Equal(t, [3]int32{3, -2, 1}, [3]int32{h.X, h.Y, h.Layer})
	assert.Equal(t, float32(1)/float32(0.3), h.BVQuantFactor)

	assert.Equal(t, mgl32.Vec3{float32(10) * 0.3, 1, float32(10) * 0.3}, data.Verts[2])
	assert.Equal(t, []mgl32.Vec3{{1, 1, 1}, {5, 1, 2}, {2, 1, 2}, {7, 1, -3}}, data.Verts[6:])

	assert.Equal(t, Poly{
		FirstLink:   NullLink,
		Verts:       [MaxVertsPerPoly]uint16{0, 1, 2, 3},
		Neighbours:  [MaxVertsPerPoly]uint16{0, 0, 2, ExternalLink | 4},
		Flags:       1,
		VertCount:   4,
		AreaAndType: 0,
	}, data.Polys[0])
	assert.Equal(t, [MaxVertsPerPoly]uint16{1, ExternalLink | 2, ExternalLink | 0, ExternalLink | 6}, data.Polys[1].Neighbours)
	assert.Equal(t, uint8(5), data.Polys[1].Area())
	assert.Equal(t, Poly{
		FirstLink: NullLink, Verts: [MaxVertsPerPoly]uint16{6, 7}, Flags: 8, VertCount: 2,
		AreaAndType: 2 | uint8(PolyTypeOffMeshConnection)<<6,
	}, data.Polys[2])
	assert.Equal(t, [MaxVertsPerPoly]uint16{8, 9}, data.Polys[3].Verts)
	assert.Equal(t, uint16(16), data.Polys[3].Flags)
	assert.Equal(t, uint8(3), data.Polys[3].Area())

	assert.Equal(t, []OffMeshConnection{
		{Start: mgl32.Vec3{1, 1, 1}, End: mgl32.Vec3{5, 1, 2}, Radius: 0.5, Poly: 2, Flags: OffMeshBidirectional, Side: 0xff, UserID: 100},
		{Start: mgl32.Vec3{2, 1, 2}, End: mgl32.Vec3{7, 1, -3}, Radius: 0.25, Poly: 3, Flags: 0, Side: 7, UserID: 103},
	}, data.OffMeshConnections)
	assert.Nil(t, inspectTileData(data))
}

func TestBuildTileDataFanTriangulation(t *testing.T) {
	params := offMeshTestParams()
	params.OffMeshConnections = nil
	params.Verts = append(params.Verts, [3]uint16{30, 5, 5}, [3]uint16{25, 5, 12})
	// A pentagon and a triangle next to the two quads.
	params.Polys = append(params.Polys,
		5, 4, 7, 6, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff,
		4, 7, 6, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff, 0xffff)
	params.PolyFlags = append(params.PolyFlags, 1, 1)
	params.PolyAreas = append(params.PolyAreas, 0, 0)

	data, err := BuildTileData(params)
	require.NoError(t, err)
	assert.Equal(t, []PolyDetail{{TriBase: 0, TriCount: 2}, {TriBase: 2, TriCount: 2}, {TriBase: 4, TriCount: 2}, {TriBase: 6, TriCount: 1}}, data.DetailMeshes)
	assert.Equal(t, []DetailTri{
		{0, 1, 2, 0b000101}, {0, 2, 3, 0b010100},
		{0, 1, 2, 0b000101}, {0, 2, 3, 0b010100},
		{0, 1, 2, 0b000101}, {0, 2, 3, 0b010100},
		{0, 1, 2, 0b010101},
	}, data.DetailTris)
	assert.Nil(t, data.DetailVerts)
	assert.Equal(t, int32(4+4+4+3), data.Header.MaxLinkCount-2*4, "edges plus two links per portal")
}

func TestBuildTileDataDetailMeshDropsPolygonVertices(t *testing.T) {
	params := offMeshTestParams()
	params.OffMeshConnections = nil
	params.DetailMeshes = [][4]uint32{{0, 5, 0, 3}, {5, 4, 3, 2}}
	params.DetailVerts = []mgl32.Vec3{
		{0, 1.2, 0}, {0, 1.2, 3}, {3, 1.2, 3}, {3, 1.2, 0}, {1.5, 1.7, 1.5},
		{3, 1.2, 0}, {3, 1.2, 3}, {6, 1.2, 3}, {6, 1.2, 0},
	}
	params.DetailTris = [][4]uint8{{0, 1, 4, 1}, {1, 2, 4, 1}, {2, 3, 4, 1}, {0, 1, 2, 5}, {0, 2, 3, 20}}

	data, err := BuildTileData(params)
	require.NoError(t, err)
	assert.Equal(t, []PolyDetail{{VertBase: 0, TriBase: 0, VertCount: 1, TriCount: 3}, {VertBase: 1, TriBase: 3, VertCount: 0, TriCount: 2}}, data.DetailMeshes)
	assert.Equal(t, []mgl32.Vec3{{1.5, 1.7, 1.5}}, data.DetailVerts)
	assert.Equal(t, []DetailTri{{0, 1, 4, 1}, {1, 2, 4, 1}, {2, 3, 4, 1}, {0, 1, 2, 5}, {0, 2, 3, 20}}, data.DetailTris)

	// BV bounds come from the detail vertices: y 1.2..1.7 → 4..5 at 1/0.3.
	// Both polygons are 10 cells wide: the x extent (20) is longest, so the
	// root splits along x.
	assert.Equal(t, []BVNode{
		{BMin: [3]uint16{0, 4, 0}, BMax: [3]uint16{20, 5, 10}, Index: -3},
		{BMin: [3]uint16{0, 4, 0}, BMax: [3]uint16{10, 5, 10}, Index: 0},
		{BMin: [3]uint16{10, 4, 0}, BMax: [3]uint16{20, 4, 10}, Index: 1},
		{},
	}, data.BVTree)
}

func TestBuildTileDataOffMeshHeightRangeUsesDetailVerts(t *testing.T) {
	// The detail surface reaches y = 5, so a start at y = 5.5 is within
	// climb (0.9) of it and the connection is stored.
	params := offMeshTestParams()
	params.OffMeshConnections = []OffMeshConnectionParams{{Start: mgl32.Vec3{1, 5.5, 1}, End: mgl32.Vec3{2, 1, 2}}}
	withoutDetail, err := BuildTileData(params)
	require.NoError(t, err)
	assert.Equal(t, int32(0), withoutDetail.Header.OffMeshConCount, "poly-mesh heights are all 1.0")
	assert.Equal(t, int32(8+2*4+2*1), withoutDetail.Header.MaxLinkCount, "the end point still reserves links")

	params.DetailMeshes = [][4]uint32{{0, 4, 0, 2}, {4, 4, 2, 2}}
	params.DetailVerts = []mgl32.Vec3{{0, 1, 0}, {0, 1, 3}, {3, 5, 3}, {3, 1, 0}, {3, 1, 0}, {3, 5, 3}, {6, 1, 3}, {6, 1, 0}}
	params.DetailTris = [][4]uint8{{0, 1, 2, 0}, {0, 2, 3, 0}, {0, 1, 2, 0}, {0, 2, 3, 0}}
	withDetail, err := BuildTileData(params)
	require.NoError(t, err)
	assert.Equal(t, int32(1), withDetail.Header.OffMeshConCount)
	assert.Equal(t, uint8(0xff), withDetail.OffMeshConnections[0].Side)
}

func TestClassifyOffMeshPoint(t *testing.T) {
	bmin, bmax := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 5, 10}
	tests := []struct {
		pt   mgl32.Vec3
		want uint8
	}{
		{mgl32.Vec3{5, 0, 5}, 0xff},
		{mgl32.Vec3{0, 0, 0}, 0xff},
		{mgl32.Vec3{10, 0, 5}, 0},
		{mgl32.Vec3{10, 0, 10}, 1},
		{mgl32.Vec3{5, 0, 10}, 2},
		{mgl32.Vec3{-0.1, 0, 10}, 3},
		{mgl32.Vec3{-0.1, 0, 5}, 4},
		{mgl32.Vec3{-0.1, 0, -0.1}, 5},
		{mgl32.Vec3{5, 0, -0.1}, 6},
		{mgl32.Vec3{11, 0, -0.1}, 7},
		{mgl32.Vec3{5, 100, 5}, 0xff},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, classifyOffMeshPoint(tt.pt, bmin, bmax), "point %v", tt.pt)
	}
}

func TestBuildBVTreeFromPolyMesh(t *testing.T) {
	// Five triangles in a row along z; y is rescaled by ch/cs = 0.5/0.25.
	params := &BuildParams{
		VertsPerPoly: 3,
		CellSize:     0.25,
		CellHeight:   0.5,
	}
	for i := uint16(0); i < 5; i++ {
		base := uint16(len(params.Verts))
		params.Verts = append(params.Verts, [3]uint16{0, 3, 4 * i}, [3]uint16{2, 3 + i, 4*i + 3}, [3]uint16{1, 4, 4*i + 1})
		params.Polys = append(params.Polys, base, base+1, base+2, 0xffff, 0xffff, 0xffff)
	}
	nodes := buildBVTree(params, 5)
	require.Len(t, nodes, 10)
	assert.Equal(t, []BVNode{
		{BMin: [3]uint16{0, 6, 0}, BMax: [3]uint16{2, 14, 19}, Index: -9},
		{BMin: [3]uint16{0, 6, 0}, BMax: [3]uint16{2, 8, 7}, Index: -3},
		{BMin: [3]uint16{0, 6, 0}, BMax: [3]uint16{2, 8, 3}, Index: 0},
		{BMin: [3]uint16{0, 6, 4}, BMax: [3]uint16{2, 8, 7}, Index: 1},
		{BMin: [3]uint16{0, 6, 8}, BMax: [3]uint16{2, 14, 19}, Index: -5},
		{BMin: [3]uint16{0, 6, 8}, BMax: [3]uint16{2, 10, 11}, Index: 2},
		{BMin: [3]uint16{0, 6, 12}, BMax: [3]uint16{2, 14, 19}, Index: -3},
		{BMin: [3]uint16{0, 6, 12}, BMax: [3]uint16{2, 12, 15}, Index: 3},
		{BMin: [3]uint16{0, 6, 16}, BMax: [3]uint16{2, 14, 19}, Index: 4},
		{},
	}, nodes)
}

func TestBuildBVTreeSortIsStable(t *testing.T) {
	// The polygons' minimum x takes three values; x stays the longest axis
	// at every level, and polygons with equal keys must keep their input
	// order, as glibc's merge-sort qsort keeps them.
	const polyCount = 50
	params := &BuildParams{VertsPerPoly: 3, CellSize: 1, CellHeight: 1}
	var want []int32
	for i := uint16(0); i < polyCount; i++ {
		base := uint16(len(params.Verts))
		params.Verts = append(params.Verts, [3]uint16{i % 3, 0, 0}, [3]uint16{200, 0, 1}, [3]uint16{10, 0, 2})
		params.Polys = append(params.Polys, base, base+1, base+2, 0xffff, 0xffff, 0xffff)
	}
	for key := int32(0); key < 3; key++ {
		for i := int32(0); i < polyCount; i++ {
			if i%3 == key {
				want = append(want, i)
			}
		}
	}
	nodes := buildBVTree(params, polyCount)
	var leaves []int32
	for _, n := range nodes[:2*polyCount-1] {
		if n.Index >= 0 {
			leaves = append(leaves, n.Index)
		}
	}
	assert.Equal(t, want, leaves)
}

func TestQuantizeBVMatchesCppCasts(t *testing.T) {
	tests := []struct {
		in   float32
		want uint16
	}{
		{0, 0}, {0.99, 0}, {-0.99, 0}, {-5, 0}, {1.5, 1}, {65535.9, 65535}, {70000, 65535},
		{3e9, 0}, {-3e9, 0}, {float32(math.Inf(1)), 0}, {float32(math.NaN()), 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, quantizeBV(tt.in), "quantizeBV(%v)", tt.in)
	}
	assert.Equal(t, uint16(70000-65536), truncateToUint16(70000))
	assert.Equal(t, uint16(12), truncateToUint16(12.9))
}

func TestBuildTileDataRejectsInvalidParams(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*BuildParams)
		wantMsg string
	}{
		{"too many verts per poly", func(p *BuildParams) { p.VertsPerPoly = 7 }, "VertsPerPoly 7"},
		{"too few verts per poly", func(p *BuildParams) { p.VertsPerPoly = 2 }, "VertsPerPoly 2"},
		{"no vertices", func(p *BuildParams) { p.Verts = nil }, "0 vertices"},
		{"65535 vertices", func(p *BuildParams) { p.Verts = make([][3]uint16, 0xffff) }, "65535 vertices"},
		{"no polygons", func(p *BuildParams) { p.Polys = nil }, "Polys has 0 values"},
		{"ragged polygons", func(p *BuildParams) { p.Polys = p.Polys[:13] }, "Polys has 13 values"},
		{"missing flags", func(p *BuildParams) { p.PolyFlags = p.PolyFlags[:1] }, "2 polygons but 1 flags"},
		{"vertex index", func(p *BuildParams) { p.Polys[2] = 6 }, "polygon 0 vertex 2: index 6 out of range"},
		{"neighbour index", func(p *BuildParams) { p.Polys[18] = 2 }, "polygon 1 edge 0: neighbour 2"},
		{"two-vertex polygon", func(p *BuildParams) { p.Polys[2] = 0xffff }, "polygon 0 has 2 vertices"},
		{"area", func(p *BuildParams) { p.PolyAreas[1] = 64 }, "polygon 1 area 64"},
		{"NaN bounds", func(p *BuildParams) { p.BMin[1] = float32(math.NaN()) }, "not finite"},
		{"inverted bounds", func(p *BuildParams) { p.BMax[2] = -1 }, "not ordered"},
		{"zero cell size", func(p *BuildParams) { p.CellSize = 0 }, "cell size 0"},
		{"negative climb", func(p *BuildParams) { p.WalkableClimb = -1 }, "WalkableClimb -1"},
		{"off-mesh NaN", func(p *BuildParams) { p.OffMeshConnections[1].End[0] = float32(math.Inf(1)) }, "off-mesh connection 1"},
		{"off-mesh radius", func(p *BuildParams) { p.OffMeshConnections[0].Radius = -1 }, "radius -1"},
		{"off-mesh area", func(p *BuildParams) { p.OffMeshConnections[3].Area = 200 }, "area 200"},
		{"detail mesh count", func(p *BuildParams) { p.DetailMeshes = [][4]uint32{{0, 4, 0, 2}} }, "1 detail meshes for 2 polygons"},
		{"detail verts short", func(p *BuildParams) {
			p.DetailMeshes = [][4]uint32{{0, 4, 0, 0}, {4, 4, 0, 0}}
			p.DetailVerts = make([]mgl32.Vec3, 7)
		}, "detail mesh 1: vertices 4..8 beyond 7"},
		{"detail mesh without polygon verts", func(p *BuildParams) {
			p.DetailMeshes = [][4]uint32{{0, 4, 0, 0}, {4, 3, 0, 0}}
			p.DetailVerts = make([]mgl32.Vec3, 8)
		}, "detail mesh 1: 3 vertices"},
		{"detail triangle index", func(p *BuildParams) {
			p.DetailMeshes = [][4]uint32{{0, 4, 0, 1}, {4, 4, 1, 0}}
			p.DetailVerts = make([]mgl32.Vec3, 8)
			p.DetailTris = [][4]uint8{{0, 1, 4, 0}}
		}, "triangle 0 indexes [0 1 4]"},
		{"detail tris without meshes", func(p *BuildParams) { p.DetailTris = [][4]uint8{{0, 1, 2, 0}} }, "no detail meshes"},
		{"NaN detail vertex", func(p *BuildParams) { p.DetailVerts = []mgl32.Vec3{{float32(math.NaN()), 0, 0}} }, "detail vertex 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			params := offMeshTestParams()
			tt.mutate(params)
			data, err := BuildTileData(params)
			require.ErrorIs(t, err, ErrInvalidBuildParams)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Nil(t, data)
		})
	}
	_, err := BuildTileData(nil)
	require.ErrorIs(t, err, ErrInvalidBuildParams)
}

func TestBuildTileDataVertexLimitCountsOffMeshVertices(t *testing.T) {
	params := offMeshTestParams()
	extra := make([][3]uint16, 0xffff-1-len(params.Verts))
	params.Verts = append(params.Verts, extra...)
	_, err := BuildTileData(params)
	require.ErrorIs(t, err, ErrInvalidBuildParams)
	assert.Contains(t, err.Error(), "65538 vertices with off-mesh connections", "65534 vertices plus 2 stored connections")

	params.Verts = params.Verts[:maxTileVerts-4]
	data, err := BuildTileData(params)
	require.NoError(t, err)
	assert.Len(t, data.Verts, maxTileVerts)
}
