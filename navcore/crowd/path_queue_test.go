package crowd

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// gridTileData is a size×size floor of unit quads at y = 0, quad (x, z) =
// polygon z·size + x, plus one unit quad at x = size+2 reachable from
// nowhere (the last polygon).
func gridTileData(size int) *navmesh.TileData {
	stride := size + 1
	verts := make([]geom.Vec3, 0, stride*stride+4)
	for z := 0; z <= size; z++ {
		for x := 0; x <= size; x++ {
			verts = append(verts, geom.Vec3{float32(x), 0, float32(z)})
		}
	}
	island := float32(size + 2)
	verts = append(verts, geom.Vec3{island, 0, 0}, geom.Vec3{island, 0, 1}, geom.Vec3{island + 1, 0, 1}, geom.Vec3{island + 1, 0, 0})

	polyCount := size*size + 1
	polys := make([]navmesh.Poly, 0, polyCount)
	neighbour := func(x, z int) uint16 {
		if x < 0 || z < 0 || x >= size || z >= size {
			return 0
		}
		return uint16(z*size + x + 1)
	}
	for z := 0; z < size; z++ {
		for x := 0; x < size; x++ {
			v := uint16(z*stride + x)
			polys = append(polys, navmesh.Poly{
				// West, north, east, south edges, in Detour's winding.
				Verts:      [6]uint16{v, v + uint16(stride), v + uint16(stride) + 1, v + 1},
				Neighbours: [6]uint16{neighbour(x-1, z), neighbour(x, z+1), neighbour(x+1, z), neighbour(x, z-1)},
				VertCount:  4,
				Flags:      1,
			})
		}
	}
	first := uint16(stride * stride)
	polys = append(polys, navmesh.Poly{Verts: [6]uint16{first, first + 1, first + 2, first + 3}, VertCount: 4, Flags: 1})

	detail := make([]navmesh.PolyDetail, polyCount)
	tris := make([]navmesh.DetailTri, 0, 2*polyCount)
	for i := range detail {
		detail[i] = navmesh.PolyDetail{TriBase: uint32(2 * i), TriCount: 2}
		tris = append(tris, navmesh.DetailTri{0, 1, 2, 1 | 1<<2}, navmesh.DetailTri{0, 2, 3, 1<<2 | 1<<4})
	}
	return &navmesh.TileData{
		Header: navmesh.TileHeader{
			PolyCount: int32(polyCount), VertCount: int32(len(verts)), MaxLinkCount: int32(4 * polyCount),
			DetailMeshCount: int32(polyCount), DetailTriCount: int32(len(tris)), OffMeshBase: int32(polyCount),
			WalkableHeight: 2, WalkableRadius: 0.6, WalkableClimb: 0.9,
			BMin: geom.Vec3{0, 0, 0}, BMax: geom.Vec3{island + 1, 1, float32(size)}, BVQuantFactor: 1 / 0.3,
		},
		Verts: verts, Polys: polys, DetailMeshes: detail, DetailTris: tris,
	}
}

type gridFixture struct {
	mesh   *navmesh.Mesh
	size   int
	base   navmesh.Ref
	island navmesh.Ref
	filter *query.Filter
}

func newGridFixture(t testing.TB, size int) *gridFixture {
	t.Helper()
	data := gridTileData(size)
	mesh, err := navmesh.New(navmesh.Params{
		TileWidth: data.Header.BMax[0], TileHeight: data.Header.BMax[2], MaxTiles: 1, MaxPolys: len(data.Polys),
	})
	require.NoError(t, err)
	tileRef, err := mesh.AddTile(data, 0)
	require.NoError(t, err)
	base := mesh.TileByRef(tileRef).PolyRefBase()
	return &gridFixture{mesh: mesh, size: size, base: base, island: base | navmesh.Ref(size*size), filter: query.NewFilter()}
}

