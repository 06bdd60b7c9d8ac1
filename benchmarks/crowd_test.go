package benchmarks

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/plugin"
)

func TestCrowdTripsAreSeeded(t *testing.T) {
	mesh := soloMesh(t, "dungeon")
	a, err := newCrowdTrips(mesh, 50, crowdSeed)
	require.NoError(t, err)
	b, err := newCrowdTrips(mesh, 50, crowdSeed)
	require.NoError(t, err)
	c, err := newCrowdTrips(mesh, 50, crowdSeed+1)
	require.NoError(t, err)
	require.Len(t, a, 50)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
	for i, trip := range a {
		assert.NotEqual(t, trip.start, trip.target, "trip %d", i)
	}
}

// TestCrowdRunSpawnsTheAgents checks the crowd scenario: N agents on the
// mesh near their starts, each with a move request for its target, and a
// tick that sees all of them.
func TestCrowdRunSpawnsTheAgents(t *testing.T) {
	for _, n := range []int{1, 100} {
		trips := crowdTrips(t, "nav_test", n)
		run, err := newCrowdRun(soloMesh(t, "nav_test"), trips, 2, false)
		require.NoError(t, err)
		require.Len(t, run.agents, n)
		for i, e := range run.agents {
			info, err := run.plugin.State(run.world, e)
			require.NoError(t, err)
			assert.NotZero(t, info.Poly, "agent %d", i)
			assert.Less(t, geom.Dist2D(info.Position, trips[i].start), float32(0.01), "agent %d", i)
			assert.Equal(t, components.TargetRequesting, info.Target, "agent %d", i)
			assert.Equal(t, trips[i].target, info.TargetPosition, "agent %d", i)
		}
		require.NoError(t, run.plugin.Step(run.world, crowdDt))
		assert.Equal(t, n, run.plugin.Stats(run.world).Agents)
		reached, waiting, err := run.finish()
		require.NoError(t, err)
		assert.LessOrEqual(t, reached+waiting, n)
	}
}

// TestCrowdTicksDoNotAllocate checks that once every agent has its first
// path (after the first second), a tick allocates nothing, on 1 and 2
// workers: the claim behind BenchmarkCrowd's steady-allocs/tick.
func TestCrowdTicksDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, workers := range []int{1, 2} {
		run, err := newCrowdRun(soloMesh(t, "dungeon"), crowdTrips(t, "dungeon", 100), workers, false)
		require.NoError(t, err)
		for range steadyAfter {
			require.NoError(t, run.plugin.Step(run.world, crowdDt))
		}
		var stepErr error
		allocs := testing.AllocsPerRun(60, func() {
			if err := run.plugin.Step(run.world, crowdDt); err != nil {
				stepErr = err
			}
		})
		require.NoError(t, stepErr)
		assert.Zero(t, allocs, "%d workers", workers)
		_, _, err = run.finish()
		require.NoError(t, err)
	}
}

// TestORCATicksDoNotAllocate is TestCrowdTicksDoNotAllocate with every
// agent on ORCA: the claim behind BenchmarkCrowdAvoidance's
// steady-allocs/tick.
func TestORCATicksDoNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	presets := components.NewAvoidancePresets()
	presets.List[components.DefaultAgentParams().AvoidancePreset] = avoidancePreset(crowd.AvoidanceORCA)
	for _, workers := range []int{1, 2} {
		run, err := newCrowdRunConfig(crowdTrips(t, "dungeon", 100),
			plugin.Config{Mesh: soloMesh(t, "dungeon"), Workers: workers, AvoidancePresets: presets.List[:]})
		require.NoError(t, err)
		for range steadyAfter {
			require.NoError(t, run.plugin.Step(run.world, crowdDt))
		}
		var stepErr error
		allocs := testing.AllocsPerRun(60, func() {
			if err := run.plugin.Step(run.world, crowdDt); err != nil {
				stepErr = err
			}
		})
		require.NoError(t, stepErr)
		assert.Zero(t, allocs, "%d workers", workers)
		assert.Zero(t, run.plugin.Stats(run.world).VelocitySamples, "ORCA samples nothing")
		_, _, err = run.finish()
		require.NoError(t, err)
	}
}
