package benchmarks

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"
	"time"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
)

// The reference crowd runs (see the reference README's crowd table).
const (
	// crowdTicks is the length of one run: 10 s at 60 Hz.
	crowdTicks = 600
	// crowdDt is the tick length [Units: s]
	crowdDt = float32(1.0 / 60)
	// crowdSeed seeds the random starts and targets.
	crowdSeed = 2024
	// reachedDistance is how near (xz) its target an agent must end a run
	// to count as arrived [Units: world units]
	reachedDistance = 1
	// disabledFlag is RecastDemo's "disabled" polygon flag, which the
	// crowd's filter excludes.
	disabledFlag = 0x10
)

// crowdCases are the crowd sizes run on each level: the reference's, and
// 5,000 and 10,000 agents on dungeon beyond them.
var crowdCases = []struct {
	level  string
	agents []int
}{
	{"dungeon", []int{100, 500, 1000, 2000, 5000, 10000}},
	{"nav_test", []int{100, 1000, 2000}},
}

// BenchmarkCrowd runs the reference crowd on the solo mesh of dungeon and
// nav_test with 1 and 2 workers: agents with the reference parameters
// (components.DefaultAgentParams: preset 3 adaptive avoidance, every update
// flag, separation weight 2; the plugin's default path queue of 8 slots,
// 4096 nodes and 100 iterations per tick) walk from random starts to random
// targets. One op is one tick of 1/60 s; every crowdTicks ticks the crowd
// is spawned anew (outside the timer), so with -benchtime 600x one
// benchmark is exactly one reference run. allocs/op is allocations per tick.
//
// Metrics: p99-ms is the 99th percentile tick; allocs/tick the heap
// allocations per tick as a fraction (allocs/op rounds down), and
// steady-allocs/tick the same without each run's first second, when every
// agent plans its first path; reached-1m the agents within
// 1 m (xz) of their target at the end of a run, and waiting those still
// waiting for a path (mean over the runs). C++ mean / p99 ms: dungeon 0.60 /
// 0.74 (100), 3.91 / 4.77 (500), 6.65 / 8.56 (1000), 10.36 / 12.86 (2000);
// nav_test 0.44 / 0.53 (100), 7.01 / 8.46 (1000), 12.39 / 15.08 (2000).
func BenchmarkCrowd(b *testing.B) {
	for _, c := range crowdCases {
		for _, agents := range c.agents {
			for _, workers := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/agents=%d/workers=%d", c.level, agents, workers), func(b *testing.B) {
					benchmarkCrowd(b, c.level, agents, workers, false)
				})
			}
		}
	}
}

// BenchmarkCrowdReferenceMode is BenchmarkCrowd with plugin.Config.Reference
// set: the improvements over DetourCrowd (deadlock breaker, wall-safe
// collisions, height snap on polygon edges) off, so the crowd moves as
// dtCrowd does. One worker, the reference sizes.
func BenchmarkCrowdReferenceMode(b *testing.B) {
	for _, c := range crowdCases {
		for _, agents := range c.agents {
			if agents > 2000 {
				continue
			}
			b.Run(fmt.Sprintf("%s/agents=%d/workers=1", c.level, agents), func(b *testing.B) {
				benchmarkCrowd(b, c.level, agents, 1, true)
			})
		}
	}
}

func benchmarkCrowd(b *testing.B, level string, agents, workers int, reference bool) {
	mesh := soloMesh(b, level)
	trips := crowdTrips(b, level, agents)
	ticks := make([]time.Duration, 0, b.N)
	var reached, waiting, runs int
	var allocs, steadyAllocs, steadyTicks uint64
	var run *crowdRun
	finish := func() {
		r, w, err := run.finish()
		if err != nil {
			b.Fatal(err)
		}
		reached += r
		waiting += w
		runs++
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
			var err error
			if run, err = newCrowdRun(mesh, trips, workers, reference); err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.StartTimer()
		}
		before := heapAllocs()
		start := time.Now()
		if err := run.plugin.Step(run.world, crowdDt); err != nil {
			b.Fatal(err)
		}
		ticks = append(ticks, time.Since(start))
		tickAllocs := heapAllocs() - before
		allocs += tickAllocs
		if i%crowdTicks >= steadyAfter {
			steadyAllocs += tickAllocs
			steadyTicks++
		}
	}
	b.StopTimer()
	// A run cut short (b.N not a multiple of crowdTicks) still counts: its
	// agents simply had less time.
	finish()

	slices.Sort(ticks)
	b.ReportMetric(float64(ticks[min(len(ticks)-1, len(ticks)*99/100)].Nanoseconds())/1e6, "p99-ms")
	b.ReportMetric(float64(allocs)/float64(b.N), "allocs/tick")
	if steadyTicks > 0 {
		b.ReportMetric(float64(steadyAllocs)/float64(steadyTicks), "steady-allocs/tick")
	}
	b.ReportMetric(float64(reached)/float64(runs), "reached-1m")
	b.ReportMetric(float64(waiting)/float64(runs), "waiting")
}

// steadyAfter is the number of ticks of a run left out of
// steady-allocs/tick: the first second.
const steadyAfter = 60

