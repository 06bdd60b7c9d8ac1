package tilecache

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// dungeonPoint is a point on the dungeon's ground (obstacle 1 of the
// reference set stands there).
var dungeonPoint = mgl32.Vec3{47.2419357, 9.69729424, -3.66440248}

func TestObstacleHandles(t *testing.T) {
	cache := loadDungeon(t, 1)
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	assert.NotZero(t, ref)
	got, err := cache.Obstacle(ref)
	require.NoError(t, err)
	assert.Equal(t, Cylinder(dungeonPoint, 1, 2), got)
	assert.Equal(t, 1, cache.ObstacleCount())

	require.NoError(t, cache.MoveObstacle(ref, Box(dungeonPoint, dungeonPoint.Add(mgl32.Vec3{1, 1, 1}))))
	require.NoError(t, cache.RemoveObstacle(ref))
	assert.Zero(t, cache.ObstacleCount())
	// The handle is stale at once, before any Update.
	assert.ErrorIs(t, cache.RemoveObstacle(ref), ErrInvalidObstacleRef)
	assert.ErrorIs(t, cache.MoveObstacle(ref, Cylinder(dungeonPoint, 1, 2)), ErrInvalidObstacleRef)
	_, err = cache.Obstacle(ref)
	assert.ErrorIs(t, err, ErrInvalidObstacleRef)
	assert.ErrorIs(t, cache.RemoveObstacle(0), ErrInvalidObstacleRef)
	assert.ErrorIs(t, cache.RemoveObstacle(ObstacleRef(1)<<32|99), ErrInvalidObstacleRef)
	// Slots that are negative as a 32-bit int (they panicked under GOARCH=386).
	for _, bad := range []ObstacleRef{1<<32 | 1<<31, 1<<32 | 0xffffffff} {
		assert.ErrorIs(t, cache.RemoveObstacle(bad), ErrInvalidObstacleRef, "%#x", uint64(bad))
		assert.ErrorIs(t, cache.MoveObstacle(bad, Cylinder(dungeonPoint, 1, 2)), ErrInvalidObstacleRef, "%#x", uint64(bad))
		_, err = cache.Obstacle(bad)
		assert.ErrorIs(t, err, ErrInvalidObstacleRef, "%#x", uint64(bad))
		_, err = cache.ObstacleUpToDate(bad)
		assert.ErrorIs(t, err, ErrInvalidObstacleRef, "%#x", uint64(bad))
	}
	updateUntilDone(t, cache)

	// The slot comes back with a new salt: the old handle stays stale.
	again, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	assert.Equal(t, uint32(ref), uint32(again), "same slot")
	assert.NotEqual(t, ref, again)
	assert.ErrorIs(t, cache.RemoveObstacle(ref), ErrInvalidObstacleRef)
}

func TestObstacleErrorsChangeNothing(t *testing.T) {
	cache := loadDungeon(t, 1)
	before := cache.Mesh().Snapshot()
	nan := float32(0)
	nan /= nan
	cases := []struct {
		name string
		o    Obstacle
		want error
	}{
		{"outside every layer", Cylinder(mgl32.Vec3{1000, 0, 1000}, 1, 2), ErrOutsideLayers},
		{"above every layer", Cylinder(dungeonPoint.Add(mgl32.Vec3{0, 100, 0}), 1, 2), ErrOutsideLayers},
		{"negative radius", Cylinder(dungeonPoint, -1, 2), ErrInvalidObstacle},
		{"NaN", Cylinder(mgl32.Vec3{nan, 0, 0}, 1, 2), ErrInvalidObstacle},
		{"box not ordered", Box(dungeonPoint, dungeonPoint.Sub(mgl32.Vec3{1, 1, 1})), ErrInvalidObstacle},
		{"area above 63", Cylinder(dungeonPoint, 1, 2).WithArea(64), ErrInvalidObstacle},
		{"prism of two points", Prism([]mgl32.Vec2{{0, 0}, {1, 1}}, 0, 1), ErrInvalidObstacle},
		{"concave prism", Prism([]mgl32.Vec2{{0, 0}, {4, 0}, {1, 1}, {0, 4}}, 0, 1), ErrInvalidObstacle},
		{"collinear prism", Prism([]mgl32.Vec2{{0, 0}, {1, 1}, {2, 2}}, 0, 1), ErrInvalidObstacle},
		{"prism of too many points", Prism(make([]mgl32.Vec2, MaxPrismPoints+1), 0, 1), ErrInvalidObstacle},
		{"unknown shape", Obstacle{}, ErrInvalidObstacle},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := cache.AddObstacle(c.o)
			assert.ErrorIs(t, err, c.want)
		})
	}
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	withOne := cache.Mesh().Snapshot()
	assert.ErrorIs(t, cache.MoveObstacle(ref, Cylinder(mgl32.Vec3{1000, 0, 1000}, 1, 2)), ErrOutsideLayers)
	done, err := cache.Update(Budget{})
	require.NoError(t, err)
	assert.True(t, done)
	assert.Same(t, withOne, cache.Mesh().Snapshot(), "a refused move changes nothing")
	assert.NotSame(t, before, withOne)

	// The slots run out at MaxObstacles.
	small, _, err := FromTileSet(func() *TileSet { s, _ := readDungeonTSET(t); s.CacheParams.MaxObstacles = 2; return s }(), Options{})
	require.NoError(t, err)
	for range 2 {
		_, err := small.AddObstacle(Cylinder(dungeonPoint, 1, 2))
		require.NoError(t, err)
	}
	_, err = small.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	assert.ErrorIs(t, err, ErrOutOfObstacles)
}

