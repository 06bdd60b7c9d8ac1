package bake

import (
	"context"
	"testing"

	"github.com/archenav/archenav/internal/cputime"

	"github.com/stretchr/testify/require"
)

// BenchmarkAgentTypes bakes two agent types of nav_test in one call
// ("together": SoloTypes, TiledTypes, TileCacheTypes) beside two separate
// bakes ("separate": Solo, Tiled, TileCache one after the other), on one
// worker so that the saving is the work shared, not parallelism (each
// "together" iteration is one bake of both types, as is each "separate"
// one). The pairs:
//
//   - radius: the small (0.6) and the large (1.5) agent. Solo bakes share the
//     rasterization, filters, compact field and erosion distances; tiled
//     and tile cache bakes only the triangle index, since a tile's border
//     grows with the radius.
//   - height: two agents of radius 0.6, 2 and 3 m tall: tiled and tile cache
//     bakes share each tile's rasterization.
func BenchmarkAgentTypes(b *testing.B) {
	g := loadTestMesh(b, "nav_test")
	small, large, tall := DefaultSettings(), DefaultSettings(), DefaultSettings()
	large.AgentRadius = 1.5
	tall.AgentHeight = 3
	pairs := []struct {
		name  string
		types []AgentType
	}{
		{"radius", []AgentType{{Name: "small", Settings: small}, {Name: "large", Settings: large}}},
		{"height", []AgentType{{Name: "small", Settings: small}, {Name: "tall", Settings: tall}}},
	}
	ctx := context.Background()
	for _, pair := range pairs {
		layerTypes := make([]AgentType, len(pair.types))
		copy(layerTypes, pair.types)
		for i := range layerTypes {
			layerTypes[i].Settings.TileSize = 48
		}
		bakes := []struct {
			name               string
			separate, together func(b *testing.B)
		}{
			{"solo", func(b *testing.B) {
				for _, t := range pair.types {
					_, err := Solo(ctx, g, t.Settings)
					require.NoError(b, err)
				}
			}, func(b *testing.B) {
				_, err := SoloTypes(ctx, g, pair.types, SoloTypesOptions{Workers: 1})
				require.NoError(b, err)
			}},
			{"tiled", func(b *testing.B) {
				for _, t := range pair.types {
					_, err := Tiled(ctx, g, t.Settings, TiledOptions{Workers: 1})
					require.NoError(b, err)
				}
			}, func(b *testing.B) {
				_, err := TiledTypes(ctx, g, pair.types, TiledOptions{Workers: 1})
				require.NoError(b, err)
			}},
			{"tilecache", func(b *testing.B) {
				for _, t := range layerTypes {
					_, err := TileCache(ctx, g, t.Settings, TileCacheOptions{Workers: 1})
					require.NoError(b, err)
				}
			}, func(b *testing.B) {
				_, err := TileCacheTypes(ctx, g, layerTypes, TileCacheOptions{Workers: 1})
				require.NoError(b, err)
			}},
		}
		for _, bake := range bakes {
			for _, way := range []struct {
				name string
				run  func(b *testing.B)
			}{{"separate", bake.separate}, {"together", bake.together}} {
				b.Run(pair.name+"/"+bake.name+"/"+way.name, func(b *testing.B) {
					way.run(b) // warm the pools
					b.ReportAllocs()
					b.ResetTimer()
					cpu := cputime.Process()
					for range b.N {
						way.run(b)
					}
					// CPU time, which other processes on a loaded machine
					// inflate less than the wall time (0 where the system
					// does not tell).
					b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
				})
			}
		}
	}
}
