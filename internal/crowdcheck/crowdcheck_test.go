package crowdcheck

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
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
