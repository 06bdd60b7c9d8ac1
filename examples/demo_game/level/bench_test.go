package level

import "testing"

// BenchmarkBakeTypes bakes the embedded dungeon into tile caches of 32-cell
// tiles as the demo does, for one agent type (the demo of before) and for
// the demo's two (one call, bake.TileCacheTypes), with two workers.
func BenchmarkBakeTypes(b *testing.B) {
	for _, bench := range []struct {
		name  string
		types []AgentType
	}{
		{"one", nil},
		{"two", DefaultTypes()},
	} {
		b.Run(bench.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Load("", Options{TileCache: true, TileSize: 32, Workers: 2, Types: bench.types}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
