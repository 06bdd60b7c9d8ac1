package crowddraw_test

import (
	"math/rand/v2"
	"testing"

	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
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
			wantCorridorTriangles += int(tile.DetailMeshes[ref.PolyIndex()].TriCount)
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
