package hierarchy

import (
	"context"
	"testing"

	"github.com/archenav/archenav/internal/bigworld"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// meshArrays sums the arrays a mesh's tiles hold: their own polygons and
// links, and their data's polygons, vertices, detail meshes and BV tree.
func meshArrays(mesh *navmesh.Mesh) int {
	snap := mesh.Snapshot()
	total := 0
	for i := range snap.MaxTiles() {
		t := snap.Tile(i)
		if t == nil {
			continue
		}
		d := t.Data
		total += 32*(len(t.Polys)+len(d.Polys)) + 16*len(t.Links) + 12*(len(d.Verts)+len(d.DetailVerts)) +
			12*len(d.DetailMeshes) + 4*len(d.DetailTris) + 16*len(d.BVTree)
	}
	return total
}

// TestMemoryUnderAQuarterOfTheMesh: the hierarchy's own count of its
// memory (its graphs, tables and landmarks) stays under a quarter of the
// mesh's tile arrays, which are less than the mesh takes (its tile
// structs and tables come on top).
func TestMemoryUnderAQuarterOfTheMesh(t *testing.T) {
	params := bigworld.Small()
	if longtest.Enabled() {
		params = bigworld.Default()
	}
	mesh, err := params.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	h, err := New(mesh, query.NewFilter(), Options{Workers: 2})
	require.NoError(t, err)
	memory, arrays := h.MemoryBytes(), meshArrays(mesh)
	t.Logf("hierarchy %d bytes, the mesh's tile arrays %d: %.1f %%", memory, arrays, 100*float64(memory)/float64(arrays))
	assert.LessOrEqual(t, memory, arrays/4)
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
