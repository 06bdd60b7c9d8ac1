package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoFloors bakes a ground floor (x 0..10) and, 4 m higher and 4 m
// away, an upper floor (x 14..24), with no way between them.
func twoFloors(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	baked, err := bake.Solo(context.Background(), twoFloorsGeometry(), bake.DefaultSettings())
	require.NoError(tb, err)
	mesh, err := baked.NavMesh()
	require.NoError(tb, err)
	return mesh
}

// twoFloorsGeometry is twoFloors' level.
func twoFloorsGeometry() *bake.Geometry {
	g := &bake.Geometry{}
	floor := func(x0, x1, y float32) {
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices, mgl32.Vec3{x0, y, 0}, mgl32.Vec3{x0, y, 10}, mgl32.Vec3{x1, y, 10}, mgl32.Vec3{x1, y, 0})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	floor(0, 10, 0)
	floor(14, 24, 4)
	return g
}

// bridge is a link from the ground floor's edge up to the upper floor's.
func bridge(traversal components.LinkTraversal, capacity uint16) components.Link {
	return components.Link{
		Start: geom.Vec3{9, 0, 5}, End: geom.Vec3{15, 4, 5}, Radius: 0.5,
		Bidirectional: true, Traversal: traversal, Capacity: capacity,
	}
}

type linkFixture struct {
	world  *ecs.World
	plugin *Plugin
	agents []ecs.Entity
	// events are every event so far, in order.
	events []components.Event
}

// newLinkFixture spawns n agents on the ground floor, a metre apart along
// z, each sent to the upper floor.
func newLinkFixture(t *testing.T, n int) *linkFixture {
	t.Helper()
	p, err := New(Config{Mesh: twoFloors(t), MaxAgents: n, ArrivalDistance: 0.5})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	f := &linkFixture{world: &world, plugin: p}
	for i := range n {
		e, err := p.Spawn(&world, geom.Vec3{2, 0, 1.5 + float32(i)*7/float32(max(n-1, 1))}, components.DefaultAgentParams())
		require.NoError(t, err)
		f.agents = append(f.agents, e)
	}
	return f
}

func (f *linkFixture) sendUp(t *testing.T) {
	t.Helper()
	for i, e := range f.agents {
		require.NoError(t, f.plugin.RequestMoveTarget(f.world, e, geom.Vec3{22, 4, float32(2 + 3*(i%3))}))
	}
}

func (f *linkFixture) step(t *testing.T, ticks int) {
	t.Helper()
	for range ticks {
		require.NoError(t, f.plugin.Step(f.world, 1.0/60))
		f.events = append(f.events, f.plugin.Events(f.world)...)
	}
}

// kinds returns the kinds of e's events in order, off the given kinds.
func (f *linkFixture) kinds(e ecs.Entity, only ...components.EventKind) []components.EventKind {
	var out []components.EventKind
	for _, ev := range f.events {
		if ev.Entity != e {
			continue
		}
		for _, k := range only {
			if ev.Kind == k {
				out = append(out, k)
			}
		}
	}
	return out
}

func (f *linkFixture) count(kind components.EventKind) int {
	n := 0
	for _, ev := range f.events {
		if ev.Kind == kind {
			n++
		}
	}
	return n
}

func TestLinkEntityLetsAgentsAcross(t *testing.T) {
	f := newLinkFixture(t, 3)
	f.sendUp(t)
	f.step(t, 30)
	assert.Equal(t, 3, f.count(components.EventPartialPath), "no way up without the link")

	link, err := f.plugin.SpawnLink(f.world, bridge(components.LinkAuto, 0))
	require.NoError(t, err)
	info, err := f.plugin.Link(f.world, link)
	require.NoError(t, err)
	assert.True(t, info.Attached)
	assert.NotZero(t, info.State.IDs[0])
	assert.Equal(t, 1, f.plugin.Config().Mesh.Snapshot().LinkCount())
	// No new move request: the partial paths are planned again once the
	// navmesh changed.
	f.events = nil
	f.step(t, 900)
	for _, e := range f.agents {
		assert.Equal(t, []components.EventKind{components.EventOffMeshStarted, components.EventOffMeshFinished, components.EventTargetReached},
			f.kinds(e, components.EventOffMeshStarted, components.EventOffMeshFinished, components.EventTargetReached, components.EventLinkQueued))
		state, err := f.plugin.State(f.world, e)
		require.NoError(t, err)
		assert.InDelta(t, 4, state.Position[1], 0.5, "on the upper floor")
	}
	for _, ev := range f.events {
		if ev.Kind == components.EventOffMeshStarted {
			assert.Equal(t, link, ev.Link)
		}
	}

	// Removing the entity removes the link.
	require.NoError(t, f.plugin.RemoveLink(f.world, link))
	assert.Equal(t, 0, f.plugin.Config().Mesh.Snapshot().LinkCount())
	_, err = f.plugin.Link(f.world, link)
	assert.ErrorIs(t, err, ErrNotLink)
	link, err = f.plugin.SpawnLink(f.world, bridge(components.LinkAuto, 0))
	require.NoError(t, err)
	f.world.RemoveEntity(link)
	assert.Equal(t, 0, f.plugin.Config().Mesh.Snapshot().LinkCount(), "world.RemoveEntity too")
}

