package benchmarks

import (
	"context"
	"fmt"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/tilecache"
)

// tileCacheTileSize is the tile side of RecastDemo's tile cache sample
// [Units: cells].
const tileCacheTileSize = 48

// BenchmarkTileCacheLayers bakes the heightfield layers of every tile of
// each level (tile size 48, Sample_TempObstacles) on 1 and 2 worker
// goroutines with a TileBaker made beforehand, and compresses them with
// FastLZ: the chunk tree apart, as the reference times the C++ (layersBest
// 21.4 ms single-threaded on dungeon, FastLZ included). It reports the mean
// time of the layer stage (layers-ms) beside the total.
func BenchmarkTileCacheLayers(b *testing.B) {
	settings := bake.DefaultSettings()
	settings.TileSize = tileCacheTileSize
	for _, level := range levels {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", level, workers), func(b *testing.B) {
				g := levelGeometry(b, level)
				baker, err := bake.NewTileBaker(g, settings, bake.TiledOptions{Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				opts := bake.TileCacheOptions{Workers: workers, Compressor: tilecache.FastLZ{}}
				if _, err := baker.BuildAllLayers(context.Background(), opts); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				var layerMs float64
				for range b.N {
					result, err := baker.BuildAllLayers(context.Background(), opts)
					if err != nil {
						b.Fatal(err)
					}
					layerMs += float64(result.Stats.StageTimes[bake.StageLayers].Nanoseconds()) / 1e6
				}
				b.ReportMetric(layerMs/float64(b.N), "layers-ms")
			})
		}
	}
}

// TestTileCacheBakeIsTheReference checks that BenchmarkTileCacheLayers bakes
// what the C++ baked on dungeon: the reference's layer count and layerHash.
func TestTileCacheBakeIsTheReference(t *testing.T) {
	settings := bake.DefaultSettings()
	settings.TileSize = tileCacheTileSize
	result, err := bake.TileCache(context.Background(), levelGeometry(t, "dungeon"), settings, bake.TileCacheOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%d layers, hash %016x", result.Stats.Layers, result.LayerHash()); got != "30 layers, hash 9750808d4fa04934" {
		t.Errorf("dungeon: %s, want 30 layers, hash 9750808d4fa04934", got)
	}
}
