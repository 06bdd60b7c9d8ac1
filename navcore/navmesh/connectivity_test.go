package navmesh_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

func loadDungeonTile(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(tb, err)
	return mesh
}

// bakeSolo bakes testdata/<name>.obj as one tile with the default settings.
func bakeSolo(tb testing.TB, name string, configure func(*bake.Geometry)) *navmesh.Mesh {
	tb.Helper()
	g, err := bake.LoadOBJ("../../testdata/" + name + ".obj")
	require.NoError(tb, err)
	if configure != nil {
		configure(g)
	}
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(tb, err)
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	require.NoError(tb, err)
	_, err = mesh.AddTile(result.TileData, 0)
	require.NoError(tb, err)
	return mesh
}

// bakeTiled bakes testdata/<name>.obj in tiles of 32 cells.
func bakeTiled(tb testing.TB, name string) *bake.TiledResult {
	tb.Helper()
	g, err := bake.LoadOBJ("../../testdata/" + name + ".obj")
	require.NoError(tb, err)
	result, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{TileSize: 32})
	require.NoError(tb, err)
	return result
}

// allPolys returns every polygon of the snapshot, off-mesh connections
// included, in slot order.
func allPolys(s *navmesh.Snapshot) []navmesh.Ref {
	var refs []navmesh.Ref
	for i := 0; i < s.MaxTiles(); i++ {
		if t := s.Tile(i); t != nil {
			for p := range t.Polys {
				refs = append(refs, t.PolyRefBase()|navmesh.Ref(p))
			}
		}
	}
	return refs
}

// floodComponents labels the polygons of s that pass by a plain
// breadth-first flood over the links between them, followed both ways: the
// model Connectivity must agree with. Polygons that fail pass get label 0.
func floodComponents(s *navmesh.Snapshot, pass func(*navmesh.Poly) bool) map[navmesh.Ref]int {
	passes := func(ref navmesh.Ref) bool {
		_, poly, err := s.TileAndPoly(ref)
		if err != nil {
			panic(err)
		}
		return pass == nil || pass(poly)
	}
	neighbours := map[navmesh.Ref][]navmesh.Ref{}
	refs := allPolys(s)
	for _, ref := range refs {
		t, poly, _ := s.TileAndPoly(ref)
		if !passes(ref) {
			continue
		}
		for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
			other := t.Links[l].Ref
			if !passes(other) {
				continue
			}
			neighbours[ref] = append(neighbours[ref], other)
			neighbours[other] = append(neighbours[other], ref)
		}
	}
	label := map[navmesh.Ref]int{}
	next := 0
	for _, ref := range refs {
		if _, done := label[ref]; done || !passes(ref) {
			continue
		}
		next++
		label[ref] = next
		queue := []navmesh.Ref{ref}
		for len(queue) > 0 {
			cur := queue[0]
			queue = queue[1:]
			for _, n := range neighbours[cur] {
				if _, done := label[n]; !done {
					label[n] = next
					queue = append(queue, n)
				}
			}
		}
	}
	return label
}

// requireMatchesFlood checks that the snapshot's components are exactly
// the flood's: same count, same numbering (both number by first polygon in
// slot order), same sizes and bounds holding every vertex.
func requireMatchesFlood(t *testing.T, s *navmesh.Snapshot) *navmesh.Connectivity {
	t.Helper()
	return requireMatchesFloodOf(t, s, s.Connectivity(), nil)
}