// cell returns the polygon of quad (x, z) and its centre.
func (g *gridFixture) cell(x, z int) (navmesh.Ref, geom.Vec3) {
	return g.base | navmesh.Ref(z*g.size+x), geom.Vec3{float32(x) + 0.5, 0, float32(z) + 0.5}
}

func (g *gridFixture) islandCentre() geom.Vec3 {
	return geom.Vec3{float32(g.size) + 2.5, 0, 0.5}
}

// runUntil updates the queue with budget iterations until every id is done
// or failed, at most limit updates, and returns how many updates each took.
func runUntil(t *testing.T, pq *PathQueue, budget, limit int, ids ...PathRequestID) []int {
	t.Helper()
	took := make([]int, len(ids))
	for update := 1; update <= limit; update++ {
		pq.Update(budget)
		pending := false
		for i, id := range ids {
			if took[i] != 0 {
				continue
			}
			if st := pq.Status(id); st == PathRequestDone || st == PathRequestFailed {
				took[i] = update
			} else {
				pending = true
			}
		}
		if !pending {
			break
		}
	}
	return took
}

// TestPathQueueMatchesFindPathDungeon runs eight reference pairs through
// the queue, with the crowd's sizes at 100 iterations per update, and with
// node pools of 8 nodes that grow, at a budget that lets every search
// start again in a larger pool within one update (a finished result lasts
// PathQueueKeepAlive updates): the queue gives FindPath's corridors either
// way.
func TestPathQueueMatchesFindPathDungeon(t *testing.T) {
	t.Run("default", func(t *testing.T) { checkPathQueueMatchesFindPath(t, DefaultPathQueueConfig(), 100) })
	t.Run("growing", func(t *testing.T) {
		checkPathQueueMatchesFindPath(t, PathQueueConfig{Slots: 8, MaxPathSize: 256, MaxNodes: 8, NodeLimit: 2048}, 1<<20)
	})
}

