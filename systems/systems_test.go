package systems

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPathRequestAlone(t *testing.T) {
	w := newTestWorld(t, 4)
	near := w.spawn(t, hallA)
	w.target(t, near, geom.Vec3{-5, 10.2, -18})
	longWay := w.spawn(t, hallA)
	w.target(t, longWay, far)

	w.settings().PathQueueIterations = 1 // slow, to see the queue work
	var s PathRequest
	run(w, &s, 1)
	_, _, _, _, corridor, target, _, _, _, _ := w.get(near)
	// A short way: the quick search plans it at once.
	assert.Equal(t, components.TargetValid, target.State)
	assert.Equal(t, target.Ref, corridor.LastPoly())
	assert.Equal(t, target.Position, corridor.Target())
	_, _, _, _, corridor, target, _, _, _, _ = w.get(longWay)
	assert.Equal(t, components.TargetWaitingForPath, target.State)
	assert.NotZero(t, target.Request)
	assert.NotEqual(t, target.Ref, corridor.LastPoly())

	for i := 0; i < 200 && target.State != components.TargetValid; i++ {
		s.Update(w.world)
	}
	require.Equal(t, components.TargetValid, target.State)
	assert.Equal(t, target.Ref, corridor.LastPoly())
	assert.Greater(t, corridor.PathCount(), 20)
	assert.Zero(t, target.Request)
}

func TestIntegrateAlone(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	params, pos, vel, _, _, _, _, _, _, _ := w.get(e)
	start := pos.Vec3()
	vel.Planned = geom.Vec3{3, 0, 0}
	var s Integrate
	run(w, &s, 1)
	// At most 8 m/s² · 1/60 s of speed change in a tick.
	maxDelta := params.MaxAcceleration / 60
	assert.InDelta(t, maxDelta, vel.Actual[0], 1e-6)
	assert.InDelta(t, start[0]+maxDelta/60, pos[0], 1e-6)
	for i := 0; i < 60; i++ {
		s.Update(w.world)
	}
	assert.Equal(t, geom.Vec3{3, 0, 0}, vel.Actual)

	// A velocity below 0.0001 becomes zero and the agent stays.
	vel.Planned, vel.Actual = geom.Vec3{}, geom.Vec3{0.00005, 0, 0}
	before := *pos
	s.Update(w.world)
	assert.Equal(t, geom.Vec3{}, vel.Actual)
	assert.Equal(t, before, *pos)
}

func TestBoundaryUpdateAlone(t *testing.T) {
	w := newTestWorld(t, 10)
	var agents []ecs.Entity
	for i := 0; i < 8; i++ {
		agents = append(agents, w.spawn(t, geom.Add(hallA, geom.Vec3{float32(i%4) * 1.5, 0, float32(i/4) * 1.5})))
	}
	lonely := w.spawn(t, hallB)
	var s BoundaryUpdate
	run(w, &s, 1)

	_, pos, _, _, _, _, boundary, neighbours, _, _ := w.get(agents[0])
	require.Equal(t, components.MaxNeighbours, neighbours.Count)
	prev := float32(0)
	for _, nb := range neighbours.Slice() {
		assert.NotEqual(t, agents[0], nb.Entity)
		assert.GreaterOrEqual(t, nb.DistanceSqr, prev)
		prev = nb.DistanceSqr
		_, other, _, _, _, _, _, _, _, _ := w.get(nb.Entity)
		assert.InDelta(t, geom.Dist2DSqr(pos.Vec3(), other.Vec3()), nb.DistanceSqr, 1e-4)
	}
	// The nearest are the two at 1.5 m.
	assert.InDelta(t, 2.25, neighbours.List[0].DistanceSqr, 0.05)
	assert.Positive(t, boundary.SegmentCount())
	assert.Equal(t, pos.Vec3(), boundary.Center())

	_, _, _, _, _, _, _, neighbours, _, _ = w.get(lonely)
	assert.Zero(t, neighbours.Count)
}

