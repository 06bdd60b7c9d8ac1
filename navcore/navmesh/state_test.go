package navmesh

import (
	"encoding/binary"
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
		assert.Equal(t, w.Verts, g.Verts, "slot %d vertices", i)
		assert.Equal(t, w.Data.Verts, g.Data.Verts, "slot %d data vertices", i)
		assert.Equal(t, w.Data.Header, g.Data.Header, "slot %d header", i)
		assert.Equal(t, w.Data.OffMeshConnections, g.Data.OffMeshConnections, "slot %d off-mesh connections", i)
		var wantLayers, gotLayers []*Tile
		wantLayers = want.Snapshot().TilesAt(int(w.Data.Header.X), int(w.Data.Header.Y), wantLayers)
		gotLayers = got.Snapshot().TilesAt(int(w.Data.Header.X), int(w.Data.Header.Y), gotLayers)
		require.Len(t, gotLayers, len(wantLayers))
		for k := range wantLayers {
			assert.Equal(t, wantLayers[k].Ref(), gotLayers[k].Ref(), "column of slot %d, layer %d", i, k)
		}
	}
	assert.Equal(t, want.Snapshot().Version(), got.Snapshot().Version())
	assert.Equal(t, append([]freedSlot{}, want.slots.freed...), append([]freedSlot{}, got.slots.freed...))
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

// linkedMesh returns islandsMesh with runtime links added, removed (so
// that a link slot is free with a bumped salt), added again, and a tile
// they land on removed and added back (so that they landed again and the
// tiles have links into them beyond their baked ones).
func linkedMesh(t *testing.T) (*Mesh, []LinkDesc) {
	t.Helper()
	m, _, b, _ := islandsMesh(t)
	descs := []LinkDesc{
		farLink(),
		{Start: mgl32.Vec3{3, 0, 3}, End: mgl32.Vec3{52, 2, 3}, Radius: 1, Width: 1.5, Flags: 1, Cost: 0.5, UserID: 1},
		{Start: mgl32.Vec3{15, 0, 5}, End: mgl32.Vec3{58, 2, 8}, Radius: 1, Bidirectional: true, Flags: 3, Area: 2},
	}
	ids := make([]LinkID, len(descs))
	for i, d := range descs {
		var err error
		ids[i], err = m.AddLink(d)
		require.NoError(t, err)
	}
	require.NoError(t, m.RemoveLink(ids[0]))
	_, err := m.AddLink(descs[2])
	require.NoError(t, err)
	data := m.Snapshot().TileByRef(b).Data
	_, err = m.RemoveTile(b)
	require.NoError(t, err)
	_, err = m.AddTile(data, 0)
	require.NoError(t, err)
	require.NoError(t, m.SetPolyFlags(ids[1].Ref()|1, 0x4))
	return m, descs
}

// TestMeshStateRoundTripWithLinks: a mesh with runtime links, written,
// read back and restored into a new mesh (and restored into itself after
// more edits), has the same tiles, link tiles, refs and free link slots,
// and goes on the same way: the next links get the same ids, a tile
// removed and added lands the links again alike.
func TestMeshStateRoundTripWithLinks(t *testing.T) {
	m, descs := linkedMesh(t)
	require.Equal(t, 3, m.Snapshot().LinkCount())
	var captured MeshState
	m.CaptureState(&captured)
	file, err := captured.AppendBinary(nil)
	require.NoError(t, err)
	var read MeshState
	require.NoError(t, read.UnmarshalBinary(file))
	again, err := read.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, file, again, "a read state writes the same bytes")

	fresh, err := New(m.Params())
	require.NoError(t, err)
	require.NoError(t, fresh.RestoreState(&read))
	assertSameTiles(t, m, fresh)
	assertSameRegistry(t, &m.links, &fresh.links)
	assert.Equal(t, m.Snapshot().LinkCount(), fresh.Snapshot().LinkCount())

	goOn := func(m *Mesh) []LinkID {
		var ids []LinkID
		for _, d := range descs {
			id, err := m.AddLink(d)
			require.NoError(t, err)
			ids = append(ids, id)
		}
		require.NoError(t, m.RemoveLink(ids[1]))
		ref := m.Snapshot().TileAt(0, 0, 0).Ref()
		data := m.Snapshot().TileByRef(ref).Data
		_, err := m.RemoveTile(ref)
		require.NoError(t, err)
		_, err = m.AddTile(data, 0)
		require.NoError(t, err)
		return ids
	}
	want := goOn(m)
	assert.Equal(t, want, goOn(fresh))
	assertSameTiles(t, m, fresh)

	// Rewind m to the captured state and go on again: the same ids.
	require.NoError(t, m.RestoreState(&captured))
	assert.Equal(t, want, goOn(m))
	assertSameTiles(t, m, fresh)
	assertSameRegistry(t, &m.links, &fresh.links)
	var a, b MeshState
	m.CaptureState(&a)
	fresh.CaptureState(&b)
	fileA, err := a.AppendBinary(nil)
	require.NoError(t, err)
	fileB, err := b.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, fileA, fileB)
}

