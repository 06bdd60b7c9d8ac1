package crowddraw_test

import (
	"context"
	"image/color"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/archenav/archenav/plugin/crowddraw"
)

// dungeonCrowd is a world on the dungeon tile with 12 agents walking to
// random targets for half a second.
func dungeonCrowd(t *testing.T) (*ecs.World, *plugin.Plugin, *navmesh.Mesh, []ecs.Entity) {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	p, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 16})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(7, 11))
	filter := query.NewFilter()
	var agents []ecs.Entity
	for range 12 {
		start, err := q.FindRandomPoint(filter, rng.Float32)
		require.NoError(t, err)
		e, err := p.Spawn(&world, start.Pos, components.DefaultAgentParams())
		require.NoError(t, err)
		target, err := q.FindRandomPoint(filter, rng.Float32)
		require.NoError(t, err)
		require.NoError(t, p.RequestMoveTarget(&world, e, target.Pos))
		agents = append(agents, e)
	}
	for range 30 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	return &world, p, mesh, agents
}

func TestDrawShowsEveryAgentsLayers(t *testing.T) {
	world, p, mesh, agents := dungeonCrowd(t)
	c, err := crowddraw.New(world)
	require.NoError(t, err)
	style := navdraw.DefaultStyle()

	// The oracle: what the plugin says of each agent.
	wantCorridorTriangles, withTargets, corners, neighbours, segments, moving := 0, 0, 0, 0, 0, 0
	snap := mesh.Snapshot()
	for _, e := range agents {
		info, err := p.State(world, e)
		require.NoError(t, err)
		if info.Target.HasPath() {
			withTargets++
		}
		path, err := p.Corridor(world, e, nil)
		require.NoError(t, err)
		for _, ref := range path {
			tile, _, err := snap.TileAndPoly(ref)
			require.NoError(t, err)
			wantCorridorTriangles += int(tile.Data.DetailMeshes[ref.PolyIndex()].TriCount)
		}
		cs, err := p.Corners(world, e)
		require.NoError(t, err)
		corners += cs.Count
		if info.Velocity != ([3]float32{}) {
			moving++
		}
	}
	neighboursOf, boundaryOf := mapOf[components.Neighbours](world), mapOf[components.Boundary](world)
	for _, e := range agents {
		neighbours += neighboursOf(e).Count
		segments += boundaryOf(e).SegmentCount()
	}
	require.Positive(t, neighbours, "some agents have neighbours")
	require.Positive(t, segments, "some agents have walls near")
	require.Positive(t, corners)

	count := func(layers crowddraw.Layers) *debugdraw.Recorder {
		r := &debugdraw.Recorder{}
		c.Draw(r, layers, style)
		return r
	}
	body := 2*debugdraw.CircleSegments + 4
	assert.Equal(t, len(agents)*body, count(crowddraw.Bodies).Count(debugdraw.KindLine))
	assert.Equal(t, 3*withTargets, count(crowddraw.Targets).Count(debugdraw.KindLine))
	assert.Equal(t, wantCorridorTriangles, count(crowddraw.Corridors).Count(debugdraw.KindTriangle))
	assert.Equal(t, 3*segments, count(crowddraw.Boundaries).Count(debugdraw.KindLine), "an arrow per segment")
	assert.Equal(t, neighbours, count(crowddraw.Neighbours).Count(debugdraw.KindLine))
	assert.Equal(t, corners, count(crowddraw.Corners).Count(debugdraw.KindPoint), "a dot per corner")
	assert.GreaterOrEqual(t, count(crowddraw.Velocities).Count(debugdraw.KindLine), 3*moving, "an arrow per moving agent")
	assert.Zero(t, count(0).Len())
	all := count(crowddraw.AllLayers)
	assert.Greater(t, all.Len(), count(crowddraw.DefaultLayers).Len())
}

// mapOf returns a reader of component T.
func mapOf[T any](world *ecs.World) func(e ecs.Entity) *T {
	id := ecs.ComponentID[T](world)
	return func(e ecs.Entity) *T { return (*T)(world.Get(e, id)) }
}

func TestDrawAgentAndAvoidanceSamples(t *testing.T) {
	world, _, _, agents := dungeonCrowd(t)
	c, err := crowddraw.New(world)
	require.NoError(t, err)
	style := navdraw.DefaultStyle()
	r := &debugdraw.Recorder{}
	require.NoError(t, c.DrawAgent(r, agents[3], crowddraw.Bodies, style))
	require.Equal(t, 2*debugdraw.CircleSegments+4, r.Len())
	assert.Equal(t, style.AgentSelected, r.Primitives[0].Color)

	debug, err := crowd.NewAvoidanceDebug(512)
	require.NoError(t, err)
	require.NoError(t, c.AvoidanceSamples(agents[3], debug))
	samples := debug.Samples()
	require.NotEmpty(t, samples, "the default agent avoids obstacles")
	low, high := float32(1), float32(0)
	for _, s := range samples {
		low, high = min(low, s.Penalty), max(high, s.Penalty)
	}
	assert.Equal(t, float32(0), low, "normalized")
	assert.Equal(t, float32(1), high)
	r.Reset()
	navdraw.AvoidanceSamples(r, [3]float32{}, samples, style)
	assert.Equal(t, 2*len(samples), r.Count(debugdraw.KindTriangle))

	plain := world.NewEntity()
	assert.ErrorIs(t, c.DrawAgent(r, plain, crowddraw.Bodies, style), crowddraw.ErrNotAnAgent)
	assert.ErrorIs(t, c.AvoidanceSamples(plain, debug), crowddraw.ErrNotAnAgent)
	assert.Empty(t, debug.Samples(), "reset before failing")
	assert.Error(t, c.AvoidanceSamples(agents[0], nil))
	_, err = crowddraw.New(nil)
	assert.Error(t, err)
}

