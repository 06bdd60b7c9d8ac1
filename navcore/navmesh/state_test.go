package navmesh

import (
	"errors"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// churnedMesh returns a mesh whose tiles were added, removed and replaced
// in an order that leaves free slots, bumped salts, links made in a
// history-dependent order, two layers in one column and edited flags.
func churnedMesh(t testing.TB) (*Mesh, []*TileData) {
	t.Helper()
	m, err := New(Params{Origin: mgl32.Vec3{0, 0, 0}, TileWidth: 6, TileHeight: 3, MaxTiles: 16, MaxPolys: 16})
	require.NoError(t, err)
	tiles := testTiles(t, 4)
	upper := *tiles[1]
	upper.Header.Layer = 1
	tiles = append(tiles, &upper)
	refs := make([]TileRef, len(tiles))
	for i, data := range tiles {
		refs[i], err = m.AddTile(data, 0)
		require.NoError(t, err)
	}
	_, err = m.RemoveTile(refs[1])
	require.NoError(t, err)
	_, err = m.RemoveTile(refs[3])
	require.NoError(t, err)
	refs[1], err = m.AddTile(tiles[1], 0) // the slot of tile 3, salt 2
	require.NoError(t, err)
	require.NoError(t, m.SetPolyFlags(refs[0]|1, 0x10))
	require.NoError(t, m.SetPolyArea(refs[2]|0, 9))
	return m, tiles
}

// slotsOf returns the tile in every slot of m's current snapshot.
func slotsOf(m *Mesh) []*Tile { return slotsOfSnapshot(m.Snapshot()) }

// slotsOfSnapshot returns the tile in every slot of snap.
func slotsOfSnapshot(snap *Snapshot) []*Tile {
	out := make([]*Tile, snap.MaxTiles())
	for i := range out {
		out[i] = snap.Tile(i)
	}
	return out
}

// assertSameTiles checks that two tile sets agree in every field a search
// reads, slot by slot, and in the order of the layers of each column.
func assertSameTiles(t *testing.T, want, got *Mesh) {
	t.Helper()
	wantSlots, gotSlots := slotsOf(want), slotsOf(got)
	require.Len(t, gotSlots, len(wantSlots))
	for i := range wantSlots {
		w, g := wantSlots[i], gotSlots[i]
		if w == nil {
			assert.Nil(t, g, "slot %d", i)
			continue
		}
		require.NotNil(t, g, "slot %d", i)
		assert.Equal(t, w.Ref(), g.Ref(), "slot %d ref", i)
		assert.Equal(t, w.Polys, g.Polys, "slot %d polygons", i)
		assert.Equal(t, w.Links, g.Links, "slot %d links", i)
		assert.Equal(t, w.linksFreeList, g.linksFreeList, "slot %d free links", i)
		assert.Equal(t, w.Verts, g.Verts, "slot %d vertices", i)
		assert.Equal(t, w.Data.Verts, g.Data.Verts, "slot %d data vertices", i)
		assert.Equal(t, *w.Header, *g.Header, "slot %d header", i)
		assert.Equal(t, w.OffMeshConnections, g.OffMeshConnections, "slot %d off-mesh connections", i)
		var wantLayers, gotLayers []*Tile
		wantLayers = want.Snapshot().TilesAt(int(w.Header.X), int(w.Header.Y), wantLayers)
		gotLayers = got.Snapshot().TilesAt(int(w.Header.X), int(w.Header.Y), gotLayers)
		require.Len(t, gotLayers, len(wantLayers))
		for k := range wantLayers {
			assert.Equal(t, wantLayers[k].Ref(), gotLayers[k].Ref(), "column of slot %d, layer %d", i, k)
		}
	}
	assert.Equal(t, want.Snapshot().Version(), got.Snapshot().Version())
	assert.Equal(t, want.slots.freed, got.slots.freed)
	assert.Equal(t, want.slots.nextFresh, got.slots.nextFresh)
}

// TestMeshStateRoundTrip: a churned mesh's state, written, read back and
// restored into a new mesh, gives the same tiles, refs, links, lookup
// order, free slots, version and change record; and the two meshes go on
// the same way: the next tile added gets the same slot, salt and links.
func TestMeshStateRoundTrip(t *testing.T) {
	m, tiles := churnedMesh(t)
	var captured MeshState
	m.CaptureState(&captured)
	file, err := captured.AppendBinary(nil)
	require.NoError(t, err)

	var read MeshState
	require.NoError(t, read.UnmarshalBinary(file))
	assert.Equal(t, m.Params(), read.Params())
	assert.Equal(t, captured.Version(), read.Version())
	again, err := read.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, file, again, "a read state writes the same bytes")

	fresh, err := New(m.Params())
	require.NoError(t, err)
	require.NoError(t, fresh.RestoreState(&read))
	assertSameTiles(t, m, fresh)
	for since := uint64(0); since <= m.Snapshot().Version(); since++ {
		want, wantComplete := m.Snapshot().ChangesSince(since, nil)
		got, gotComplete := fresh.Snapshot().ChangesSince(since, nil)
		assert.Equal(t, wantComplete, gotComplete, "since %d", since)
		assert.Equal(t, want, got, "since %d", since)
	}

	// Both go on alike: tile 3 back into the head of the free list.
	want, err := m.AddTile(tiles[3], 0)
	require.NoError(t, err)
	got, err := fresh.AddTile(tiles[3], 0)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assertSameTiles(t, m, fresh)
}

