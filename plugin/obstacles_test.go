package plugin

import (
	"math"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dungeonFloor is a point on the dungeon's ground floor, in the open.
var dungeonFloor = geom.Vec3{-0.6, 9.7, -11.0}

// obstacleWorld is a crowd on the tile cache of dungeon, without agents.
type obstacleWorld struct {
	cache  *tilecache.Cache
	plugin *Plugin
	world  *ecs.World
	log    *eventLog
	q      *query.Query
}

func newObstacleWorld(tb testing.TB, config Config) *obstacleWorld {
	tb.Helper()
	w := &obstacleWorld{cache: loadDungeonCache(tb), log: &eventLog{}}
	config.TileCache, config.OnEvent = w.cache, w.log.record
	var err error
	w.plugin, err = New(config)
	require.NoError(tb, err)
	world := ecs.NewWorld()
	w.world = &world
	require.NoError(tb, w.plugin.Install(w.world))
	w.q, err = query.New(w.cache.Mesh(), 2048)
	require.NoError(tb, err)
	return w
}

func (w *obstacleWorld) step(tb testing.TB, ticks int) {
	tb.Helper()
	for range ticks {
		require.NoError(tb, w.plugin.Step(w.world, 1.0/60))
		w.log.tick++
	}
}

func (w *obstacleWorld) state(tb testing.TB, e ecs.Entity) components.ObstacleState {
	tb.Helper()
	info, err := w.plugin.Obstacle(w.world, e)
	require.NoError(tb, err)
	return info.State
}

// ground returns the distance (xz) from pos to the nearest polygon within
// 3 m, +Inf when there is none.
func (w *obstacleWorld) ground(pos geom.Vec3) float32 {
	filter := components.DefaultFilter()
	nearest, err := w.q.FindNearestPoly(pos, geom.Vec3{3, 1, 3}, &filter)
	if err != nil || nearest.Ref == 0 {
		return float32(math.Inf(1))
	}
	return geom.Dist2D(nearest.Point, pos)
}

func (w *obstacleWorld) count(kind components.EventKind, e ecs.Entity) int {
	n := 0
	for _, ev := range w.log.events {
		if ev.Kind == kind && ev.Entity == e {
			n++
		}
	}
	return n
}

func TestObstacleAPIErrors(t *testing.T) {
	mesh := floorLevel(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 4})
	require.NoError(t, err)
	world := ecs.NewWorld()
	pose := components.ObstaclePose{Position: geom.Vec3{10, 0, 10}}
	cylinder := components.CylinderObstacle(1, 2)

	_, err = p.SpawnObstacle(&world, pose, cylinder)
	assert.ErrorIs(t, err, ErrNotInstalled)
	require.NoError(t, p.Install(&world))

	// Without a tile cache an obstacle cannot change the navmesh: an error
	// at the call, not a silent no-op.
	_, err = p.SpawnObstacle(&world, pose, cylinder.Carving())
	assert.ErrorIs(t, err, ErrNoTileCache)
	_, err = p.SpawnObstacle(&world, pose, cylinder.MarkingArea(navmesh.AreaDoor))
	assert.ErrorIs(t, err, ErrNoTileCache)

	nan := float32(math.NaN())
	for name, tc := range map[string]struct {
		pose     components.ObstaclePose
		obstacle components.Obstacle
	}{
		"zero radius":     {pose, components.CylinderObstacle(0, 2)},
		"negative height": {pose, components.BoxObstacle(1, 1, -1)},
		"NaN half extent": {pose, components.OrientedBoxObstacle(nan, 1, 1)},
		"not convex":      {pose, components.PrismObstacle([][2]float32{{0, 0}, {2, 0}, {1, 0.2}, {2, 2}, {0, 2}}, 1)},
		"two corners":     {pose, components.PrismObstacle([][2]float32{{0, 0}, {2, 0}}, 1)},
		"no area":         {pose, cylinder.MarkingArea(0)},
		"unknown shape":   {pose, components.Obstacle{Shape: 9}},
		"NaN position":    {components.ObstaclePose{Position: geom.Vec3{nan, 0, 0}}, cylinder},
		"infinite yaw":    {components.ObstaclePose{Yaw: float32(math.Inf(1))}, cylinder},
	} {
		_, err := p.SpawnObstacle(&world, tc.pose, tc.obstacle)
		assert.ErrorIs(t, err, ErrInvalidInput, name)
	}

	e, err := p.SpawnObstacle(&world, pose, cylinder)
	require.NoError(t, err)
	agent, err := p.Spawn(&world, geom.Vec3{2, 0, 2}, components.DefaultAgentParams())
	require.NoError(t, err)
	assert.ErrorIs(t, p.SetObstaclePose(&world, agent, pose), ErrNotObstacle)
	assert.ErrorIs(t, p.SetObstaclePose(&world, e, components.ObstaclePose{Position: geom.Vec3{nan, 0, 0}}), ErrInvalidInput)
	assert.ErrorIs(t, p.SetObstacle(&world, e, cylinder.Carving()), ErrNoTileCache)
	_, err = p.Obstacle(&world, agent)
	assert.ErrorIs(t, err, ErrNotObstacle)

	q := world.Query(ecs.All())
	assert.ErrorIs(t, p.SetObstaclePose(&world, e, pose), ErrWorldLocked)
	_, err = p.SpawnObstacle(&world, pose, cylinder)
	assert.ErrorIs(t, err, ErrWorldLocked)
	_, err = p.Obstacle(&world, e) // read-outs work under a query
	assert.NoError(t, err)
	q.Close()

	require.NoError(t, p.RemoveObstacle(&world, e))
	assert.ErrorIs(t, p.RemoveObstacle(&world, e), ErrNotObstacle)
	_, err = p.Obstacle(&world, e)
	assert.ErrorIs(t, err, ErrNotObstacle)
}