func checkPathQueueMatchesFindPath(t *testing.T, config PathQueueConfig, budget int) {
	mesh := testmesh.Dungeon(t)
	filter := dungeonFilter()
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	pq, err := NewPathQueue(mesh, config)
	require.NoError(t, err)

	// The first 8 pairs of query_dungeon.csv with both ends on the mesh.
	type request struct {
		id            PathRequestID
		want          []navmesh.Ref
		wantPolys     int
		wantPartial   bool
		startRef      navmesh.Ref
		endRef        navmesh.Ref
		startPos, end geom.Vec3
	}
	var requests []request
	for _, pair := range testmesh.ReferencePairs(t) {
		if len(requests) == 8 {
			break
		}
		if !pair.StartFound || !pair.EndFound {
			continue
		}
		start, err := q.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(pair.End, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		path := make([]navmesh.Ref, 256)
		n, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
		require.NoError(t, err)
		r := request{
			want: path[:n], wantPolys: pair.PolyCount, wantPartial: pair.Partial,
			startRef: start.Ref, endRef: end.Ref, startPos: start.Point, end: end.Point,
		}
		require.Equal(t, r.wantPolys, n, "FindPath agrees with the reference")
		require.Equal(t, r.wantPartial, status.Partial())
		r.id, err = pq.Request(r.startRef, r.endRef, r.startPos, r.end, filter)
		require.NoError(t, err)
		requests = append(requests, r)
	}
	require.Len(t, requests, 8)

	// The queue is full now.
	id, err := pq.Request(requests[0].startRef, requests[0].endRef, requests[0].startPos, requests[0].end, filter)
	assert.ErrorIs(t, err, ErrCapacity)
	assert.Zero(t, id)
	assert.Equal(t, 8, pq.Pending())

	ids := make([]PathRequestID, len(requests))
	for i := range requests {
		ids[i] = requests[i].id
		assert.Equal(t, PathRequestWaiting, pq.Status(ids[i]))
	}
	took := runUntil(t, pq, budget, 100, ids...)
	for i, r := range requests {
		require.NotZero(t, took[i], "request %d finished", i)
		require.Equal(t, PathRequestDone, pq.Status(r.id))
		dst := make([]navmesh.Ref, 256)
		n, status, err := pq.Result(r.id, dst)
		require.NoError(t, err)
		assert.Equal(t, r.want, dst[:n], "request %d", i)
		assert.Equal(t, r.wantPartial, status.Partial(), "request %d", i)
		assert.Equal(t, PathRequestUnknown, pq.Status(r.id), "claimed")
	}
	assert.Zero(t, pq.Pending())
}

// TestPathQueueHopelessSearchDoesNotBlock puts a full search for an
// unreachable goal (FullSearchUnreachable, as in the reference), with a node
// pool that holds the whole 160×160 floor, in the first slot, and seven
// ordinary searches behind it. The reference would spend its
// whole budget on the first for ~256 updates (25,600 iterations at 100 per
// update) before starting the others; here each ordinary search finishes
// within ceil(iterations / (budget / 8)) updates.
func TestPathQueueHopelessSearchDoesNotBlock(t *testing.T) {
	const size = 160
	g := newGridFixture(t, size)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 8, MaxPathSize: 1024, MaxNodes: 1 << 16, FullSearchUnreachable: true})
	require.NoError(t, err)

	fromRef, from := g.cell(80, 80)
	hopeless, err := pq.Request(fromRef, g.island, from, g.islandCentre(), g.filter)
	require.NoError(t, err)

	goals := [][4]int{{10, 10, 20, 20}, {150, 5, 140, 12}, {0, 159, 9, 150}, {50, 50, 50, 65}, {100, 30, 85, 42}, {70, 140, 76, 140}, {5, 80, 20, 75}}
	ids := make([]PathRequestID, len(goals))
	want := make([][]navmesh.Ref, len(goals))
	direct, err := query.New(g.mesh, 1<<16)
	require.NoError(t, err)
	for i, goal := range goals {
		startRef, start := g.cell(goal[0], goal[1])
		endRef, end := g.cell(goal[2], goal[3])
		ids[i], err = pq.Request(startRef, endRef, start, end, g.filter)
		require.NoError(t, err)
		path := make([]navmesh.Ref, 1024)
		n, status, err := direct.FindPath(startRef, endRef, start, end, g.filter, path)
		require.NoError(t, err)
		require.False(t, status.Partial())
		want[i] = path[:n]
	}

	const budget = 100
	took := runUntil(t, pq, budget, 200, ids...)
	for i, id := range ids {
		iterations := pq.Iterations(id)
		require.NotZero(t, took[i], "request %d finished", i)
		bound := (iterations + budget/8 - 1) / (budget / 8)
		t.Logf("request %d: %d iterations, done after %d updates (bound %d)", i, iterations, took[i], bound)
		assert.LessOrEqual(t, took[i], bound, "request %d: %d iterations took %d updates", i, iterations, took[i])
		dst := make([]navmesh.Ref, 1024)
		n, status, err := pq.Result(id, dst)
		require.NoError(t, err)
		assert.False(t, status.Partial())
		assert.Equal(t, want[i], dst[:n], "same path as FindPath")
	}
	latest := 0
	for _, u := range took {
		latest = max(latest, u)
	}
	assert.Equal(t, PathRequestWaiting, pq.Status(hopeless), "still searching after %d updates", latest)
	assert.Less(t, latest, 100, "all seven done long before the hopeless search could have been")

	// Alone, it gets the whole budget and ends, partial, once it has
	// visited the whole floor.
	took = runUntil(t, pq, budget, 400, hopeless)
	require.NotZero(t, took[0])
	assert.GreaterOrEqual(t, pq.Iterations(hopeless), size*size-1)
	t.Logf("hopeless search: %d iterations, done %d updates later", pq.Iterations(hopeless), took[0])
	dst := make([]navmesh.Ref, 1024)
	n, status, err := pq.Result(hopeless, dst)
	require.NoError(t, err)
	assert.True(t, status.Partial())
	require.NotZero(t, n)
	assert.Equal(t, fromRef, dst[0])
	// The best partial path ends on the floor's quad nearest the island.
	nearest, _ := g.cell(size-1, 0)
	assert.Equal(t, nearest, dst[n-1])
}