// TestMeshRestoreStateRewinds: restoring a captured state into its own mesh
// brings back the captured tile set and free slots, and the same edits
// afterwards give the same refs and tiles as they gave the first time.
func TestMeshRestoreStateRewinds(t *testing.T) {
	m, tiles := churnedMesh(t)
	var captured MeshState
	m.CaptureState(&captured)
	before := m.Snapshot()

	edit := func() []TileRef {
		ref0 := before.TileAt(0, 0, 0).Ref()
		_, err := m.RemoveTile(ref0)
		require.NoError(t, err)
		a, err := m.AddTile(tiles[3], 0)
		require.NoError(t, err)
		b, err := m.AddTile(tiles[0], 0)
		require.NoError(t, err)
		require.NoError(t, m.SetPolyFlags(b|2, 0x20))
		return []TileRef{a, b}
	}
	first := edit()
	afterFirst := slotsOf(m)
	firstVersion := m.Snapshot().Version()

	require.NoError(t, m.RestoreState(&captured))
	assert.Equal(t, before.Version(), m.Snapshot().Version())
	assert.Equal(t, slotsOfSnapshot(before), slotsOf(m), "the captured tiles are back")
	second := edit()
	assert.Equal(t, first, second, "the same edits give the same refs")
	assert.Equal(t, firstVersion, m.Snapshot().Version())
	again := slotsOf(m)
	for i := range afterFirst {
		if afterFirst[i] == nil {
			assert.Nil(t, again[i])
			continue
		}
		assert.Equal(t, afterFirst[i].Ref(), again[i].Ref(), "slot %d", i)
		assert.Equal(t, afterFirst[i].Links, again[i].Links, "slot %d links", i)
		assert.Equal(t, afterFirst[i].Polys, again[i].Polys, "slot %d polygons", i)
	}
	// Restoring the current state publishes nothing.
	m.CaptureState(&captured)
	current := m.Snapshot()
	require.NoError(t, m.RestoreState(&captured))
	assert.Same(t, current, m.Snapshot())
}

// TestMeshRestoreStateRefusesOtherMeshes: an empty state or one of other
// parameters is refused and changes nothing.
func TestMeshRestoreStateRefusesOtherMeshes(t *testing.T) {
	m, _ := churnedMesh(t)
	current := m.Snapshot()
	var empty MeshState
	require.ErrorIs(t, m.RestoreState(&empty), ErrStateMismatch)
	other, err := New(Params{Origin: mgl32.Vec3{1, 0, 0}, TileWidth: 6, TileHeight: 3, MaxTiles: 16, MaxPolys: 16})
	require.NoError(t, err)
	var state MeshState
	other.CaptureState(&state)
	require.ErrorIs(t, m.RestoreState(&state), ErrStateMismatch)
	assert.Same(t, current, m.Snapshot())
	_, err = empty.AppendBinary(nil)
	require.ErrorIs(t, err, ErrStateMismatch)
}

// TestMeshStateRefusesDamage: every truncation of a state is refused with
// ErrMalformedFile, and a flipped bit anywhere is refused or read into a
// state whose links all resolve, never a panic; a refused read leaves the
// target state as it was.
func TestMeshStateRefusesDamage(t *testing.T) {
	m, _ := churnedMesh(t)
	var captured MeshState
	m.CaptureState(&captured)
	file, err := captured.AppendBinary(nil)
	require.NoError(t, err)
	for n := 0; n < len(file); n++ {
		var s MeshState
		err := s.UnmarshalBinary(file[:n])
		require.Error(t, err, "truncated to %d bytes", n)
		require.True(t, errors.Is(err, ErrMalformedFile), "truncated to %d: %v", n, err)
		assert.Nil(t, s.Snapshot())
	}
	accepted := 0
	damaged := make([]byte, len(file))
	for i := range file {
		for _, bit := range []byte{0x01, 0x80} {
			copy(damaged, file)
			damaged[i] ^= bit
			var s MeshState
			if s.UnmarshalBinary(damaged) != nil {
				continue
			}
			accepted++
			fresh, err := New(s.Params())
			require.NoError(t, err)
			require.NoError(t, fresh.RestoreState(&s))
			snap := fresh.Snapshot()
			for tile := snap.NextTile(0); tile != nil; tile = snap.NextTile(tile.Index() + 1) {
				for p := range tile.Polys {
					for l := tile.Polys[p].FirstLink; l != NullLink; l = tile.Links[l].Next {
						_, _, err := snap.TileAndPoly(tile.Links[l].Ref)
						require.NoError(t, err, "byte %d bit %#x", i, bit)
					}
				}
			}
		}
	}
	t.Logf("%d of %d single-bit changes read as valid states (vertices, flags, costs)", accepted, 2*len(file))
}

// FuzzMeshState feeds arbitrary bytes to MeshState.UnmarshalBinary: it must
// not panic, and a state it accepts must write itself back to the same
// bytes.
func FuzzMeshState(f *testing.F) {
	m, _ := churnedMesh(f)
	var captured MeshState
	m.CaptureState(&captured)
	file, err := captured.AppendBinary(nil)
	require.NoError(f, err)
	f.Add(file)
	f.Fuzz(func(t *testing.T, data []byte) {
		var s MeshState
		if s.UnmarshalBinary(data) != nil {
			return
		}
		again, err := s.AppendBinary(nil)
		require.NoError(t, err)
		var back MeshState
		require.NoError(t, back.UnmarshalBinary(again))
	})
}