func requireMatchesFloodOf(t *testing.T, s *navmesh.Snapshot, c *navmesh.Connectivity, pass func(*navmesh.Poly) bool) *navmesh.Connectivity {
	t.Helper()
	flood := floodComponents(s, pass)
	refs := allPolys(s)
	require.Equal(t, len(refs), c.PolyCount())
	count := 0
	sizes := map[uint32]int{}
	for _, ref := range refs {
		id := c.Component(ref)
		require.Equal(t, uint32(flood[ref]), id, "polygon %#x", uint64(ref))
		if id == 0 {
			continue
		}
		count = max(count, int(id))
		sizes[id]++
		info, ok := c.Info(id)
		require.True(t, ok)
		tile, poly, err := s.TileAndPoly(ref)
		require.NoError(t, err)
		for _, vi := range poly.Verts[:poly.VertCount] {
			v := tile.Verts[vi]
			for a := range 3 {
				require.LessOrEqual(t, info.BMin[a], v[a])
				require.GreaterOrEqual(t, info.BMax[a], v[a])
			}
		}
	}
	require.Equal(t, count, c.ComponentCount())
	for id, n := range sizes {
		info, _ := c.Info(id)
		require.Equal(t, n, info.Polys, "component %d", id)
	}
	// The bounds are tight: each face touches a vertex of the component.
	touched := map[uint32]*[6]bool{}
	for _, ref := range refs {
		id := c.Component(ref)
		if id == 0 {
			continue
		}
		info, _ := c.Info(id)
		if touched[id] == nil {
			touched[id] = new([6]bool)
		}
		tile, poly, _ := s.TileAndPoly(ref)
		for _, vi := range poly.Verts[:poly.VertCount] {
			for a := range 3 {
				touched[id][a] = touched[id][a] || tile.Verts[vi][a] == info.BMin[a]
				touched[id][3+a] = touched[id][3+a] || tile.Verts[vi][a] == info.BMax[a]
			}
		}
	}
	for id, faces := range touched {
		require.Equal(t, [6]bool{true, true, true, true, true, true}, *faces, "bounds of component %d", id)
	}
	return c
}

// checkAgainstFindPath checks every ordered pair of polygon centres (or a
// sample of limit pairs when there are more) with FindPath, unfiltered and
// with a node pool larger than the polygon count: the path is partial
// exactly when the two polygons are in different components.
func checkAgainstFindPath(t *testing.T, mesh *navmesh.Mesh, limit int) (pairs, partial int) {
	t.Helper()
	return checkAgainstFindPathWith(t, mesh, mesh.Snapshot().Connectivity(), query.NewFilter(), limit)
}

// checkAgainstFindPathWith is checkAgainstFindPath for the ground polygons
// filter passes, with filter, against c.
func checkAgainstFindPathWith(t *testing.T, mesh *navmesh.Mesh, c *navmesh.Connectivity, filter *query.Filter, limit int) (pairs, partial int) {
	t.Helper()
	s := mesh.Snapshot()
	refs := allPolys(s)
	var ground []navmesh.Ref
	for _, ref := range refs {
		if tile, poly, _ := s.TileAndPoly(ref); poly.Type() == navmesh.PolyTypeGround && filter.Passes(ref, tile, poly) {
			ground = append(ground, ref)
		}
	}
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	centre := func(ref navmesh.Ref) geom.Vec3 {
		tile, poly, _ := s.TileAndPoly(ref)
		var sum geom.Vec3
		for _, vi := range poly.Verts[:poly.VertCount] {
			sum = sum.Add(tile.Verts[vi])
		}
		return sum.Mul(1 / float32(poly.VertCount))
	}
	path := make([]navmesh.Ref, 4096)
	check := func(a, b navmesh.Ref) {
		n, status, err := q.FindPath(a, b, centre(a), centre(b), filter, path)
		require.NoError(t, err)
		require.NotZero(t, n)
		require.False(t, status.OutOfNodes())
		require.Equal(t, !c.SameComponent(a, b), status.Partial(), "%#x -> %#x", uint64(a), uint64(b))
		pairs++
		if status.Partial() {
			partial++
		}
	}
	if len(ground)*len(ground) <= limit {
		for _, a := range ground {
			for _, b := range ground {
				check(a, b)
			}
		}
		return pairs, partial
	}
	rng := rand.New(rand.NewPCG(7, 11))
	for range limit {
		check(ground[rng.IntN(len(ground))], ground[rng.IntN(len(ground))])
	}
	return pairs, partial
}

