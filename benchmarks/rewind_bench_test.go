package benchmarks

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/plugin"
)

// countingWriter counts the bytes written to it.
type countingWriter int

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// rewindWindow is how far back the rollback of BenchmarkRewind goes
// [Units: ticks].
const rewindWindow = 8

// BenchmarkRewind measures rollback as a netcode uses it, beside the ticks
// it rolls: every tick the crowd is stepped and a plugin.Snapshot taken
// into a ring of rewindWindow+1 snapshots; every rewindWindow ticks the
// snapshot of rewindWindow ticks before is restored (plugin.Restore) and
// the ticks are simulated again. One op is one tick. Rows: BenchmarkCrowd's
// 1000 dungeon agents (1 worker), and the 10,000-agent big-world crowd of
// BenchmarkCrowdAvoidance (ORCA, 2 workers); the crowds walk 300 ticks
// before the timer starts.
//
// Metrics, all from the same run: tick-ms the mean tick, snapshot-ms the
// mean Snapshot, restore-ms the mean Restore, and rewind-share
// (snapshot-ms + restore-ms) / tick-ms: what a snapshot every tick and a
// restore cost in ticks; save-bytes the size of a save file of the crowd
// at the end (plugin.Save: the agents and the navmesh).
func BenchmarkRewind(b *testing.B) {
	for _, row := range []struct {
		level   string
		agents  int
		workers int
	}{{"dungeon", 1000, 1}, {"bigworld", 10000, 2}} {
		b.Run(fmt.Sprintf("%s/agents=%d/workers=%d", row.level, row.agents, row.workers), func(b *testing.B) {
			mesh, trips := avoidanceCrowd(b, row.level, row.agents)
			config := plugin.Config{Mesh: mesh, Workers: row.workers}
			if row.level == "bigworld" {
				presets := components.NewAvoidancePresets()
				presets.List[components.DefaultAgentParams().AvoidancePreset] = crowd.ORCAPreset()
				config.AvoidancePresets = presets.List[:]
			}
			run, err := newCrowdRunConfig(trips, config)
			if err != nil {
				b.Fatal(err)
			}
			defer run.plugin.Schedule().Finalize(run.world)
			for range 300 {
				if err := run.plugin.Step(run.world, crowdDt); err != nil {
					b.Fatal(err)
				}
			}
			var ring [rewindWindow + 1]plugin.Snapshot
			for i := range ring { // fill the ring's memory
				if err := run.plugin.Snapshot(run.world, &ring[i]); err != nil {
					b.Fatal(err)
				}
			}
			runtime.GC()
			var ticks, snapshots, restores time.Duration
			restored := 0
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				start := time.Now()
				if err := run.plugin.Step(run.world, crowdDt); err != nil {
					b.Fatal(err)
				}
				ticks += time.Since(start)
				start = time.Now()
				if err := run.plugin.Snapshot(run.world, &ring[i%len(ring)]); err != nil {
					b.Fatal(err)
				}
				snapshots += time.Since(start)
				if i%rewindWindow == rewindWindow-1 && i >= rewindWindow {
					start = time.Now()
					if _, err := run.plugin.Restore(run.world, &ring[(i-rewindWindow)%len(ring)]); err != nil {
						b.Fatal(err)
					}
					restores += time.Since(start)
					restored++
				}
			}
			b.StopTimer()
			tick := float64(ticks.Microseconds()) / 1000 / float64(b.N)
			snapshot := float64(snapshots.Microseconds()) / 1000 / float64(b.N)
			restore := 0.0
			if restored > 0 {
				restore = float64(restores.Microseconds()) / 1000 / float64(restored)
			}
			b.ReportMetric(tick, "tick-ms")
			b.ReportMetric(snapshot, "snapshot-ms")
			b.ReportMetric(restore, "restore-ms")
			if tick > 0 {
				b.ReportMetric((snapshot+restore)/tick, "rewind-share")
			}
			var file countingWriter
			if err := run.plugin.Save(run.world, &file); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(file), "save-bytes")
		})
	}
}
