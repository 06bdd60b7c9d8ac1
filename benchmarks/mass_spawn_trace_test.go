package benchmarks

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/archenav/archenav/plugin"
)

// massSpawnTraceMetrics are the runtime/metrics samples
// TestMassSpawnTrace reads around every tick.
var massSpawnTraceMetrics = []string{
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
	"/gc/cycles/total:gc-cycles",
	"/cpu/classes/gc/mark/assist:cpu-seconds",
	"/cpu/classes/gc/mark/dedicated:cpu-seconds",
	"/cpu/classes/gc/mark/idle:cpu-seconds",
	"/cpu/classes/gc/pause:cpu-seconds",
	"/sched/pauses/total/gc:seconds",
}

// massSpawnTick is what TestMassSpawnTrace records for one tick.
type massSpawnTick struct {
	tick                              int
	wall, cpu                         time.Duration
	allocBytes, allocObjects, gcCount uint64
	// assist, dedicated, idle and pause are GC CPU time (the runtime's
	// estimates) and stopTheWorld the summed GC pause wall time.
	assist, dedicated, idle, pause, stopTheWorld float64
	requests, pending, waitingQueue, quick       int
	waiting                                      int
	stages                                       []time.Duration
}

// readMassSpawnMetrics reads samples and returns them as float64 in the
// order of massSpawnTraceMetrics (a histogram as its approximate sum).
func readMassSpawnMetrics(samples []metrics.Sample) []float64 {
	metrics.Read(samples)
	out := make([]float64, len(samples))
	for i, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			out[i] = float64(s.Value.Uint64())
		case metrics.KindFloat64:
			out[i] = s.Value.Float64()
		case metrics.KindFloat64Histogram:
			h := s.Value.Float64Histogram()
			for j, n := range h.Counts {
				lo, hi := h.Buckets[j], h.Buckets[j+1]
				if lo < -1e300 {
					lo = hi
				}
				if hi > 1e300 {
					hi = lo
				}
				out[i] += float64(float64(n) * (lo + hi) / 2) // rounded: not fused
			}
		}
	}
	return out
}

// TestMassSpawnTrace runs BenchmarkCrowdMassSpawn's crowd (defaults, 2
// workers) once with a record per tick: wall and process CPU time, heap
// allocations, GC cycles and GC CPU (assists, workers, pauses), and the
// crowd's path planning (components.Stats). It prints the longest ticks
// and per-tick totals. It runs only with ARCHENAV_SPAWN_TRACE set (to the
// number of runs, 1 if not a number); ARCHENAV_SPAWN_TRACE_ALL=1 prints
// every tick; ARCHENAV_SPAWN_TRACE_WORKERS sets the workers (2).
func TestMassSpawnTrace(t *testing.T) {
	runs, ok := os.LookupEnv("ARCHENAV_SPAWN_TRACE")
	if !ok {
		t.Skip("set ARCHENAV_SPAWN_TRACE to run")
	}
	n, err := strconv.Atoi(runs)
	if err != nil || n < 1 {
		n = 1
	}
	mesh := bigWorldMesh(t)
	trips := connectedTrips(t, mesh, massSpawnAgents)
	for run := range n {
		workers := 2
		if w, err := strconv.Atoi(os.Getenv("ARCHENAV_SPAWN_TRACE_WORKERS")); err == nil && w > 0 {
			workers = w
		}
		config := plugin.Config{Mesh: mesh, Workers: workers}
		crowd, err := newCrowdRunConfig(trips, config)
		if err != nil {
			t.Fatal(err)
		}
		samples := make([]metrics.Sample, len(massSpawnTraceMetrics))
		for i, name := range massSpawnTraceMetrics {
			samples[i].Name = name
		}
		runtime.GC()
		ticks := make([]massSpawnTick, crowdTicks)
		var names []string
		memprof := os.Getenv("ARCHENAV_SPAWN_TRACE_MEMPROF")
		if memprof != "" {
			runtime.MemProfileRate = 1
		}
		for tick := range crowdTicks {
			if memprof != "" && (tick == 0 || tick == 1 || tick == 60) {
				runtime.GC()
				f, err := os.Create(fmt.Sprintf("%s.%d", memprof, tick))
				if err != nil {
					t.Fatal(err)
				}
				if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
			before := readMassSpawnMetrics(samples)
			wall, cpu := timedStep(t, crowd)
			after := readMassSpawnMetrics(samples)
			d := func(i int) float64 { return after[i] - before[i] }
			stats := crowd.plugin.Stats(crowd.world)
			names = stats.StageNames
			ticks[tick] = massSpawnTick{
				tick: tick, wall: wall, cpu: cpu,
				allocBytes: uint64(d(0)), allocObjects: uint64(d(1)), gcCount: uint64(d(2)),
				assist: d(3), dedicated: d(4), idle: d(5), pause: d(6), stopTheWorld: d(7),
				requests: stats.PathQueueRequests, pending: stats.PathQueuePending,
				waitingQueue: stats.WaitingForQueue, quick: stats.QuickSearchesPending,
				waiting: stats.WaitingForPath,
				stages:  slices.Clone(stats.StageDurations),
			}
		}
		crowd.plugin.Schedule().Finalize(crowd.world)
		print := func(k massSpawnTick) {
			var st strings.Builder
			for i, s := range k.stages {
				if s >= time.Millisecond {
					fmt.Fprintf(&st, " %s=%.1f", names[i], float64(s.Microseconds())/1e3)
				}
			}
			t.Logf("tick %3d wall %6.2f cpu %6.2f alloc %8dB %6d obj gc %d assist %.1fms ded %.1fms idle %.1fms pause %.2fms stw %.2fms req %d pend %d wq %d quick %d wait %d |%s",
				k.tick, float64(k.wall.Microseconds())/1e3, float64(k.cpu.Microseconds())/1e3,
				k.allocBytes, k.allocObjects, k.gcCount, k.assist*1e3, k.dedicated*1e3, k.idle*1e3, k.pause*1e3, k.stopTheWorld*1e3,
				k.requests, k.pending, k.waitingQueue, k.quick, k.waiting, st.String())
		}
		t.Logf("run %d", run)
		var totalAlloc, gcs uint64
		allocTicks := 0
		for _, k := range ticks {
			totalAlloc += k.allocBytes
			gcs += k.gcCount
			if k.allocObjects > 0 {
				allocTicks++
			}
			if os.Getenv("ARCHENAV_SPAWN_TRACE_ALL") != "" {
				print(k)
			}
		}
		sorted := slices.Clone(ticks)
		slices.SortFunc(sorted, func(a, b massSpawnTick) int { return int(b.wall - a.wall) })
		p50 := sorted[len(sorted)/2].wall
		t.Logf("p50 %.2f ms, max %.2f ms, max/p50 %.3f; allocated %d B over %d ticks, %d GC cycles",
			float64(p50.Microseconds())/1e3, float64(sorted[0].wall.Microseconds())/1e3,
			float64(sorted[0].wall)/float64(p50), totalAlloc, allocTicks, gcs)
		for _, k := range sorted[:12] {
			print(k)
		}
	}
}
