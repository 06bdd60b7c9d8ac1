package plugin

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// propertyRun describes one long run of a crowd with random targets.
type propertyRun struct {
	level   string
	agents  int
	ticks   int
	workers int
	seed    uint64
	// maxStuck bounds the agents stuck at the end: a complete path, more
	// than 1 m from the target, less than 0.5 m moved in the last 2 s.
	maxStuck int
	// reference runs the crowd with Config.Reference, for comparison: the
	// stuck bound is not checked then.
	reference bool
	// avoidance is every agent's avoidance method (preset 3's).
	avoidance crowd.AvoidanceMethod
}

// propertyResult is what a property run measured.
type propertyResult struct {
	arrivals, partials, stuck, hovering int
}

// TestCrowdProperties runs crowds with random targets, a new one each time
// an agent arrives (or 10 s after it learnt that its target is out of
// reach), and checks after every tick that every walking agent stands on
// the navmesh, on the first polygon of its corridor, and at the end that
// hardly any agent is stuck.
//
// The stuck count at the end is chaotic: the order the agents are created
// in (SpawnBatch's spatial order) moved the first run's from 2 to 4 of 120,
// while over seeds 1 to 10 the three runs and nav_test with ORCA end with
// 33 stuck agents in all (34 with agents created in spec order and a
// visibility ray every tick) and 5 % more arrivals.
func TestCrowdProperties(t *testing.T) {
	runs := []propertyRun{
		{level: "dungeon", agents: 120, ticks: 1200, workers: 2, seed: 1, maxStuck: 4},
		{level: "nav_test", agents: 120, ticks: 1200, workers: 1, seed: 2, maxStuck: 2},
		{level: "dungeon", agents: 120, ticks: 1200, workers: 2, seed: 1, maxStuck: 2, avoidance: crowd.AvoidanceORCA},
	}
	if testing.Short() || longtest.Race || !longtest.Enabled() {
		// Short runs by default and under the race detector (ten times
		// slower): the full ones run with ARCHENAV_LONG=1 in CI's
		// race-free pass.
		for i := range runs {
			runs[i].agents, runs[i].ticks = 60, 400
		}
	}
	for _, run := range runs {
		t.Run(fmt.Sprintf("%s/%d agents/%d ticks/%v", run.level, run.agents, run.ticks, run.avoidance), func(t *testing.T) {
			checkCrowdProperties(t, run)
		})
	}
}

// longPropertyRuns are the soak runs of TestCrowdPropertiesLong and
// TestORCAPropertiesLong. No agent may hover (within 2 m of its target, not
// arrived, less than 0.5 m moved in 5 s): the arrival rules let none, where
// the runs before them left dozens (benchmarks/arrival.sh). "Stuck" counts
// the agents caught in a jam more than 1 m from their target at the last
// tick, and a jam's size is chaotic (one seed's count moves between 7 and
// 36 of 500 with any change of the crowd's maths), so its bound keeps a
// margin: with the arrival rules, over seeds 3 to 5, dungeon ends with 16,
// 23 and 20 of 300 stuck and 38, 31 and 35 of 500, nav_test with 5, 2 and 2
// of 300 (1 with ORCA on seed 5). With the jostle rule and the demand
// that an agent near its stopping point close in by half of what an
// unhindered one would (approachDemand), the runs below end with 18 (ORCA
// 11) of 300 on dungeon, 20 (ORCA 25) of 500 and 5 (ORCA 2) on nav_test:
// the bounds are 24 (8 %), 30 (6 %) and 8 (under 3 %). A single seed's
// count is spread wide: `navtool crowd -retarget` with 500 agents on
// dungeon for 60 s, seeds 1 to 14, ends with 15 to 43 stuck (mean 32.5)
// without that demand and 18 to 55 (mean 36.1) with it
// (benchmarks/results-2026-12-06-arrival.txt).
var longPropertyRuns = []propertyRun{
	{level: "dungeon", agents: 300, ticks: 6000, workers: 2, seed: 3, maxStuck: 24},
	{level: "dungeon", agents: 500, ticks: 3600, workers: 2, seed: 4, maxStuck: 30},
	{level: "nav_test", agents: 300, ticks: 6000, workers: 2, seed: 5, maxStuck: 8},
}

