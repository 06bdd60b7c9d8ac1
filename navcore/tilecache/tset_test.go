package tilecache

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

const (
	dungeonTSETPath = "testdata/tc48_dungeon.tset"
	dungeonJSONPath = "testdata/tc48_dungeon.json"
)

// referenceMesh holds one phase of tc48_dungeon.json.
type referenceMesh struct {
	Tiles, Polys, Verts, Links, DetailTris, Bytes int
	TileHash                                      string
}

// dungeonReference is tc48_dungeon.json, the C++ figures.
type dungeonReference struct {
	Layers, TilesWithLayers, MaxLayersInTile         int
	LayerRawBytes, LayerCompressedBytesFastLZ        int
	LayerHash                                        string
	MaxTiles, MaxPolysPerTile, CacheMaxTiles         int
	Initial, WithObstacles, AfterMove, Cleared       referenceMesh
	BurstWithObstacles, BurstAfterMove, BurstCleared referenceMesh
	QueryWithObstacles                               struct{ Pairs, Partial int }
}

func readDungeonReference(t testing.TB) dungeonReference {
	t.Helper()
	raw, err := os.ReadFile(dungeonJSONPath)
	require.NoError(t, err)
	var ref dungeonReference
	require.NoError(t, json.Unmarshal(raw, &ref))
	return ref
}

func readDungeonTSET(t testing.TB) (*TileSet, []byte) {
	t.Helper()
	file, err := os.ReadFile(dungeonTSETPath)
	require.NoError(t, err)
	set, err := ReadTSET(file)
	require.NoError(t, err)
	return set, file
}

// TestDungeonTSETLayers decodes the C++ file's 30 layers and checks their
// count, hash and sizes against the C++ figures; each re-encodes to the
// very bytes the C++ wrote, and the whole file writes back unchanged.
func TestDungeonTSETLayers(t *testing.T) {
	ref := readDungeonReference(t)
	set, file := readDungeonTSET(t)
	require.Len(t, set.Layers, ref.Layers)
	assert.Equal(t, ref.MaxTiles, set.MeshParams.MaxTiles)
	assert.Equal(t, ref.MaxPolysPerTile, set.MeshParams.MaxPolys)
	assert.Equal(t, int32(ref.CacheMaxTiles), set.CacheParams.MaxTiles)

	hash := navmesh.Fingerprint(nil)
	raw, compressed := 0, 0
	columns := map[[2]int32]int{}
	for i, stored := range set.Layers {
		layer, err := DecodeLayer(stored.Data, FastLZ{})
		require.NoError(t, err, "layer %d", i)
		hash = FingerprintAppendLayer(hash, layer)
		raw += 3 * len(layer.Heights) // heights, areas and cons
		compressed += len(stored.Data)
		columns[[2]int32{layer.Header.TX, layer.Header.TY}]++

		again, err := EncodeLayer(layer, FastLZ{})
		require.NoError(t, err)
		assert.Equal(t, stored.Data, again, "layer %d re-encodes to the C++ bytes", i)
	}
	assert.Equal(t, ref.LayerHash, fmt.Sprintf("%016x", hash))
	assert.Equal(t, ref.LayerRawBytes, raw)
	assert.Equal(t, ref.LayerCompressedBytesFastLZ, compressed)
	assert.Equal(t, ref.TilesWithLayers, len(columns))
	maxLayers := 0
	for _, n := range columns {
		maxLayers = max(maxLayers, n)
	}
	assert.Equal(t, ref.MaxLayersInTile, maxLayers)

	out, err := MarshalTSET(set)
	require.NoError(t, err)
	assert.Equal(t, file, out, "the file writes back byte for byte")
}
