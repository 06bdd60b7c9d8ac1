package bake

import "testing"

// Benchmarks of the three stages on the test levels with RecastDemo's
// default settings. The C++ stage times of the reference build (ms, best
// solo run, docs in the reference README) are:
//
//	           distance field  regions  contours
//	dungeon         1.03         1.39     0.51
//	nav_test        2.18         2.91     0.94
//	undulating      3.91         5.83     1.51
func BenchmarkDistanceField(b *testing.B) {
	for _, mesh := range pipelineMeshes {
		base, _ := pipelineCompact(b, mesh.name)
		b.Run(mesh.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				chf := *base
				if err := BuildDistanceField(&chf); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRegions(b *testing.B) {
	for _, mesh := range pipelineMeshes {
		base, cfg := pipelineCompact(b, mesh.name)
		if err := BuildDistanceField(base); err != nil {
			b.Fatal(err)
		}
		spans := make([]CompactSpan, len(base.Spans))
		b.Run(mesh.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				chf := *base
				copy(spans, base.Spans)
				chf.Spans = spans
				if err := BuildRegions(&chf, 0, cfg.MinRegionArea, cfg.MergeRegionArea); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkContours(b *testing.B) {
	for _, mesh := range pipelineMeshes {
		chf, cfg := pipelineCompact(b, mesh.name)
		if err := BuildDistanceField(chf); err != nil {
			b.Fatal(err)
		}
		if err := BuildRegions(chf, 0, cfg.MinRegionArea, cfg.MergeRegionArea); err != nil {
			b.Fatal(err)
		}
		b.Run(mesh.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := BuildContours(chf, cfg.MaxSimplificationError, cfg.MaxEdgeLen, TessellateWallEdges); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