// TestMoveIsOneRebuild: moving an obstacle rebuilds the layers it left and
// those it reached, each once, and the result equals a fresh add there.
func TestMoveIsOneRebuild(t *testing.T) {
	cache := loadDungeon(t, 1)
	ref, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	far := mgl32.Vec3{15.9544315, 14.295619, -66.1843567}
	require.NoError(t, cache.MoveObstacle(ref, Cylinder(far, 1, 2)))
	require.NoError(t, cache.MoveObstacle(ref, Cylinder(far, 1.5, 2)))
	before := cache.Mesh().Snapshot().Version()
	cache.mu.Lock()
	left := cache.queryLayers(place(Cylinder(dungeonPoint, 1, 2)).bmin, place(Cylinder(dungeonPoint, 1, 2)).bmax, nil)
	reached := cache.queryLayers(place(Cylinder(far, 1.5, 2)).bmin, place(Cylinder(far, 1.5, 2)).bmax, nil)
	cache.resolve()
	pending := len(cache.pending)
	cache.mu.Unlock()
	union := map[uint32]bool{}
	for _, l := range append(left, reached...) {
		union[l] = true
	}
	assert.Equal(t, len(union), pending, "each layer left or reached once")
	done, err := cache.Update(Budget{})
	require.NoError(t, err)
	assert.True(t, done)
	assert.Equal(t, before+1, cache.Mesh().Snapshot().Version(), "one publish")

	fresh := loadDungeon(t, 1)
	_, err = fresh.AddObstacle(Cylinder(far, 1.5, 2))
	require.NoError(t, err)
	updateUntilDone(t, fresh)
	assert.Equal(t, tileBlobs(t, fresh.Mesh().Snapshot()), tileBlobs(t, cache.Mesh().Snapshot()))
}

func TestUpdateBudgets(t *testing.T) {
	cache := loadDungeon(t, 1)
	for _, row := range readObstacles(t, "testdata/tc48_dungeon_obstacles.csv") {
		_, err := cache.AddObstacle(row.obstacle)
		require.NoError(t, err)
	}
	v := cache.Mesh().Snapshot().Version()
	done, err := cache.Update(Budget{MaxTiles: 3})
	require.NoError(t, err)
	assert.False(t, done)
	assert.Equal(t, v+1, cache.Mesh().Snapshot().Version())
	left := cache.Pending()
	// A budget of no time still builds one tile per call.
	done, err = cache.Update(Budget{MaxDuration: time.Nanosecond})
	require.NoError(t, err)
	assert.False(t, done)
	assert.Equal(t, left-1, cache.Pending())
	calls := updateWithin(t, cache, Budget{MaxDuration: time.Microsecond})
	assert.Greater(t, calls, 1)
	assert.Equal(t, readDungeonReference(t).WithObstacles, summary(t, cache))
}

