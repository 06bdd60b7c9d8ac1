package navmesh

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConnectivityFlatAndRadixSlotsAgree labels the same two tiles in a
// snapshot that keeps its tiles in the flat slot array (the second tile
// next to the first) and in one that keeps them in radix tables (the
// second tile past flatTileSlots): every polygon gets the same component,
// and refs to empty, far or stale slots get none in either.
func TestConnectivityFlatAndRadixSlotsAgree(t *testing.T) {
	label := func(slotB uint32) (*Connectivity, TileRef, TileRef) {
		m, err := New(testParams(2 * flatTileSlots))
		require.NoError(t, err)
		refA, err := m.AddTile(buildTile(tileA()), EncodeRef(1, 5, 0))
		require.NoError(t, err)
		refB, err := m.AddTile(buildTile(tileB()), EncodeRef(1, slotB, 0))
		require.NoError(t, err)
		return m.Snapshot().Connectivity(), refA, refB
	}
	flat, flatA, flatB := label(6)
	radix, radixA, radixB := label(flatTileSlots + 3)
	require.True(t, flat.flat)
	require.False(t, radix.flat)
	require.Equal(t, flat.ComponentCount(), radix.ComponentCount())
	require.Equal(t, flat.PolyCount(), radix.PolyCount())
	seen := 0
	for _, tiles := range [][2]TileRef{{flatA, radixA}, {flatB, radixB}} {
		for ip := range Ref(len(tileA().polys)) {
			a, b := flat.Component(tiles[0]|ip), radix.Component(tiles[1]|ip)
			require.Equal(t, a, b, "polygon %d of %#x", ip, tiles[0])
			if a != 0 {
				seen++
			}
		}
	}
	require.NotZero(t, seen)
	for _, c := range []*Connectivity{flat, radix} {
		for _, ref := range []Ref{0, EncodeRef(1, 7, 0), EncodeRef(1, flatTileSlots+4, 0),
			EncodeRef(1, 2*flatTileSlots-1, 0), EncodeRef(2, 5, 0), EncodeRef(1, 5, 1000)} {
			assert.Zero(t, c.Component(ref), "ref %#x", ref)
		}
	}
}