func TestSteeringAlone(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	w.target(t, e, geom.Vec3{-5, 10.2, -18})
	var paths PathRequest
	run(w, &paths, 1)
	var s Steering
	run(w, &s, 1)
	params, pos, vel, _, _, target, _, _, corners, _ := w.get(e)
	require.Equal(t, 1, corners.Count)
	assert.Equal(t, target.Position, corners.Points[0].Pos)
	assert.Equal(t, query.StraightPathEnd, corners.Points[0].Flags)
	assert.Equal(t, params.MaxSpeed, vel.DesiredSpeed)
	assert.InDelta(t, params.MaxSpeed, geom.Len(vel.Desired), 1e-4)
	toTarget := geom.Normalize(geom.Vec3{target.Position[0] - pos[0], 0, target.Position[2] - pos[2]})
	assert.InDelta(t, 1, geom.Dot(geom.Normalize(vel.Desired), toTarget), 1e-4)
}

func TestVelocitySamplingAlone(t *testing.T) {
	w := newTestWorld(t, 2)
	a := w.spawn(t, hallA)
	b := w.spawn(t, geom.Add(hallA, geom.Vec3{1.5, 0, 0}))
	var boundary BoundaryUpdate
	run(w, &boundary, 1)
	_, _, vel, _, _, _, _, _, _, _ := w.get(a)
	vel.Desired, vel.DesiredSpeed = geom.Vec3{3.5, 0, 0}, 3.5 // straight into b
	var s VelocitySampling
	run(w, &s, 1)
	assert.NotEqual(t, vel.Desired, vel.Planned)
	assert.Less(t, vel.Planned[0], float32(3.4))

	// Without the flag the planned velocity is the desired one.
	params, _, _, _, _, _, _, _, _, _ := w.get(a)
	params.UpdateFlags &^= components.ObstacleAvoidance
	s.Update(w.world)
	assert.Equal(t, vel.Desired, vel.Planned)
	_ = b
}

func TestCollisionResolveAlone(t *testing.T) {
	w := newTestWorld(t, 2)
	a := w.spawn(t, hallA)
	b := w.spawn(t, geom.Add(hallA, geom.Vec3{0.8, 0, 0}))
	var boundary BoundaryUpdate
	run(w, &boundary, 1)
	w.settings().CollisionIterations = 1
	w.settings().PushSpeedLimit = 0 // the reference's pushes
	_, pa, _, _, _, _, _, _, _, _ := w.get(a)
	_, pb, _, _, _, _, _, _, _, _ := w.get(b)
	before := geom.Dist2D(pa.Vec3(), pb.Vec3())
	var s CollisionResolve
	run(w, &s, 1)
	// Each moves by half the overlap times 0.7.
	overlap := 1.2 - before
	assert.InDelta(t, before+float32(overlap*0.7), geom.Dist2D(pa.Vec3(), pb.Vec3()), 1e-4)
	w.settings().CollisionIterations = 4
	for i := 0; i < 5; i++ {
		s.Update(w.world)
	}
	assert.Greater(t, geom.Dist2D(pa.Vec3(), pb.Vec3()), float32(1.19))
}

func TestCollisionPartsAgentsOnTheSameSpot(t *testing.T) {
	for _, wallSafe := range []bool{false, true} {
		w := newTestWorld(t, 2)
		a := w.spawn(t, hallA)
		b := w.spawn(t, hallA)
		var boundary BoundaryUpdate
		run(w, &boundary, 1)
		w.settings().WallSafeCollisions = wallSafe
		var s CollisionResolve
		run(w, &s, 10)
		_, pa, _, _, _, _, _, _, _, _ := w.get(a)
		_, pb, _, _, _, _, _, _, _, _ := w.get(b)
		if wallSafe {
			assert.Greater(t, geom.Dist2D(pa.Vec3(), pb.Vec3()), float32(1.1))
		} else {
			// The reference parts them along their desired velocities: zero.
			assert.Zero(t, geom.Dist2D(pa.Vec3(), pb.Vec3()))
		}
	}
}

func TestSurfaceClampAlone(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	_, pos, _, _, corridor, _, _, _, _, _ := w.get(e)
	start := pos.Vec3()
	// Pushed 30 m away through walls: the move slides along the surface.
	*pos = components.Position(geom.Add(start, geom.Vec3{0, 5, -30}))
	var s SurfaceClamp
	run(w, &s, 1)
	assert.Equal(t, corridor.Position(), pos.Vec3())
	closest, _, err := w.query.ClosestPointOnPoly(corridor.FirstPoly(), pos.Vec3())
	require.NoError(t, err)
	assert.InDelta(t, 0, geom.Dist2D(closest, pos.Vec3()), 1e-3)
	h, err := w.query.PolyHeight(corridor.FirstPoly(), pos.Vec3())
	if err == nil {
		assert.InDelta(t, h, pos[1], 1e-4)
	}
	assert.Equal(t, 1, corridor.PathCount())
}

