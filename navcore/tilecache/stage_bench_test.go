package tilecache

import "testing"

// BenchmarkStages times each stage of the layer build over the dungeon's 30
// layers (no obstacles).
func BenchmarkStages(b *testing.B) {
	cache := loadDungeon(b, 1)
	builders := make([]*builder, len(cache.layers))
	inputs := make([]buildInput, len(cache.layers))
	for i := range cache.layers {
		l := &cache.layers[i]
		inputs[i] = buildInput{params: &cache.params, compressor: cache.compressor, process: cache.process,
			header: l.header, data: l.data, slots: cache.obstacles}
		builders[i] = &builder{}
		if err := builders[i].buildPolygons(&inputs[i]); err != nil {
			b.Fatal(err)
		}
	}
	climb := cache.params.walkableClimbCells()
	b.Run("decompress", func(b *testing.B) {
		var best bestOf
		for range b.N {
			best.time(func() {
				for i, bl := range builders {
					_ = bl.decompress(&inputs[i])
				}
			})
		}
		best.report(b)
	})
	b.Run("regions", func(b *testing.B) {
		var best bestOf
		for range b.N {
			best.time(func() {
				for _, bl := range builders {
					_ = bl.buildRegions(climb)
				}
			})
		}
		best.report(b)
	})
	b.Run("contours", func(b *testing.B) {
		var best bestOf
		for range b.N {
			best.time(func() {
				for _, bl := range builders {
					_ = bl.buildContours(climb, cache.params.MaxSimplificationError)
				}
			})
		}
		best.report(b)
	})
	b.Run("polymesh", func(b *testing.B) {
		var best bestOf
		for range b.N {
			best.time(func() {
				for _, bl := range builders {
					_ = bl.buildPolyMesh()
				}
			})
		}
		best.report(b)
	})
}
