package benchmarks

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/archenav/archenav/plugin/crowdcheck"
)

// avoidanceCases are the crowds BenchmarkCrowdAvoidance runs with each
// method: the reference's sizes on both levels on one worker, 2000 agents
// again on two, and 10,000 agents on two: on the 1 km level of the
// hierarchy work ("bigworld", benchmarks/bigworld's Default, with local
// trips: see localTrips), and on dungeon and nav_test, which are far too
// small for them (overpacked: most bodies overlap), as a worst case.
var avoidanceCases = []struct {
	level   string
	agents  int
	workers int
}{
	{"dungeon", 100, 1}, {"dungeon", 500, 1}, {"dungeon", 1000, 1}, {"dungeon", 2000, 1},
	{"nav_test", 100, 1}, {"nav_test", 500, 1}, {"nav_test", 1000, 1}, {"nav_test", 2000, 1},
	{"dungeon", 2000, 2}, {"nav_test", 2000, 2},
	{"bigworld", 10000, 2}, {"dungeon", 10000, 2}, {"nav_test", 10000, 2},
}

// stageMetrics adds each stage's mean time per tick to BenchmarkCrowdAvoidance's
// metrics (as <Stage>-ms, stages under 0.05 ms left out): -args -stages.
var stageMetrics = flag.Bool("stages", false, "BenchmarkCrowdAvoidance: report each stage's mean ms per tick")

// localTripRadius bounds how far (along the mesh) a local trip's target
// lies from its start [Units: world units]
const localTripRadius = 50

// localTrips picks n trips on mesh, picked once per process: each starts at
// a random point of the mesh and goes to a random point within
// localTripRadius of it that it can reach (query.FindRandomPointAroundCircle):
// a crowd spread over a big world, each agent going about its business
// nearby, as an open world's crowds do.
func localTrips(b *testing.B, mesh *navmesh.Mesh, n int) []crowdTrip {
	b.Helper()
	trips, err := tripCache.get(fmt.Sprintf("local/%p/%d", mesh, n), func() ([]crowdTrip, error) {
		q, err := query.New(mesh, queryNodes)
		if err != nil {
			return nil, err
		}
		filter := crowdFilter()
		rng := &lcg{state: crowdSeed}
		trips := make([]crowdTrip, n)
		for i := range trips {
			start, err := q.FindRandomPoint(&filter, rng.next)
			if err != nil {
				return nil, fmt.Errorf("agent %d: random start: %w", i, err)
			}
			target, _, err := q.FindRandomPointAroundCircle(start.Ref, start.Pos, localTripRadius, &filter, rng.next)
			if err != nil {
				return nil, fmt.Errorf("agent %d: random target: %w", i, err)
			}
			trips[i] = crowdTrip{start.Pos, target.Pos}
		}
		return trips, nil
	})
	if err != nil {
		b.Fatalf("local trips: %v", err)
	}
	return trips
}

// avoidanceCrowd returns the mesh and the trips of a case.
func avoidanceCrowd(b *testing.B, level string, agents int) (*navmesh.Mesh, []crowdTrip) {
	if level == "bigworld" {
		mesh := bigWorldMesh(b)
		return mesh, localTrips(b, mesh, agents)
	}
	return soloMesh(b, level), crowdTrips(b, level, agents)
}

// avoidanceMethods are the methods compared, each as preset 3 (the agents'
// default): the reference's high-quality adaptive preset and ORCA.
var avoidanceMethods = []crowd.AvoidanceMethod{crowd.AvoidanceAdaptive, crowd.AvoidanceORCA}

// avoidancePreset returns preset 3 for method.
func avoidancePreset(method crowd.AvoidanceMethod) crowd.AvoidanceParams {
	if method == crowd.AvoidanceORCA {
		return crowd.ORCAPreset()
	}
	preset := crowd.AvoidancePreset(crowd.AvoidanceHigh)
	preset.Method = method
	return preset
}

// BenchmarkCrowdAvoidance runs BenchmarkCrowd's crowds (same trips, same
// agents) and a big-world crowd once per avoidance method, side by side, and measures quality
// with plugin/crowdcheck between the ticks (outside the timer). One op is
// one tick; use -benchtime 600x for one 10 s run per row.
//
// Metrics: avoid-ms is the mean VelocitySampling stage per tick, p99-ms the
// 99th percentile tick; cpu-ms the CPU time of the process's threads per
// tick (the workers' spinning between stages included), which a loaded
// machine does not inflate as it does the wall time: on an idle machine
// with as many cores as workers, a tick takes about cpu-ms / workers; reached-1m the agents within 1 m of their target at
// the end, stuck those with a complete path that moved less than 0.5 m in
// the last 2 s; off-mesh and wall-pen the agent-ticks off the navmesh and
// off the corridor's first polygon; overlap the agent-ticks of pairs closer
// than their radii minus 0.1 m; dv/tick the mean change of a walking
// agent's velocity per tick [m/s] (smoothness); infeasible/tick the ORCA
// programs per tick that fell back; allocs/tick and steady-allocs/tick as
// in BenchmarkCrowd.
func BenchmarkCrowdAvoidance(b *testing.B) {
	for _, c := range avoidanceCases {
		for _, method := range avoidanceMethods {
			b.Run(fmt.Sprintf("%s/agents=%d/method=%v/workers=%d", c.level, c.agents, method, c.workers), func(b *testing.B) {
				benchmarkCrowdAvoidance(b, c.level, c.agents, c.workers, method)
			})
		}
	}
}