// TestCarvingPolicy: a carving obstacle carves once it has stood still
// for its StationaryTime, keeps its hole through moves smaller than
// MoveThreshold, loses it while it moves and carves again where it stops;
// with CarveWhileMoving its hole follows it. Removing the entity, even with
// world.RemoveEntity, takes it out of the cache.
func TestCarvingPolicy(t *testing.T) {
	w := newObstacleWorld(t, Config{})
	mesh := w.cache.Mesh()
	radius := w.plugin.Config().CarveInflation
	require.Less(t, w.ground(dungeonFloor), float32(0.01), "the test point is on the navmesh")

	crate := components.CylinderObstacle(1, 2).Carving()
	e, err := w.plugin.SpawnObstacle(w.world, components.ObstaclePose{Position: dungeonFloor}, crate)
	require.NoError(t, err)
	w.step(t, 29)
	st := w.state(t, e)
	assert.False(t, st.InCache, "carves only after standing still for 0.5 s")
	assert.InDelta(t, 28.0/60, st.StillTime, 1e-4)
	w.step(t, 3)
	assert.True(t, w.state(t, e).InCache)
	for ticks := 0; !w.state(t, e).Landed; ticks++ {
		require.Less(t, ticks, 10)
		w.step(t, 1)
	}
	assert.Equal(t, 1, w.count(components.EventObstacleLanded, e))
	// Carved with the agent radius: the nearest ground is a radius beyond
	// the footprint (less a cell of rounding).
	assert.Greater(t, w.ground(dungeonFloor), 1+radius-0.3)

	// A move under the threshold keeps the hole where it is.
	version := mesh.Snapshot().Version()
	nudged := geom.Add(dungeonFloor, geom.Vec3{0.05, 0, 0})
	require.NoError(t, w.plugin.SetObstaclePose(w.world, e, components.ObstaclePose{Position: nudged}))
	w.step(t, 60)
	assert.Equal(t, version, mesh.Snapshot().Version())
	assert.True(t, w.state(t, e).Landed)

	// A move beyond it takes the hole away while the obstacle moves ...
	far := geom.Add(dungeonFloor, geom.Vec3{0, 0, 3})
	require.NoError(t, w.plugin.SetObstaclePose(w.world, e, components.ObstaclePose{Position: far}))
	w.step(t, 1)
	st = w.state(t, e)
	assert.False(t, st.InCache)
	assert.Zero(t, st.Velocity, "a jump has no velocity")
	w.step(t, 2)
	assert.Less(t, w.ground(dungeonFloor), float32(0.01), "the old hole is gone")
	// ... and carves again once it has stood still where it went.
	w.step(t, 40)
	assert.True(t, w.state(t, e).Landed)
	assert.Greater(t, w.ground(far), 1+radius-0.3)
	assert.Equal(t, 2, w.count(components.EventObstacleLanded, e))

	// Carving while moving: the hole follows at once.
	require.NoError(t, w.plugin.SetObstacle(w.world, e, func() components.Obstacle {
		o := crate
		o.CarveWhileMoving = true
		return o
	}()))
	require.NoError(t, w.plugin.SetObstaclePose(w.world, e, components.ObstaclePose{Position: dungeonFloor}))
	w.step(t, 5)
	st = w.state(t, e)
	assert.True(t, st.Landed)
	assert.Greater(t, w.ground(dungeonFloor), 1+radius-0.3)
	assert.Less(t, w.ground(far), float32(0.01))

	// Removed with world.RemoveEntity, it leaves the cache at the next
	// tick.
	require.Equal(t, 1, w.cache.ObstacleCount())
	w.world.RemoveEntity(e)
	w.step(t, 2)
	assert.Zero(t, w.cache.ObstacleCount())
	assert.Less(t, w.ground(dungeonFloor), float32(0.01))
}

