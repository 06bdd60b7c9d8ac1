package plugin

import (
	"math"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/ecs/event"
	"github.com/mlange-42/arche/generic"
	"github.com/mlange-42/arche/listener"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewValidatesConfig(t *testing.T) {
	mesh := loadDungeon(t)
	nan := float32(math.NaN())
	badPreset := crowd.DefaultAvoidanceParams()
	badPreset.AdaptiveRings = 0
	badFilter := *query.NewFilter()
	badFilter.AreaCost[3] = -1
	for name, c := range map[string]Config{
		"nil mesh":          {},
		"negative agents":   {Mesh: mesh, MaxAgents: -1},
		"huge agents":       {Mesh: mesh, MaxAgents: 1 << 23},
		"NaN radius":        {Mesh: mesh, MaxAgentRadius: nan},
		"negative radius":   {Mesh: mesh, MaxAgentRadius: -1},
		"negative workers":  {Mesh: mesh, Workers: -1},
		"too many workers":  {Mesh: mesh, Workers: 1000},
		"NaN arrival":       {Mesh: mesh, ArrivalDistance: nan},
		"short path":        {Mesh: mesh, MaxPath: 2},
		"negative nodes":    {Mesh: mesh, QueryNodes: -5},
		"negative iters":    {Mesh: mesh, PathQueueIterations: -1},
		"requests per tick": {Mesh: mesh, RequestsPerTick: 1000},
		"pending":           {Mesh: mesh, MaxPendingRequests: -1},
		"collisions":        {Mesh: mesh, CollisionIterations: 65},
		"17 filters":        {Mesh: mesh, Filters: make([]query.Filter, 17)},
		"bad filter":        {Mesh: mesh, Filters: []query.Filter{badFilter}},
		"9 presets":         {Mesh: mesh, AvoidancePresets: make([]crowd.AvoidanceParams, 9)},
		"bad preset":        {Mesh: mesh, AvoidancePresets: []crowd.AvoidanceParams{badPreset}},
		"infinite dt":       {Mesh: mesh, TimeStep: float32(math.Inf(1))},
	} {
		p, err := New(c)
		assert.ErrorIs(t, err, ErrInvalidConfig, name)
		assert.Nil(t, p, name)
	}

	p, err := New(Config{Mesh: mesh})
	require.NoError(t, err)
	c := p.Config()
	assert.Equal(t, DefaultMaxAgents, c.MaxAgents)
	assert.Equal(t, DefaultMaxAgentRadius, c.MaxAgentRadius)
	assert.Equal(t, 1, c.Workers)
	assert.Equal(t, float32(0.2), c.ArrivalDistance)
	assert.Equal(t, 256, c.MaxPath)
	assert.Equal(t, 512, c.QueryNodes)
	assert.Equal(t, crowd.PathQueueConfig{Slots: 8, MaxPathSize: 256, MaxNodes: 4096, NodeLimit: 65536}, c.PathQueue)
	assert.Equal(t, 100, c.PathQueueIterations)
	assert.Equal(t, 8, c.RequestsPerTick)
	assert.Equal(t, 4, c.CollisionIterations)
	assert.Equal(t, float32(1.0/60), c.TimeStep)
}

func TestInstallAddsResourcesAndJoinsTheListener(t *testing.T) {
	mesh := loadDungeon(t)
	world := ecs.NewWorld()
	// The user's own listener, shared through a Dispatch resource.
	var created int
	userListener := listener.NewCallback(func(*ecs.World, ecs.EntityEvent) { created++ }, event.EntityCreated)
	dispatch := listener.NewDispatch(&userListener)
	ecs.AddResource(&world, &dispatch)
	world.SetListener(&dispatch)

	p, err := New(Config{Mesh: mesh, MaxAgents: 10, Workers: 2})
	require.NoError(t, err)
	require.NoError(t, p.Install(&world))
	defer p.Schedule().Finalize(&world)

	nav := generic.NewResource[components.Navigation](&world)
	require.True(t, nav.Has())
	assert.Same(t, mesh, nav.Get().Mesh)
	queries := generic.NewResource[components.Queries](&world)
	require.True(t, queries.Has())
	assert.Len(t, queries.Get().PerWorker, 2)
	for _, has := range []bool{
		hasResource[components.PathQueue](&world), hasResource[components.ProximityGrid](&world),
		hasResource[components.Filters](&world), hasResource[components.AvoidancePresets](&world),
		hasResource[components.TimeStep](&world), hasResource[components.Settings](&world),
		hasResource[components.Events](&world), hasResource[components.Stats](&world),
	} {
		assert.True(t, has)
	}
	workers := generic.NewResource[systems.Workers](&world)
	assert.Equal(t, 2, workers.Get().Count())
	presetsRes := generic.NewResource[components.AvoidancePresets](&world)
	presets := presetsRes.Get()
	assert.Equal(t, crowd.AvoidancePreset(crowd.AvoidanceHigh), presets.List[3])

	// Still the user's Dispatch, now with the plugin's listener too.
	d := generic.NewResource[listener.Dispatch](&world)
	assert.Same(t, &dispatch, d.Get())
	e, err := p.Spawn(&world, geom.Vec3{-5, 10, -20}, components.DefaultAgentParams())
	require.NoError(t, err)
	assert.Equal(t, 1, created)

	// Once only, and one crowd per world.
	assert.ErrorIs(t, p.Install(&world), ErrAlreadyInstalled)
	other, err := New(Config{Mesh: mesh})
	require.NoError(t, err)
	assert.ErrorIs(t, other.Install(&world), ErrAlreadyInstalled)
	assert.ErrorIs(t, other.Install(nil), ErrInvalidInput)
	// Not in another world.
	world2 := ecs.NewWorld()
	assert.ErrorIs(t, p.Install(&world2), ErrAlreadyInstalled)
	_, err = p.State(&world2, e)
	assert.ErrorIs(t, err, ErrNotInstalled)
}

func TestInstallCreatesADispatch(t *testing.T) {
	world := ecs.NewWorld()
	p, err := New(Config{Mesh: loadDungeon(t), MaxAgents: 1})
	require.NoError(t, err)
	require.NoError(t, p.Install(&world))
	d := generic.NewResource[listener.Dispatch](&world)
	require.True(t, d.Has())
	assert.Equal(t, event.EntityRemoved, d.Get().Subscriptions())

	// A locked world refuses.
	world2 := ecs.NewWorld()
	world2.NewEntity()
	notYet, err := New(Config{Mesh: loadDungeon(t)})
	require.NoError(t, err)
	assert.ErrorIs(t, notYet.Step(&world2, 1.0/60), ErrNotInstalled)
	q := world2.Query(ecs.All())
	p2, err := New(Config{Mesh: loadDungeon(t)})
	require.NoError(t, err)
	assert.ErrorIs(t, p2.Install(&world2), ErrWorldLocked)
	q.Close()
	assert.NoError(t, p2.Install(&world2))
}

func hasResource[T any](world *ecs.World) bool {
	r := generic.NewResource[T](world)
	return r.Has()
}

// agentSnapshot copies every agent's components, the corridor's path and
// the path queue's load: what a failed call must leave alone.
type agentSnapshot struct {
	entities   int
	pending    int
	params     []components.AgentParams
	positions  []components.Position
	velocities []components.Velocity
	states     []components.AgentState
	targets    []components.MoveTarget
	paths      [][]navmesh.Ref
	corners    []components.Corners
	neighbours []components.Neighbours
}

func snapshot(t *testing.T, p *Plugin, world *ecs.World, agents []ecs.Entity) agentSnapshot {
	t.Helper()
	s := agentSnapshot{entities: world.Stats().Entities.Used, pending: p.pathQueue.Pending()}
	for _, e := range agents {
		if !world.Alive(e) {
			continue
		}
		params, pos, vel, state, corridor, target, _, neighbours, corners, _ := p.agents.Get(e)
		s.params = append(s.params, *params)
		s.positions = append(s.positions, *pos)
		s.velocities = append(s.velocities, *vel)
		s.states = append(s.states, *state)
		s.targets = append(s.targets, *target)
		s.paths = append(s.paths, append([]navmesh.Ref(nil), corridor.Path()...))
		s.corners = append(s.corners, *corners)
		s.neighbours = append(s.neighbours, *neighbours)
	}
	return s
}

func TestBadInputChangesNothing(t *testing.T) {
	mesh := loadDungeon(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 5})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	starts, targets := randomPairs(t, mesh, 4, 7)
	var agents []ecs.Entity
	for i := 0; i < 3; i++ {
		e, err := p.Spawn(&world, starts[i], components.DefaultAgentParams())
		require.NoError(t, err)
		require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
		agents = append(agents, e)
	}
	for i := 0; i < 20; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	a := agents[0]
	dead, err := p.Spawn(&world, starts[3], components.DefaultAgentParams())
	require.NoError(t, err)
	require.NoError(t, p.Remove(&world, dead))
	plain := world.NewEntity()
	otherWorld := ecs.NewWorld()

	nan := float32(math.NaN())
	offMesh := geom.Vec3{1000, 0, 1000}
	good := starts[3]
	badParams := components.DefaultAgentParams()
	badParams.Radius = 1 // above the crowd's 0.6
	nanParams := components.DefaultAgentParams()
	nanParams.MaxSpeed = nan
	presetParams := components.DefaultAgentParams()
	presetParams.AvoidancePreset = 8
	params := components.DefaultAgentParams()

	calls := []struct {
		name string
		want error
		call func(w *ecs.World) error
	}{
		{"spawn off mesh", ErrOffMesh, func(w *ecs.World) error { _, err := p.Spawn(w, offMesh, params); return err }},
		{"spawn NaN", ErrInvalidInput, func(w *ecs.World) error { _, err := p.Spawn(w, geom.Vec3{nan, 0, 0}, params); return err }},
		{"spawn radius", ErrInvalidInput, func(w *ecs.World) error { _, err := p.Spawn(w, good, badParams); return err }},
		{"spawn NaN speed", ErrInvalidInput, func(w *ecs.World) error { _, err := p.Spawn(w, good, nanParams); return err }},
		{"spawn preset", ErrInvalidInput, func(w *ecs.World) error { _, err := p.Spawn(w, good, presetParams); return err }},
		{"spawn other world", ErrNotInstalled, func(*ecs.World) error { _, err := p.Spawn(&otherWorld, good, params); return err }},
		{"batch one off mesh", ErrOffMesh, func(w *ecs.World) error {
			_, err := p.SpawnBatch(w, []AgentSpec{{good, params}, {offMesh, params}}, nil)
			return err
		}},
		{"batch over the limit", ErrTooManyAgents, func(w *ecs.World) error {
			_, err := p.SpawnBatch(w, []AgentSpec{{good, params}, {good, params}, {good, params}}, nil)
			return err
		}},
		{"remove dead", ErrNotAgent, func(w *ecs.World) error { return p.Remove(w, dead) }},
		{"remove zero", ErrNotAgent, func(w *ecs.World) error { return p.Remove(w, ecs.Entity{}) }},
		{"remove plain entity", ErrNotAgent, func(w *ecs.World) error { return p.Remove(w, plain) }},
		{"target off mesh", ErrOffMesh, func(w *ecs.World) error { return p.RequestMoveTarget(w, a, offMesh) }},
		{"target NaN", ErrInvalidInput, func(w *ecs.World) error { return p.RequestMoveTarget(w, a, geom.Vec3{0, nan, 0}) }},
		{"target dead", ErrNotAgent, func(w *ecs.World) error { return p.RequestMoveTarget(w, dead, good) }},
		{"velocity NaN", ErrInvalidInput, func(w *ecs.World) error { return p.RequestMoveVelocity(w, a, geom.Vec3{nan, 0, 1}) }},
		{"velocity plain", ErrNotAgent, func(w *ecs.World) error { return p.RequestMoveVelocity(w, plain, geom.Vec3{1, 0, 0}) }},
		{"reset dead", ErrNotAgent, func(w *ecs.World) error { return p.ResetMoveTarget(w, dead) }},
		{"teleport off mesh", ErrOffMesh, func(w *ecs.World) error { return p.Teleport(w, a, offMesh) }},
		{"teleport NaN", ErrInvalidInput, func(w *ecs.World) error { return p.Teleport(w, a, geom.Vec3{0, 0, nan}) }},
		{"params radius", ErrInvalidInput, func(w *ecs.World) error { return p.UpdateParams(w, a, badParams) }},
		{"params dead", ErrNotAgent, func(w *ecs.World) error { return p.UpdateParams(w, dead, params) }},
	}
	for _, c := range calls {
		before := snapshot(t, p, &world, agents)
		err := c.call(&world)
		assert.ErrorIs(t, err, c.want, c.name)
		assert.Equal(t, before, snapshot(t, p, &world, agents), c.name)
	}

	// Every mutating call refuses while a query locks the world.
	locked := []struct {
		name string
		call func(w *ecs.World) error
	}{
		{"spawn", func(w *ecs.World) error { _, err := p.Spawn(w, good, params); return err }},
		{"batch", func(w *ecs.World) error { _, err := p.SpawnBatch(w, []AgentSpec{{good, params}}, nil); return err }},
		{"remove", func(w *ecs.World) error { return p.Remove(w, a) }},
		{"target", func(w *ecs.World) error { return p.RequestMoveTarget(w, a, good) }},
		{"velocity", func(w *ecs.World) error { return p.RequestMoveVelocity(w, a, geom.Vec3{1, 0, 0}) }},
		{"reset", func(w *ecs.World) error { return p.ResetMoveTarget(w, a) }},
		{"teleport", func(w *ecs.World) error { return p.Teleport(w, a, good) }},
		{"params", func(w *ecs.World) error { return p.UpdateParams(w, a, params) }},
		{"step", func(w *ecs.World) error { return p.Step(w, 1.0/60) }},
	}
	for _, c := range locked {
		before := snapshot(t, p, &world, agents)
		q := world.Query(ecs.All())
		err := c.call(&world)
		// Read-outs still work inside the query.
		_, stateErr := p.State(&world, a)
		q.Close()
		assert.ErrorIs(t, err, ErrWorldLocked, c.name)
		assert.NoError(t, stateErr, c.name)
		assert.Equal(t, before, snapshot(t, p, &world, agents), c.name)
	}

	// Bad time steps run nothing.
	for _, dt := range []float32{0, -1, nan, float32(math.Inf(1))} {
		before := snapshot(t, p, &world, agents)
		assert.ErrorIs(t, p.Step(&world, dt), ErrInvalidInput)
		assert.Equal(t, before, snapshot(t, p, &world, agents))
	}
}

