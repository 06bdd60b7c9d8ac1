package navmesh

import (
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slopedTile is one square polygon over x,z in [0,10] on the plane
// y = 0.1x + 0.2z, with a detail mesh that lifts its centre to y = 3 (1.5
// above the plane) through four triangles around an extra detail vertex.
// With partial, only the first two detail triangles are stored, so half of
// the polygon has no detail triangle and falls back to the nearest edge.
func slopedTile(partial bool) *TileData {
	plane := func(x, z float32) mgl32.Vec3 { return mgl32.Vec3{x, float32(0.1*x) + float32(0.2*z), z} }
	data := &TileData{
		Verts:        []mgl32.Vec3{plane(0, 0), plane(0, 10), plane(10, 10), plane(10, 0)},
		Polys:        []Poly{{Verts: [6]uint16{0, 1, 2, 3}, VertCount: 4, Flags: 1}},
		DetailVerts:  []mgl32.Vec3{{5, 3, 5}},
		DetailMeshes: []PolyDetail{{VertBase: 0, TriBase: 0, VertCount: 1, TriCount: 4}},
		// Index 4 is the detail vertex. Each triangle has its polygon edge
		// (edge 0) on the boundary.
		DetailTris: []DetailTri{{0, 1, 4, 0x01}, {1, 2, 4, 0x01}, {2, 3, 4, 0x01}, {3, 0, 4, 0x01}},
	}
	if partial {
		data.DetailTris = data.DetailTris[:2]
		data.DetailMeshes[0].TriCount = 2
	}
	data.Header = TileHeader{
		PolyCount: 1, VertCount: 4, MaxLinkCount: 4, DetailMeshCount: 1, DetailVertCount: 1,
		DetailTriCount: int32(len(data.DetailTris)), WalkableClimb: testClimb,
		BMin: mgl32.Vec3{0, 0, 0}, BMax: mgl32.Vec3{10, 3, 10}, BVQuantFactor: 2,
	}
	return data
}

// heightOnTriangle interpolates the plane through a, b, c at (x, z) in
// float64, the reference value for the float32 code.
func heightOnTriangle(a, b, c mgl32.Vec3, x, z float64) float64 {
	ax, ay, az := float64(a[0]), float64(a[1]), float64(a[2])
	ux, uy, uz := float64(b[0])-ax, float64(b[1])-ay, float64(b[2])-az
	vx, vy, vz := float64(c[0])-ax, float64(c[1])-ay, float64(c[2])-az
	// Solve (x-ax, z-az) = s*(ux, uz) + t*(vx, vz).
	det := float64(ux*vz) - float64(uz*vx)
	s := (float64((x-ax)*vz) - float64((z-az)*vx)) / det
	t := (float64(ux*(z-az)) - float64(uz*(x-ax))) / det
	return ay + float64(s*uy) + float64(t*vy)
}

func TestPolyHeightOnSlopedDetailMesh(t *testing.T) {
	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(slopedTile(false), 0)
	require.NoError(t, err)
	tile, poly, err := m.TileAndPoly(ref)
	require.NoError(t, err)
	v := tile.Verts
	centre := mgl32.Vec3{5, 3, 5}

	tests := []struct {
		name string
		x, z float32
		want float64
	}{
		{"corner (0,0)", 0, 0, 0},
		{"near the far corner", 9.5, 9.9, heightOnTriangle(v[1], v[2], centre, 9.5, 9.9)},
		{"centre bump", 5, 5, 3},
		{"in the x=0 triangle", 1, 5, heightOnTriangle(v[0], v[1], centre, 1, 5)},
		{"in the z=10 triangle", 5, 9, heightOnTriangle(v[1], v[2], centre, 5, 9)},
		{"in the x=10 triangle", 8.5, 4, heightOnTriangle(v[2], v[3], centre, 8.5, 4)},
		{"in the z=0 triangle", 3, 0.5, heightOnTriangle(v[3], v[0], centre, 3, 0.5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := tile.PolyHeight(poly, mgl32.Vec3{tt.x, 100, tt.z})
			require.True(t, ok)
			assert.InDelta(t, tt.want, h, 1e-5)
			closest, over, err := m.ClosestPointOnPoly(ref, mgl32.Vec3{tt.x, -7, tt.z})
			require.NoError(t, err)
			assert.True(t, over)
			assert.Equal(t, mgl32.Vec3{tt.x, h, tt.z}, closest)
		})
	}

	_, ok := tile.PolyHeight(poly, mgl32.Vec3{11, 0, 5})
	assert.False(t, ok, "outside the polygon")
	_, ok = tile.PolyHeight(poly, mgl32.Vec3{10, 0, 10})
	assert.False(t, ok, "the crossing-number test leaves this corner out, as in the C++")
	_, ok = tile.PolyHeight(&Poly{}, mgl32.Vec3{5, 0, 5})
	assert.False(t, ok, "a polygon of another tile")
	h, ok := tile.PolyHeight(&tile.Data.Polys[0], mgl32.Vec3{5, 0, 5})
	assert.True(t, ok, "the TileData polygon is accepted too")
	assert.Equal(t, float32(3), h)

	// Outside: the closest point on the boundary detail edges.
	closest, over := tile.ClosestPointOnPoly(poly, mgl32.Vec3{12, 0, 5})
	assert.False(t, over)
	assert.InDelta(t, 10, closest[0], 1e-6)
	assert.InDelta(t, 5, closest[2], 1e-6)
	assert.InDelta(t, 0.1*10+0.2*5, closest[1], 1e-5)
}

func TestPolyHeightFallsBackToNearestDetailEdge(t *testing.T) {
	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(slopedTile(true), 0)
	require.NoError(t, err)
	tile, poly, err := m.TileAndPoly(ref)
	require.NoError(t, err)

	// (9, 2) lies in the polygon but in no stored triangle. The edges
	// searched: the boundary edges x=0 and z=10, and each inner edge once,
	// from the triangle where it runs from the higher vertex index to the
	// lower: centre→(0,0) and centre→(0,10). The edge centre→(10,10) belongs
	// to the missing triangle. Both inner edges are closest at the centre
	// (distance² 25); the first one found wins.
	pos := mgl32.Vec3{9, 0, 2}
	h, ok := tile.PolyHeight(poly, pos)
	require.True(t, ok)
	assert.Equal(t, float32(3), h)
	assert.Equal(t, mgl32.Vec3{5, 3, 5}, tile.ClosestPointOnDetailEdges(poly, pos, false))

	// Only boundary edges: the polygon edges x=0 and z=10.
	boundary := tile.ClosestPointOnDetailEdges(poly, pos, true)
	assert.Equal(t, mgl32.Vec3{9, 0.1*9 + 0.2*10, 10}, boundary)
}

func TestQueryPolygonsBVTreeMatchesLinearScan(t *testing.T) {
	polys := [][]mgl32.Vec3{}
	for i := range 5 {
		for j := range 5 {
			x, z := float32(i*2), float32(j*2)
			polys = append(polys, rect(x, z, x+2, z+2, float32(i+j)*0.1))
		}
	}
	spec := tileSpec{polys: polys, offMesh: []offMeshSpec{{start: mgl32.Vec3{1, 0, 1}, end: mgl32.Vec3{9, 0, 9}, radius: 0.5, side: noSide}}}
	linear := buildTile(spec)
	spec.bvTree = true
	withTree := buildTile(spec)

	m, err := New(testParams(2))
	require.NoError(t, err)
	_, err = m.AddTile(linear, 0)
	require.NoError(t, err)
	withTree.Header.X = 1 // same polygons, separate slot; the box is tile-local
	for i := range withTree.Verts {
		withTree.Verts[i][0] += 10
	}
	withTree.Header.BMin[0] += 10
	withTree.Header.BMax[0] += 10
	_, err = m.AddTile(withTree, 0)
	require.NoError(t, err)
	s := m.Snapshot()
	lin, tree := s.Tile(0), s.Tile(1)

	tests := []struct {
		name       string
		qmin, qmax mgl32.Vec3
		want       []uint32
		wantTree   []uint32
	}{
		// The tree rounds the box out to even/odd cells (bmin&^1, bmax|1)
		// and cell bounds that touch overlap, so it may return more.
		{"one cell", mgl32.Vec3{0.6, -1, 0.6}, mgl32.Vec3{1.4, 1, 1.4}, []uint32{0}, []uint32{0}},
		{"one cell, rounded out", mgl32.Vec3{0.5, -1, 0.5}, mgl32.Vec3{1.5, 1, 1.5}, []uint32{0}, []uint32{0, 1, 5, 6}},
		{"corner of four", mgl32.Vec3{3.9, -1, 3.9}, mgl32.Vec3{4.1, 5, 4.1}, []uint32{6, 7, 11, 12}, []uint32{6, 7, 11, 12}},
		{"a row", mgl32.Vec3{0.6, -1, 4.6}, mgl32.Vec3{9.4, 5, 5.4}, []uint32{2, 7, 12, 17, 22},
			[]uint32{1, 2, 6, 7, 11, 12, 16, 17, 21, 22}},
		{"everything", mgl32.Vec3{-100, -100, -100}, mgl32.Vec3{100, 100, 100}, nil, nil},
		{"below: the tree clamps the box into the tile", mgl32.Vec3{0, -10, 0}, mgl32.Vec3{10, -5, 10}, []uint32{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := indices(lin.QueryPolygons(tt.qmin, tt.qmax, nil))
			shift := mgl32.Vec3{10, 0, 0}
			gotTree := indices(tree.QueryPolygons(tt.qmin.Add(shift), tt.qmax.Add(shift), nil))
			slices.Sort(gotTree)
			if tt.want == nil {
				assert.Len(t, got, 25, "off-mesh polygons are never returned")
			} else {
				assert.Equal(t, tt.want, got)
			}
			if tt.wantTree == nil {
				assert.Len(t, gotTree, 25)
			} else {
				assert.Equal(t, tt.wantTree, gotTree)
			}
		})
	}
	// dst is appended to.
	dst := []Ref{42}
	dst = lin.QueryPolygons(mgl32.Vec3{0.5, -1, 0.5}, mgl32.Vec3{1.5, 1, 1.5}, dst)
	assert.Equal(t, []Ref{42, lin.PolyRefBase()}, dst)
}

func indices(refs []Ref) []uint32 {
	out := []uint32{}
	for _, r := range refs {
		out = append(out, r.PolyIndex())
	}
	return out
}

func TestFindNearestPolyClimbRule(t *testing.T) {
	// Two stacked floors in one tile, 2 apart, the same xz footprint.
	lower := rect(0, 0, 10, 10, 0)
	upper := rect(0, 0, 10, 10, 2)
	tests := []struct {
		name    string
		polys   [][]mgl32.Vec3
		climb   float32
		centreY float32
		want    uint32
	}{
		{"near the lower floor", [][]mgl32.Vec3{lower, upper}, 0.9, 0.5, 0},
		{"near the upper floor", [][]mgl32.Vec3{lower, upper}, 0.9, 1.5, 1},
		{"both within climb: the first wins", [][]mgl32.Vec3{lower, upper}, 1.5, 1.0, 0},
		{"both within climb, order swapped", [][]mgl32.Vec3{upper, lower}, 1.5, 1.0, 0},
		{"above both: the upper", [][]mgl32.Vec3{lower, upper}, 0.9, 3.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(testParams(1))
			require.NoError(t, err)
			ref, err := m.AddTile(buildTile(tileSpec{polys: tt.polys, climb: tt.climb}), 0)
			require.NoError(t, err)
			tile := m.TileByRef(ref)
			got, nearest := tile.FindNearestPoly(mgl32.Vec3{3, tt.centreY, 4}, mgl32.Vec3{1, 4, 1})
			assert.Equal(t, ref|Ref(tt.want), got)
			assert.Equal(t, mgl32.Vec3{3, tt.polys[tt.want][0][1], 4}, nearest)
		})
	}

	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	got, nearest := m.TileByRef(ref).FindNearestPoly(mgl32.Vec3{50, 0, 50}, mgl32.Vec3{1, 1, 1})
	assert.Zero(t, got)
	assert.Equal(t, mgl32.Vec3{}, nearest)
	// Off the polygon: the nearest boundary point, by 3D distance.
	got, nearest = m.TileByRef(ref).FindNearestPoly(mgl32.Vec3{10.5, 0.2, 7}, mgl32.Vec3{1, 1, 1})
	assert.Equal(t, ref|1, got)
	assert.Equal(t, mgl32.Vec3{10, 0, 7}, nearest)
}

func TestForeignPolyGivesPosBack(t *testing.T) {
	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	tile := m.TileByRef(ref)
	pos := mgl32.Vec3{3, 4, 5}
	foreign := &Poly{VertCount: 3}
	closest, over := tile.ClosestPointOnPoly(foreign, pos)
	assert.Equal(t, pos, closest)
	assert.False(t, over)
	assert.Equal(t, pos, tile.ClosestPointOnDetailEdges(foreign, pos, true))
	assert.Equal(t, pos, tile.ClosestPointOnDetailEdges(nil, pos, false))
	// A pointer into the tile's polygons but between two elements is not a
	// polygon either.
	assert.Equal(t, -1, indexInSlice(tile.Polys[1:], &tile.Polys[0]))
}
