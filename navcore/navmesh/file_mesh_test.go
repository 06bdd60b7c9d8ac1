package navmesh

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testMesh returns a mesh of three tiles in a row, added at chosen slots and
// salts, with some polygon flags and areas changed after adding.
func testMesh(t testing.TB) *Mesh {
	t.Helper()
	m, err := New(Params{Origin: mgl32.Vec3{0, 0, 0}, TileWidth: 6, TileHeight: 3, MaxTiles: 8, MaxPolys: 16})
	require.NoError(t, err)
	refs := []TileRef{EncodeRef(3, 5, 0), EncodeRef(1, 0, 0), EncodeRef(7, 2, 0)}
	for i, data := range testTiles(t, 3) {
		ref, err := m.AddTile(data, refs[i])
		require.NoError(t, err)
		require.Equal(t, refs[i], ref)
	}
	require.NoError(t, m.SetPolyFlags(refs[0]|1, 0x10))
	require.NoError(t, m.SetPolyArea(refs[2]|0, 9))
	return m
}

// tileState is what a loaded mesh must reproduce of each tile.
type tileState struct {
	ref   TileRef
	polys []Poly
	links []Link
	data  *TileData
}

func meshState(m *Mesh) []tileState {
	var states []tileState
	forEachTile(m.Snapshot(), func(tile *Tile) {
		states = append(states, tileState{ref: tile.Ref(), polys: tile.Polys, links: tile.Links, data: tile.Data})
	})
	return states
}

// assertSameMesh checks refs, polygons (with flags, areas and link heads),
// links and tile contents; the data may be a copy carrying runtime flags.
func assertSameMesh(t *testing.T, want, got *Mesh) {
	t.Helper()
	assert.Equal(t, want.Params(), got.Params())
	wantTiles, gotTiles := meshState(want), meshState(got)
	require.Len(t, gotTiles, len(wantTiles))
	for i := range wantTiles {
		assert.Equal(t, wantTiles[i].ref, gotTiles[i].ref, "tile %d ref", i)
		assert.Equal(t, wantTiles[i].polys, gotTiles[i].polys, "tile %d polygons", i)
		assert.Equal(t, wantTiles[i].links, gotTiles[i].links, "tile %d links", i)
		assert.Equal(t, wantTiles[i].data.Verts, gotTiles[i].data.Verts, "tile %d vertices", i)
		assert.Equal(t, wantTiles[i].data.Header, gotTiles[i].data.Header, "tile %d header", i)
		assert.Equal(t, wantTiles[i].data.DetailTris, gotTiles[i].data.DetailTris, "tile %d detail", i)
		assert.Equal(t, wantTiles[i].data.OffMeshConnections, gotTiles[i].data.OffMeshConnections, "tile %d off-mesh", i)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	m := testMesh(t)
	var file bytes.Buffer
	require.NoError(t, Save(&file, m))

	loaded, err := Load(bytes.NewReader(file.Bytes()))
	require.NoError(t, err)
	assertSameMesh(t, m, loaded)

	flags, err := loaded.PolyFlags(EncodeRef(3, 5, 1))
	require.NoError(t, err)
	assert.Equal(t, uint16(0x10), flags)
	area, err := loaded.PolyArea(EncodeRef(7, 2, 0))
	require.NoError(t, err)
	assert.Equal(t, uint8(9), area)
	assert.True(t, loaded.IsValid(EncodeRef(1, 0, 1)), "refs saved before stay valid")

	// The loaded tiles carry the runtime flags in their data, so a second
	// save differs from the first but loads to the same mesh, and from then
	// on the file is stable.
	var second bytes.Buffer
	require.NoError(t, Save(&second, loaded))
	reloaded, err := Load(bytes.NewReader(second.Bytes()))
	require.NoError(t, err)
	assertSameMesh(t, m, reloaded)
	var third bytes.Buffer
	require.NoError(t, Save(&third, reloaded))
	assert.True(t, bytes.Equal(second.Bytes(), third.Bytes()), "save after load is stable")
}

func TestLoadFileDungeonTile(t *testing.T) {
	m, format, err := LoadFile(dungeonTilePath)
	require.NoError(t, err)
	assert.Equal(t, FormatDNAV, format)

	data := readDungeonTile(t)
	params := m.Params()
	assert.Equal(t, data.Header.BMin, params.Origin)
	assert.Equal(t, data.Header.BMax[0]-data.Header.BMin[0], params.TileWidth)
	assert.Equal(t, data.Header.BMax[2]-data.Header.BMin[2], params.TileHeight)
	assert.Equal(t, 1, params.MaxTiles)
	assert.Equal(t, 118, params.MaxPolys)
	require.Equal(t, 1, m.TileCount())
	tile := m.TileAt(0, 0, 0)
	require.NotNil(t, tile)
	assert.Len(t, tile.Polys, 118)
	assert.True(t, tile.usesDataPolys(), "a loaded tile links its data's polygons in place")
	assertSameContent(t, data, tile.Data)
}

func TestLoadFileEveryFormat(t *testing.T) {
	m := testMesh(t)
	dir := t.TempDir()

	var own bytes.Buffer
	require.NoError(t, Save(&own, m))
	var mset bytes.Buffer
	require.NoError(t, WriteMSET(&mset, TileSetFromMesh(m)))
	dnav, err := MarshalDNAV(m.TileAt(1, 0, 0).Data)
	require.NoError(t, err)

	tests := []struct {
		name   string
		file   []byte
		format Format
		tiles  int
	}{
		{"mesh.anav", own.Bytes(), FormatArchenav, 3},
		{"all_tiles_navmesh.bin", mset.Bytes(), FormatMSET, 3},
		{"tile.bin", dnav, FormatDNAV, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			require.NoError(t, os.WriteFile(path, tt.file, 0o644))
			loaded, format, err := LoadFile(path)
			require.NoError(t, err)
			assert.Equal(t, tt.format, format)
			assert.Equal(t, tt.tiles, loaded.TileCount())
			if tt.format != FormatDNAV {
				assertSameMesh(t, m, loaded)
			}
		})
	}
}