// TestAreaObstaclesThroughTheMeshProcess: a door area volume gets the door
// flag from RecastDemo's mapping, so a filter without it cannot pass, and
// an area of its own (no flags) closes the cells to every flag filter;
// carving wins where a carving obstacle overlaps an area volume.
func TestAreaObstaclesThroughTheMeshProcess(t *testing.T) {
	cache := loadDungeon(t, 1)
	mesh := cache.Mesh()
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	walk := query.NewFilter()
	walk.IncludeFlags = navmesh.FlagWalk
	walk.ExcludeFlags = navmesh.FlagDoor
	nearest := func(filter *query.Filter) navmesh.Ref {
		t.Helper()
		n, err := q.FindNearestPoly(dungeonPoint, mgl32.Vec3{0.1, 2, 0.1}, filter)
		require.NoError(t, err)
		return n.Ref
	}
	require.NotZero(t, nearest(walk))

	box := Box(dungeonPoint.Sub(mgl32.Vec3{2, 1, 2}), dungeonPoint.Add(mgl32.Vec3{2, 2, 2}))
	door, err := cache.AddObstacle(box.WithArea(navmesh.AreaDoor))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	all := query.NewFilter()
	ref := nearest(all)
	require.NotZero(t, ref, "the door is still ground")
	area, err := mesh.Snapshot().PolyArea(ref)
	require.NoError(t, err)
	flags, err := mesh.Snapshot().PolyFlags(ref)
	require.NoError(t, err)
	assert.Equal(t, navmesh.AreaDoor, area)
	assert.Equal(t, navmesh.FlagWalk|navmesh.FlagDoor, flags)
	assert.Zero(t, nearest(walk), "a shut door: the walk filter excludes it")

	require.NoError(t, cache.MoveObstacle(door, box.WithArea(40)))
	updateUntilDone(t, cache)
	assert.Zero(t, nearest(all), "an area the mapping gives no flags passes no filter")
	unflagged := 0
	s := mesh.Snapshot()
	for i := range s.MaxTiles() {
		if tile := s.Tile(i); tile != nil {
			for _, p := range tile.Polys {
				if p.Area() == 40 {
					assert.Zero(t, p.Flags)
					unflagged++
				}
			}
		}
	}
	assert.Positive(t, unflagged)

	// A carving obstacle inside the door cuts a hole through it.
	require.NoError(t, cache.MoveObstacle(door, box.WithArea(navmesh.AreaDoor)))
	_, err = cache.AddObstacle(Cylinder(dungeonPoint.Sub(mgl32.Vec3{0, 0.5, 0}), 0.5, 2))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	assert.Zero(t, nearest(all), "carved")
	near, err := q.FindNearestPoly(dungeonPoint, mgl32.Vec3{2, 2, 2}, all)
	require.NoError(t, err)
	area, err = mesh.Snapshot().PolyArea(near.Ref)
	require.NoError(t, err)
	assert.Equal(t, navmesh.AreaDoor, area, "the door around the hole")
}