func benchmarkCrowdAvoidance(b *testing.B, level string, agents, workers int, method crowd.AvoidanceMethod) {
	mesh, trips := avoidanceCrowd(b, level, agents)
	targets := make([]geom.Vec3, len(trips))
	for i, trip := range trips {
		targets[i] = trip.target
	}
	filter := crowdFilter()
	ticks := make([]time.Duration, 0, b.N)
	var avoid, cpu time.Duration
	var stages []time.Duration
	var stageNames []string
	var allocs, steadyAllocs, steadyTicks uint64
	var infeasible, runs int
	var sum crowdcheck.Result
	var run *crowdRun
	var checker *crowdcheck.Checker
	finish := func() {
		r := checker.Finish(targets)
		sum.Reached += r.Reached
		sum.Stuck += r.Stuck
		sum.OffMesh += r.OffMesh
		sum.WallPenetrations += r.WallPenetrations
		sum.OverlapAgentTicks += r.OverlapAgentTicks
		sum.VelocityChangePerTick += r.VelocityChangePerTick
		runs++
		run.plugin.Schedule().Finalize(run.world)
		run = nil
	}

	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%crowdTicks == 0 {
			b.StopTimer()
			if run != nil {
				finish()
			}
			presets := components.NewAvoidancePresets()
			presets.List[components.DefaultAgentParams().AvoidancePreset] = avoidancePreset(method)
			var err error
			run, err = newCrowdRunConfig(trips, plugin.Config{
				Mesh: mesh, Workers: workers, AvoidancePresets: presets.List[:],
			})
			if err != nil {
				b.Fatal(err)
			}
			if checker, err = crowdcheck.New(mesh, &filter, run.plugin, run.world, run.agents); err != nil {
				b.Fatal(err)
			}
			if err := checker.Classify(); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.StartTimer()
		}
		before := heapAllocs()
		cpuBefore := cputime.Process()
		start := time.Now()
		if err := run.plugin.Step(run.world, crowdDt); err != nil {
			b.Fatal(err)
		}
		ticks = append(ticks, time.Since(start))
		cpu += cputime.Process() - cpuBefore
		tickAllocs := heapAllocs() - before
		allocs += tickAllocs
		if i%crowdTicks >= steadyAfter {
			steadyAllocs += tickAllocs
			steadyTicks++
		}

		b.StopTimer()
		stats := run.plugin.Stats(run.world)
		if stages == nil {
			stageNames = append(stageNames, stats.StageNames...)
			stages = make([]time.Duration, len(stageNames))
		}
		for j, name := range stats.StageNames {
			if name == plugin.StageVelocitySampling {
				avoid += stats.StageDurations[j]
			}
			if j < len(stages) {
				stages[j] += stats.StageDurations[j]
			}
		}
		infeasible += stats.ORCAInfeasible
		if err := checker.Check(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	finish()

	slices.Sort(ticks)
	n := float64(b.N)
	perRun := func(v int) float64 { return float64(v) / float64(runs) }
	b.ReportMetric(float64(avoid.Nanoseconds())/1e6/n, "avoid-ms")
	b.ReportMetric(float64(cpu.Nanoseconds())/1e6/n, "cpu-ms")
	if *stageMetrics {
		for j, name := range stageNames {
			if ms := float64(stages[j].Nanoseconds()) / 1e6 / n; ms >= 0.05 {
				b.ReportMetric(ms, name+"-ms")
			}
		}
	}
	b.ReportMetric(float64(ticks[min(len(ticks)-1, len(ticks)*99/100)].Nanoseconds())/1e6, "p99-ms")
	b.ReportMetric(perRun(sum.Reached), "reached-1m")
	b.ReportMetric(perRun(sum.Stuck), "stuck")
	b.ReportMetric(perRun(sum.OffMesh), "off-mesh")
	b.ReportMetric(perRun(sum.WallPenetrations), "wall-pen")
	b.ReportMetric(perRun(sum.OverlapAgentTicks), "overlap")
	b.ReportMetric(sum.VelocityChangePerTick/float64(runs), "dv/tick")
	b.ReportMetric(float64(infeasible)/n, "infeasible/tick")
	b.ReportMetric(float64(allocs)/n, "allocs/tick")
	if steadyTicks > 0 {
		b.ReportMetric(float64(steadyAllocs)/float64(steadyTicks), "steady-allocs/tick")
	}
}
