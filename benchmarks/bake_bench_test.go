package benchmarks

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/archenav/archenav/bake"
)

// BenchmarkSolo bakes each level from scratch as one tile with the
// reference settings, as the C++ solo sample does, on a new bake.Baker each
// time (what bake.Solo costs on its first call, before its pool has a
// Baker to reuse), and reports the mean time of each stage (<stage>-ms)
// beside the total. C++ best: 14.4 / 20.2 / 95.9 ms on dungeon / nav_test /
// undulating.
func BenchmarkSolo(b *testing.B) {
	benchmarkSolo(b, func() soloFunc {
		return func(ctx context.Context, g *bake.Geometry, settings bake.Settings, opts ...bake.SoloOption) (*bake.SoloResult, error) {
			var baker bake.Baker
			return baker.Solo(ctx, g, settings, opts...)
		}
	})
}

// BenchmarkBakerSolo is BenchmarkSolo on one bake.Baker that keeps its
// working memory from bake to bake (an editor re-baking a level; bake.Solo
// on its later calls): compare the allocations.
func BenchmarkBakerSolo(b *testing.B) {
	benchmarkSolo(b, func() soloFunc {
		var baker bake.Baker
		return baker.Solo
	})
}

// soloFunc is bake.Solo or bake.Baker.Solo.
type soloFunc func(context.Context, *bake.Geometry, bake.Settings, ...bake.SoloOption) (*bake.SoloResult, error)

// benchmarkSolo runs one solo bake per iteration with the function newSolo
// returns for each level, after one bake to warm up.
func benchmarkSolo(b *testing.B, newSolo func() soloFunc) {
	for _, level := range levels {
		b.Run(level, func(b *testing.B) {
			g := levelGeometry(b, level)
			solo := newSolo()
			if _, err := solo(context.Background(), g, bake.DefaultSettings()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var stages [bake.NumStages]float64
			for range b.N {
				result, err := solo(context.Background(), g, bake.DefaultSettings())
				if err != nil {
					b.Fatal(err)
				}
				for s, d := range result.Stats.StageTimes {
					stages[s] += float64(d.Nanoseconds()) / 1e6
				}
			}
			for s, total := range stages {
				b.ReportMetric(total/float64(b.N), stageMetric(bake.Stage(s)))
			}
		})
	}
}

// stageMetric is the metric unit of a stage's time: "polymesh-ms".
func stageMetric(s bake.Stage) string {
	return strings.ReplaceAll(s.String(), " ", "") + "-ms"
}

// BenchmarkTiled bakes every tile of each level (tile size 32) on 1 and 2
// worker goroutines with a TileBaker made beforehand, as the C++ demo's
// buildAllTiles does after building its chunk tree: the C++ takes 23.8 /
// 30.2 / 43.9 ms single-threaded on dungeon / nav_test / undulating.
func BenchmarkTiled(b *testing.B) {
	benchmarkTiled(b, func(b *testing.B, g *bake.Geometry, settings bake.Settings, workers int) {
		baker, err := bake.NewTileBaker(g, settings, bake.TiledOptions{Workers: workers})
		if err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if _, err := baker.BuildAll(context.Background(), bake.TiledOptions{Workers: workers}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTiledWithIndex is BenchmarkTiled with the level's indexing
// (triangle areas, chunk tree) inside the loop: bake.Tiled from geometry to
// tiles. The C++ demo spends another 19 ms on dungeon there.
func BenchmarkTiledWithIndex(b *testing.B) {
	benchmarkTiled(b, func(b *testing.B, g *bake.Geometry, settings bake.Settings, workers int) {
		for range b.N {
			if _, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{Workers: workers}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchmarkTiled runs bench on each level with 1 and 2 workers.
func benchmarkTiled(b *testing.B, bench func(b *testing.B, g *bake.Geometry, settings bake.Settings, workers int)) {
	settings := bake.DefaultSettings()
	settings.TileSize = referenceTileSize
	for _, level := range levels {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", level, workers), func(b *testing.B) {
				g := levelGeometry(b, level)
				b.ReportAllocs()
				bench(b, g, settings, workers)
			})
		}
	}
}