func TestConnectivityDungeonTile(t *testing.T) {
	mesh := loadDungeonTile(t)
	c := requireMatchesFlood(t, mesh.Snapshot())
	assert.Equal(t, 118, c.PolyCount())
	assert.Equal(t, dungeonComponents, c.ComponentCount())
	largest := 0
	for id := uint32(1); id <= uint32(c.ComponentCount()); id++ {
		info, _ := c.Info(id)
		assert.False(t, info.OneWay, "component %d", id)
		largest = max(largest, info.Polys)
	}
	assert.Equal(t, dungeonLargest, largest)

	pairs, partial := checkAgainstFindPath(t, mesh, 1<<20)
	assert.Equal(t, 118*118, pairs, "every ordered pair")
	assert.Equal(t, dungeonPartialPairs, partial)
}

func TestConnectivityBakedNavTest(t *testing.T) {
	mesh := bakeSolo(t, "nav_test", nil)
	c := requireMatchesFlood(t, mesh.Snapshot())
	assert.Equal(t, 155, c.PolyCount())
	assert.Equal(t, navTestComponents, c.ComponentCount())
	pairs, partial := checkAgainstFindPath(t, mesh, 1<<20)
	assert.Equal(t, 155*155, pairs)
	assert.Equal(t, navTestPartialPairs, partial)
}

// TestConnectivityRandomPoints runs the reference query benchmark's kind of
// pairs (random points, nearest polygons, the demo filter) on nav_test:
// FindPath is partial exactly for the pairs in different components.
func TestConnectivityRandomPoints(t *testing.T) {
	mesh := bakeSolo(t, "nav_test", nil)
	s := mesh.Snapshot()
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	filter := query.NewFilter()
	filter.ExcludeFlags = 0x10
	rng := rand.New(rand.NewPCG(3, 5))
	random := func() float32 { return rng.Float32() }
	path := make([]navmesh.Ref, 256)
	const pairs = 500
	partial := 0
	for i := range pairs {
		a, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		b, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		n, status, err := q.FindPath(a.Ref, b.Ref, a.Pos, b.Pos, filter, path)
		require.NoError(t, err)
		require.NotZero(t, n)
		require.Equal(t, !s.SameComponent(a.Ref, b.Ref), status.Partial(), "pair %d", i)
		if status.Partial() {
			partial++
		}
	}
	t.Logf("%d of %d random pairs in different components", partial, pairs)
	assert.Equal(t, navTestRandomPartial, partial)
}

// TestConnectivityFollowsTiles removes and re-adds tiles of a tiled
// nav_test and checks each tile set against a fresh flood.
func TestConnectivityFollowsTiles(t *testing.T) {
	result := bakeTiled(t, "nav_test")
	mesh, err := result.NavMesh()
	require.NoError(t, err)
	whole := requireMatchesFlood(t, mesh.Snapshot())
	assert.Equal(t, 272, whole.PolyCount())
	t.Logf("tiled nav_test: %d components", whole.ComponentCount())

	rng := rand.New(rand.NewPCG(1, 2))
	removed := map[navmesh.TileRef]*navmesh.TileData{}
	for step := range 40 {
		s := mesh.Snapshot()
		if len(removed) > 0 && (step%3 == 2 || s.TileCount() < 10) {
			for ref, data := range removed {
				_, err := mesh.AddTile(data, 0)
				require.NoError(t, err)
				delete(removed, ref)
				break
			}
		} else {
			var tiles []navmesh.TileRef
			for i := 0; i < s.MaxTiles(); i++ {
				if tile := s.Tile(i); tile != nil {
					tiles = append(tiles, tile.Ref())
				}
			}
			ref := tiles[rng.IntN(len(tiles))]
			data, err := mesh.RemoveTile(ref)
			require.NoError(t, err)
			removed[ref] = data
		}
		next := mesh.Snapshot()
		require.NotSame(t, s.Connectivity(), next.Connectivity(), "step %d: a new tile set gets new labels", step)
		requireMatchesFlood(t, next)
	}
	for _, data := range removed {
		_, err := mesh.AddTile(data, 0)
		require.NoError(t, err)
	}
	again := requireMatchesFlood(t, mesh.Snapshot())
	assert.Equal(t, whole.ComponentCount(), again.ComponentCount())
	checkAgainstFindPath(t, mesh, 3000)
}