// TestCarveMatchesFootprint: every shape carves its footprint grown by
// Config.CarveInflation, turned as its Footprint says: points well inside
// are off the navmesh, points well outside stay on it.
func TestCarveMatchesFootprint(t *testing.T) {
	w := newObstacleWorld(t, Config{})
	radius := w.plugin.Config().CarveInflation
	cell := w.cache.Params().CellSize
	require.Equal(t, w.cache.Params().WalkableRadius+cell, radius, "the agent radius and a cell by default")
	pose := components.ObstaclePose{Position: dungeonFloor, Yaw: 0.6}
	// The points that lie well inside the navmesh before: rebuilding a tile
	// moves its walls by a few centimetres, so points near them do not
	// count.
	before := map[[2]int]bool{}
	var samples []geom.Vec3
	for dx := -40; dx <= 40; dx++ {
		for dz := -40; dz <= 40; dz++ {
			p := geom.Add(dungeonFloor, geom.Vec3{float32(dx) * 0.1, 0, float32(dz) * 0.1})
			samples = append(samples, p)
			deep := true
			for _, d := range []geom.Vec3{{}, {0.3, 0, 0}, {-0.3, 0, 0}, {0, 0, 0.3}, {0, 0, -0.3}} {
				deep = deep && w.ground(geom.Add(p, d)) < 0.01
			}
			before[[2]int{dx, dz}] = deep
		}
	}
	for _, o := range []components.Obstacle{
		components.CylinderObstacle(0.8, 2),
		components.BoxObstacle(1.2, 0.5, 2),
		components.OrientedBoxObstacle(1.2, 0.5, 2),
		components.PrismObstacle([][2]float32{{-1, -0.5}, {1.2, -0.6}, {0.3, 0.9}}, 2),
	} {
		e, err := w.plugin.SpawnObstacle(w.world, pose, o.Carving())
		require.NoError(t, err)
		w.step(t, 40)
		require.True(t, w.state(t, e).Landed, o.Shape)
		f := o.Footprint(pose)
		i := 0
		inside, outside := 0, 0
		for dx := -40; dx <= 40; dx++ {
			for dz := -40; dz <= 40; dz++ {
				p := samples[i]
				i++
				d, _, _ := f.Distance(p[0], p[2])
				switch {
				case d < radius-float32(2*cell):
					inside++
					assert.Greater(t, w.ground(p), float32(0.05), "%s: %v, %.2f inside the grown footprint, is on the navmesh", o.Shape, p, radius-d)
				case d > radius+float32(3*cell) && before[[2]int{dx, dz}]:
					outside++
					assert.Less(t, w.ground(p), float32(0.01), "%s: %v, %.2f outside the grown footprint, is off the navmesh", o.Shape, p, d-radius)
				}
			}
		}
		assert.Greater(t, inside, 100, o.Shape)
		assert.Greater(t, outside, 1000, o.Shape)
		require.NoError(t, w.plugin.RemoveObstacle(w.world, e))
		w.step(t, 2)
	}
}

// TestAreaObstacleDoor: an area obstacle with navmesh.AreaDoor gives the
// navmesh under it the door flag (RecastDemo's mapping), so that a filter
// can keep agents out; switched to carving, the door closes for everyone.
func TestAreaObstacleDoor(t *testing.T) {
	w := newObstacleWorld(t, Config{})
	door := components.BoxObstacle(1.5, 0.4, 2)
	pose := components.ObstaclePose{Position: geom.Sub(dungeonFloor, geom.Vec3{0, 0.3, 0})}
	e, err := w.plugin.SpawnObstacle(w.world, pose, door.MarkingArea(navmesh.AreaDoor))
	require.NoError(t, err)
	w.step(t, 2)
	require.True(t, w.state(t, e).Landed, "an area obstacle marks at once")
	filter := components.DefaultFilter()
	nearest, err := w.q.FindNearestPoly(dungeonFloor, geom.Vec3{0.1, 1, 0.1}, &filter)
	require.NoError(t, err)
	require.NotZero(t, nearest.Ref)
	area, err := w.cache.Mesh().PolyArea(nearest.Ref)
	require.NoError(t, err)
	flags, err := w.cache.Mesh().PolyFlags(nearest.Ref)
	require.NoError(t, err)
	assert.Equal(t, navmesh.AreaDoor, area)
	assert.Equal(t, navmesh.FlagWalk|navmesh.FlagDoor, flags)
	info, err := w.plugin.Obstacle(w.world, e)
	require.NoError(t, err)
	assert.Equal(t, 0, len(ecs.GetResource[components.ObstacleBodies](w.world).List), "an area obstacle is no body")
	_ = info

	// Closed: carved at once.
	closed := door.Carving()
	closed.StationaryTime = 0
	require.NoError(t, w.plugin.SetObstacle(w.world, e, closed))
	w.step(t, 3)
	assert.True(t, w.state(t, e).Landed)
	assert.Greater(t, w.ground(dungeonFloor), float32(0.3))
}

