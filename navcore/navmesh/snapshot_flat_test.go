package navmesh

import (
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkFlat checks every slot below slots: a tile there has that index and
// is the one the position lookup finds at its place, the tiles counted
// are TileCount's, and NextTile walks the same tiles.
func checkFlat(t *testing.T, s *Snapshot, slots uint32, what string) {
	t.Helper()
	count := 0
	var walked []*Tile
	for tile := range s.Tiles() {
		walked = append(walked, tile)
	}
	var seen []*Tile
	for i := range slots {
		tile := s.tileAt(i)
		if tile == nil {
			continue
		}
		count++
		seen = append(seen, tile)
		h := &tile.Data.Header
		require.Equal(t, int(i), tile.Index(), "%s: slot %d", what, i)
		require.Same(t, tile, s.TileAt(int(h.X), int(h.Y), int(h.Layer)), "%s: slot %d", what, i)
		require.Contains(t, s.TilesAt(int(h.X), int(h.Y), nil), tile, "%s: slot %d", what, i)
	}
	require.Equal(t, s.TileCount(), count, what)
	require.Equal(t, seen, walked, what)
}

// TestFlatTilesFollowTheTable adds and removes tiles at random, tiles swapped
// in their slots among them: after every edit the flat array gives every
// slot's tile as the radix table does.
func TestFlatTilesFollowTheTable(t *testing.T) {
	const grid = 6
	m, err := New(testParams(64))
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(3, 4))
	refs := map[[2]int]TileRef{}
	for step := range 300 {
		x, y := rng.IntN(grid), rng.IntN(grid)
		key := [2]int{x, y}
		if ref, ok := refs[key]; ok {
			data, err := m.RemoveTile(ref)
			require.NoError(t, err)
			delete(refs, key)
			if rng.IntN(2) == 0 { // swapped in its slot, as a tile cache does
				refs[key], err = m.AddTile(data, ref)
				require.NoError(t, err)
			}
		} else {
			spec := tileSpec{x: int32(x), y: int32(y), polys: make([][]mgl32.Vec3, 2)}
			for i := range spec.polys {
				spec.polys[i] = rect(float32(x)*testTileSize, float32(float32(y)*testTileSize)+float32(5*i),
					float32(x+1)*testTileSize, float32(float32(y)*testTileSize)+float32(5*i+5), 0)
			}
			refs[key], err = m.AddTile(buildTile(spec), 0)
			require.NoError(t, err)
		}
		s := m.Snapshot()
		require.True(t, s.flatAll)
		require.True(t, s.isFlat())
		checkFlat(t, s, 64, "step")
		for key, ref := range refs {
			tile := s.TileByRef(ref)
			require.NotNil(t, tile, "step %d", step)
			assert.Same(t, tile, s.TileAt(key[0], key[1], 0), "step %d", step)
		}
		assert.Equal(t, len(refs), s.TileCount(), "step %d", step)
	}
}

// TestFlatTilesPastTheLimit puts a tile in a slot past flatTileSlots: the
// snapshot falls back on the radix table, and takes the flat array up
// again once that tile is gone.
func TestFlatTilesPastTheLimit(t *testing.T) {
	m, err := New(testParams(2 * flatTileSlots))
	require.NoError(t, err)
	refA, err := m.AddTile(buildTile(tileA()), EncodeRef(1, 5, 0))
	require.NoError(t, err)
	require.True(t, m.Snapshot().flatAll)
	refB, err := m.AddTile(buildTile(tileB()), EncodeRef(1, flatTileSlots+3, 0))
	require.NoError(t, err)
	s := m.Snapshot()
	assert.False(t, s.flatAll)
	assert.False(t, s.isFlat())
	assert.Nil(t, s.flat)
	checkFlat(t, s, flatTileSlots+10, "with the far tile")
	for _, ref := range []TileRef{refA, refB} {
		tile, poly, err := s.TileAndPoly(ref | 1)
		require.NoError(t, err)
		assert.Equal(t, ref, tile.Ref())
		assert.Same(t, &tile.Polys[1], poly)
	}
	_, err = m.RemoveTile(refB)
	require.NoError(t, err)
	s = m.Snapshot()
	assert.True(t, s.flatAll)
	assert.True(t, s.isFlat())
	assert.Len(t, s.flat, 6)
	checkFlat(t, s, 10, "after the far tile went")
	assert.False(t, s.IsValid(refB|1))
	assert.True(t, s.IsValid(refA|1))
}