func TestAgentLimitAndPendingRequests(t *testing.T) {
	mesh := loadDungeon(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 4, MaxPendingRequests: 3})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	starts, targets := randomPairs(t, mesh, 5, 3)
	specs := make([]AgentSpec, 4)
	for i := range specs {
		specs[i] = AgentSpec{starts[i], components.DefaultAgentParams()}
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	require.NoError(t, err)
	require.Len(t, agents, 4)
	_, err = p.Spawn(&world, starts[4], components.DefaultAgentParams())
	assert.ErrorIs(t, err, ErrTooManyAgents)

	for i := 0; i < 3; i++ {
		require.NoError(t, p.RequestMoveTarget(&world, agents[i], targets[i]))
	}
	before := snapshot(t, p, &world, agents)
	assert.ErrorIs(t, p.RequestMoveTarget(&world, agents[3], targets[3]), ErrPathQueueFull)
	assert.Equal(t, before, snapshot(t, p, &world, agents))
	// After the requests are planned there is room again.
	for i := 0; i < 60; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	assert.NoError(t, p.RequestMoveTarget(&world, agents[3], targets[3]))

	// Removing an agent frees its place.
	require.NoError(t, p.Remove(&world, agents[0]))
	_, err = p.Spawn(&world, starts[4], components.DefaultAgentParams())
	assert.NoError(t, err)
}

