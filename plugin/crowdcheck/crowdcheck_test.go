package crowdcheck

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestVelocityChangeAndOverlaps: one agent asked to walk at 1 m/s from
// rest speeds up by the acceleration limit per tick, so its velocity changes
// by 1 m/s in all over the run; two agents spawned on one spot overlap.
func TestVelocityChangeAndOverlaps(t *testing.T) {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	p, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 3})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	defer p.Schedule().Finalize(&world)

	q, err := query.New(mesh, 256)
	require.NoError(t, err)
	filter := query.NewFilter()
	start, err := q.FindNearestPoly(geom.Vec3{0, 10, 0}, geom.Vec3{20, 10, 20}, filter)
	require.NoError(t, err)
	params := components.DefaultAgentParams()
	params.UpdateFlags = 0 // no avoidance or separation: the pair stays put
	walker, err := p.Spawn(&world, start.Point, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveVelocity(&world, walker, geom.Vec3{0.01, 0, 0}))
	c, err := New(mesh, filter, p, &world, []ecs.Entity{walker})
	require.NoError(t, err)
	require.NoError(t, c.Classify())
	const ticks = 40
	for range ticks {
		require.NoError(t, p.Step(&world, 1.0/60))
		require.NoError(t, c.Check())
	}
	r := c.Finish([]geom.Vec3{start.Point})
	// 0.01 m/s reached within the first tick: every later tick changes nothing.
	assert.InDelta(t, 0, r.VelocityChangePerTick, 1e-6)
	assert.Zero(t, r.OffMesh)
	assert.Zero(t, r.WallPenetrations)
	assert.Equal(t, 1, r.Reached, "a centimetre a second does not leave the target")
	assert.Zero(t, r.Stuck, "no path, not stuck")

	require.NoError(t, p.RequestMoveVelocity(&world, walker, geom.Vec3{0, 0, 0}))
	for range 5 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	info, err := p.State(&world, walker)
	require.NoError(t, err)
	other, err := p.Spawn(&world, info.Position, params)
	require.NoError(t, err)
	c, err = New(mesh, filter, p, &world, []ecs.Entity{walker, other})
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveVelocity(&world, walker, geom.Vec3{1, 0, 0}))
	for range ticks {
		require.NoError(t, p.Step(&world, 1.0/60))
		require.NoError(t, c.Check())
	}
	r = c.Finish([]geom.Vec3{info.Position, info.Position})
	// 1 m/s from rest at 8 m/s² per tick of 1/60 s: 1 m/s of change in all,
	// over 39 agent-ticks of the walker and 39 of the other agent (which
	// the collision pushes may move a little).
	assert.InDelta(t, 1.0/78, r.VelocityChangePerTick, 0.2/78)

	// Two agents on one spot overlap, until the collisions push them apart.
	third, err := p.Spawn(&world, info.Position, params)
	require.NoError(t, err)
	c, err = New(mesh, filter, p, &world, []ecs.Entity{other, third})
	require.NoError(t, err)
	require.NoError(t, c.Check())
	assert.Equal(t, 1, c.Finish([]geom.Vec3{info.Position, info.Position}).OverlapAgentTicks)
}

// TestHoveringAndArrived: of three agents that cannot walk (speed 0) with
// targets 0.8, 1.5 and 3 m away (in a crowd without the rule that lets
// stalled agents arrive where they stand), the first two hover once five
// seconds have passed (the first also counts as near its target without having
// arrived), the third is too far; an agent that walks to a target a metre
// away arrives and counts neither way.
func TestHoveringAndArrived(t *testing.T) {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	p, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 4})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	defer p.Schedule().Finalize(&world)
	settings := generic.NewResource[components.Settings](&world)
	settings.Get().ArrivalStallTime = 0

	q, err := query.New(mesh, 256)
	require.NoError(t, err)
	filter := query.NewFilter()
	start, err := q.FindNearestPoly(geom.Vec3{0, 10, 0}, geom.Vec3{20, 10, 20}, filter)
	require.NoError(t, err)
	frozen := components.DefaultAgentParams()
	frozen.MaxSpeed = 0
	frozen.UpdateFlags = 0
	var agents []ecs.Entity
	var targets []geom.Vec3
	for k, d := range []float32{0.8, 1.5, 3, 1} {
		params := frozen
		if k == 3 {
			params = components.DefaultAgentParams()
			params.UpdateFlags = 0
		}
		pos := geom.Vec3{start.Point[0] + float32(float32(k)*3), start.Point[1], start.Point[2] + 4}
		e, err := p.Spawn(&world, pos, params)
		require.NoError(t, err)
		info, err := p.State(&world, e)
		require.NoError(t, err)
		target := geom.Vec3{info.Position[0] + d, info.Position[1], info.Position[2]}
		require.NoError(t, p.RequestMoveTarget(&world, e, target))
		agents = append(agents, e)
	}
	for _, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		targets = append(targets, info.TargetPosition)
	}
	c, err := New(mesh, filter, p, &world, agents)
	require.NoError(t, err)
	c.SetTimeStep(1.0 / 30)
	require.NoError(t, c.Classify())
	for tick := 0; tick < 5*30; tick++ {
		require.NoError(t, p.Step(&world, 1.0/30))
		require.NoError(t, c.Check())
	}
	r := c.Finish(targets)
	assert.Zero(t, r.Hovering, "not yet five seconds")
	assert.Equal(t, 1, r.Arrived)
	assert.Equal(t, 1, r.NearNotArrived)
	assert.Zero(t, r.NearNotArrivedStill, "not yet five seconds")
	require.NoError(t, p.Step(&world, 1.0/30))
	require.NoError(t, c.Check())
	r = c.Finish(targets)
	assert.Equal(t, 2, r.Hovering)
	assert.Equal(t, 1, r.Arrived)
	assert.Equal(t, 1, r.NearNotArrived)
	assert.Equal(t, 1, r.NearNotArrivedStill)
	assert.Equal(t, agents[:1], r.NearAgents, "the frozen agent 0.8 m short")
	assert.Equal(t, 2, r.Stuck, "the frozen agents 1.5 and 3 m short")
}