// heapAllocs returns the number of heap objects allocated so far: a read
// of runtime/metrics, which stops nothing (unlike runtime.ReadMemStats) and,
// with allocSample made once, allocates nothing. Not safe for concurrent
// use.
func heapAllocs() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:objects"}}

// crowdTrip is one agent of the reference runs: where it is spawned and
// where it is sent.
type crowdTrip struct{ start, target geom.Vec3 }

// crowdFilter is the crowd's query filter: every flag but "disabled".
func crowdFilter() query.Filter {
	f := *query.NewFilter()
	f.ExcludeFlags = disabledFlag
	return f
}

// newCrowdTrips picks n seeded random starts and targets on mesh: agent i
// starts at the (2i)th random point and goes to the (2i+1)th.
func newCrowdTrips(mesh *navmesh.Mesh, n int, seed uint64) ([]crowdTrip, error) {
	q, err := query.New(mesh, queryNodes)
	if err != nil {
		return nil, err
	}
	filter := crowdFilter()
	rng := &lcg{state: seed}
	trips := make([]crowdTrip, n)
	for i := range trips {
		start, err := q.FindRandomPoint(&filter, rng.next)
		if err != nil {
			return nil, fmt.Errorf("agent %d: random start: %w", i, err)
		}
		target, err := q.FindRandomPoint(&filter, rng.next)
		if err != nil {
			return nil, fmt.Errorf("agent %d: random target: %w", i, err)
		}
		trips[i] = crowdTrip{start.Pos, target.Pos}
	}
	return trips, nil
}

// crowdTrips returns the trips of n agents on the solo mesh of level,
// picked once per process.
func crowdTrips(tb testing.TB, level string, n int) []crowdTrip {
	tb.Helper()
	mesh := soloMesh(tb, level)
	trips, err := tripCache.get(fmt.Sprintf("%s/%d", level, n), func() ([]crowdTrip, error) {
		return newCrowdTrips(mesh, n, crowdSeed)
	})
	if err != nil {
		tb.Fatalf("crowd trips on %s: %v", level, err)
	}
	return trips
}

var tripCache cache[[]crowdTrip]

// crowdRun is one reference crowd run: a world with the crowd plugin and
// one agent per trip, each sent to its target.
type crowdRun struct {
	world  *ecs.World
	plugin *plugin.Plugin
	agents []ecs.Entity
	trips  []crowdTrip
}

// newCrowdRun spawns the agents of trips on mesh in a new world and sends
// them to their targets. workers is the plugin's worker count; reference
// turns the improvements over DetourCrowd off.
func newCrowdRun(mesh *navmesh.Mesh, trips []crowdTrip, workers int, reference bool) (*crowdRun, error) {
	return newCrowdRunConfig(trips, plugin.Config{Mesh: mesh, Workers: workers, Reference: reference})
}

// newCrowdRunConfig is newCrowdRun with the plugin's config given: its
// MaxAgents and Filters are set to the trips' and the crowd's filter.
func newCrowdRunConfig(trips []crowdTrip, config plugin.Config) (*crowdRun, error) {
	return newCrowdRunSpawned(trips, config, true)
}

// newCrowdRunSpawned is newCrowdRunConfig with the agents spawned in one
// batch (plugin.Plugin.SpawnBatch: in spatial order) or, without batch,
// one by one (plugin.Plugin.Spawn: in the trips' order).
func newCrowdRunSpawned(trips []crowdTrip, config plugin.Config, batch bool) (*crowdRun, error) {
	config.MaxAgents = len(trips)
	config.Filters = []query.Filter{crowdFilter()}
	p, err := plugin.New(config)
	if err != nil {
		return nil, err
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		return nil, err
	}
	specs := make([]plugin.AgentSpec, len(trips))
	for i, trip := range trips {
		specs[i] = plugin.AgentSpec{Position: trip.start, Params: components.DefaultAgentParams()}
	}
	var agents []ecs.Entity
	if batch {
		agents, err = p.SpawnBatch(&world, specs, nil)
	} else {
		agents = make([]ecs.Entity, len(specs))
		for i := range specs {
			if agents[i], err = p.Spawn(&world, specs[i].Position, specs[i].Params); err != nil {
				break
			}
		}
	}
	if err != nil {
		p.Schedule().Finalize(&world)
		return nil, err
	}
	for i, e := range agents {
		if err := p.RequestMoveTarget(&world, e, trips[i].target); err != nil {
			p.Schedule().Finalize(&world)
			return nil, fmt.Errorf("agent %d: %w", i, err)
		}
	}
	return &crowdRun{world: &world, plugin: p, agents: agents, trips: trips}, nil
}

// finish counts the agents within reachedDistance of their target and
// those still waiting for a path, and stops the crowd's workers.
func (r *crowdRun) finish() (reached, waiting int, err error) {
	defer r.plugin.Schedule().Finalize(r.world)
	for i, e := range r.agents {
		info, err := r.plugin.State(r.world, e)
		if err != nil {
			return 0, 0, fmt.Errorf("agent %d: %w", i, err)
		}
		if geom.Dist2D(info.Position, r.trips[i].target) <= reachedDistance {
			reached++
		}
		switch info.Target {
		case components.TargetRequesting, components.TargetWaitingForQueue, components.TargetWaitingForPath:
			waiting++
		}
	}
	return reached, waiting, nil
}
