package bake

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkLinks bakes each test level (and linkTestLevel) with and without
// the automatic links, solo and tiled (tiles of 32, 1 worker), in one run:
// compare the links=on rows with the links=off rows; links-ms is the link
// stage alone (summed over the tiles, plus the shared steps).
func BenchmarkLinks(b *testing.B) {
	levels := []string{"own", "dungeon", "nav_test", "undulating"}
	for _, level := range levels {
		g := linkTestLevel()
		if level != "own" {
			g = loadTestMesh(b, level)
		}
		for _, mode := range []string{"solo", "tiled"} {
			for _, links := range []bool{false, true} {
				s := DefaultSettings()
				if links {
					s.Links = DefaultLinkSettings()
				}
				name := level + "/" + mode + "/links=off"
				if links {
					name = level + "/" + mode + "/links=on"
				}
				b.Run(name, func(b *testing.B) {
					var baker Baker
					var tileBaker *TileBaker
					if mode == "tiled" {
						var err error
						tileBaker, err = NewTileBaker(g, s, TiledOptions{Workers: 1})
						require.NoError(b, err)
					}
					b.ReportAllocs()
					b.ResetTimer()
					var linkTime, count float64
					for range b.N {
						if mode == "solo" {
							r, err := baker.Solo(context.Background(), g, s)
							require.NoError(b, err)
							linkTime += float64(r.Stats.StageTimes[StageLinks].Nanoseconds()) / 1e6
							count = float64(len(r.Links))
						} else {
							r, err := tileBaker.BuildAll(context.Background(), TiledOptions{Workers: 1})
							require.NoError(b, err)
							linkTime += float64(r.Stats.StageTimes[StageLinks].Nanoseconds()) / 1e6
							count = float64(r.Stats.Counts.DropLinks + r.Stats.Counts.JumpLinks)
						}
					}
					b.ReportMetric(linkTime/float64(b.N), "links-ms")
					b.ReportMetric(count, "links")
				})
			}
		}
	}
}