// TestAvoidedObstacles: agents walking past obstacles that do not change
// the navmesh (a cylinder crossing their way, a box and a prism standing in
// it) steer around them and never walk into them, with either avoidance
// method.
func TestAvoidedObstacles(t *testing.T) {
	for _, method := range avoidanceMethods {
		t.Run(method.String(), func(t *testing.T) { testAvoidedObstacles(t, method) })
	}
}

func testAvoidedObstacles(t *testing.T, method crowd.AvoidanceMethod) {
	mesh := floorLevel(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 10, AvoidancePresets: presetsFor(method)})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	box, err := p.SpawnObstacle(&world, components.ObstaclePose{Position: geom.Vec3{10, 0, 5}, Yaw: 0.4}, components.OrientedBoxObstacle(1.5, 0.5, 1))
	require.NoError(t, err)
	prism, err := p.SpawnObstacle(&world, components.ObstaclePose{Position: geom.Vec3{10, 0, 15}}, components.PrismObstacle([][2]float32{{-1, -1}, {1, -1}, {0, 1.2}}, 1))
	require.NoError(t, err)
	cartStart := geom.Vec3{10, 0, 2}
	cart, err := p.SpawnObstacle(&world, components.ObstaclePose{Position: cartStart}, components.CylinderObstacle(0.8, 1))
	require.NoError(t, err)
	starts := []geom.Vec3{{2, 0, 5}, {2, 0, 10}, {2, 0, 15}, {18, 0, 6}, {18, 0, 14}}
	targets := []geom.Vec3{{18, 0, 5}, {18, 0, 10}, {18, 0, 15}, {2, 0, 6}, {2, 0, 14}}
	agents := spawnAt(t, p, &world, starts, targets)
	radius := components.DefaultAgentParams().Radius

	for tick := 0; tick < 600; tick++ {
		// The cart crosses the hall at 1.5 m/s, back and forth.
		z := 2 + float32(16*float32(math.Abs(math.Mod(float64(tick)*1.5/60/16, 2)-1)))
		require.NoError(t, p.SetObstaclePose(&world, cart, components.ObstaclePose{Position: geom.Vec3{10, 0, 18 - z}}))
		require.NoError(t, p.Step(&world, 1.0/60))
		for i, e := range agents {
			info, err := p.State(&world, e)
			require.NoError(t, err)
			for _, o := range []ecs.Entity{box, prism, cart} {
				oi, err := p.Obstacle(&world, o)
				require.NoError(t, err)
				f := oi.Obstacle.Footprint(oi.Pose)
				d, _, _ := f.Distance(info.Position[0], info.Position[2])
				require.Greater(t, d, radius-0.15, "tick %d: agent %d walked into the %s", tick, i, oi.Obstacle.Shape)
			}
		}
	}
	st, err := p.Obstacle(&world, cart)
	require.NoError(t, err)
	assert.InDelta(t, 1.5, geom.Len(st.State.Velocity), 0.01, "the cart's velocity comes from its moves")
	for i, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		assert.Less(t, geom.Dist2D(info.Position, targets[i]), float32(1), "agent %d", i)
	}
}

// TestObstaclesWithWorkersAreBitIdentical: a crowd among obstacles that
// carve, move and go comes out the same with one and two workers (run it
// with -race).
func TestObstaclesWithWorkersAreBitIdentical(t *testing.T) {
	agents, ticks := 80, 240
	if testing.Short() {
		agents, ticks = 40, 150
	}
	first := readObstacleState(t, dungeonObstaclesPath)
	moved := readObstacleState(t, dungeonMovedObstaclePath)
	var want []geom.Vec3
	for _, workers := range []int{1, 2} {
		r := newObstacleRun(t, loadDungeonCache(t), agents, 5, Config{Workers: workers})
		for tick := 0; tick < ticks; tick++ {
			switch tick {
			case 10:
				r.apply(t, first)
			case ticks / 2:
				r.apply(t, moved)
			}
			r.step(t)
		}
		got := r.positions(t)
		r.plugin.Schedule().Finalize(r.world)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got)
	}
}