func TestPathQueueIterationCap(t *testing.T) {
	g := newGridFixture(t, 60)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 256, MaxNodes: 8192, MaxIterationsPerRequest: 500, FullSearchUnreachable: true})
	require.NoError(t, err)
	fromRef, from := g.cell(30, 30)
	id, err := pq.Request(fromRef, g.island, from, g.islandCentre(), g.filter)
	require.NoError(t, err)

	took := runUntil(t, pq, 100, 20, id)
	assert.Equal(t, 5, took[0], "500 iterations at 100 per update")
	assert.Equal(t, 500, pq.Iterations(id))
	dst := make([]navmesh.Ref, 256)
	n, status, err := pq.Result(id, dst)
	require.NoError(t, err)
	assert.True(t, status.Partial(), "cut short: the best path so far")
	require.NotZero(t, n)
	assert.Equal(t, fromRef, dst[0])

	// A path longer than the caller's buffer is cut and says so.
	toRef, to := g.cell(30, 50)
	id, err = pq.Request(fromRef, toRef, from, to, g.filter)
	require.NoError(t, err)
	runUntil(t, pq, 100, 20, id)
	n, status, err = pq.Result(id, dst[:5])
	require.NoError(t, err)
	assert.Equal(t, 5, n)
	assert.True(t, status.BufferTooSmall())
	assert.False(t, status.Partial())
}

func TestPathQueueKeepAliveAndErrors(t *testing.T) {
	g := newGridFixture(t, 8)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 64, MaxNodes: 256})
	require.NoError(t, err)
	aRef, a := g.cell(0, 0)
	bRef, b := g.cell(7, 7)

	// Invalid requests.
	for _, tc := range []struct {
		name       string
		start, end navmesh.Ref
		pos        geom.Vec3
		filter     *query.Filter
	}{
		{"zero start", 0, bRef, a, g.filter},
		{"zero end", aRef, 0, a, g.filter},
		{"NaN position", aRef, bRef, geom.Vec3{float32(nanValue()), 0, 0}, g.filter},
		{"nil filter", aRef, bRef, a, nil},
	} {
		id, err := pq.Request(tc.start, tc.end, tc.pos, b, tc.filter)
		assert.ErrorIs(t, err, ErrInvalidParam, tc.name)
		assert.Zero(t, id, tc.name)
	}
	assert.Equal(t, PathRequestUnknown, pq.Status(0))

	// A finished result waits PathQueueKeepAlive updates, then goes.
	id, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	_, _, err = pq.Result(id, nil)
	assert.ErrorIs(t, err, ErrRequestPending)
	pq.Update(1000)
	assert.Equal(t, PathRequestDone, pq.Status(id))
	for i := 0; i < PathQueueKeepAlive; i++ {
		pq.Update(1000)
		assert.Equal(t, PathRequestDone, pq.Status(id), "kept alive %d", i+1)
	}
	pq.Update(1000)
	assert.Equal(t, PathRequestUnknown, pq.Status(id), "expired")
	_, _, err = pq.Result(id, nil)
	assert.ErrorIs(t, err, ErrUnknownRequest)

	// A search whose start polygon goes away fails, with the mesh's error.
	stale := aRef + 1<<(navmesh.PolyBits+navmesh.TileBits)
	id, err = pq.Request(stale, bRef, a, b, g.filter)
	require.NoError(t, err)
	pq.Update(100)
	assert.Equal(t, PathRequestFailed, pq.Status(id))
	_, _, err = pq.Result(id, make([]navmesh.Ref, 8))
	assert.ErrorIs(t, err, navmesh.ErrInvalidRef)
	assert.Equal(t, PathRequestUnknown, pq.Status(id), "a failure is claimed too")

	// Cancel frees the slot at once; ids are never reused.
	first, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	second, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	_, err = pq.Request(aRef, bRef, a, b, g.filter)
	assert.ErrorIs(t, err, ErrCapacity)
	assert.True(t, pq.Cancel(first))
	assert.False(t, pq.Cancel(first))
	third, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	assert.NotEqual(t, first, third)
	assert.NotEqual(t, second, third)

	// Same start and end polygon: done at once with that polygon.
	pq.Cancel(second)
	pq.Cancel(third)
	id, err = pq.Request(aRef, aRef, a, a, g.filter)
	require.NoError(t, err)
	pq.Update(1)
	dst := make([]navmesh.Ref, 4)
	n, status, err := pq.Result(id, dst)
	require.NoError(t, err)
	assert.Equal(t, []navmesh.Ref{aRef}, dst[:n])
	assert.Zero(t, status)

	_, err = NewPathQueue(nil, DefaultPathQueueConfig())
	assert.ErrorIs(t, err, ErrInvalidParam)
	for _, cfg := range []PathQueueConfig{
		{Slots: 0, MaxPathSize: 1, MaxNodes: 1},
		{Slots: MaxPathQueueSlots + 1, MaxPathSize: 1, MaxNodes: 1},
		{Slots: 1, MaxPathSize: 0, MaxNodes: 1},
		{Slots: 1, MaxPathSize: 1, MaxNodes: 0},
		{Slots: 1, MaxPathSize: 1, MaxNodes: 1, MaxIterationsPerRequest: -1},
		{Slots: 1, MaxPathSize: 1, MaxNodes: 64, NodeLimit: 32},
		{Slots: 1, MaxPathSize: 1, MaxNodes: 64, NodeLimit: query.MaxNodes + 1},
	} {
		_, err = NewPathQueue(g.mesh, cfg)
		assert.ErrorIs(t, err, ErrInvalidParam, "%+v", cfg)
	}
}

