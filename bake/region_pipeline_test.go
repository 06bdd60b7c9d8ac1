package bake

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pipelineMesh holds, per test level, what recastnavigation 1.6.0 produces
// with RecastDemo's default settings in a solo build: MaxRegions and the
// contour count with watershed regions (the reference README's figures),
// MaxRegions with monotone and layer regions, and fieldFingerprint of the
// distance field, regions and contours for each partition method.
type pipelineMesh struct {
	name                          string
	regions, contours             int
	watershed, monotone, layers   uint64
	monotoneRegions, layerRegions int
}

var pipelineMeshes = []pipelineMesh{
	{"dungeon", 16, 15, 0xef063512865789c3, 0x2a26ef7e7b4f4b8f, 0x508bb9babd1dbdc6, 17, 5},
	{"nav_test", 48, 47, 0x215db8f770adaf56, 0xbff2db4ff7931f5, 0xa00c0b7f017f7fc5, 50, 19},
	{"undulating", 42, 41, 0xe99e661561e483db, 0xd618541c5ed2f48a, 0x2ccb0acefbc497d8, 87, 2},
}

// pipelineCompact runs the stages before this file's (rasterize, filters,
// compact, erode) on a test level with the default settings.
func pipelineCompact(tb testing.TB, name string) (*CompactHeightfield, *Config) {
	tb.Helper()
	g := loadTestMesh(tb, name)
	cfg := defaultConfig(tb, g)
	chf, _, err := BuildCompact(g, cfg)
	require.NoError(tb, err)
	return chf, cfg
}

func TestPipelineRegionsAndContours(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes three levels")
	}
	for _, mesh := range pipelineMeshes {
		for _, partition := range []PartitionType{PartitionWatershed, PartitionMonotone, PartitionLayers} {
			t.Run(fmt.Sprint(mesh.name, " ", partition), func(t *testing.T) {
				chf, cfg := pipelineCompact(t, mesh.name)
				var regions int
				var fingerprint uint64
				switch partition {
				case PartitionWatershed:
					require.NoError(t, BuildDistanceField(chf))
					require.NoError(t, BuildRegions(chf, 0, cfg.MinRegionArea, cfg.MergeRegionArea))
					regions, fingerprint = mesh.regions, mesh.watershed
				case PartitionMonotone:
					require.NoError(t, BuildRegionsMonotone(chf, 0, cfg.MinRegionArea, cfg.MergeRegionArea))
					regions, fingerprint = mesh.monotoneRegions, mesh.monotone
				case PartitionLayers:
					require.NoError(t, BuildLayerRegions(chf, 0, cfg.MinRegionArea))
					regions, fingerprint = mesh.layerRegions, mesh.layers
				}
				cset, err := BuildContours(chf, cfg.MaxSimplificationError, cfg.MaxEdgeLen, TessellateWallEdges)
				require.NoError(t, err)
				assert.Equal(t, regions, int(chf.MaxRegions))
				if partition == PartitionWatershed {
					assert.Equal(t, mesh.contours, len(cset.Contours))
				}
				assert.Equal(t, fmt.Sprintf("%#x", fingerprint), fmt.Sprintf("%#x", fieldFingerprint(chf, cset)))
				assert.Empty(t, chf.Warnings)
			})
		}
	}
}
