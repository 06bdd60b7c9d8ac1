package bake

import (
	"context"
	"strings"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
)

// BenchmarkSolo bakes each test mesh from scratch as one tile and reports
// the mean time of every stage (ms) beside the total. C++ best (ms) on the
// reference machine: dungeon 14.4, nav_test 20.2, undulating 95.9.
func BenchmarkSolo(b *testing.B) {
	benchmarkSolo(b, func() soloFunc { return Solo })
}

// BenchmarkBakerSolo is BenchmarkSolo on one Baker that keeps its memory
// from bake to bake: compare allocs/op.
func BenchmarkBakerSolo(b *testing.B) {
	benchmarkSolo(b, func() soloFunc {
		var baker Baker
		return baker.Solo
	})
}

// soloFunc is Solo or Baker.Solo.
type soloFunc func(context.Context, *Geometry, Settings, ...SoloOption) (*SoloResult, error)

// benchmarkSolo runs a solo bake of each test mesh per iteration, after one
// bake to warm up, with the solo function newSolo returns for the mesh.
func benchmarkSolo(b *testing.B, newSolo func() soloFunc) {
	for _, mesh := range benchmarkMeshes {
		g := loadTestMesh(b, mesh)
		b.Run(mesh, func(b *testing.B) {
			solo := newSolo()
			if _, err := solo(context.Background(), g, DefaultSettings()); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var stages [NumStages]float64
			for range b.N {
				result, err := solo(context.Background(), g, DefaultSettings())
				if err != nil {
					b.Fatal(err)
				}
				for s, d := range result.Stats.StageTimes {
					stages[s] += float64(d.Nanoseconds()) / 1e6
				}
			}
			for s, total := range stages {
				b.ReportMetric(total/float64(b.N), strings.ReplaceAll(Stage(s).String(), " ", "")+"-ms")
			}
		})
	}
}

// benchmarkLastStages times one of the last three stages on each mesh, fed
// with what a solo bake kept for it.
func benchmarkLastStages(b *testing.B, stage func(in *SoloResult, g *Geometry) error) {
	for _, mesh := range benchmarkMeshes {
		g := loadTestMesh(b, mesh)
		in, err := Solo(context.Background(), g, DefaultSettings(), WithIntermediates())
		if err != nil {
			b.Fatal(err)
		}
		b.Run(mesh, func(b *testing.B) {
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := stage(in, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPolyMesh times BuildPolyMesh on each mesh's contours. C++ best
// (ms): dungeon 0.38, nav_test 0.32, undulating 0.66.
func BenchmarkPolyMesh(b *testing.B) {
	benchmarkLastStages(b, func(in *SoloResult, _ *Geometry) error {
		_, err := BuildPolyMesh(in.Contours, in.Config.MaxVertsPerPoly)
		return err
	})
}

// BenchmarkDetailMesh times BuildPolyMeshDetail on each mesh. C++ best
// (ms): dungeon 0.63, nav_test 1.90, undulating 68.9.
func BenchmarkDetailMesh(b *testing.B) {
	benchmarkLastStages(b, func(in *SoloResult, _ *Geometry) error {
		_, err := BuildPolyMeshDetail(in.PolyMesh, in.CompactHeightfield, in.Config.DetailSampleDist, in.Config.DetailSampleMaxError)
		return err
	})
}

// BenchmarkTileData times navmesh.BuildTileData on each mesh. C++ best
// (ms): dungeon 0.04, nav_test 0.06, undulating 0.09.
func BenchmarkTileData(b *testing.B) {
	settings := DefaultSettings()
	benchmarkLastStages(b, func(in *SoloResult, g *Geometry) error {
		_, err := buildTileData(in.PolyMesh, in.DetailMesh, g, tileSpec{settings: &settings, config: in.Config, areaFlags: RecastDemoAreaFlags})
		return err
	})
}

// BenchmarkTileDataFingerprint times navmesh.TileDataFingerprint on each
// mesh's solo tile.
func BenchmarkTileDataFingerprint(b *testing.B) {
	benchmarkLastStages(b, func(in *SoloResult, _ *Geometry) error {
		_, err := navmesh.TileDataFingerprint(in.TileData)
		return err
	})
}
