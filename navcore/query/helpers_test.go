package query

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

const dungeonTilePath = "../../testdata/navmesh_solo_dungeon.bin"

// loadDungeon returns the C++ solo dungeon tile as a one-tile Mesh, set up as
// dtNavMesh::init(data) does for a single tile.
func loadDungeon(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	blob, err := os.ReadFile(dungeonTilePath)
	require.NoError(tb, err)
	data, err := navmesh.ReadDNAV(blob)
	require.NoError(tb, err)
	return singleTileMesh(tb, data)
}

func singleTileMesh(tb testing.TB, data *navmesh.TileData) *navmesh.Mesh {
	tb.Helper()
	h := &data.Header
	mesh, err := navmesh.New(navmesh.Params{
		Origin:     h.BMin,
		TileWidth:  h.BMax[0] - h.BMin[0],
		TileHeight: h.BMax[2] - h.BMin[2],
		MaxTiles:   1,
		MaxPolys:   int(h.PolyCount),
	})
	require.NoError(tb, err)
	_, err = mesh.AddTile(data, 0)
	require.NoError(tb, err)
	return mesh
}

// referenceFilter is the filter of the reference runs: every flag but
// "disabled" (0x10).
func referenceFilter() *Filter {
	f := NewFilter()
	f.IncludeFlags = 0xffef
	f.ExcludeFlags = 0
	return f
}

var referenceExtents = geom.Vec3{2, 4, 2}

// lcg is a small seeded random source for tests and benchmarks, returning
// floats in [0, 1).
type lcg struct{ state uint64 }

func (r *lcg) next() float32 {
	r.state = r.state*6364136223846793005 + 1442695040888963407
	return float32(r.state>>40) / float32(1<<24)
}
