package plugin

import (
	"fmt"
	"math"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openFloor is a point of the dungeon's lower floor 7.4 m from the nearest
// wall.
var openFloor = geom.Vec3{40.75225, 10.197294, 0.29230645}

// arrivalScene is a crowd on the dungeon with agents spawned at given
// offsets from openFloor.
type arrivalScene struct {
	p      *Plugin
	world  *ecs.World
	agents []ecs.Entity
	// reached holds each agent's EventTargetReached tick, -1 for none.
	reached []int
	tick    int
}

func newArrivalScene(t *testing.T, config Config, offsets ...geom.Vec3) *arrivalScene {
	t.Helper()
	radii := make([]float32, len(offsets))
	for i := range radii {
		radii[i] = components.DefaultAgentParams().Radius
	}
	return newMixedArrivalScene(t, config, offsets, radii)
}

// newMixedArrivalScene is newArrivalScene with agent i of radius radii[i]
// (components.AgentParamsForRadius).
func newMixedArrivalScene(t *testing.T, config Config, offsets []geom.Vec3, radii []float32) *arrivalScene {
	t.Helper()
	params := make([]components.AgentParams, len(radii))
	for i, r := range radii {
		params[i] = components.AgentParamsForRadius(r)
	}
	return newArrivalSceneOf(t, config, offsets, params)
}

// newArrivalSceneOf is newArrivalScene with agent i of params[i].
func newArrivalSceneOf(t *testing.T, config Config, offsets []geom.Vec3, params []components.AgentParams) *arrivalScene {
	t.Helper()
	config.Mesh = loadDungeon(t)
	config.MaxAgents = len(offsets)
	p, err := New(config)
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	t.Cleanup(func() { p.Schedule().Finalize(&world) })
	s := &arrivalScene{p: p, world: &world}
	for i, o := range offsets {
		e, err := p.Spawn(&world, geom.Add(openFloor, o), params[i])
		require.NoError(t, err)
		s.agents = append(s.agents, e)
		s.reached = append(s.reached, -1)
	}
	return s
}

// run steps the scene for seconds at 60 ticks a second, noting arrivals.
func (s *arrivalScene) run(t *testing.T, seconds float32) {
	t.Helper()
	for range int(seconds * 60) {
		require.NoError(t, s.p.Step(s.world, 1.0/60))
		for _, ev := range s.p.Events(s.world) {
			for i, e := range s.agents {
				if ev.Entity == e && ev.Kind == components.EventTargetReached {
					s.reached[i] = s.tick
				}
			}
		}
		s.tick++
	}
}

func (s *arrivalScene) info(t *testing.T, i int) AgentInfo {
	t.Helper()
	info, err := s.p.State(s.world, s.agents[i])
	require.NoError(t, err)
	return info
}

// TestArrivalDespiteASeparatingNeighbour is the hovering of issue 24: an
// agent walking to a target with an idle agent standing 3 m beyond it is
// held about half a metre short by its separation from that agent, which
// the reference applies at full strength while the agent brakes: it never
// arrives. By default separation fades as the agent brakes, and it walks
// in to within the arrival distance.
func TestArrivalDespiteASeparatingNeighbour(t *testing.T) {
	for _, reference := range []bool{true, false} {
		s := newArrivalScene(t, Config{Reference: reference}, geom.Vec3{-5, 0, 0}, geom.Vec3{3, 0, 0})
		require.NoError(t, s.p.RequestMoveTarget(s.world, s.agents[0], openFloor))
		s.run(t, 10)
		walker := s.info(t, 0)
		distance := geom.Dist2D(walker.Position, walker.TargetPosition)
		if reference {
			assert.Equal(t, -1, s.reached[0], "the reference hovers")
			assert.InDelta(t, 0.47, distance, 0.1, "held short by the separation")
			continue
		}
		require.GreaterOrEqual(t, s.reached[0], 0, "arrived")
		assert.Less(t, s.reached[0], 4*60, "within 4 s")
		assert.True(t, walker.Arrived)
		assert.False(t, walker.ArrivedNear, "at the target, not short of it")
		assert.LessOrEqual(t, distance, s.p.Config().ArrivalDistance)
	}
}

// TestArrivalAtAnOccupiedTarget: an idle agent stands on the target. The
// reference's agent pushes against it for ever; by default it arrives where
// it stands, pressed against the idle agent, with ArrivedNear set, within a
// second or so of coming to a halt, and then stands still.
func TestArrivalAtAnOccupiedTarget(t *testing.T) {
	for _, reference := range []bool{true, false} {
		s := newArrivalScene(t, Config{Reference: reference}, geom.Vec3{-5, 0, 1}, geom.Vec3{})
		require.NoError(t, s.p.RequestMoveTarget(s.world, s.agents[0], openFloor))
		s.run(t, 10)
		walker := s.info(t, 0)
		if reference {
			assert.Equal(t, -1, s.reached[0], "the reference never arrives")
			continue
		}
		require.GreaterOrEqual(t, s.reached[0], 0, "arrived")
		assert.Less(t, s.reached[0], 5*60, "within 5 s")
		assert.True(t, walker.ArrivedNear, "short of the target")
		idle := s.info(t, 1)
		assert.LessOrEqual(t, geom.Dist2D(walker.Position, idle.Position), float32(1.2*1.1+0.01), "pressed against the idle agent")
		before := walker.Position
		s.run(t, 2)
		assert.Less(t, geom.Dist2D(before, s.info(t, 0).Position), float32(0.05), "stands still after arriving")
	}
}

// TestEveryoneArrivesAtOneTarget: twelve agents from a ring 6 m round one
// target all arrive by default (one at the target, the others as near as
// the bodies already there let them, ArrivedNear), and all come to rest:
// none moves more than 5 cm in the last two seconds. The reference brings
// at most one of them there.
func TestEveryoneArrivesAtOneTarget(t *testing.T) {
	var offsets []geom.Vec3
	for k := range 12 {
		a := float64(k) * 2 * math.Pi / 12
		offsets = append(offsets, geom.Vec3{6 * float32(math.Cos(a)), 0, 6 * float32(math.Sin(a))})
	}
	for _, reference := range []bool{true, false} {
		s := newArrivalScene(t, Config{Reference: reference}, offsets...)
		for _, e := range s.agents {
			require.NoError(t, s.p.RequestMoveTarget(s.world, e, openFloor))
		}
		s.run(t, 20)
		arrived, near, atTarget := 0, 0, 0
		before := make([]geom.Vec3, len(s.agents))
		for i := range s.agents {
			info := s.info(t, i)
			before[i] = info.Position
			if s.reached[i] >= 0 {
				arrived++
			}
			if info.ArrivedNear {
				near++
			} else if info.Arrived {
				atTarget++
			}
		}
		if reference {
			assert.LessOrEqual(t, arrived, 1, "the reference")
			continue
		}
		assert.Equal(t, len(s.agents), arrived, "every agent arrives")
		assert.GreaterOrEqual(t, atTarget, 1, "one at the target")
		assert.Equal(t, len(s.agents)-atTarget, near)
		s.run(t, 2)
		for i := range s.agents {
			assert.Less(t, geom.Dist2D(before[i], s.info(t, i).Position), float32(0.05), "agent %d at rest", i)
		}
	}
}

// TestArrivalAtATargetHeldByAStoppedAgent: the target is taken by an agent
// paused with Plugin.Stop on its way elsewhere (it keeps its own target and
// corridor). The walker arrives pressed against it (ArrivedNear) and stands;
// resumed, the stopped agent walks on to its own target and arrives there.
func TestArrivalAtATargetHeldByAStoppedAgent(t *testing.T) {
	s := newArrivalScene(t, Config{}, geom.Vec3{-5, 0, 1}, geom.Vec3{})
	ownTarget := geom.Add(openFloor, geom.Vec3{4, 0, -3})
	require.NoError(t, s.p.RequestMoveTarget(s.world, s.agents[1], ownTarget))
	require.NoError(t, s.p.Stop(s.world, s.agents[1]))
	require.NoError(t, s.p.RequestMoveTarget(s.world, s.agents[0], openFloor))
	s.run(t, 10)
	walker, stopped := s.info(t, 0), s.info(t, 1)
	require.GreaterOrEqual(t, s.reached[0], 0, "the walker arrived")
	assert.Less(t, s.reached[0], 5*60, "within 5 s")
	assert.True(t, walker.ArrivedNear, "short of the occupied target")
	assert.LessOrEqual(t, geom.Dist2D(walker.Position, stopped.Position), float32(1.2*1.1+0.01), "pressed against the stopped agent")
	assert.Less(t, geom.Dist2D(stopped.Position, openFloor), float32(0.5), "the stopped agent held its place")
	assert.Equal(t, -1, s.reached[1], "the stopped agent did not arrive anywhere")

	require.NoError(t, s.p.Resume(s.world, s.agents[1]))
	before := walker.Position
	s.run(t, 10)
	require.GreaterOrEqual(t, s.reached[1], 0, "resumed, it reaches its own target")
	resumed := s.info(t, 1)
	assert.LessOrEqual(t, geom.Dist2D(resumed.Position, ownTarget), s.p.Config().ArrivalDistance+0.05)
	assert.Less(t, geom.Dist2D(before, s.info(t, 0).Position), float32(0.1), "the arrived walker stays")
}

// TestMixedRadiiArriveAtOneTarget: twelve agents of four radii (0.3 to
// 0.6 m) from a ring 6 m round one target all arrive, one on it and the
// others where the bodies already there let them, and all come to rest.
func TestMixedRadiiArriveAtOneTarget(t *testing.T) {
	var offsets []geom.Vec3
	var radii []float32
	for k := range 12 {
		a := float64(k) * 2 * math.Pi / 12
		offsets = append(offsets, geom.Vec3{6 * float32(math.Cos(a)), 0, 6 * float32(math.Sin(a))})
		radii = append(radii, 0.3+float32(0.1*float32(k%4)))
	}
	s := newMixedArrivalScene(t, Config{}, offsets, radii)
	for _, e := range s.agents {
		require.NoError(t, s.p.RequestMoveTarget(s.world, e, openFloor))
	}
	s.run(t, 20)
	atTarget := 0
	before := make([]geom.Vec3, len(s.agents))
	for i := range s.agents {
		info := s.info(t, i)
		before[i] = info.Position
		assert.GreaterOrEqual(t, s.reached[i], 0, "agent %d (radius %.1f) arrived", i, radii[i])
		if info.Arrived && !info.ArrivedNear {
			atTarget++
		}
	}
	assert.GreaterOrEqual(t, atTarget, 1, "one at the target")
	s.run(t, 2)
	for i := range s.agents {
		assert.Less(t, geom.Dist2D(before[i], s.info(t, i).Position), float32(0.05), "agent %d at rest", i)
	}
}

// TestJostledAgentArrives: an agent walking to its target is held off by
// another (driven by RequestMoveVelocity, avoided by no one) that stands
// just beyond the target and backs away from the walker at 5 cm/s, as a
// crowd round a target gives way. Pressed within 1 m of its target, the
// walker creeps nearer by more than the centimetre a second that kept the
// stall watch from firing: without the deadlock breaker's sideways nudges
// it would arrive only when the other had backed off far enough, some 15 s
// later. Pressed by another agent inside its braking distance it must
// close in at a walking pace (a quarter of its braking distance per stall
// time), so it stalls and arrives short of its target (ArrivedNear)
// within 2 s, with the deadlock breaker on or off.
func TestJostledAgentArrives(t *testing.T) {
	away := geom.Normalize(geom.Vec3{5, 0, -1}) // from the walker's start
	// pusher is where the other agent should stand at tick.
	pusher := func(tick int) geom.Vec3 {
		return geom.Add(openFloor, geom.Scale(away, 0.3+0.05*float32(tick)/60))
	}
	for _, breaker := range []bool{true, false} {
		t.Run(fmt.Sprintf("deadlock breaker %v", breaker), func(t *testing.T) {
			pushing := components.DefaultAgentParams()
			// It neither avoids the walker nor is avoided by it, and the
			// walker takes the whole collision push.
			pushing.AvoidancePriority = 255
			pushing.AvoidanceLayers, pushing.AvoidanceMask = 2, 2
			s := newArrivalSceneOf(t, Config{}, []geom.Vec3{{-5, 0, 1}, geom.Sub(pusher(0), openFloor)},
				[]components.AgentParams{components.DefaultAgentParams(), pushing})
			settings := generic.NewResource[components.Settings](s.world)
			settings.Get().DeadlockBreaker = breaker
			require.NoError(t, s.p.RequestMoveTarget(s.world, s.agents[0], openFloor))
			within := -1 // the first tick the walker is within 1 m of its target
			for s.tick < 10*60 && s.reached[0] < 0 {
				to := geom.Sub(pusher(s.tick+1), s.info(t, 1).Position)
				require.NoError(t, s.p.RequestMoveVelocity(s.world, s.agents[1], geom.Scale(to, 30)))
				s.run(t, 1.0/60)
				if within < 0 && geom.Dist2D(s.info(t, 0).Position, openFloor) <= 1 {
					within = s.tick
				}
			}
			require.GreaterOrEqual(t, within, 0, "the walker came within 1 m")
			require.GreaterOrEqual(t, s.reached[0], 0, "the pressed walker arrived")
			assert.Less(t, s.reached[0]-within, 2*60, "within 2 s of coming within 1 m")
			walker := s.info(t, 0)
			assert.True(t, walker.ArrivedNear, "short of its target")
			assert.LessOrEqual(t, geom.Dist2D(walker.Position, openFloor), float32(1))
		})
	}
}