// TestFlagConnectivityFollowsTilesAndFlags swaps tiles of a tiled nav_test
// and disables and enables polygons in between, and checks the components
// of every tile set under a flag rule, and without one, against a fresh
// flood: each snapshot reuses the tile labels of the tiles that did not
// change, so a stale reuse would show here.
func TestFlagConnectivityFollowsTilesAndFlags(t *testing.T) {
	const disabled = 0x10
	result := bakeTiled(t, "nav_test")
	mesh, err := result.NavMesh()
	require.NoError(t, err)
	passes := func(p *navmesh.Poly) bool { return p.Flags&0xffff != 0 && p.Flags&disabled == 0 }

	rng := rand.New(rand.NewPCG(3, 4))
	var removed []*navmesh.TileData
	steps := 20 // each checked against two floods
	if longtest.Enabled() {
		steps = 60
	}
	for step := range steps {
		s := mesh.Snapshot()
		switch {
		case step%3 == 0:
			refs := allPolys(s)
			for range 5 {
				ref := refs[rng.IntN(len(refs))]
				_, poly, err := s.TileAndPoly(ref)
				require.NoError(t, err)
				require.NoError(t, mesh.SetPolyFlags(ref, poly.Flags^disabled))
			}
		case len(removed) > 0 && step%3 == 2:
			_, err := mesh.AddTile(removed[0], 0)
			require.NoError(t, err)
			removed = removed[1:]
		default:
			var tiles []navmesh.TileRef
			for i := 0; i < s.MaxTiles(); i++ {
				if tile := s.Tile(i); tile != nil {
					tiles = append(tiles, tile.Ref())
				}
			}
			data, err := mesh.RemoveTile(tiles[rng.IntN(len(tiles))])
			require.NoError(t, err)
			removed = append(removed, data)
		}
		next := mesh.Snapshot()
		requireMatchesFloodOf(t, next, next.FlagConnectivity(0xffff, disabled), passes)
		requireMatchesFlood(t, next)
	}
}

func TestConnectivitySharedAcrossFlagEdits(t *testing.T) {
	mesh := loadDungeonTile(t)
	before := mesh.Snapshot()
	c := before.Connectivity()
	ref := allPolys(before)[5]
	require.NoError(t, mesh.SetPolyFlags(ref, 0x10))
	require.NoError(t, mesh.SetPolyArea(ref, 3))
	after := mesh.Snapshot()
	require.NotSame(t, before, after)
	assert.Same(t, c, after.Connectivity(), "flags and areas do not change the components")
	assert.Equal(t, c.Component(ref), after.Component(ref))
}

func TestConnectivityBadRefs(t *testing.T) {
	result := bakeTiled(t, "nav_test")
	mesh, err := result.NavMesh()
	require.NoError(t, err)
	s := mesh.Snapshot()
	refs := allPolys(s)
	ref := refs[len(refs)-1]
	tile := s.TileByRef(ref)
	require.NotNil(t, tile)
	salt, index, poly := ref.Decode()

	assert.NotZero(t, s.Component(ref))
	for name, bad := range map[string]navmesh.Ref{
		"zero":              0,
		"stale salt":        navmesh.EncodeRef(salt+1, index, poly),
		"poly out of range": navmesh.EncodeRef(salt, index, uint32(len(tile.Polys))),
		"empty slot":        navmesh.EncodeRef(1, uint32(s.MaxTiles()-1), 0),
		"slot out of range": navmesh.EncodeRef(1, uint32(s.MaxTiles()), 0),
		"highest slot":      navmesh.EncodeRef(1, 1<<navmesh.TileBits-1, 0),
	} {
		assert.Zero(t, s.Component(bad), name)
		assert.False(t, s.SameComponent(bad, bad), name)
		assert.False(t, s.SameComponent(ref, bad), name)
	}
	_, ok := s.Connectivity().Info(0)
	assert.False(t, ok)
	_, ok = s.Connectivity().Info(uint32(s.Connectivity().ComponentCount() + 1))
	assert.False(t, ok)
	// Ids that are negative as a 32-bit int (they panicked under GOARCH=386).
	for _, id := range []uint32{1 << 31, 0xffffffff} {
		_, ok = s.Connectivity().Info(id)
		assert.False(t, ok, "%#x", id)
	}

	// After the tile goes, its refs have no component.
	_, err = mesh.RemoveTile(tile.Ref())
	require.NoError(t, err)
	assert.Zero(t, mesh.Snapshot().Component(ref))
	assert.NotZero(t, s.Component(ref), "the old snapshot keeps its labels")
}

