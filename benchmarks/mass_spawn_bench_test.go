package benchmarks

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// massSpawnAgents is the crowd BenchmarkCrowdMassSpawn spawns in one call.
const massSpawnAgents = 10_000

// connectedTrips picks n seeded trips on mesh between random points of its
// largest connected part (query.LargestComponentSampler): every target is
// in reach, most of them far (the mean trip on the 1 km level is about
// 520 m as the crow flies). Picked once per process.
func connectedTrips(b testing.TB, mesh *navmesh.Mesh, n int) []crowdTrip {
	b.Helper()
	trips, err := tripCache.get(fmt.Sprintf("connected/%p/%d", mesh, n), func() ([]crowdTrip, error) {
		filter := crowdFilter()
		sampler, err := query.LargestComponentSampler(mesh.Snapshot(), &filter)
		if err != nil {
			return nil, err
		}
		rng := &lcg{state: crowdSeed}
		trips := make([]crowdTrip, n)
		for i := range trips {
			start, err := sampler.RandomPoint(rng.next)
			if err != nil {
				return nil, err
			}
			target, err := sampler.RandomPoint(rng.next)
			if err != nil {
				return nil, err
			}
			trips[i] = crowdTrip{start: start.Pos, target: target.Pos}
		}
		return trips, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return trips
}

// massSpawnConfigs are the crowds BenchmarkCrowdMassSpawn compares: the
// defaults on 2 workers and on one (the default), and the same crowd
// planning as before issue 23 (plain A*, the reference's path queue sizes
// and budget, every quick search in the first tick) on 2 workers.
var massSpawnConfigs = []struct {
	name    string
	workers int
	config  func() (plugin.Config, func(*components.Settings))
}{
	{"defaults", 2, func() (plugin.Config, func(*components.Settings)) { return plugin.Config{}, nil }},
	{"defaults-1-worker", 1, func() (plugin.Config, func(*components.Settings)) { return plugin.Config{}, nil }},
	{"before", 2, func() (plugin.Config, func(*components.Settings)) {
		return plugin.Config{HierarchicalPaths: plugin.Off, PathQueue: crowd.DefaultPathQueueConfig(),
				PathQueueIterations: plugin.DefaultPathQueueIterations, RequestsPerTick: plugin.DefaultRequestsPerTick},
			func(s *components.Settings) { s.QuickSearchesPerTick = 0 }
	}},
}

// timedStep runs one tick of run and returns its wall time and the
// process's CPU time over it.
func timedStep(tb testing.TB, run *crowdRun) (wall, cpu time.Duration) {
	cpuBefore := cputime.Process()
	start := time.Now()
	if err := run.plugin.Step(run.world, crowdDt); err != nil {
		tb.Fatal(err)
	}
	return time.Since(start), cputime.Process() - cpuBefore
}

// BenchmarkCrowdMassSpawn spawns 10,000 agents on the 1 km level in one
// SpawnBatch call, sends each to a far target in reach, and runs 600
// ticks (on 2 workers but for defaults-1-worker). One op is one such
// run; the spawn and the target requests are outside the timer.
//
// Metrics: p50-ms and max-ms are the median and the longest tick (wall),
// max/p50 their ratio (issue 23 asks for at most 3). A run on fixed workers
// does the same work in every op, tick for tick, so with -benchtime Nx
// (N > 1) each tick's time is its fastest of the N runs: a stall of the
// machine (a virtual CPU descheduled by its host, another process) hits
// one run's tick, not every run's, while a tick that is long because of
// its work is long in all of them. raw-max/p50 is the ratio without that
// filter, over every tick of every run. cpu-p50-ms, cpu-max-ms and
// cpu-max/p50 are the same for the process's CPU time per tick (fastest
// of the N runs); first-ms the first tick (mean); wait-p99-s and
// wait-max-s the waits for a first path (components.Stats.PathWaits with
// the waits still open at the end); waiting the agents still without a
// path at the end.
func BenchmarkCrowdMassSpawn(b *testing.B) {
	mesh := bigWorldMesh(b)
	trips := connectedTrips(b, mesh, massSpawnAgents)
	for _, c := range massSpawnConfigs {
		b.Run(c.name, func(b *testing.B) {
			// Per tick, the fastest of the runs; raw holds every tick of
			// every run.
			wall := make([]time.Duration, crowdTicks)
			cpu := make([]time.Duration, crowdTicks)
			var raw []time.Duration
			var first time.Duration
			var waits components.PathWaits
			waiting := 0
			for range b.N {
				b.StopTimer()
				config, settings := c.config()
				config.Mesh, config.Workers = mesh, c.workers
				run, err := newCrowdRunConfig(trips, config)
				if err != nil {
					b.Fatal(err)
				}
				if settings != nil {
					settings(ecs.GetResource[components.Settings](run.world))
				}
				runtime.GC()
				b.StartTimer()
				for tick := range crowdTicks {
					took, used := timedStep(b, run)
					firstRun := len(raw) < crowdTicks
					raw = append(raw, took)
					if firstRun || took < wall[tick] {
						wall[tick] = took
					}
					if firstRun || used < cpu[tick] {
						cpu[tick] = used
					}
					if tick == 0 {
						first += took
					}
				}
				b.StopTimer()
				stats := run.plugin.Stats(run.world)
				waits.Merge(&stats.PathWaits)
				waits.Merge(&stats.OpenWaits)
				waiting += stats.WaitingForPath
				run.plugin.Schedule().Finalize(run.world)
				b.StartTimer()
			}
			b.StopTimer()
			ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
			slices.Sort(wall)
			slices.Sort(cpu)
			slices.Sort(raw)
			p50, top := wall[len(wall)/2], wall[len(wall)-1]
			rawP50, rawTop := raw[len(raw)/2], raw[len(raw)-1]
			cpuP50, cpuTop := cpu[len(cpu)/2], cpu[len(cpu)-1]
			b.ReportMetric(ms(p50), "p50-ms")
			b.ReportMetric(ms(top), "max-ms")
			b.ReportMetric(float64(top)/float64(p50), "max/p50")
			b.ReportMetric(float64(rawTop)/float64(rawP50), "raw-max/p50")
			b.ReportMetric(ms(cpuP50), "cpu-p50-ms")
			b.ReportMetric(ms(cpuTop), "cpu-max-ms")
			if cpuP50 > 0 {
				b.ReportMetric(float64(cpuTop)/float64(cpuP50), "cpu-max/p50")
			}
			b.ReportMetric(ms(first)/float64(b.N), "first-ms")
			b.ReportMetric(float64(waits.Quantile(0.99)), "wait-p99-s")
			b.ReportMetric(float64(waits.Max), "wait-max-s")
			b.ReportMetric(float64(waiting)/float64(b.N), "waiting")
		})
	}
}