// TestMeshStateWithLinksRefusesDamage: every truncation of a state with
// runtime links is refused, never a panic.
func TestMeshStateWithLinksRefusesDamage(t *testing.T) {
	m, _ := linkedMesh(t)
	var captured MeshState
	m.CaptureState(&captured)
	file, err := captured.AppendBinary(nil)
	require.NoError(t, err)
	for n := 0; n < len(file); n++ {
		var s MeshState
		require.ErrorIs(t, s.UnmarshalBinary(file[:n]), ErrMalformedFile, "cut at %d of %d", n, len(file))
	}
	for i := 0; i < len(file); i++ {
		damaged := append([]byte(nil), file...)
		damaged[i] ^= 0x10
		var s MeshState
		if s.UnmarshalBinary(damaged) == nil {
			_, err := s.AppendBinary(nil)
			require.NoError(t, err, "flip at %d", i)
		}
	}
}

// assertSameRegistry checks that two link registries hand out the same
// link slots and land the same links again in the same order.
func assertSameRegistry(t *testing.T, want, got *linkRegistry) {
	t.Helper()
	assert.Equal(t, want.slots.nextFresh, got.slots.nextFresh)
	assert.Equal(t, append([]freedSlot{}, want.slots.freed...), append([]freedSlot{}, got.slots.freed...))
	assert.Equal(t, len(want.slots.takenFresh), len(got.slots.takenFresh))
	assert.Equal(t, want.columns, got.columns)
}

// TestSnapshotStampsAreNeverReused follows the stamps of every snapshot a
// mesh publishes, through a restore that makes versions repeat: the
// versions come back, the stamps never do.
func TestSnapshotStampsAreNeverReused(t *testing.T) {
	m, tiles := churnedMesh(t)
	other, _ := churnedMesh(t)
	seen := map[uint64]uint64{} // stamp → version
	note := func(s *Snapshot) {
		t.Helper()
		require.NotZero(t, s.Stamp())
		_, dup := seen[s.Stamp()]
		require.False(t, dup, "stamp %d of version %d seen before", s.Stamp(), s.Version())
		seen[s.Stamp()] = s.Version()
	}
	note(other.Snapshot())
	note(m.Snapshot())
	var captured MeshState
	m.CaptureState(&captured)
	edit := func() {
		ref0 := m.Snapshot().TileAt(0, 0, 0).Ref()
		_, err := m.RemoveTile(ref0)
		require.NoError(t, err)
		note(m.Snapshot())
		_, err = m.AddTile(tiles[0], 0)
		require.NoError(t, err)
		note(m.Snapshot())
	}
	edit()
	afterEdit := m.Snapshot().Version()
	require.NoError(t, m.RestoreState(&captured))
	note(m.Snapshot())
	edit()
	assert.Equal(t, afterEdit, m.Snapshot().Version(), "the versions repeat after the restore")
	data, err := captured.AppendBinary(nil)
	require.NoError(t, err)
	var read MeshState
	require.NoError(t, read.UnmarshalBinary(data))
	note(read.Snapshot())
	require.NoError(t, m.RestoreState(&read))
	note(m.Snapshot())
	assert.Len(t, seen, 9)
}

// TestMeshStateDraftLayout reads a state whose tile holds a draft's link
// layout (room for Header.MaxLinkCount links, the free ones chained in a
// free list), as versions before compact links wrote: the restored tile
// gets the compact links of a published version, each polygon's list in
// its order, and a free list that loops or runs into a used link fails.
func TestMeshStateDraftLayout(t *testing.T) {
	m, err := New(Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 16})
	require.NoError(t, err)
	ref, err := m.AddTile(testTiles(t, 1)[0], 0)
	require.NoError(t, err)
	snap := m.Snapshot()
	tile := snap.Tile(int(ref.TileIndex()))
	require.Less(t, len(tile.Links), int(tile.Data.Header.MaxLinkCount), "the tile has free room")

	// A snapshot whose tile is in a draft's layout, written with its free
	// list (the last 4 bytes of a state without runtime links).
	e := newEdit(snap)
	d := e.draftOf(tile.index)
	d.expandLinks()
	expanded := e.publishWithoutCompacting(t)
	require.Len(t, expanded.Tile(int(ref.TileIndex())).Links, int(tile.Data.Header.MaxLinkCount))
	var captured MeshState
	m.CaptureState(&captured)
	captured.snapshot = expanded
	file, err := captured.AppendBinary(nil)
	require.NoError(t, err)
	require.Equal(t, NullLink, binary.LittleEndian.Uint32(file[len(file)-4:]))
	binary.LittleEndian.PutUint32(file[len(file)-4:], d.linksFreeList)

	var read MeshState
	require.NoError(t, read.UnmarshalBinary(file))
	got := read.Snapshot().Tile(int(ref.TileIndex()))
	assert.Equal(t, tile.Links, got.Links)
	assert.Equal(t, tile.Polys, got.Polys)

	// A free list that runs into a link in use.
	binary.LittleEndian.PutUint32(file[len(file)-4:], tile.Polys[0].FirstLink)
	assert.ErrorIs(t, read.UnmarshalBinary(file), ErrMalformedFile)
}

// publishWithoutCompacting publishes the edit with its drafts' links as
// they are (a draft's layout), for tests of states older versions wrote.
func (e *edit) publishWithoutCompacting(t *testing.T) *Snapshot {
	t.Helper()
	for _, d := range e.drafts {
		d.ownLinks = false
	}
	return e.publish()
}