// TestAvoidanceSamplesFollowTheMethod: the samples are those of the
// agent's preset's method: the grid's 33×33 candidates, none for ORCA.
func TestAvoidanceSamplesFollowTheMethod(t *testing.T) {
	world, p, _, agents := dungeonCrowd(t)
	c, err := crowddraw.New(world)
	require.NoError(t, err)
	debug, err := crowd.NewAvoidanceDebug(2048)
	require.NoError(t, err)
	preset := components.DefaultAgentParams().AvoidancePreset
	require.NoError(t, c.AvoidanceSamples(agents[3], debug))
	adaptive := len(debug.Samples())

	grid := crowd.AvoidancePreset(crowd.AvoidanceHigh)
	grid.Method = crowd.AvoidanceGrid
	require.NoError(t, p.SetAvoidancePreset(world, int(preset), grid))
	require.NoError(t, c.AvoidanceSamples(agents[3], debug))
	assert.Greater(t, len(debug.Samples()), 4*adaptive, "the grid scores far more candidates")

	require.NoError(t, p.SetAvoidancePreset(world, int(preset), crowd.ORCAPreset()))
	require.NoError(t, c.AvoidanceSamples(agents[3], debug))
	assert.Empty(t, debug.Samples(), "ORCA scores none")
}

// obstacleWorld is a crowd on dungeon's tile cache with one obstacle of
// each kind, run until the carving ones have landed.
func obstacleWorld(t *testing.T) (*ecs.World, map[string]ecs.Entity) {
	t.Helper()
	file, err := os.ReadFile("../../navcore/tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(t, err)
	for done := false; !done; {
		done, err = cache.Update(tilecache.Budget{})
		require.NoError(t, err)
	}
	p, err := plugin.New(plugin.Config{TileCache: cache, MaxAgents: 4})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	ground := geom.Vec3{47.2419357, 9.69729424, -3.66440248}
	spawn := func(pose components.ObstaclePose, o components.Obstacle) ecs.Entity {
		e, err := p.SpawnObstacle(&world, pose, o)
		require.NoError(t, err)
		return e
	}
	entities := map[string]ecs.Entity{
		"avoided cylinder": spawn(components.ObstaclePose{Position: ground}, components.CylinderObstacle(0.5, 2)),
		"carving box":      spawn(components.ObstaclePose{Position: geom.Add(ground, geom.Vec3{-6, 0, 0})}, components.BoxObstacle(1, 0.5, 2).Carving()),
		"turned door":      spawn(components.ObstaclePose{Position: geom.Add(ground, geom.Vec3{0, 0, 4}), Yaw: 0.5}, components.OrientedBoxObstacle(1, 0.3, 2).MarkingArea(navmesh.AreaDoor)),
		"refused prism":    spawn(components.ObstaclePose{Position: geom.Vec3{1000, 0, 1000}}, components.PrismObstacle([][2]float32{{0, 0}, {1, 0}, {0, 1}}, 1).Carving()),
	}
	for range 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	return &world, entities
}

func TestDrawObstaclesShowsShapesAndEffects(t *testing.T) {
	world, entities := obstacleWorld(t)
	c, err := crowddraw.New(world)
	require.NoError(t, err)
	style := navdraw.DefaultStyle()
	obstacles := generic.NewMap3[components.Obstacle, components.ObstaclePose, components.ObstacleState](world)

	cases := []struct {
		name             string
		triangles, lines int
		fill             color.NRGBA
	}{
		{"avoided cylinder", 3 * debugdraw.CircleSegments, 2*debugdraw.CircleSegments + 4, style.ObstacleAvoided},
		{"carving box", 2*4 + 2, 12, style.ObstacleUpToDate},
		{"turned door", 2*4 + 2, 12, debugdraw.Lerp(style.ObstacleUpToDate, debugdraw.AreaColor(navmesh.AreaDoor, style.ObstacleUpToDate.A), 0.5)},
		{"refused prism", 2*3 + 1, 9, style.ObstacleRefused},
	}
	total := 0
	for _, k := range cases {
		t.Run(k.name, func(t *testing.T) {
			o, pose, state := obstacles.Get(entities[k.name])
			assert.Equal(t, k.fill, crowddraw.ObstacleColor(o, state, style))
			footprint := o.Footprint(*pose)
			// The oracle: what DrawObstacles draws of this one alone.
			r := &debugdraw.Recorder{}
			fill := crowddraw.ObstacleColor(o, state, style)
			if footprint.Circle {
				bmin := mgl32.Vec3{footprint.Center[0] - footprint.Radius, footprint.MinY, footprint.Center[1] - footprint.Radius}
				bmax := mgl32.Vec3{footprint.Center[0] + footprint.Radius, footprint.MaxY, footprint.Center[1] + footprint.Radius}
				debugdraw.Cylinder(r, bmin, bmax, fill)
			} else {
				outline := make([]mgl32.Vec2, footprint.Count)
				for i := range outline {
					outline[i] = mgl32.Vec2{footprint.Points[i][0], footprint.Points[i][1]}
				}
				debugdraw.Prism(r, outline, footprint.MinY, footprint.MaxY, fill)
			}
			assert.Equal(t, k.triangles, r.Count(debugdraw.KindTriangle))
			total += k.triangles + k.lines
		})
	}
	_, _, state := obstacles.Get(entities["carving box"])
	require.True(t, state.Landed, "the box carved")

	r := &debugdraw.Recorder{}
	c.DrawObstacles(r, style)
	assert.Equal(t, total, r.Len())
	lines, strokes := 0, map[color.NRGBA]int{}
	for _, p := range r.Primitives {
		if p.Kind == debugdraw.KindLine {
			lines++
			strokes[p.Color]++
			assert.Equal(t, style.ObstacleWidth, p.Size)
		}
	}
	for _, k := range cases {
		assert.Equal(t, k.lines, strokes[debugdraw.Darken(k.fill)], "%s: edges in its fill darkened", k.name)
	}
	// Bounds: the turned door's corners lie where its footprint says.
	door, pose, _ := obstacles.Get(entities["turned door"])
	footprint := door.Footprint(*pose)
	found := 0
	for _, p := range r.Primitives {
		for i := range footprint.Count {
			corner := mgl32.Vec3{footprint.Points[i][0], footprint.MaxY, footprint.Points[i][1]}
			if p.Kind == debugdraw.KindLine && p.Vertices[0].ApproxEqual(corner) {
				found++
			}
		}
	}
	assert.GreaterOrEqual(t, found, footprint.Count, "the top outline starts at every corner")

	// Draw includes the obstacles by default, and not without the layer.
	withLayer := &debugdraw.Recorder{}
	c.Draw(withLayer, crowddraw.DefaultLayers, style)
	assert.Equal(t, total, withLayer.Len(), "no agents, so only the obstacles")
	without := &debugdraw.Recorder{}
	c.Draw(without, crowddraw.AllLayers&^crowddraw.Obstacles, style)
	assert.Zero(t, without.Len())
}

// TestDrawCorridorsOfEveryAgentType: each agent's corridor is drawn with
// the polygons of its own type's mesh.
func TestDrawCorridorsOfEveryAgentType(t *testing.T) {
	dungeon, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	level := &bake.Geometry{
		Vertices:  []geom.Vec3{{100, 0, 100}, {120, 0, 100}, {120, 0, 110}, {100, 0, 110}},
		Triangles: [][3]int32{{0, 2, 1}, {0, 3, 2}},
	}
	baked, err := bake.Solo(context.Background(), level, bake.DefaultSettings())
	require.NoError(t, err)
	island, err := baked.NavMesh()
	require.NoError(t, err)
	p, err := plugin.New(plugin.Config{AgentTypes: []plugin.AgentTypeConfig{{Name: "dungeon", Mesh: dungeon}, {Name: "island", Mesh: island}}})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	params := components.DefaultAgentParams()
	params.Type = 1
	e, err := p.Spawn(&world, geom.Vec3{102, 0, 105}, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, geom.Vec3{118, 0, 105}))
	for range 10 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	path, err := p.Corridor(&world, e, nil)
	require.NoError(t, err)
	require.NotEmpty(t, path)
	want := 0
	snap := island.Snapshot()
	for _, ref := range path {
		tile, _, err := snap.TileAndPoly(ref)
		require.NoError(t, err)
		want += int(tile.Data.DetailMeshes[ref.PolyIndex()].TriCount)
	}
	c, err := crowddraw.New(&world)
	require.NoError(t, err)
	for _, draw := range []func(r *debugdraw.Recorder){
		func(r *debugdraw.Recorder) { c.Draw(r, crowddraw.Corridors, navdraw.DefaultStyle()) },
		func(r *debugdraw.Recorder) {
			require.NoError(t, c.DrawAgent(r, e, crowddraw.Corridors, navdraw.DefaultStyle()))
		},
	} {
		r := &debugdraw.Recorder{}
		draw(r)
		assert.Equal(t, want, r.Count(debugdraw.KindTriangle))
		bmin, _, ok := r.Bounds()
		require.True(t, ok)
		assert.Greater(t, bmin[0], float32(99), "drawn on the island, not the dungeon")
	}
}