func TestSurfaceClampRaisesTargetReachedOnce(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	w.target(t, e, geom.Add(hallA, geom.Vec3{0.1, 0, 0}))
	var paths PathRequest
	run(w, &paths, 1)
	var s SurfaceClamp
	run(w, &s, 2)
	events := w.events()
	require.Len(t, events, 1)
	assert.Equal(t, components.EventTargetReached, events[0].Kind)
	assert.Equal(t, e, events[0].Entity)
}

func TestOffMeshAnimationAlone(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	_, pos, vel, state, _, _, _, _, _, anim := w.get(e)
	*anim = components.OffMeshAnimation{
		Active: true, InitPos: geom.Vec3{0, 0, 0}, StartPos: geom.Vec3{1, 0, 0}, EndPos: geom.Vec3{11, 0, 0},
		Poly: 42, TMax: 1,
	}
	state.Mode = components.AgentOffMesh
	vel.Actual = geom.Vec3{1, 0, 0}
	var s OffMeshAnimation
	run(w, &s, 6) // t = 0.1: first part, towards the start
	assert.InDelta(t, 0.1/0.15, pos[0], 1e-4)
	assert.Zero(t, geom.Len(vel.Actual))
	for i := 0; i < 30; i++ { // t = 0.6
		s.Update(w.world)
	}
	assert.InDelta(t, 1+10*(0.6-0.15)/0.85, pos[0], 1e-3)
	for i := 0; i < 25; i++ { // past TMax
		s.Update(w.world)
	}
	assert.False(t, anim.Active)
	assert.Equal(t, components.AgentWalking, state.Mode)
	events := w.events()
	require.Len(t, events, 1)
	assert.Equal(t, components.EventOffMeshFinished, events[0].Kind)
	assert.EqualValues(t, 42, events[0].Poly)
}

func TestTopologyOptimizeOneAgentPerTick(t *testing.T) {
	w := newTestWorld(t, 3)
	var agents []ecs.Entity
	for i := 0; i < 3; i++ {
		e := w.spawn(t, hallA)
		_, _, _, state, _, target, _, _, _, _ := w.get(e)
		target.State = components.TargetValid
		state.TopologyOptimizationTime = 0.4 + float32(float32(i)*0.01)
		agents = append(agents, e)
	}
	var s TopologyOptimize
	s.Initialize(w.world)
	var order []int
	last := []float32{0.4, 0.41, 0.42}
	for tick := 0; tick < 8; tick++ {
		s.Update(w.world)
		for i, e := range agents {
			_, _, _, state, _, _, _, _, _, _ := w.get(e)
			if state.TopologyOptimizationTime < last[i] {
				order = append(order, i)
			}
			last[i] = state.TopologyOptimizationTime
		}
	}
	// The one that waited longest first, one per tick.
	assert.Equal(t, []int{2, 1, 0}, order)
}

// TestStagesWithoutResourcesDoNothing: a stage on a world without the
// crowd's resources leaves everything as it is.
func TestStagesWithoutResourcesDoNothing(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	bare := ecs.NewWorld()
	params := components.DefaultAgentParams()
	pos := components.Position(hallA)
	vel := components.Velocity{Planned: geom.Vec3{1, 0, 0}}
	m := generic.NewMap10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	](&bare)
	_, _, _, _, corridor, _, _, _, _, _ := w.get(e)
	agent := m.NewWith(&params, &pos, &vel, &components.AgentState{}, corridor, &components.MoveTarget{State: components.TargetRequesting},
		&components.Boundary{}, &components.Neighbours{}, &components.Corners{}, &components.OffMeshAnimation{})
	for _, sys := range []System{&PathRequest{}, &TopologyOptimize{}, &BoundaryUpdate{}, &Steering{},
		&VelocitySampling{}, &CollisionResolve{}, &SurfaceClamp{}} {
		sys.Initialize(&bare)
		sys.Update(&bare)
		sys.Finalize(&bare)
	}
	_, gotPos, gotVel, _, _, target, _, _, _, _ := m.Get(agent)
	assert.Equal(t, pos, *gotPos)
	assert.Equal(t, vel, *gotVel)
	assert.Equal(t, components.TargetRequesting, target.State)
}