// TestConnectivityOneWayOffMesh joins two floors with a one-way off-mesh
// connection: one component, marked OneWay; two-way: not marked; none: two
// components.
func TestConnectivityOneWayOffMesh(t *testing.T) {
	floors := func(g *bake.Geometry, link *bake.OffMeshConnection) {
		add := func(x0, x1 float32) {
			b := int32(len(g.Vertices))
			g.Vertices = append(g.Vertices, geom.Vec3{x0, 0, 0}, geom.Vec3{x1, 0, 0}, geom.Vec3{x1, 0, 10}, geom.Vec3{x0, 0, 10})
			g.Triangles = append(g.Triangles, [3]int32{b, b + 2, b + 1}, [3]int32{b, b + 3, b + 2})
		}
		add(0, 10)
		add(14, 24)
		if link != nil {
			g.OffMeshConnections = append(g.OffMeshConnections, *link)
		}
	}
	for _, tc := range []struct {
		name       string
		link       *bake.OffMeshConnection
		components int
		oneWay     bool
	}{
		{"none", nil, 2, false},
		{"two-way", &bake.OffMeshConnection{Start: geom.Vec3{9, 0, 5}, End: geom.Vec3{15, 0, 5}, Radius: 0.6, Bidirectional: true, Flags: 1}, 1, false},
		{"one-way", &bake.OffMeshConnection{Start: geom.Vec3{9, 0, 5}, End: geom.Vec3{15, 0, 5}, Radius: 0.6, Flags: 1}, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &bake.Geometry{}
			floors(g, tc.link)
			result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
			require.NoError(t, err)
			mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
			require.NoError(t, err)
			_, err = mesh.AddTile(result.TileData, 0)
			require.NoError(t, err)
			c := requireMatchesFlood(t, mesh.Snapshot())
			require.Equal(t, tc.components, c.ComponentCount())
			info, _ := c.Info(1)
			assert.Equal(t, tc.oneWay, info.OneWay)
		})
	}
}

func TestConnectivityLookupsDoNotAllocate(t *testing.T) {
	mesh := loadDungeonTile(t)
	s := mesh.Snapshot()
	refs := allPolys(s)
	s.Connectivity()
	same := 0
	allocs := testing.AllocsPerRun(10, func() {
		for _, a := range refs {
			if s.SameComponent(a, refs[0]) {
				same++
			}
		}
	})
	assert.Zero(t, allocs)
	assert.NotZero(t, same)
}

func BenchmarkConnectivity(b *testing.B) {
	for _, tc := range []struct {
		name string
		mesh func(testing.TB) *navmesh.Mesh
	}{
		{"dungeon solo", loadDungeonTile},
		{"nav_test tiled", func(tb testing.TB) *navmesh.Mesh {
			m, err := bakeTiled(tb, "nav_test").NavMesh()
			require.NoError(tb, err)
			return m
		}},
	} {
		mesh := tc.mesh(b)
		s := mesh.Snapshot()
		refs := allPolys(s)
		b.Run(tc.name+"/compute", func(b *testing.B) {
			b.ReportAllocs()
			b.StopTimer()
			for range b.N {
				// A flag edit makes a new snapshot that shares the labels;
				// removing and re-adding a tile makes a new tile set.
				tile := mesh.Snapshot().Tile(0)
				data, _ := mesh.RemoveTile(tile.Ref())
				_, _ = mesh.AddTile(data, 0)
				b.StartTimer()
				mesh.Snapshot().Connectivity()
				b.StopTimer()
			}
		})
		b.Run(tc.name+"/same component", func(b *testing.B) {
			s.Connectivity()
			b.ReportAllocs()
			b.ResetTimer()
			n := 0
			for i := range b.N {
				if s.SameComponent(refs[i%len(refs)], refs[(i*7)%len(refs)]) {
					n++
				}
			}
			_ = n
		})
	}
}