// TestORCAPropertiesLong runs the long property runs with ORCA and, on the
// same seeds, with adaptive sampling: ORCA keeps every agent on the mesh
// and its corridor, hardly any stuck, and brings nearly as many agents to
// their targets (at least 90 %; the runs are chaotic, so one seed's count
// moves by a few percent with any change). Behind internal/longtest
// (ARCHENAV_LONG=1, without the race detector), one to five minutes.
func TestORCAPropertiesLong(t *testing.T) {
	longtest.SkipSoak(t)
	for _, run := range longPropertyRuns {
		name := fmt.Sprintf("%s/%d agents/%d ticks", run.level, run.agents, run.ticks)
		t.Run(name, func(t *testing.T) {
			sampling := checkCrowdProperties(t, run)
			run.avoidance = crowd.AvoidanceORCA
			orca := checkCrowdProperties(t, run)
			t.Logf("arrivals: adaptive %d, ORCA %d; stuck: adaptive %d, ORCA %d", sampling.arrivals, orca.arrivals, sampling.stuck, orca.stuck)
			assert.GreaterOrEqual(t, float64(orca.arrivals), 0.9*float64(sampling.arrivals))
		})
	}
}

// TestCrowdPropertiesLong is the long version: hundreds of agents, thousands
// of ticks, and the same runs with Config.Reference for comparison. A soak
// test (two to three minutes): it runs with ARCHENAV_LONG=1 and without the
// race detector,
//
//	ARCHENAV_LONG=1 go test ./plugin -run TestCrowdPropertiesLong -timeout 30m
func TestCrowdPropertiesLong(t *testing.T) {
	longtest.SkipSoak(t)
	for _, run := range longPropertyRuns {
		for _, reference := range []bool{false, true} {
			run.reference = reference
			name := fmt.Sprintf("%s/%d agents/%d ticks", run.level, run.agents, run.ticks)
			if reference {
				name += "/reference"
			}
			t.Run(name, func(t *testing.T) {
				checkCrowdProperties(t, run)
			})
		}
	}
}

func propertyLevel(t *testing.T, level string) *navmesh.Mesh {
	t.Helper()
	if level == "dungeon" {
		return loadDungeon(t)
	}
	g, err := bake.LoadOBJ("../testdata/" + level + ".obj")
	require.NoError(t, err)
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(t, err)
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	require.NoError(t, err)
	_, err = mesh.AddTile(result.TileData, 0)
	require.NoError(t, err)
	return mesh
}