// TestPrismMarksLikeBox: a rectangular prism marks the cells the box with
// the same bounds marks.
func TestPrismMarksLikeBox(t *testing.T) {
	set, _ := readDungeonTSET(t)
	layer, err := DecodeLayer(set.Layers[0].Data, FastLZ{})
	require.NoError(t, err)
	cs, ch := set.CacheParams.CellSize, set.CacheParams.CellHeight
	rng := rand.New(rand.NewPCG(1, 2))
	h := layer.Header
	for range 200 {
		x0 := h.BMin[0] + float32(rng.Float32()*float32(h.Width)*cs)
		z0 := h.BMin[2] + float32(rng.Float32()*float32(h.Height)*cs)
		x1, z1 := x0+0.1+float32(5*rng.Float32()), z0+0.1+float32(5*rng.Float32())
		y0 := h.BMin[1] + float32(rng.Float32()*(h.BMax[1]-h.BMin[1]))
		y1 := y0 + float32(2*float32(rng.Float32()))
		if x0 == float32(int(x0)) || z0 == float32(int(z0)) {
			continue
		}
		for _, area := range []uint8{NullArea, 7} {
			box := Box(mgl32.Vec3{x0, y0, z0}, mgl32.Vec3{x1, y1, z1}).WithArea(area)
			prism := Prism([]mgl32.Vec2{{x0, z0}, {x0, z1}, {x1, z1}, {x1, z0}}, y0, y1).WithArea(area)
			require.NoError(t, prism.check())
			a, b := cloneLayer(layer), cloneLayer(layer)
			pb, pp := place(box), place(prism)
			pb.mark(a, cs, ch)
			pp.mark(b, cs, ch)
			require.Equal(t, a.Areas, b.Areas)
		}
	}
	// A triangle marks fewer cells than its bounding box.
	a, b := cloneLayer(layer), cloneLayer(layer)
	x, z := h.BMin[0]+3, h.BMin[2]+3
	tri := place(Prism([]mgl32.Vec2{{x, z}, {x + 8, z}, {x, z + 8}}, h.BMin[1], h.BMax[1]))
	bounds := place(Box(mgl32.Vec3{x, h.BMin[1], z}, mgl32.Vec3{x + 8, h.BMax[1], z + 8}))
	tri.mark(a, cs, ch)
	bounds.mark(b, cs, ch)
	assert.Less(t, countArea(a, NullArea), countArea(b, NullArea))
	assert.Greater(t, countArea(a, NullArea), countArea(layer, NullArea))
}

func cloneLayer(l *Layer) *Layer {
	c := *l
	c.Heights = append([]byte(nil), l.Heights...)
	c.Areas = append([]byte(nil), l.Areas...)
	c.Cons = append([]byte(nil), l.Cons...)
	return &c
}

func countArea(l *Layer, area uint8) int {
	n := 0
	for _, a := range l.Areas {
		if a == area {
			n++
		}
	}
	return n
}

func TestLayerAddRemove(t *testing.T) {
	set, _ := readDungeonTSET(t)
	cache, mesh, err := FromTileSet(set, Options{})
	require.NoError(t, err)
	updateUntilDone(t, cache)
	assert.Equal(t, 30, cache.LayerCount())
	_, err = cache.AddLayer(set.Layers[3].Data)
	assert.ErrorIs(t, err, ErrLayerExists)
	_, err = cache.AddLayer(set.Layers[3].Data[:40])
	assert.ErrorIs(t, err, ErrInvalidLayer)

	refs := cache.LayersAt(2, 0, nil)
	require.Len(t, refs, 2)
	assert.Equal(t, []LayerRef{set.Layers[1].Ref, set.Layers[0].Ref}, refs, "most recently added first, C++ refs")
	tiles := mesh.Snapshot().TileCount()
	data, err := cache.RemoveLayer(refs[0])
	require.NoError(t, err)
	assert.Equal(t, set.Layers[1].Data, data)
	_, err = cache.RemoveLayer(refs[0])
	assert.ErrorIs(t, err, ErrInvalidLayerRef)
	updateUntilDone(t, cache)
	assert.Equal(t, tiles-1, mesh.Snapshot().TileCount())
	assert.Nil(t, mesh.Snapshot().TileAt(2, 0, 1))

	// Added back, it takes the freed slot with a new salt and its tile
	// returns; an obstacle already there marks it.
	ref, err := cache.AddObstacle(Box(mgl32.Vec3{-100, -100, -100}, mgl32.Vec3{100, 100, 100}))
	require.NoError(t, err)
	updateUntilDone(t, cache)
	again, err := cache.AddLayer(data)
	require.NoError(t, err)
	assert.NotEqual(t, refs[0], again)
	updateUntilDone(t, cache)
	assert.Nil(t, mesh.Snapshot().TileAt(2, 0, 1), "the huge box carves the re-added layer too")
	require.NoError(t, cache.RemoveObstacle(ref))
	updateUntilDone(t, cache)
	assert.Equal(t, readDungeonReference(t).Initial, summary(t, cache))
}