// Figures checked by the tests above (found by the flood and FindPath).
const (
	dungeonComponents    = 4
	dungeonLargest       = 105
	dungeonPartialPairs  = 2832
	navTestComponents    = 17
	navTestPartialPairs  = 16930
	navTestRandomPartial = 348
)

// TestConnectivityConcurrentFirstUse has goroutines race for the first
// labelling of a new tile set: all of them get the same labels.
func TestConnectivityConcurrentFirstUse(t *testing.T) {
	mesh := loadDungeonTile(t)
	s := mesh.Snapshot()
	const goroutines = 8
	got := make(chan *navmesh.Connectivity, goroutines)
	for range goroutines {
		go func() { got <- s.Connectivity() }()
	}
	first := <-got
	for range goroutines - 1 {
		assert.Same(t, first, <-got)
	}
	assert.Same(t, first, s.Connectivity())
}

// TestFlagConnectivityDisabledPolygons disables a seeded fifth of the
// dungeon's polygons: the components of the others, under the demo filter,
// are exactly what FindPath with that filter can join.
func TestFlagConnectivityDisabledPolygons(t *testing.T) {
	const disabled = 0x10
	mesh := loadDungeonTile(t)
	all := mesh.Snapshot().Connectivity()
	rng := rand.New(rand.NewPCG(5, 5))
	for _, ref := range allPolys(mesh.Snapshot()) {
		if rng.IntN(5) == 0 {
			require.NoError(t, mesh.SetPolyFlags(ref, 1|disabled))
		}
	}
	s := mesh.Snapshot()
	assert.Same(t, all, s.Connectivity(), "flags do not change the unfiltered components")
	c := s.FlagConnectivity(0xffff, disabled)
	assert.Same(t, c, s.FlagConnectivity(0xffff, disabled), "kept for the snapshot")
	assert.NotSame(t, c, s.FlagConnectivity(0xffff, 0), "another rule, other labels")
	requireMatchesFloodOf(t, s, c, func(p *navmesh.Poly) bool { return p.Flags&disabled == 0 })
	t.Logf("%d components with a fifth of the polygons disabled, %d without", c.ComponentCount(), all.ComponentCount())
	assert.Greater(t, c.ComponentCount(), all.ComponentCount())

	filter := query.NewFilter()
	filter.ExcludeFlags = disabled
	pairs, partial := checkAgainstFindPathWith(t, mesh, c, filter, 1<<20)
	t.Logf("%d pairs, %d partial", pairs, partial)
	assert.Greater(t, partial, 2832, "more pairs apart than without the filter")

	// Every rule its own labels; a rule passing nothing labels nothing.
	for include := range uint16(40) {
		r := s.FlagConnectivity(include, 0)
		requireMatchesFloodOf(t, s, r, func(p *navmesh.Poly) bool { return p.Flags&include != 0 })
	}
	assert.Zero(t, s.FlagConnectivity(0, 0).ComponentCount())

	// A new snapshot has new labels.
	require.NoError(t, mesh.SetPolyFlags(allPolys(s)[0], 1))
	assert.NotSame(t, c, mesh.Snapshot().FlagConnectivity(0xffff, disabled))
}

func TestFlagConnectivityConcurrentFirstUse(t *testing.T) {
	mesh := loadDungeonTile(t)
	s := mesh.Snapshot()
	const goroutines = 8
	got := make(chan *navmesh.Connectivity, goroutines)
	for i := range goroutines {
		go func() { got <- s.FlagConnectivity(uint16(1+i%2), 0) }()
	}
	for range goroutines {
		c := <-got
		assert.Contains(t, []*navmesh.Connectivity{s.FlagConnectivity(1, 0), s.FlagConnectivity(2, 0)}, c)
	}
}