func TestTileSetFromMeshCarriesRuntimeFlags(t *testing.T) {
	m := testMesh(t)
	original := m.TileByRef(EncodeRef(3, 5, 0)).Data
	originalFlags := original.Polys[1].Flags

	set := TileSetFromMesh(m)
	require.Len(t, set.Tiles, 3)
	assert.Equal(t, []TileRef{EncodeRef(1, 0, 0), EncodeRef(7, 2, 0), EncodeRef(3, 5, 0)},
		[]TileRef{set.Tiles[0].Ref, set.Tiles[1].Ref, set.Tiles[2].Ref}, "slot order")
	assert.Equal(t, uint16(0x10), set.Tiles[2].Data.Polys[1].Flags)
	assert.Equal(t, uint8(9), set.Tiles[1].Data.Polys[0].Area())
	assert.Same(t, m.TileByRef(EncodeRef(1, 0, 0)).Data, set.Tiles[0].Data, "unchanged tiles share their data")
	assert.Equal(t, originalFlags, original.Polys[1].Flags, "the mesh's data is not modified")
}

func TestLoadRejectsBadFilesAndBuildsNothing(t *testing.T) {
	m := testMesh(t)
	var own bytes.Buffer
	require.NoError(t, Save(&own, m))

	// Two tiles at the same grid location in different slots: the file
	// decodes, but the mesh refuses the second tile.
	tiles := testTiles(t, 1)
	clash := &TileSet{Params: m.Params(), Tiles: []TileSetTile{{EncodeRef(1, 0, 0), tiles[0]}, {EncodeRef(1, 1, 0), tiles[0]}}}
	var mset bytes.Buffer
	require.NoError(t, WriteMSET(&mset, clash))

	tests := []struct {
		name    string
		file    []byte
		wantErr error
	}{
		{"empty", nil, ErrUnknownFormat},
		{"text", []byte("v 1 2 3\nf 1 2 3\n"), ErrUnknownFormat},
		{"truncated own file", own.Bytes()[:own.Len()-10], ErrMalformedFile},
		{"tile location taken", mset.Bytes(), ErrTileExists},
		{"truncated DNAV", readDungeonBlob(t)[:5000], ErrMalformedFile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loaded, _, err := LoadBytes(tt.file)
			require.ErrorIs(t, err, tt.wantErr)
			assert.Nil(t, loaded)
		})
	}
	_, err := Load(bytes.NewReader(mset.Bytes()))
	require.ErrorIs(t, err, ErrUnknownFormat, "Load reads only the archenav format")
	_, _, err = LoadFile(filepath.Join(t.TempDir(), "missing.bin"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

func TestSaveWhileTheMeshChanges(t *testing.T) {
	m := testMesh(t)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			_ = m.SetPolyFlags(EncodeRef(1, 0, uint32(i%2)), uint16(i))
		}
	}()
	for i := 0; i < 20; i++ {
		var file bytes.Buffer
		require.NoError(t, Save(&file, m))
		loaded, err := Load(&file)
		require.NoError(t, err)
		assert.Equal(t, 3, loaded.TileCount())
	}
	wg.Wait()
}

func TestLoadedMeshRecordsEverythingChanged(t *testing.T) {
	var file bytes.Buffer
	require.NoError(t, Save(&file, testMesh(t)))
	m, err := Load(bytes.NewReader(file.Bytes()))
	require.NoError(t, err)
	loaded := m.Snapshot()
	require.Equal(t, uint64(1), loaded.Version())

	changes, complete := loaded.ChangesSince(0, nil)
	assert.False(t, complete, "the load is recorded as everything changed")
	assert.Empty(t, changes)
	assert.Zero(t, loaded.history.changes, "no per-tile record kept for the load")

	tile := m.Tile(2)
	require.NotNil(t, tile)
	require.NoError(t, m.SetPolyFlags(tile.PolyRefBase()|0, 0x4))
	changes, complete = m.Snapshot().ChangesSince(loaded.Version(), nil)
	assert.True(t, complete)
	assert.Equal(t, []TileChange{{Slot: 2, X: tile.Data.Header.X, Y: tile.Data.Header.Y, Layer: tile.Data.Header.Layer}}, changes)
}