func TestLinkCapacityQueuesAndManualRide(t *testing.T) {
	f := newLinkFixture(t, 3)
	link, err := f.plugin.SpawnLink(f.world, bridge(components.LinkManual, 1))
	require.NoError(t, err)
	f.sendUp(t)
	var held ecs.Entity
	for range 600 {
		f.step(t, 1)
		riders, err := f.plugin.LinkRiders(f.world, link, nil)
		require.NoError(t, err)
		queue, err := f.plugin.LinkQueue(f.world, link, nil)
		require.NoError(t, err)
		if len(riders) == 1 && len(queue) == 2 {
			held = riders[0]
			break
		}
	}
	require.False(t, held.IsZero(), "one agent on the link, two queued")
	assert.Equal(t, 1, f.count(components.EventLinkReached))
	assert.Equal(t, 2, f.count(components.EventLinkQueued))
	info, err := f.plugin.Link(f.world, link)
	require.NoError(t, err)
	assert.Equal(t, [2]int{1, 2}, [2]int{info.Occupants, info.Queued})

	// Held: the crowd does not move it, whatever the ticks.
	before, err := f.plugin.State(f.world, held)
	require.NoError(t, err)
	assert.Equal(t, components.AgentOffMesh, before.Mode)
	f.step(t, 120)
	after, err := f.plugin.State(f.world, held)
	require.NoError(t, err)
	assert.Equal(t, before.Position, after.Position)
	queue, _ := f.plugin.LinkQueue(f.world, link, nil)
	require.Len(t, queue, 2, "the others wait")
	for _, e := range queue {
		state, _ := f.plugin.State(f.world, e)
		assert.Less(t, geom.Len(state.Velocity), float32(0.2), "a queued agent stands")
	}

	// The game moves it up and lets it off; the next in the queue goes on.
	ride, ok, err := f.plugin.AgentLink(f.world, held)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, components.LinkHeld, ride.Phase)
	require.NoError(t, f.plugin.MoveOnLink(f.world, held, geom.Lerp(ride.Start, ride.End, 0.5)))
	require.NoError(t, f.plugin.CompleteLink(f.world, held))
	assert.ErrorIs(t, f.plugin.CompleteLink(f.world, held), ErrNotOnLink)
	f.step(t, 2)
	riders, _ := f.plugin.LinkRiders(f.world, link, nil)
	require.Len(t, riders, 1)
	assert.Equal(t, queue[0], riders[0], "first come, first served")

	// Cancel: back where it got on, it queues again behind the last one.
	second := riders[0]
	require.NoError(t, f.plugin.CancelLink(f.world, second))
	state, _ := f.plugin.State(f.world, second)
	assert.Equal(t, components.AgentWalking, state.Mode)
	assert.InDelta(t, 0, state.Position[1], 0.3, "on the ground floor")
	f.step(t, 2)
	riders, _ = f.plugin.LinkRiders(f.world, link, nil)
	require.Len(t, riders, 1)
	assert.Equal(t, queue[1], riders[0])

	// Let everyone up.
	for range 2000 {
		riders, _ = f.plugin.LinkRiders(f.world, link, nil)
		for _, e := range riders {
			require.NoError(t, f.plugin.CompleteLink(f.world, e))
		}
		f.step(t, 1)
		if f.count(components.EventTargetReached) == 3 {
			break
		}
	}
	for _, e := range f.agents {
		kinds := f.kinds(e, components.EventLinkReached, components.EventLinkCompleted, components.EventTargetReached)
		require.GreaterOrEqual(t, len(kinds), 3, "%v", kinds)
		assert.Equal(t, []components.EventKind{components.EventLinkReached, components.EventLinkCompleted, components.EventTargetReached}, kinds[len(kinds)-3:])
	}
	assert.Equal(t, 1, f.count(components.EventLinkCancelled))
}

