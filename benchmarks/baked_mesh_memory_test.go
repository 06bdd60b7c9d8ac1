package benchmarks

import (
	"context"
	"runtime"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/navmesh"
)

// BenchmarkBakedMeshMemory reports the live heap a mesh made by
// TiledResult.NavMesh from a fresh bake holds once the bake's result is
// dropped (mesh-bytes: its tiles, their data and the index), beside
// Detour's figures for the same tiles in BenchmarkTiledMeshMemory. Every
// iteration bakes again, so the mesh is the first made from its tiles, as
// in a game that bakes at load time. Run with -benchtime 1x; bigworld
// bakes the 1 km level (minutes).
func BenchmarkBakedMeshMemory(b *testing.B) {
	for _, level := range []string{"dungeon", "nav_test", "undulating", "bigworld"} {
		b.Run(level, func(b *testing.B) {
			var meshBytes float64
			for range b.N {
				var g *bake.Geometry
				var err error
				if level == "bigworld" {
					g, err = bigworld.Default().Geometry()
					if err != nil {
						b.Fatal(err)
					}
				} else {
					g = levelGeometry(b, level)
				}
				before := liveHeap()
				mesh := bakedMesh(b, level, g)
				meshBytes = float64(liveHeap()) - float64(before)
				runtime.KeepAlive(mesh)
				runtime.KeepAlive(g)
			}
			b.ReportMetric(meshBytes, "mesh-bytes")
		})
	}
}

// bakedMesh bakes g tiled and returns the result's mesh (a function of
// its own, so that the result is garbage once it returns).
func bakedMesh(tb testing.TB, level string, g *bake.Geometry) *navmesh.Mesh {
	tb.Helper()
	settings := bake.DefaultSettings()
	if level == "bigworld" {
		settings = bigworld.Settings()
	} else {
		settings.TileSize = referenceTileSize
	}
	result, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	mesh, err := result.NavMesh()
	if err != nil {
		tb.Fatal(err)
	}
	return mesh
}

// liveHeap returns the live heap after two collections.
func liveHeap() uint64 {
	var s runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&s)
	return s.HeapAlloc
}