func TestRemovingAnAgentReleasesItsPathRequest(t *testing.T) {
	mesh := loadDungeon(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 8, PathQueueIterations: 1})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	// Far apart, so that the quick search cannot finish: the queue runs.
	e, err := p.Spawn(&world, geom.Vec3{-9.17410278, 10.1972942, -20.340023}, components.DefaultAgentParams())
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, geom.Vec3{23.7297325, 15.0986919, -73.5664291}))
	require.NoError(t, p.Step(&world, 1.0/60))
	info, err := p.State(&world, e)
	require.NoError(t, err)
	require.Equal(t, components.TargetWaitingForPath, info.Target)
	require.Equal(t, 1, p.pathQueue.Pending())

	// Removed behind the plugin's back: the listener cleans up.
	world.RemoveEntity(e)
	assert.Zero(t, p.pathQueue.Pending())
	assert.Len(t, p.corridors, 1)
	// The corridor is reused by the next agent.
	e2, err := p.Spawn(&world, geom.Vec3{-9.17410278, 10.1972942, -20.340023}, components.DefaultAgentParams())
	require.NoError(t, err)
	assert.Empty(t, p.corridors)
	path, err := p.Corridor(&world, e2, nil)
	require.NoError(t, err)
	assert.Len(t, path, 1)
	assert.NoError(t, p.Step(&world, 1.0/60))
}