func checkCrowdProperties(t *testing.T, run propertyRun) propertyResult {
	mesh := propertyLevel(t, run.level)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	filter := query.NewFilter()
	rng := rand.New(rand.NewPCG(run.seed, 99))
	randomPoint := func() geom.Vec3 {
		p, err := q.FindRandomPoint(filter, func() float32 { return rng.Float32() })
		require.NoError(t, err)
		return p.Pos
	}

	config := Config{Mesh: mesh, MaxAgents: run.agents, Workers: run.workers, Reference: run.reference}
	if run.avoidance == crowd.AvoidanceORCA {
		config.AvoidancePresets = orcaConfig(run.workers).AvoidancePresets
	}
	p, err := New(config)
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	defer p.Schedule().Finalize(&world)
	specs := make([]AgentSpec, run.agents)
	for i := range specs {
		specs[i] = AgentSpec{Position: randomPoint(), Params: components.DefaultAgentParams()}
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	require.NoError(t, err)
	index := map[ecs.Entity]int{}
	targets := make([]geom.Vec3, len(agents))
	retargetAt := make([]int, len(agents))
	for i, e := range agents {
		index[e] = i
		targets[i] = randomPoint()
		require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
		retargetAt[i] = -1
	}

	const window = 120      // ticks of the stuck check
	const hoverWindow = 300 // ticks of the hover check
	history := make([][]geom.Vec3, hoverWindow+1)
	for i := range history {
		history[i] = make([]geom.Vec3, len(agents))
	}
	var offMesh, offCorridor, arrivals, partials int
	for tick := 0; tick < run.ticks; tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
		for _, ev := range p.Events(&world) {
			i := index[ev.Entity]
			switch ev.Kind {
			case components.EventTargetReached:
				arrivals++
				retargetAt[i] = tick
			case components.EventPartialPath:
				partials++
				retargetAt[i] = tick + 600
			}
		}
		ring := history[tick%len(history)]
		for i, e := range agents {
			info, err := p.State(&world, e)
			require.NoError(t, err)
			require.True(t, geom.IsFinite(info.Position), "agent %d at tick %d", i, tick)
			ring[i] = info.Position
			if info.Mode != components.AgentWalking {
				continue
			}
			if !onMesh(q, filter, info.Position) {
				offMesh++
			}
			if closest, _, err := q.ClosestPointOnPoly(info.Poly, info.Position); err != nil ||
				geom.Dist2D(closest, info.Position) > 0.01 {
				offCorridor++
			}
		}
		for i, at := range retargetAt {
			if at >= 0 && at <= tick {
				targets[i] = randomPoint()
				require.NoError(t, p.RequestMoveTarget(&world, agents[i], targets[i]))
				retargetAt[i] = -1
			}
		}
	}

	// Stuck: a complete path, more than 1 m from the target, less than
	// 0.5 m moved in the last 2 s. Hovering (navtool crowd's hovering): a
	// complete path, within 2 m of the target, not arrived, less than
	// 0.5 m moved in the last 5 s.
	stuck, hovering := 0, 0
	past := history[(run.ticks-1-window)%len(history)]
	hoverPast := history[(run.ticks-1-hoverWindow)%len(history)]
	for i, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		complete := info.Target == components.TargetValid && !info.Partial
		dist := geom.Dist2D(info.Position, targets[i])
		if complete && dist > 1 && geom.Dist2D(info.Position, past[i]) < 0.5 {
			stuck++
		}
		if complete && !info.Arrived && dist <= 2 && geom.Dist2D(info.Position, hoverPast[i]) < 0.5 {
			hovering++
		}
	}
	t.Logf("%s, %v: %d arrivals, %d partial paths, %d stuck, %d hovering, %d off-mesh, %d off-corridor agent-ticks",
		run.level, run.avoidance, arrivals, partials, stuck, hovering, offMesh, offCorridor)
	result := propertyResult{arrivals: arrivals, partials: partials, stuck: stuck, hovering: hovering}
	if run.reference {
		return result // the reference is only measured
	}
	assert.Zero(t, offMesh, "agent-ticks off the navmesh")
	assert.Zero(t, offCorridor, "agent-ticks off their corridor's first polygon")
	assert.LessOrEqual(t, stuck, run.maxStuck, "stuck agents")
	assert.Zero(t, hovering, "agents hovering short of their target (the arrival rules let none)")
	assert.GreaterOrEqual(t, arrivals, run.agents*run.ticks/4800, "the crowd gets somewhere")
	return result
}

// onMesh reports whether a polygon lies under or over pos: within 1 cm in
// xz and 0.5 m in height.
func onMesh(q *query.Query, filter *query.Filter, pos geom.Vec3) bool {
	nearest, err := q.FindNearestPoly(pos, geom.Vec3{0.1, 0.5, 0.1}, filter)
	return err == nil && nearest.Ref != 0 && geom.Dist2D(nearest.Point, pos) <= 0.01 &&
		geom.Abs(nearest.Point[1]-pos[1]) <= 0.5
}
