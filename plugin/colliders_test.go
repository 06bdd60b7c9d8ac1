package plugin

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var dungeonDynamic struct {
	once sync.Once
	g    *bake.Geometry
	err  error
}

// newDungeonDynamic returns a new dynamic mesh of the dungeon level.
func newDungeonDynamic(tb testing.TB) *dynamic.Mesh {
	tb.Helper()
	dungeonDynamic.once.Do(func() { dungeonDynamic.g, dungeonDynamic.err = bake.LoadOBJ("../testdata/dungeon.obj") })
	require.NoError(tb, dungeonDynamic.err)
	m, err := dynamic.New(context.Background(), dungeonDynamic.g, bake.DefaultSettings(), dynamic.Options{Workers: 1})
	require.NoError(tb, err)
	return m
}

// tileData returns the fingerprint of each tile of mesh by location.
func tileData(tb testing.TB, mesh *navmesh.Mesh) map[[2]int32]uint64 {
	prints := map[[2]int32]uint64{}
	for t := range mesh.Snapshot().Tiles() {
		fp, err := navmesh.TileDataFingerprint(t.Data)
		require.NoError(tb, err)
		prints[[2]int32{t.Data.Header.X, t.Data.Header.Y}] = fp
	}
	return prints
}

// plankPose returns the pose of an oriented box whose top runs from a to
// b (a flat plank of thickness thick).
func plankPose(a, b geom.Vec3, thick float32) components.ColliderPose {
	dx, dz := float64(b[0]-a[0]), float64(b[2]-a[2])
	rotation := mgl32.QuatRotate(float32(math.Atan2(-dz, dx)), geom.Vec3{0, 1, 0})
	mid := geom.Scale(geom.Add(a, b), 0.5)
	mid[1] -= float32(thick / 2)
	return components.ColliderPose{Position: mid, Rotation: rotation}
}

// TestCollidersDigAndBridge: agents walk along a corridor of the dungeon;
// a pit dug across it (a carving collider entity) stops them, a bridge
// over the pit lets them through to their targets, and once both
// entities are removed the navmesh is the initial one, byte for byte.
//
// With HierarchicalPaths the path queue plans with a hierarchy of the
// mesh, which follows the rebuilt tiles.
func TestCollidersDigAndBridge(t *testing.T) {
	for _, hierarchical := range []bool{false, true} {
		t.Run(map[bool]string{false: "A*", true: "hierarchical"}[hierarchical], func(t *testing.T) {
			digAndBridge(t, hierarchical)
		})
	}
}

func digAndBridge(t *testing.T, hierarchical bool) {
	m := newDungeonDynamic(t)
	initial := tileData(t, m.NavMesh())
	var events []components.Event
	p, err := New(Config{DynamicMesh: m, MaxAgents: 8, HierarchicalPaths: switchOf(hierarchical),
		OnEvent: func(_ *ecs.World, ev components.Event) { events = append(events, ev) }})
	require.NoError(t, err)
	assert.Equal(t, m.NavMesh(), p.Config().Mesh)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))

	var agents []ecs.Entity
	var targets []geom.Vec3
	for i := range 4 {
		z := -0.6 + float32(0.8*float32(i))
		e, err := p.Spawn(&world, geom.Vec3{11, 10.2, z}, components.DefaultAgentParams())
		require.NoError(t, err)
		agents = append(agents, e)
		targets = append(targets, geom.Vec3{26, 10.2, z})
	}
	landed := func(e ecs.Entity) bool {
		for _, ev := range events {
			if ev.Kind == components.EventColliderLanded && ev.Entity == e {
				return true
			}
		}
		return false
	}
	pit, err := p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{18, 10.2, 0.65}},
		components.NewCollider(collider.NewBox(geom.Vec3{1.5, 1, 6}).Carving()))
	require.NoError(t, err)
	require.NoError(t, p.Step(&world, 1.0/60))
	require.True(t, landed(pit), "the pit is in the navmesh after one tick (no tile budget)")
	info, err := p.Collider(&world, pit)
	require.NoError(t, err)
	assert.Equal(t, components.ColliderState{InMesh: true, Landed: true}, info.State)
	for i, e := range agents {
		require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
	}
	for range 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	for _, e := range agents {
		state, err := p.State(&world, e)
		require.NoError(t, err)
		assert.True(t, state.Partial, "the pit cuts the way")
	}

	bridge, err := p.SpawnCollider(&world, plankPose(geom.Vec3{15.5, 10.2, 0.65}, geom.Vec3{20.5, 10.2, 0.65}, 0.3),
		components.NewCollider(collider.NewOrientedBox(geom.Vec3{3, 0.15, 1.5})))
	require.NoError(t, err)
	for range 600 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	require.True(t, landed(bridge))
	for i, e := range agents {
		state, err := p.State(&world, e)
		require.NoError(t, err)
		// Four agents round targets 0.8 m apart: near, not on them.
		assert.Greater(t, state.Position[0], float32(21), "agent %d crossed the bridge", i)
		assert.Less(t, geom.Dist2D(state.Position, targets[i]), float32(1.2), "agent %d reached its target", i)
	}
	stats := p.Stats(&world)
	assert.Equal(t, 2, stats.Colliders)
	assert.Zero(t, stats.ColliderTilesPending)

	require.NoError(t, p.RemoveCollider(&world, pit))
	world.RemoveEntity(bridge)
	require.NoError(t, p.Step(&world, 1.0/60))
	assert.Equal(t, initial, tileData(t, m.NavMesh()))
	assert.Zero(t, p.Stats(&world).Colliders)
	assert.Zero(t, m.ColliderCount())
}

