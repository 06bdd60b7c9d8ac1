package hierarchy

import (
	"context"
	"testing"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tileDataBytes sums the sizes of the mesh's tiles as C++ tile blobs
// (navmesh.MarshalDNAV): what Detour holds for the same tiles.
func tileDataBytes(tb testing.TB, mesh *navmesh.Mesh) int {
	tb.Helper()
	total := 0
	for tile := range mesh.Snapshot().Tiles() {
		blob, err := navmesh.MarshalDNAV(tile.Data)
		require.NoError(tb, err)
		total += len(blob)
	}
	return total
}

// TestMemoryUnderAThirdOfTheTileData: the hierarchy's own count of its
// memory (its graphs, tables and landmarks) stays under a third of what
// Detour holds for the same tiles (its tile blobs, links included).
func TestMemoryUnderAThirdOfTheTileData(t *testing.T) {
	params := bigworld.Small()
	if longtest.Enabled() {
		params = bigworld.Default()
	}
	mesh, err := params.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	h, err := New(mesh, query.NewFilter(), Options{Workers: 2})
	require.NoError(t, err)
	memory, data := h.MemoryBytes(), tileDataBytes(t, mesh)
	t.Logf("hierarchy %d bytes, the C++ tile data %d: %.1f %%", memory, data, 100*float64(memory)/float64(data))
	assert.LessOrEqual(t, memory, data/3)
}

// TestBigWorld checks the 1 km level (2809 tiles) as TestPathsMatchAStar
// checks the small one.
func TestBigWorld(t *testing.T) {
	longtest.Skip(t)
	mesh, err := bigworld.Default().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	filter := query.NewFilter()
	h, err := New(mesh, filter, Options{Workers: 2})
	require.NoError(t, err)
	stats := h.Stats()
	require.Equal(t, 2809, stats.Tiles)
	t.Logf("%+v", stats)
	q, _ := query.New(mesh, 64)
	s, _ := NewSearcher(q, h)
	quality := comparePaths(t, mesh, s, filter, randomPairs(t, mesh, filter, 600, 3))
	costMean, costP99 := summary(quality.costRatios)
	lengthMean, lengthP99 := summary(quality.lengthRatios)
	t.Logf("%d reachable, %d partial; cost ratio mean %.4f p99 %.4f; straight length ratio mean %.4f p99 %.4f",
		quality.reachable, quality.partial, costMean, costP99, lengthMean, lengthP99)
	assert.LessOrEqual(t, costMean, 1.01)
	assert.LessOrEqual(t, costP99, 1.05)
	assert.LessOrEqual(t, lengthMean, 1.01)
	assert.LessOrEqual(t, lengthP99, 1.05)
}
