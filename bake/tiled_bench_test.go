package bake

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkTiled bakes every tile of each test level (tile size 32) with 1
// and 2 workers. The C++ demo takes 23.8 / 30.2 / 43.9 ms single-threaded
// on dungeon / nav_test / undulating (reference README), chunk lookups
// excluded; here the chunk tree is built inside the loop.
func BenchmarkTiled(b *testing.B) {
	for _, mesh := range []string{"dungeon", "nav_test", "undulating"} {
		g := loadTestMesh(b, mesh)
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", mesh, workers), func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					_, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: workers})
					require.NoError(b, err)
				}
			})
		}
	}
}

// BenchmarkChunkyMesh builds the chunk tree of each test level.
func BenchmarkChunkyMesh(b *testing.B) {
	for _, mesh := range []string{"dungeon", "nav_test", "undulating"} {
		g := loadTestMesh(b, mesh)
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				newChunkyMesh(g.Vertices, g.Triangles)
			}
		})
	}
}