func TestColliderAPIErrors(t *testing.T) {
	crate := components.NewCollider(collider.NewBox(geom.Vec3{1, 1, 1}))
	at := components.ColliderPose{Position: geom.Vec3{40.6, 11.2, 0.65}}
	plain, err := New(Config{Mesh: loadDungeon(t)})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, plain.Install(&world))
	_, err = plain.SpawnCollider(&world, at, crate)
	assert.ErrorIs(t, err, ErrNoDynamicMesh)

	m := newDungeonDynamic(t)
	_, err = New(Config{Mesh: loadDungeon(t), DynamicMesh: m})
	assert.ErrorIs(t, err, ErrInvalidConfig)
	var events []components.Event
	p, err := New(Config{DynamicMesh: m, OnEvent: func(_ *ecs.World, ev components.Event) { events = append(events, ev) }})
	require.NoError(t, err)
	world = ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	bad := crate
	bad.Shape.HalfExtents[1] = -1
	_, err = p.SpawnCollider(&world, at, bad)
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, err = p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{float32(math.NaN()), 0, 0}}, crate)
	assert.ErrorIs(t, err, ErrInvalidInput)
	agent, err := p.Spawn(&world, geom.Vec3{40.6, 10.2, 0.65}, components.DefaultAgentParams())
	require.NoError(t, err)
	assert.ErrorIs(t, p.SetColliderPose(&world, agent, at), ErrNotCollider)
	_, err = p.Collider(&world, ecs.Entity{})
	assert.ErrorIs(t, err, ErrNotCollider)

	// A collider far outside the mesh is refused, once, and kept trying
	// when it moves in.
	far, err := p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{500, 0, 0}}, crate)
	require.NoError(t, err)
	require.NoError(t, p.Step(&world, 1.0/60))
	require.NoError(t, p.Step(&world, 1.0/60))
	info, err := p.Collider(&world, far)
	require.NoError(t, err)
	assert.Equal(t, components.ColliderState{Refused: true}, info.State)
	refusals := 0
	for _, ev := range events {
		if ev.Kind == components.EventColliderRefused {
			refusals++
		}
	}
	assert.Equal(t, 1, refusals)
	require.NoError(t, p.SetColliderPose(&world, far, at))
	require.NoError(t, p.Step(&world, 1.0/60))
	info, err = p.Collider(&world, far)
	require.NoError(t, err)
	assert.Equal(t, components.ColliderState{InMesh: true, Landed: true}, info.State)
	assert.Equal(t, 1, m.ColliderCount())
}

// TestCollidersRaceWithQueriesAndCrowd runs a crowd on two workers over a
// dynamic mesh whose tiles background workers rebuild, with crates
// moving every tick and another goroutine querying the navmesh all the
// while: meant for -race (queries and the crowd read snapshots the
// rebuilds swap). Every agent stays valid and every query answers.
func TestCollidersRaceWithQueriesAndCrowd(t *testing.T) {
	m := newDungeonDynamic(t)
	require.NoError(t, m.StartBackground(1))
	defer m.Close()
	f := newCrowd(t, m.NavMesh(), 24, 5, Config{DynamicMesh: m, Workers: 2})
	var crates []ecs.Entity
	for i := range 3 {
		e, err := f.plugin.SpawnCollider(f.world, components.ColliderPose{Position: geom.Vec3{36 + float32(3*float32(i)), 11.2, -2}},
			components.NewCollider(collider.NewOrientedBox(geom.Vec3{1, 1, 0.5})))
		require.NoError(t, err)
		crates = append(crates, e)
	}
	var stop atomic.Bool
	var queries, failures atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		q, err := query.New(m.NavMesh(), 1024)
		if err != nil {
			failures.Add(1)
			return
		}
		rng := rand.New(rand.NewPCG(7, 8))
		path := make([]navmesh.Ref, 256)
		filter := query.NewFilter()
		for !stop.Load() {
			a, err := q.FindRandomPoint(filter, rng.Float32)
			if err != nil {
				failures.Add(1)
				continue
			}
			b, err := q.FindRandomPoint(filter, rng.Float32)
			if err != nil {
				failures.Add(1)
				continue
			}
			// A polygon may vanish between the two calls: a stale ref is
			// an error, never a crash.
			_, _, _ = q.FindPath(a.Ref, b.Ref, a.Pos, b.Pos, filter, path)
			queries.Add(1)
		}
	}()
	for tick := range 240 {
		for i, e := range crates {
			angle := float64(tick)/40 + float64(i)
			pose := components.ColliderPose{
				Position: geom.Vec3{38 + float32(3*float32(math.Cos(angle))), 11.2, -2 + float32(3*float32(math.Sin(angle)))},
				Rotation: mgl32.QuatRotate(float32(angle), geom.Vec3{0, 1, 0}),
			}
			require.NoError(t, f.plugin.SetColliderPose(f.world, e, pose))
		}
		require.NoError(t, f.plugin.Step(f.world, 1.0/60))
	}
	stop.Store(true)
	wg.Wait()
	assert.Zero(t, failures.Load())
	assert.Positive(t, queries.Load())
	for _, e := range f.agents {
		state, err := f.plugin.State(f.world, e)
		require.NoError(t, err)
		assert.NotZero(t, state.Poly, "agent %v is on the navmesh", e)
	}
}

