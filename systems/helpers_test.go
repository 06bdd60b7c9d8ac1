package systems

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/require"
)

// testWorld is a world with the crowd's resources added by hand (no
// plugin), on the dungeon tile.
type testWorld struct {
	world  *ecs.World
	mesh   *navmesh.Mesh
	query  *query.Query
	agents generic.Map10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	]
}

func newTestWorld(t *testing.T, maxAgents int) *testWorld {
	t.Helper()
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	world := ecs.NewWorld()
	q, err := query.New(mesh, 512)
	require.NoError(t, err)
	pq, err := crowd.NewPathQueue(mesh, crowd.DefaultPathQueueConfig())
	require.NoError(t, err)
	grid, err := crowd.NewProximityGrid(4*maxAgents, 1.8)
	require.NoError(t, err)
	filters := components.NewFilters()
	presets := components.NewAvoidancePresets()
	settings := components.DefaultSettings(0.6)
	ecs.AddResource(&world, &components.Navigation{Mesh: mesh})
	ecs.AddResource(&world, &components.Queries{PerWorker: []*query.Query{q}})
	ecs.AddResource(&world, &components.PathQueue{Queue: pq})
	ecs.AddResource(&world, &components.ProximityGrid{Grid: grid})
	ecs.AddResource(&world, &filters)
	ecs.AddResource(&world, &presets)
	ecs.AddResource(&world, &components.TimeStep{Dt: 1.0 / 60})
	ecs.AddResource(&world, &settings)
	ecs.AddResource(&world, &components.Events{})
	ecs.AddResource(&world, &components.Stats{})
	probe, err := query.New(mesh, 2048)
	require.NoError(t, err)
	return &testWorld{
		world: &world, mesh: mesh, query: probe,
		agents: generic.NewMap10[
			components.AgentParams, components.Position, components.Velocity,
			components.AgentState, components.Corridor, components.MoveTarget,
			components.Boundary, components.Neighbours, components.Corners,
			components.OffMeshAnimation,
		](&world),
	}
}

// spawn adds a walking agent at the navmesh point nearest pos.
func (w *testWorld) spawn(t *testing.T, pos geom.Vec3) ecs.Entity {
	t.Helper()
	nearest, err := w.query.FindNearestPoly(pos, geom.Vec3{1.2, 0.9, 1.2}, query.NewFilter())
	require.NoError(t, err)
	require.NotZero(t, nearest.Ref)
	corridor, err := crowd.NewCorridor(256)
	require.NoError(t, err)
	corridor.Reset(nearest.Ref, nearest.Point)
	params := components.DefaultAgentParams()
	position := components.Position(nearest.Point)
	boundary := components.Boundary{LocalBoundary: crowd.NewLocalBoundary()}
	return w.agents.NewWith(&params, &position, &components.Velocity{}, &components.AgentState{},
		&components.Corridor{Corridor: corridor}, &components.MoveTarget{}, &boundary,
		&components.Neighbours{}, &components.Corners{}, &components.OffMeshAnimation{})
}

// target sends agent e to the navmesh point nearest pos.
func (w *testWorld) target(t *testing.T, e ecs.Entity, pos geom.Vec3) {
	t.Helper()
	nearest, err := w.query.FindNearestPoly(pos, geom.Vec3{1.2, 0.9, 1.2}, query.NewFilter())
	require.NoError(t, err)
	require.NotZero(t, nearest.Ref)
	_, _, _, _, _, target, _, _, _, _ := w.agents.Get(e)
	*target = components.MoveTarget{State: components.TargetRequesting, Ref: nearest.Ref, Position: nearest.Point}
}

func (w *testWorld) get(e ecs.Entity) (*components.AgentParams, *components.Position, *components.Velocity,
	*components.AgentState, *components.Corridor, *components.MoveTarget, *components.Boundary,
	*components.Neighbours, *components.Corners, *components.OffMeshAnimation) {
	return w.agents.Get(e)
}

func (w *testWorld) settings() *components.Settings {
	r := generic.NewResource[components.Settings](w.world)
	return r.Get()
}

func (w *testWorld) events() []components.Event {
	r := generic.NewResource[components.Events](w.world)
	return r.Get().All()
}

// run initializes sys and updates it ticks times.
func run(w *testWorld, sys System, ticks int) {
	sys.Initialize(w.world)
	for i := 0; i < ticks; i++ {
		sys.Update(w.world)
	}
}

// Points of the dungeon on one floor, from the reference pairs.
var (
	hallA = geom.Vec3{-9.17410278, 10.1972942, -20.340023}
	hallB = geom.Vec3{11.2181969, 10.1972942, -0.930570245}
	far   = geom.Vec3{23.7297325, 15.0986919, -73.5664291}
)
