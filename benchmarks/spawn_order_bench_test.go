package benchmarks

import (
	"runtime"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/plugin"
)

// BenchmarkCrowdSpawnOrder measures what plugin.Plugin.SpawnBatch's
// spatial creation order is worth: the 10,000 local trips of
// BenchmarkCrowdAvoidance's big-world crowd (ORCA, 2 workers), spawned
// once with SpawnBatch (entities along a Hilbert curve of the positions)
// and once with Spawn in the trips' order (scattered over the level, as
// the world then stores them). One op is one tick; every 600 ticks the
// crowd starts anew (outside the timer). cpu-ms is the process's CPU time
// per tick, as in BenchmarkCrowdAvoidance.
func BenchmarkCrowdSpawnOrder(b *testing.B) {
	mesh, trips := avoidanceCrowd(b, "bigworld", 10000)
	for _, batch := range []bool{true, false} {
		name := "spawn-batch"
		if !batch {
			name = "spawn-one-by-one"
		}
		b.Run(name, func(b *testing.B) {
			presets := components.NewAvoidancePresets()
			presets.List[components.DefaultAgentParams().AvoidancePreset] = crowd.ORCAPreset()
			config := plugin.Config{Mesh: mesh, Workers: 2, AvoidancePresets: presets.List[:]}
			var run *crowdRun
			var cpu time.Duration
			b.ResetTimer()
			for i := range b.N {
				if i%crowdTicks == 0 {
					b.StopTimer()
					if run != nil {
						run.plugin.Schedule().Finalize(run.world)
					}
					var err error
					if run, err = newCrowdRunSpawned(trips, config, batch); err != nil {
						b.Fatal(err)
					}
					runtime.GC()
					b.StartTimer()
				}
				before := cputime.Process()
				if err := run.plugin.Step(run.world, crowdDt); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - before
			}
			b.StopTimer()
			if run != nil {
				run.plugin.Schedule().Finalize(run.world)
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms")
		})
	}
}