func TestMoveRequestsAndReadOuts(t *testing.T) {
	p, err := New(Config{Mesh: floorLevel(t), MaxAgents: 2})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	params := components.DefaultAgentParams()
	e, err := p.Spawn(&world, geom.Vec3{5, 0.5, 5}, params)
	require.NoError(t, err)
	info, err := p.State(&world, e)
	require.NoError(t, err)
	// Placed on the floor (its surface lies a little above y = 0).
	assert.InDelta(t, 0, info.Position[1], 0.3)
	assert.Equal(t, components.TargetNone, info.Target)
	assert.NotZero(t, info.Poly)

	// A velocity request moves it in a straight line.
	require.NoError(t, p.RequestMoveVelocity(&world, e, geom.Vec3{2, 0, 0}))
	for i := 0; i < 60; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	info, err = p.State(&world, e)
	require.NoError(t, err)
	assert.Equal(t, components.TargetVelocity, info.Target)
	assert.InDelta(t, 2, info.Velocity[0], 1e-3)
	// 1 s at up to 2 m/s with 8 m/s² of acceleration: 2 - 2²/(2·8).
	assert.InDelta(t, 5+1.75, info.Position[0], 0.05)
	path, err := p.Corridor(&world, e, nil)
	require.NoError(t, err)
	assert.Len(t, path, 1)

	// Reset: it stops.
	require.NoError(t, p.ResetMoveTarget(&world, e))
	for i := 0; i < 60; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	info, err = p.State(&world, e)
	require.NoError(t, err)
	assert.Equal(t, components.TargetNone, info.Target)
	assert.Zero(t, geom.Len(info.Velocity))

	// A target: corners lead there.
	require.NoError(t, p.RequestMoveTarget(&world, e, geom.Vec3{15, 0, 15}))
	require.NoError(t, p.Step(&world, 1.0/60))
	corners, err := p.Corners(&world, e)
	require.NoError(t, err)
	require.Equal(t, 1, corners.Count)
	assert.InDelta(t, 15, corners.Points[0].Pos[0], 1e-3)
	assert.NotZero(t, corners.Points[0].Flags&query.StraightPathEnd)

	// Teleport keeps the target and plans from the new place.
	require.NoError(t, p.Teleport(&world, e, geom.Vec3{18, 0, 2}))
	info, err = p.State(&world, e)
	require.NoError(t, err)
	assert.InDelta(t, 18, info.Position[0], 1e-4)
	assert.Equal(t, components.TargetRequesting, info.Target)
	assert.Zero(t, geom.Len(info.Velocity))
	for i := 0; i < 300; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	info, err = p.State(&world, e)
	require.NoError(t, err)
	assert.True(t, info.Arrived)

	// New parameters apply at once.
	slow := params
	slow.MaxSpeed = 1
	require.NoError(t, p.UpdateParams(&world, e, slow))
	require.NoError(t, p.RequestMoveTarget(&world, e, geom.Vec3{5, 0, 15}))
	for i := 0; i < 120; i++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	info, err = p.State(&world, e)
	require.NoError(t, err)
	assert.InDelta(t, 1, geom.Len(info.Velocity), 1e-3)
}

// TestReferenceModeTurnsOffTheShortcuts: the improvements that change
// behaviour for speed are on by default, scaled to the largest agent
// radius, and Config.Reference turns them off.
func TestReferenceModeTurnsOffTheShortcuts(t *testing.T) {
	mesh := loadDungeon(t)
	for _, reference := range []bool{false, true} {
		p, err := New(Config{Mesh: mesh, MaxAgentRadius: 0.8, Reference: reference})
		require.NoError(t, err)
		s := p.config.settings()
		if reference {
			assert.Zero(t, s.VisibilityRayDistance)
			assert.Zero(t, s.CornerRefreshDistance)
			assert.Zero(t, s.PileFraction)
			assert.Zero(t, s.PushSpeedLimit)
			continue
		}
		assert.InDelta(t, 0.4, s.VisibilityRayDistance, 1e-6)
		assert.InDelta(t, 0.2, s.CornerRefreshDistance, 1e-6)
	}
}
