package plugin

import (
	"fmt"
	"testing"
	"time"

	"github.com/archenav/archenav/internal/cputime"
)

// benchTicks is the run length of the reference crowd figures (10 s at
// 60 Hz).
const benchTicks = 600

// BenchmarkCrowd runs the reference crowd benchmark on the dungeon tile:
// random starts and targets, 600 ticks from spawn, and reports the mean
// milliseconds per tick (compare with the C++ figures in the README:
// 0.60 / 3.91 / 6.65 / 10.36 ms for 100 / 500 / 1000 / 2000 agents).
//
// BenchmarkCrowdReference is the same with Config.Reference, the
// like-for-like comparison with the C++ crowd.
func BenchmarkCrowd(b *testing.B) { benchmarkCrowd(b, false) }

// BenchmarkCrowdReference runs BenchmarkCrowd with Config.Reference.
func BenchmarkCrowdReference(b *testing.B) { benchmarkCrowd(b, true) }

func benchmarkCrowd(b *testing.B, reference bool) {
	mesh := loadDungeon(b)
	for _, n := range []int{100, 500, 1000, 2000, 5000, 10000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("agents=%d/workers=%d", n, workers), func(b *testing.B) {
				var total, cpu time.Duration
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					f := newCrowd(b, mesh, n, 1, Config{Workers: workers, Reference: reference})
					b.StartTimer()
					start, startCPU := time.Now(), cputime.Process()
					f.step(b, benchTicks)
					total += time.Since(start)
					cpu += cputime.Process() - startCPU
				}
				ticks := float64(b.N * benchTicks)
				b.ReportMetric(float64(total.Microseconds())/1000/ticks, "ms/tick")
				b.ReportMetric(float64(cpu.Microseconds())/1000/ticks, "cpu-ms/tick")
			})
		}
	}
}

// BenchmarkCrowdSteadyTick measures one tick of a 1000-agent crowd after
// a 300-tick warm-up; allocs/op is the allocation count per tick in steady
// state.
func BenchmarkCrowdSteadyTick(b *testing.B) {
	mesh := loadDungeon(b)
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			f := newCrowd(b, mesh, 1000, 1, Config{Workers: workers})
			f.step(b, 300)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := f.plugin.Step(f.world, 1.0/60); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCrowdFirstTicks measures the 600 ticks after spawning 1000
// agents, path planning included (allocs/op is per 600 ticks).
func BenchmarkCrowdFirstTicks(b *testing.B) {
	mesh := loadDungeon(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f := newCrowd(b, mesh, 1000, 1, Config{})
		b.StartTimer()
		f.step(b, benchTicks)
	}
}

// BenchmarkCrowdStages runs the crowd benchmark's 2000-agent, 600-tick
// run on one goroutine and reports the mean wall time per tick of each
// stage (the Stats resource), in default and in Reference mode.
func BenchmarkCrowdStages(b *testing.B) {
	mesh := loadDungeon(b)
	for _, reference := range []bool{false, true} {
		b.Run(fmt.Sprintf("reference=%v", reference), func(b *testing.B) {
			stages := map[string]float64{}
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				f := newCrowd(b, mesh, 2000, 1, Config{Reference: reference})
				b.StartTimer()
				for name, ms := range f.stageTimes(b, benchTicks) {
					stages[name] += ms / float64(b.N)
				}
			}
			for name, ms := range stages {
				b.ReportMetric(ms, name+"-ms/tick")
			}
		})
	}
}
