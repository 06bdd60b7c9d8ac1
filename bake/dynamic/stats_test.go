package dynamic

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStats(t *testing.T) {
	m := newTestMesh(t, "dungeon", Options{})
	s := m.Stats()
	assert.Equal(t, 56, s.Tiles, "the tiles with triangles near, as bake's tiled reference counts them")
	assert.Zero(t, s.Colliders)
	// About a byte a column of the 42 × 42 fields (93,530 bytes).
	assert.Greater(t, s.VoxelBytes, int64(56*42*42/2))
	assert.Less(t, s.VoxelBytes, int64(56*42*42*2))
	assert.Greater(t, s.NavMeshBytes, int64(30000))
	sum := int64(0)
	for y := range 11 {
		for x := range 8 {
			ts := m.TileStats(x, y)
			sum += int64(ts.VoxelBytes)
			assert.LessOrEqual(t, int64(ts.VoxelBytes), s.MaxTileVoxelBytes)
		}
	}
	assert.Equal(t, s.VoxelBytes, sum)
	ref, err := m.AddCollider(crate.shape, crate.pose)
	require.NoError(t, err)
	s = m.Stats()
	assert.Equal(t, 1, s.Colliders)
	assert.Equal(t, 2, s.PendingTiles)
	assert.Positive(t, s.ColliderBytes)
	require.NoError(t, m.RemoveCollider(ref))
	assert.Zero(t, m.TileStats(-1, 0))
}