func TestPathQueueDoesNotAllocate(t *testing.T) {
	g := newGridFixture(t, 40)
	reference := DefaultPathQueueConfig()
	reference.ReferenceSchedule = true
	for name, config := range map[string]PathQueueConfig{"default": DefaultPathQueueConfig(), "reference schedule": reference} {
		pq, err := NewPathQueue(g.mesh, config)
		require.NoError(t, err)
		aRef, a := g.cell(1, 1)
		bRef, b := g.cell(38, 30)
		dst := make([]navmesh.Ref, 256)
		allocs := testing.AllocsPerRun(20, func() {
			var ids [8]PathRequestID
			for i := range ids {
				ids[i], _ = pq.Request(aRef, bRef, a, b, g.filter)
			}
			for claimed := 0; claimed < len(ids); {
				pq.Update(100)
				// claim results as they come, before they expire
				for i, id := range ids {
					if id != 0 && pq.Status(id) == PathRequestDone {
						_, _, _ = pq.Result(id, dst)
						ids[i] = 0
						claimed++
					}
				}
			}
		})
		assert.Zero(t, allocs, name)
	}
}

func BenchmarkPathQueue(b *testing.B) {
	g := newGridFixture(b, 40)
	pq, err := NewPathQueue(g.mesh, DefaultPathQueueConfig())
	require.NoError(b, err)
	aRef, a := g.cell(1, 1)
	bRef, end := g.cell(38, 30)
	dst := make([]navmesh.Ref, 256)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id, _ := pq.Request(aRef, bRef, a, end, g.filter)
		for pq.Status(id) == PathRequestWaiting {
			pq.Update(100)
		}
		_, _, _ = pq.Result(id, dst)
	}
}

func nanValue() float64 { return math.NaN() }
