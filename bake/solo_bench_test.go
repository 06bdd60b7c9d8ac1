package bake

import (
	"context"
	"fmt"
	"testing"
)

var benchMeshes = []string{"dungeon", "nav_test", "undulating"}

func loadBenchGeometry(b *testing.B, mesh string) *Geometry {
	b.Helper()
	g, err := LoadOBJ(fmt.Sprintf("../testdata/%s.obj", mesh))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

// BenchmarkSolo bakes each test mesh as one tile and reports the mean time
// of every stage (ms) beside the total. C++ best (ms) on the reference
// machine: dungeon 14.4, nav_test 20.2, undulating 95.9.
func BenchmarkSolo(b *testing.B) {
	for _, mesh := range benchMeshes {
		g := loadBenchGeometry(b, mesh)
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			var stages [NumStages]float64
			for range b.N {
				result, err := Solo(context.Background(), g, DefaultSettings())
				if err != nil {
					b.Fatal(err)
				}
				for s, d := range result.Stats.StageTimes {
					stages[s] += float64(d.Nanoseconds()) / 1e6
				}
			}
			for s, total := range stages {
				b.ReportMetric(total/float64(b.N), metricName(Stage(s)))
			}
		})
	}
}

// metricName turns "poly mesh" into "polymesh-ms".
func metricName(s Stage) string {
	name := []byte{}
	for _, c := range []byte(s.String()) {
		if c != ' ' {
			name = append(name, c)
		}
	}
	return string(name) + "-ms"
}

// soloStageInputs runs a solo bake keeping what the last three stages read.
func soloStageInputs(b *testing.B, mesh string) *SoloResult {
	b.Helper()
	result, err := Solo(context.Background(), loadBenchGeometry(b, mesh), DefaultSettings(), WithIntermediates())
	if err != nil {
		b.Fatal(err)
	}
	return result
}

// BenchmarkPolyMesh times BuildPolyMesh on each mesh's contours. C++ best
// (ms): dungeon 0.38, nav_test 0.32, undulating 0.66.
func BenchmarkPolyMesh(b *testing.B) {
	for _, mesh := range benchMeshes {
		in := soloStageInputs(b, mesh)
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := BuildPolyMesh(in.Contours, in.Config.MaxVertsPerPoly); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDetailMesh times BuildPolyMeshDetail on each mesh. C++ best
// (ms): dungeon 0.63, nav_test 1.90, undulating 68.9.
func BenchmarkDetailMesh(b *testing.B) {
	for _, mesh := range benchMeshes {
		in := soloStageInputs(b, mesh)
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := BuildPolyMeshDetail(in.PolyMesh, in.CompactHeightfield, in.Config.DetailSampleDist, in.Config.DetailSampleMaxError); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTileData times navmesh.BuildTileData on each mesh. C++ best
// (ms): dungeon 0.04, nav_test 0.06, undulating 0.09.
func BenchmarkTileData(b *testing.B) {
	for _, mesh := range benchMeshes {
		in := soloStageInputs(b, mesh)
		g := loadBenchGeometry(b, mesh)
		settings := DefaultSettings()
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := buildTileData(in.PolyMesh, in.DetailMesh, g, &settings, in.Config, RecastDemoAreaFlags); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
