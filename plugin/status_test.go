package plugin

import (
	"math"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/navquery"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// straightPathLength is the length of the straight path from pos through
// path to end, pulled with a query of the test's own (with options, adding
// points) and summed in float64.
func straightPathLength(t *testing.T, q *query.Query, pos, end geom.Vec3, path []navmesh.Ref, options query.StraightPathOptions) float32 {
	t.Helper()
	points := make([]query.StraightPathPoint, 4*len(path)+8)
	n, status, err := q.FindStraightPath(pos, end, path, points, options)
	require.NoError(t, err)
	require.False(t, status.BufferTooSmall())
	var length float64
	for i := 1; i < n; i++ {
		length += float64(geom.Dist(points[i-1].Pos, points[i].Pos))
	}
	return float32(length)
}

// TestStatusMatchesRecomputation: over a run of 40 agents with random
// targets (some out of reach) the status of every agent at several ticks,
// the first before any path is planned, agrees with what the components
// say, and its remaining distance with the length of the straight path
// through the agent's corridor pulled again by a query of the test's own
// and summed in float64; the path with a point at every polygon edge
// crossed, which follows the floor up and down, is no shorter.
func TestStatusMatchesRecomputation(t *testing.T) {
	mesh := loadDungeon(t)
	f := newCrowd(t, mesh, 40, 24, Config{Workers: 2})
	defer f.plugin.Schedule().Finalize(f.world)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	targets := generic.NewMap[components.MoveTarget](f.world)
	states := generic.NewMap[components.AgentState](f.world)
	corners := generic.NewMap[components.Corners](f.world)
	velocities := generic.NewMap[components.Velocity](f.world)
	counts := map[string]int{}
	for _, ticks := range []int{0, 1, 2, 30, 120, 300} {
		f.step(t, ticks)
		for i, e := range f.agents {
			s, err := f.plugin.Status(f.world, e)
			require.NoError(t, err)
			target, state := targets.Get(e), states.Get(e)
			info, err := f.plugin.State(f.world, e)
			require.NoError(t, err)
			pending := target.State == components.TargetRequesting || target.State == components.TargetWaitingForQueue ||
				target.State == components.TargetWaitingForPath
			assert.Equal(t, pending, s.PathPending, "agent %d", i)
			assert.Equal(t, target.State == components.TargetValid || pending && target.Replan, s.HasPath, "agent %d", i)
			assert.Equal(t, info.Position, s.Position)
			assert.Equal(t, target.Position, s.Destination)
			assert.Equal(t, target.Arrived, s.Arrived)
			assert.Equal(t, velocities.Get(e).Actual, s.Velocity)
			assert.Equal(t, velocities.Get(e).Desired, s.DesiredVelocity)
			assert.Equal(t, state.Mode == components.AgentOffMesh, s.OnOffMeshLink)
			switch {
			case !s.HasPath:
				counts["no path"]++
				assert.Equal(t, navquery.PathInvalid, s.PathStatus)
				assert.True(t, math.IsInf(float64(s.RemainingDistance), 1), "agent %d: unknown", i)
				continue
			case state.Partial:
				counts["partial"]++
				assert.Equal(t, navquery.PathPartial, s.PathStatus)
			default:
				counts["complete"]++
				assert.Equal(t, navquery.PathComplete, s.PathStatus)
				assert.Equal(t, target.Position, s.PathEnd, "a complete corridor ends at the target")
			}
			path, err := f.plugin.Corridor(f.world, e, nil)
			require.NoError(t, err)
			want := straightPathLength(t, q, info.Position, s.PathEnd, path, 0)
			assert.InDelta(t, want, s.RemainingDistance, float64(1e-5*float64(want))+1e-5, "agent %d", i)
			floor := straightPathLength(t, q, info.Position, s.PathEnd, path, query.StraightPathAllCrossings)
			assert.GreaterOrEqual(t, float32(floor*1.00001)+1e-5, s.RemainingDistance, "agent %d", i)
			assert.GreaterOrEqual(t, float32(s.RemainingDistance*1.0001)+1e-4, geom.Dist(info.Position, s.PathEnd), "agent %d", i)
			if c := corners.Get(e); c.Count > 0 {
				assert.Equal(t, c.Points[0].Pos, s.SteeringTarget)
			} else {
				assert.Equal(t, info.Position, s.SteeringTarget)
			}
		}
	}
	t.Logf("agent statuses checked: %v", counts)
	assert.Greater(t, counts["complete"], 100)
	assert.Greater(t, counts["partial"], 0)
	assert.Greater(t, counts["no path"], 0)

	// Without a target nothing remains; with a velocity nothing either.
	require.NoError(t, f.plugin.ResetMoveTarget(f.world, f.agents[0]))
	require.NoError(t, f.plugin.RequestMoveVelocity(f.world, f.agents[1], geom.Vec3{1, 0, 0}))
	for _, e := range f.agents[:2] {
		s, err := f.plugin.Status(f.world, e)
		require.NoError(t, err)
		assert.Zero(t, s.RemainingDistance)
		assert.False(t, s.HasPath)
		assert.Equal(t, navquery.PathInvalid, s.PathStatus)
	}
}

// TestStopResumeKeepsTheCorridor: a walking agent stopped halfway brakes to
// a standstill and then keeps its corridor and target to the polygon for
// three seconds, while another agent walks round it, avoiding it as a body
// (they never overlap by more than the collision slack); resumed, it walks
// on along the same corridor and arrives.
func TestStopResumeKeepsTheCorridor(t *testing.T) {
	s := newArrivalScene(t, Config{}, geom.Vec3{-6, 0, 0}, geom.Vec3{-6, 0, 3})
	stopped, passer := s.agents[0], s.agents[1]
	target := geom.Add(openFloor, geom.Vec3{6, 0, 0})
	require.NoError(t, s.p.RequestMoveTarget(s.world, stopped, target))
	s.run(t, 1.2)
	require.NoError(t, s.p.Stop(s.world, stopped))
	require.NoError(t, s.p.Stop(s.world, stopped), "stopping twice does nothing more")
	st, err := s.p.Status(s.world, stopped)
	require.NoError(t, err)
	assert.True(t, st.Stopped)
	s.run(t, 1)
	st, err = s.p.Status(s.world, stopped)
	require.NoError(t, err)
	assert.Less(t, geom.Len(st.Velocity), float32(1e-3), "braked to a standstill")
	corridor, err := s.p.Corridor(s.world, stopped, nil)
	require.NoError(t, err)
	rest := st.Position
	remaining := st.RemainingDistance
	assert.Greater(t, remaining, float32(4))

	info, err := s.p.State(s.world, passer)
	require.NoError(t, err)
	require.NoError(t, s.p.RequestMoveTarget(s.world, passer, geom.Add(info.Position, geom.Vec3{0, 0, -6})))
	closest := float32(math.MaxFloat32)
	for range 180 {
		s.run(t, 1.0/60)
		a, err := s.p.State(s.world, stopped)
		require.NoError(t, err)
		b, err := s.p.State(s.world, passer)
		require.NoError(t, err)
		closest = min(closest, geom.Dist2D(a.Position, b.Position))
		now, err := s.p.Corridor(s.world, stopped, nil)
		require.NoError(t, err)
		require.Equal(t, corridor, now, "the corridor stays")
		assert.Equal(t, target[0], a.TargetPosition[0])
	}
	assert.GreaterOrEqual(t, closest, float32(1.2-0.1), "the passer walked round the stopped agent")
	st, err = s.p.Status(s.world, stopped)
	require.NoError(t, err)
	assert.Less(t, geom.Dist2D(rest, st.Position), float32(0.3), "pushed aside a little at most")

	require.NoError(t, s.p.Resume(s.world, stopped))
	s.run(t, 6)
	st, err = s.p.Status(s.world, stopped)
	require.NoError(t, err)
	assert.False(t, st.Stopped)
	assert.True(t, st.Arrived)
	assert.False(t, st.ArrivedNear)
	assert.Less(t, st.RemainingDistance, float32(0.25))
}

// TestStatusAndStopChecks: a non-agent entity, another world or a locked
// world gives an error and changes nothing.
func TestStatusAndStopChecks(t *testing.T) {
	s := newArrivalScene(t, Config{}, geom.Vec3{})
	other := s.world.NewEntity()
	_, err := s.p.Status(s.world, other)
	assert.ErrorIs(t, err, ErrNotAgent)
	assert.ErrorIs(t, s.p.Stop(s.world, other), ErrNotAgent)
	assert.ErrorIs(t, s.p.Resume(s.world, ecs.Entity{}), ErrNotAgent)
	world2 := ecs.NewWorld()
	_, err = s.p.Status(&world2, s.agents[0])
	assert.ErrorIs(t, err, ErrNotInstalled)
	q := generic.NewFilter1[components.Position]().Query(s.world)
	assert.ErrorIs(t, s.p.Stop(s.world, s.agents[0]), ErrWorldLocked)
	_, err = s.p.Status(s.world, s.agents[0])
	assert.NoError(t, err, "read-outs work while the world is locked")
	q.Close()
	info, err := s.p.State(s.world, s.agents[0])
	require.NoError(t, err)
	assert.False(t, info.Stopped)
}