// TestColliderPitUnderAgents: a pit dug where agents stand takes their
// polygons away; they walk back to the navmesh and none is left invalid.
func TestColliderPitUnderAgents(t *testing.T) {
	m := newDungeonDynamic(t)
	var events []components.Event
	p, err := New(Config{DynamicMesh: m, MaxAgents: 8, OnEvent: func(_ *ecs.World, ev components.Event) { events = append(events, ev) }})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	var agents []ecs.Entity
	for i := range 3 {
		e, err := p.Spawn(&world, geom.Vec3{17.5 + float32(0.9*float32(i)), 10.2, 0.65}, components.DefaultAgentParams())
		require.NoError(t, err)
		agents = append(agents, e)
	}
	_, err = p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{18, 10.2, 0.65}},
		components.NewCollider(collider.NewBox(geom.Vec3{1.5, 1, 6}).Carving()))
	require.NoError(t, err)
	for range 180 {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	lost := 0
	for _, ev := range events {
		if ev.Kind == components.EventGroundLost {
			lost++
		}
	}
	assert.Equal(t, len(agents), lost, "every agent lost its ground")
	for _, e := range agents {
		state, err := p.State(&world, e)
		require.NoError(t, err)
		assert.NotZero(t, state.Poly, "agent %v walked back to the navmesh", e)
		assert.False(t, math.Abs(float64(state.Position[0]-18)) < 1.5, "agent %v left the pit: %v", e, state.Position)
	}
}

// TestCollidersChangeEveryAgentType: with two agent types each on its own
// dynamic mesh (dynamic.NewTypes), a collider entity changes both meshes,
// lands once both show it, and leaves both as they were when removed.
func TestCollidersChangeEveryAgentType(t *testing.T) {
	dungeonDynamic.once.Do(func() { dungeonDynamic.g, dungeonDynamic.err = bake.LoadOBJ("../testdata/dungeon.obj") })
	require.NoError(t, dungeonDynamic.err)
	small, large := bake.DefaultSettings(), bake.DefaultSettings()
	large.AgentRadius = 1.2
	meshes, err := dynamic.NewTypes(context.Background(), dungeonDynamic.g,
		[]bake.AgentType{{Name: "small", Settings: small}, {Name: "large", Settings: large}}, dynamic.Options{Workers: 1})
	require.NoError(t, err)
	initial := []map[[2]int32]uint64{tileData(t, meshes[0].NavMesh()), tileData(t, meshes[1].NavMesh())}
	_, err = New(Config{AgentTypes: []AgentTypeConfig{{Name: "small", DynamicMesh: meshes[0]}, {Name: "large", Mesh: meshes[1].NavMesh()}}})
	assert.ErrorIs(t, err, ErrInvalidConfig, "every type or none")
	p, err := New(Config{MaxAgentRadius: 1.2, AgentTypes: []AgentTypeConfig{{Name: "small", DynamicMesh: meshes[0]}, {Name: "large", DynamicMesh: meshes[1]}}})
	require.NoError(t, err)
	assert.Equal(t, meshes[0], p.Config().DynamicMesh)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	crate, err := p.SpawnCollider(&world, components.ColliderPose{Position: geom.Vec3{40.6, 11.2, 0.65}},
		components.NewCollider(collider.NewBox(geom.Vec3{1, 1, 1})))
	require.NoError(t, err)
	require.NoError(t, p.Step(&world, 1.0/60))
	info, err := p.Collider(&world, crate)
	require.NoError(t, err)
	assert.Equal(t, components.ColliderState{InMesh: true, Landed: true}, info.State)
	for i, m := range meshes {
		assert.Equal(t, 1, m.ColliderCount())
		assert.NotEqual(t, initial[i], tileData(t, m.NavMesh()), "type %d", i)
	}
	require.NoError(t, p.RemoveCollider(&world, crate))
	require.NoError(t, p.Step(&world, 1.0/60))
	for i, m := range meshes {
		assert.Zero(t, m.ColliderCount())
		assert.Equal(t, initial[i], tileData(t, m.NavMesh()), "type %d", i)
	}
}

// switchOf is On for true and Off for false.
func switchOf(on bool) Switch {
	if on {
		return On
	}
	return Off
}