// TestConcurrentQueriesDuringUpdates runs path queries on several
// goroutines while one goroutine adds, moves and removes obstacles and
// another runs Update on two workers. Run it with -race.
func TestConcurrentQueriesDuringUpdates(t *testing.T) {
	cache := loadDungeon(t, 2)
	mesh := cache.Mesh()
	obstacles := readObstacles(t, "testdata/tc48_dungeon_obstacles.csv")
	pairs := readReferencePaths(t)[:50]

	var done atomic.Bool
	var queries, readers atomic.Int64
	var wg sync.WaitGroup
	for r := range 3 {
		wg.Add(1)
		readers.Add(1)
		go func() {
			defer wg.Done()
			defer readers.Add(-1)
			q, err := query.New(mesh, 2048)
			if !assert.NoError(t, err) {
				return
			}
			filter := query.NewFilter()
			path := make([]navmesh.Ref, 256)
			points := make([]query.StraightPathPoint, 256)
			for i := r; !done.Load(); i++ {
				p := pairs[i%len(pairs)]
				start, err1 := q.FindNearestPoly(p.start, testmesh.DungeonHalfExtents, filter)
				end, err2 := q.FindNearestPoly(p.end, testmesh.DungeonHalfExtents, filter)
				if !assert.NoError(t, err1) || !assert.NoError(t, err2) {
					return
				}
				if start.Ref == 0 || end.Ref == 0 {
					continue
				}
				n, _, err := q.FindPath(start.Ref, end.Ref, p.start, p.end, filter, path)
				if err != nil {
					// The tiles changed between the two calls: a stale ref.
					if !assert.ErrorIs(t, err, navmesh.ErrInvalidRef) {
						return
					}
					continue
				}
				if _, _, err := q.FindStraightPath(p.start, p.end, path[:n], points, 0); err != nil && !assert.ErrorIs(t, err, navmesh.ErrInvalidRef) {
					return
				}
				queries.Add(1)
			}
		}()
	}
	var updates atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !done.Load() {
			if _, err := cache.Update(Budget{MaxTiles: 4}); !assert.NoError(t, err) {
				return
			}
			updates.Add(1)
			runtime.Gosched()
		}
	}()
	for queries.Load() < 10 && readers.Load() > 0 {
		runtime.Gosched()
	}
	rng := rand.New(rand.NewPCG(8, 9))
	refs := map[int]ObstacleRef{}
	for step := range 150 {
		i := rng.IntN(len(obstacles))
		ref, ok := refs[i]
		switch {
		case !ok:
			r, err := cache.AddObstacle(obstacles[i].obstacle)
			require.NoError(t, err)
			refs[i] = r
		case step%3 == 0:
			require.NoError(t, cache.RemoveObstacle(ref))
			delete(refs, i)
		default:
			o := obstacles[i].obstacle
			o.Position[0] += 0.5
			o.Min[0] += 0.5
			o.Max[0] += 0.5
			if err := cache.MoveObstacle(ref, o); err != nil {
				require.ErrorIs(t, err, ErrOutsideLayers)
			}
		}
		if step%20 == 0 {
			runtime.Gosched()
		}
	}
	for _, ref := range refs {
		require.NoError(t, cache.RemoveObstacle(ref))
	}
	for cache.Pending() > 0 {
		runtime.Gosched()
	}
	done.Store(true)
	wg.Wait()
	updateUntilDone(t, cache)
	assert.Positive(t, queries.Load())
	assert.Positive(t, updates.Load())
	assert.Equal(t, readDungeonReference(t).Initial, summary(t, cache), "all removed: the first mesh again")
	t.Logf("%d queries, %d updates", queries.Load(), updates.Load())
}

// TestUpdateReportsTilesTheMeshCannotTake: a tile over the mesh's MaxPolys
// keeps its old version, the error names it, and the other tiles publish.
func TestUpdateReportsTilesTheMeshCannotTake(t *testing.T) {
	set, _ := readDungeonTSET(t)
	set.MeshParams.MaxPolys = 8
	cache, mesh, err := FromTileSet(set, Options{})
	require.NoError(t, err)
	done, err := cache.Update(Budget{})
	assert.ErrorIs(t, err, ErrLayerTooComplex)
	assert.True(t, done, "nothing is left queued: the failed tiles are reported, not retried")
	s := mesh.Snapshot()
	assert.Positive(t, s.TileCount())
	for i := range s.MaxTiles() {
		if tile := s.Tile(i); tile != nil {
			assert.LessOrEqual(t, int(tile.Data.Header.PolyCount), 8)
		}
	}
}
