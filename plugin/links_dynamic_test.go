package plugin

import (
	"context"
	"testing"

	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
)

// TestLinkRidersWhileCollidersRebuildItsEnds: with a dynamic navmesh, the
// ColliderSync stage rebuilds the tiles under both ends of a manual link
// (a crate dropped beside each) while three agents are held on it; the
// link lands again by itself (LinkSync runs after ColliderSync), and once
// the game lets them off they walk on to their targets on the upper
// floor, each with its events in order.
func TestLinkRidersWhileCollidersRebuildItsEnds(t *testing.T) {
	m, err := dynamic.New(context.Background(), twoFloorsGeometry(), bake.DefaultSettings(), dynamic.Options{Workers: 1})
	require.NoError(t, err)
	p, err := New(Config{DynamicMesh: m, MaxAgents: 3, ArrivalDistance: 0.5})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	f := &linkFixture{world: &world, plugin: p}
	for i := range 3 {
		e, err := p.Spawn(&world, geom.Vec3{2, 0, 1.5 + float32(3.5*float32(i))}, components.DefaultAgentParams())
		require.NoError(t, err)
		f.agents = append(f.agents, e)
	}
	link, err := p.SpawnLink(&world, bridge(components.LinkManual, 4))
	require.NoError(t, err)
	f.sendUp(t)
	var riders []ecs.Entity
	for range 900 {
		f.step(t, 1)
		if riders, err = p.LinkRiders(&world, link, riders[:0]); err == nil && len(riders) == 3 {
			break
		}
	}
	require.Len(t, riders, 3, "all three held on the link")
	mesh := p.Config().Mesh
	ends := func() [2]uint64 {
		info, err := p.Link(&world, link)
		require.NoError(t, err)
		require.True(t, info.Attached)
		start, end, ok := mesh.Snapshot().LinkEnds(info.State.IDs[0], 0)
		require.True(t, ok)
		require.NotZero(t, start)
		require.NotZero(t, end)
		return [2]uint64{uint64(start), uint64(end)}
	}
	before := ends()

	crate := components.NewCollider(collider.NewBox(geom.Vec3{0.4, 0.4, 0.4}))
	for _, at := range []geom.Vec3{{6.5, 0.4, 8.5}, {17.5, 4.4, 8.5}} {
		_, err := p.SpawnCollider(&world, components.ColliderPose{Position: at}, crate)
		require.NoError(t, err)
	}
	for range 60 {
		f.step(t, 1)
		if f.count(components.EventColliderLanded) == 2 {
			break
		}
	}
	require.Equal(t, 2, f.count(components.EventColliderLanded))
	after := ends()
	assert.NotEqual(t, before[0], after[0], "the start's tile was rebuilt and the link landed on it again")
	assert.NotEqual(t, before[1], after[1], "the end's tile too")
	riders, err = p.LinkRiders(&world, link, riders[:0])
	require.NoError(t, err)
	assert.Len(t, riders, 3, "still held")

	for _, e := range riders {
		require.NoError(t, p.CompleteLink(&world, e))
	}
	for range 1200 {
		f.step(t, 1)
		if f.count(components.EventTargetReached) == 3 {
			break
		}
	}
	for _, e := range f.agents {
		assert.Equal(t, []components.EventKind{components.EventLinkReached, components.EventLinkCompleted, components.EventTargetReached},
			f.kinds(e, components.EventLinkReached, components.EventLinkCompleted, components.EventLinkCancelled, components.EventTargetReached))
		state, err := p.State(&world, e)
		require.NoError(t, err)
		assert.InDelta(t, 4, state.Position[1], 0.5, "on the upper floor")
	}
}