// TestLinkRemovedUnderItsAgents: the queued agents leave the queue and
// plan again (partial: the link was the only way); a held one stays held
// and is let off where the game says.
func TestLinkRemovedUnderItsAgents(t *testing.T) {
	f := newLinkFixture(t, 2)
	link, err := f.plugin.SpawnLink(f.world, bridge(components.LinkManual, 1))
	require.NoError(t, err)
	f.sendUp(t)
	var held ecs.Entity
	for range 600 {
		f.step(t, 1)
		riders, _ := f.plugin.LinkRiders(f.world, link, nil)
		queue, _ := f.plugin.LinkQueue(f.world, link, nil)
		if len(riders) == 1 && len(queue) == 1 {
			held = riders[0]
			break
		}
	}
	require.False(t, held.IsZero())
	require.NoError(t, f.plugin.RemoveLink(f.world, link))
	f.events = nil
	f.step(t, 30)
	traffic := f.plugin.linkAPI.traffic.Get()
	require.Len(t, traffic.Rides, 1, "the queued agent left")
	assert.Equal(t, held, traffic.Rides[0].Agent)
	assert.Equal(t, 1, f.count(components.EventPartialPath))
	require.NoError(t, f.plugin.CompleteLinkAt(f.world, held, geom.Vec3{20, 4, 5}))
	state, _ := f.plugin.State(f.world, held)
	assert.InDelta(t, 20, state.Position[0], 0.3)
	assert.Equal(t, components.AgentWalking, state.Mode)
	f.step(t, 600)
	assert.Equal(t, 1, f.count(components.EventTargetReached))
}

func TestAgentLinkTraversalOverridesTheLink(t *testing.T) {
	f := newLinkFixture(t, 2)
	_, err := f.plugin.SpawnLink(f.world, bridge(components.LinkAuto, 0))
	require.NoError(t, err)
	require.NoError(t, f.plugin.SetAgentLinkTraversal(f.world, f.agents[1], components.LinkManual))
	f.sendUp(t)
	f.step(t, 900)
	assert.Contains(t, f.kinds(f.agents[0], components.EventOffMeshStarted), components.EventOffMeshStarted)
	assert.Equal(t, []components.EventKind{components.EventLinkReached}, f.kinds(f.agents[1], components.EventLinkReached, components.EventOffMeshStarted))
	require.NoError(t, f.plugin.ClearAgentLinkTraversal(f.world, f.agents[1]))
	assert.ErrorIs(t, f.plugin.SetAgentLinkTraversal(f.world, f.agents[0], 9), ErrInvalidInput)
}

func TestSpawnLinkRejectsBadLinks(t *testing.T) {
	f := newLinkFixture(t, 1)
	nan := float32(0)
	nan /= nan
	for name, change := range map[string]func(*components.Link){
		"start not finite":  func(l *components.Link) { l.Start[0] = nan },
		"negative radius":   func(l *components.Link) { l.Radius = -1 },
		"area too high":     func(l *components.Link) { l.Area = 64 },
		"unknown traversal": func(l *components.Link) { l.Traversal = 7 },
		"unknown type":      func(l *components.Link) { l.AgentTypes = 2 },
	} {
		t.Run(name, func(t *testing.T) {
			l := bridge(components.LinkAuto, 0)
			change(&l)
			_, err := f.plugin.SpawnLink(f.world, l)
			assert.ErrorIs(t, err, ErrInvalidInput)
		})
	}
	l := bridge(components.LinkAuto, 0)
	l.Radius = 1e6
	_, err := f.plugin.SpawnLink(f.world, l)
	assert.ErrorIs(t, err, ErrLinkRefused)
	assert.Equal(t, 0, f.plugin.Config().Mesh.Snapshot().LinkCount(), "nothing added")
	assert.ErrorIs(t, f.plugin.RemoveLink(f.world, f.agents[0]), ErrNotLink)
	assert.ErrorIs(t, f.plugin.CompleteLink(f.world, f.agents[0]), ErrNotOnLink)
}

