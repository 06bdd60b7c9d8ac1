package bake

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkTiled bakes every tile of each test level (tile size 32) with 1
// and 2 workers, as RecastDemo's buildAllTiles does: the chunk tree is
// built once outside the loop (BenchmarkNewTileBaker times it). The C++
// demo takes 23.8 / 30.2 / 43.9 ms single-threaded on dungeon / nav_test /
// undulating (reference README, chunk lookups excluded).
func BenchmarkTiled(b *testing.B) {
	benchmarkLevelsAndWorkers(b, func(b *testing.B, g *Geometry, workers int) {
		baker, err := NewTileBaker(g, DefaultSettings(), TiledOptions{})
		require.NoError(b, err)
		b.ResetTimer()
		for range b.N {
			_, err := baker.BuildAll(context.Background(), TiledOptions{Workers: workers})
			require.NoError(b, err)
		}
	})
}

// BenchmarkChunkyMesh builds the chunk tree of each test level on 1 and 2
// goroutines.
func BenchmarkChunkyMesh(b *testing.B) {
	benchmarkLevelsAndWorkers(b, func(b *testing.B, g *Geometry, workers int) {
		for range b.N {
			newChunkyMesh(g.Vertices, g.Triangles, workers)
		}
	})
}

// BenchmarkNewTileBaker indexes each test level for a tiled bake (triangle
// areas and boxes, chunk tree) on 1 and 2 goroutines: the part of Tiled
// before the tiles.
func BenchmarkNewTileBaker(b *testing.B) {
	benchmarkLevelsAndWorkers(b, func(b *testing.B, g *Geometry, workers int) {
		for range b.N {
			_, err := NewTileBaker(g, DefaultSettings(), TiledOptions{Workers: workers})
			require.NoError(b, err)
		}
	})
}

// benchmarkLevelsAndWorkers runs bench, reporting allocations, on each test
// level with 1 and 2 workers.
func benchmarkLevelsAndWorkers(b *testing.B, bench func(b *testing.B, g *Geometry, workers int)) {
	for _, mesh := range []string{"dungeon", "nav_test", "undulating"} {
		g := loadTestMesh(b, mesh)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", mesh, workers), func(b *testing.B) {
				b.ReportAllocs()
				bench(b, g, workers)
			})
		}
	}
}

// BenchmarkBuildTile rebuilds one busy tile of nav_test, the cost of
// updating a streamed or changed world one tile at a time.
func BenchmarkBuildTile(b *testing.B) {
	baker, err := NewTileBaker(loadTestMesh(b, "nav_test"), DefaultSettings(), TiledOptions{})
	require.NoError(b, err)
	b.ReportAllocs()
	for range b.N {
		_, err := baker.BuildTile(context.Background(), 5, 4)
		require.NoError(b, err)
	}
}