// TestLinkComponentWrittenMovesTheLink: a game that writes the Link
// component moves the link at the next tick.
func TestLinkComponentWrittenMovesTheLink(t *testing.T) {
	f := newLinkFixture(t, 1)
	link, err := f.plugin.SpawnLink(f.world, bridge(components.LinkAuto, 0))
	require.NoError(t, err)
	before := f.plugin.Config().Mesh.Snapshot()
	id := mustLinkInfo(t, f, link).State.IDs[0]
	l, _ := f.plugin.linkAPI.links.Get(link)
	l.End = geom.Vec3{16, 4, 3}
	f.step(t, 1)
	info := mustLinkInfo(t, f, link)
	assert.NotEqual(t, id, info.State.IDs[0])
	desc, ok := f.plugin.Config().Mesh.Snapshot().Link(info.State.IDs[0])
	require.True(t, ok)
	assert.Equal(t, geom.Vec3{16, 4, 3}, desc.End)
	_, ok = f.plugin.Config().Mesh.Snapshot().Link(id)
	assert.False(t, ok, "the old one is gone")
	assert.Equal(t, 1, before.LinkCount())
}

func mustLinkInfo(t *testing.T, f *linkFixture, e ecs.Entity) LinkInfo {
	t.Helper()
	info, err := f.plugin.Link(f.world, e)
	require.NoError(t, err)
	return info
}

// TestHeldAgentGetsANewTarget: an agent held on a link that is sent
// elsewhere stays held; let off, it walks to the new target.
func TestHeldAgentGetsANewTarget(t *testing.T) {
	f := newLinkFixture(t, 1)
	_, err := f.plugin.SpawnLink(f.world, bridge(components.LinkManual, 0))
	require.NoError(t, err)
	f.sendUp(t)
	a := f.agents[0]
	for range 600 {
		f.step(t, 1)
		if ride, ok, _ := f.plugin.AgentLink(f.world, a); ok && ride.Phase == components.LinkHeld {
			break
		}
	}
	ride, ok, err := f.plugin.AgentLink(f.world, a)
	require.NoError(t, err)
	require.True(t, ok)
	require.NoError(t, f.plugin.RequestMoveTarget(f.world, a, geom.Vec3{16, 4, 9}))
	held, _ := f.plugin.State(f.world, a)
	f.step(t, 60)
	state, _ := f.plugin.State(f.world, a)
	assert.Equal(t, components.AgentOffMesh, state.Mode)
	assert.Equal(t, held.Position, state.Position)
	require.NoError(t, f.plugin.CompleteLink(f.world, a))
	assert.Equal(t, ride.End, mustState(t, f, a).Position)
	f.step(t, 600)
	state = mustState(t, f, a)
	assert.True(t, state.Arrived)
	assert.InDelta(t, 9, state.Position[2], 0.6)
}

func mustState(t *testing.T, f *linkFixture, e ecs.Entity) AgentInfo {
	t.Helper()
	info, err := f.plugin.State(f.world, e)
	require.NoError(t, err)
	return info
}

// TestLinkForOneAgentType: a link for one agent type is in that type's
// navmesh only; its agents cross, the other type's find no way up.
func TestLinkForOneAgentType(t *testing.T) {
	small, large := twoFloors(t), twoFloors(t)
	p, err := New(Config{AgentTypes: []AgentTypeConfig{{Name: "small", Mesh: small}, {Name: "large", Mesh: large}}, MaxAgents: 2, ArrivalDistance: 0.5})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	l := bridge(components.LinkAuto, 0)
	l.AgentTypes = 1 << 1
	link, err := p.SpawnLink(&world, l)
	require.NoError(t, err)
	assert.Equal(t, [2]int{0, 1}, [2]int{small.Snapshot().LinkCount(), large.Snapshot().LinkCount()})
	info, err := p.Link(&world, link)
	require.NoError(t, err)
	assert.Zero(t, info.State.IDs[0])
	assert.NotZero(t, info.State.IDs[1])
	assert.True(t, info.Attached)

	f := &linkFixture{world: &world, plugin: p}
	for typ := range uint8(2) {
		params := components.DefaultAgentParams()
		params.Type = typ
		e, err := p.Spawn(&world, geom.Vec3{2, 0, float32(3 + 4*int(typ))}, params)
		require.NoError(t, err)
		f.agents = append(f.agents, e)
	}
	f.sendUp(t)
	f.step(t, 900)
	assert.Equal(t, []components.EventKind{components.EventPartialPath}, f.kinds(f.agents[0], components.EventPartialPath, components.EventTargetReached))
	assert.Equal(t, []components.EventKind{components.EventTargetReached}, f.kinds(f.agents[1], components.EventPartialPath, components.EventTargetReached))

	require.NoError(t, p.RemoveLink(&world, link))
	assert.Zero(t, large.Snapshot().LinkCount())
}
