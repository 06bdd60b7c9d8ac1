package navmesh

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testSet returns two meshes: testMesh as "soldier" and a one-tile mesh
// with other parameters as "ogre".
func testSet(t testing.TB) MeshSet {
	t.Helper()
	ogre, err := New(Params{Origin: mgl32.Vec3{-1, 0, 2}, TileWidth: 6, TileHeight: 3, MaxTiles: 2, MaxPolys: 4})
	require.NoError(t, err)
	_, err = ogre.AddTile(testTiles(t, 2)[1], EncodeRef(2, 1, 0))
	require.NoError(t, err)
	return MeshSet{{Name: "soldier", Mesh: testMesh(t)}, {Name: "ogre", Mesh: ogre}}
}

// setFileByHand lays out a version 2 file field by field from the
// meshes' version 1 files (whose mesh section is everything between the
// 16-byte prefix and the checksum), independently of encodeOwnSet.
func setFileByHand(t testing.TB, names []string, meshes []*Mesh) []byte {
	t.Helper()
	le := binary.LittleEndian
	file := []byte("ANAVMESH")
	file = le.AppendUint32(file, 2)
	file = le.AppendUint32(file, 0)
	file = le.AppendUint32(file, uint32(len(meshes)))
	for i, m := range meshes {
		var single bytes.Buffer
		require.NoError(t, Save(&single, m))
		section := single.Bytes()[16 : single.Len()-4]
		file = le.AppendUint32(file, uint32(len(names[i])))
		file = append(file, names[i]...)
		file = le.AppendUint64(file, uint64(len(section)))
		file = append(file, section...)
	}
	return le.AppendUint32(file, crc32.ChecksumIEEE(file))
}

func TestSaveSetLayoutAndRoundTrip(t *testing.T) {
	set := testSet(t)
	var file bytes.Buffer
	require.NoError(t, SaveSet(&file, set))
	want := setFileByHand(t, []string{"soldier", "ogre"}, []*Mesh{set[0].Mesh, set[1].Mesh})
	require.Equal(t, want, file.Bytes(), "version 2 layout")
	assert.Equal(t, FormatArchenav, DetectFormat(file.Bytes()))

	loaded, err := LoadSet(bytes.NewReader(file.Bytes()))
	require.NoError(t, err)
	require.Equal(t, []string{"soldier", "ogre"}, loaded.Names())
	for i := range set {
		assertSameMesh(t, set[i].Mesh, loaded[i].Mesh)
	}
	assert.Same(t, loaded[1].Mesh, loaded.Find("ogre"))
	assert.Nil(t, loaded.Find("cart"))

	path := filepath.Join(t.TempDir(), "types.anav")
	require.NoError(t, os.WriteFile(path, file.Bytes(), 0o644))
	fromFile, format, err := LoadSetFile(path)
	require.NoError(t, err)
	assert.Equal(t, FormatArchenav, format)
	assert.Equal(t, []string{"soldier", "ogre"}, fromFile.Names())
	assert.Equal(t, 3, fromFile.Find("soldier").TileCount())
}

func TestSaveSetOfOneUnnamedMeshIsTheSingleMeshFile(t *testing.T) {
	m := testMesh(t)
	var single, set bytes.Buffer
	require.NoError(t, Save(&single, m))
	require.NoError(t, SaveSet(&set, MeshSet{{Mesh: m}}))
	assert.Equal(t, single.Bytes(), set.Bytes())
	assert.Equal(t, uint32(1), binary.LittleEndian.Uint32(set.Bytes()[8:]), "version 1")

	loaded, err := LoadSet(&set)
	require.NoError(t, err)
	require.Len(t, loaded, 1)
	assert.Equal(t, "", loaded[0].Name)
	assertSameMesh(t, m, loaded[0].Mesh)
}

func TestSingleMeshLoadersReadASetOfOneAndRefuseSeveral(t *testing.T) {
	set := testSet(t)
	var one bytes.Buffer
	require.NoError(t, SaveSet(&one, set[:1]))
	assert.Equal(t, uint32(2), binary.LittleEndian.Uint32(one.Bytes()[8:]), "a named mesh needs version 2")
	m, err := Load(bytes.NewReader(one.Bytes()))
	require.NoError(t, err)
	assertSameMesh(t, set[0].Mesh, m)
	m, format, err := LoadBytes(one.Bytes())
	require.NoError(t, err)
	assert.Equal(t, FormatArchenav, format)
	assertSameMesh(t, set[0].Mesh, m)

	var two bytes.Buffer
	require.NoError(t, SaveSet(&two, set))
	m, err = Load(bytes.NewReader(two.Bytes()))
	require.ErrorIs(t, err, ErrSeveralMeshes)
	assert.Contains(t, err.Error(), `2 meshes ("soldier", "ogre")`)
	assert.Nil(t, m)
	path := filepath.Join(t.TempDir(), "types.anav")
	require.NoError(t, os.WriteFile(path, two.Bytes(), 0o644))
	m, _, err = LoadFile(path)
	require.ErrorIs(t, err, ErrSeveralMeshes)
	assert.Contains(t, err.Error(), "LoadSet")
	assert.Nil(t, m)
}

func TestLoadSetReadsTheOtherFormatsAsOneUnnamedMesh(t *testing.T) {
	m := testMesh(t)
	var mset bytes.Buffer
	require.NoError(t, WriteMSET(&mset, TileSetFromMesh(m)))
	dnav, err := MarshalDNAV(m.TileAt(1, 0, 0).Data)
	require.NoError(t, err)
	for _, tt := range []struct {
		file   []byte
		format Format
		tiles  int
	}{{mset.Bytes(), FormatMSET, 3}, {dnav, FormatDNAV, 1}} {
		set, format, err := LoadSetBytes(tt.file)
		require.NoError(t, err)
		assert.Equal(t, tt.format, format)
		require.Len(t, set, 1)
		assert.Equal(t, "", set[0].Name)
		assert.Equal(t, tt.tiles, set[0].Mesh.TileCount())
	}
	_, err = LoadSet(bytes.NewReader(mset.Bytes()))
	require.ErrorIs(t, err, ErrUnknownFormat, "LoadSet reads only the archenav format")
	set, _, err := LoadSetBytes([]byte("v 1 2 3\n"))
	require.ErrorIs(t, err, ErrUnknownFormat)
	assert.Nil(t, set)
}

func TestMeshSetValidate(t *testing.T) {
	m := testMesh(t)
	many := make(MeshSet, MaxMeshSetSize+1)
	for i := range many {
		many[i] = NamedMesh{Name: fmt.Sprintf("type %d", i), Mesh: m}
	}
	tests := []struct {
		name string
		set  MeshSet
		want string
	}{
		{"no meshes", nil, "0 meshes"},
		{"too many", many, "257 meshes"},
		{"nil mesh", MeshSet{{Name: "a", Mesh: m}, {Name: "b"}}, `mesh 1 ("b") is nil`},
		{"empty name among several", MeshSet{{Name: "a", Mesh: m}, {Mesh: m}}, "mesh 1: empty name"},
		{"duplicate", MeshSet{{Name: "a", Mesh: m}, {Name: "a", Mesh: m}}, `mesh 1: name "a" already used by mesh 0`},
		{"too long", MeshSet{{Name: strings.Repeat("n", MaxMeshNameLength+1), Mesh: m}}, "256 bytes, longer than 255"},
		{"not UTF-8", MeshSet{{Name: "ogre\xff", Mesh: m}}, "not UTF-8"},
		{"control character", MeshSet{{Name: "og\nre", Mesh: m}}, "control characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.set.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			var out bytes.Buffer
			require.Error(t, SaveSet(&out, tt.set))
			assert.Zero(t, out.Len(), "nothing written")
		})
	}
	for _, good := range []MeshSet{
		{{Mesh: m}},
		{{Name: "soldier", Mesh: m}},
		{{Name: "petit soldat, 0.6 m", Mesh: m}, {Name: strings.Repeat("é", MaxMeshNameLength/2), Mesh: m}},
	} {
		assert.NoError(t, good.Validate(), "%q", good.Names())
	}
}

func TestSetFileEveryTruncationAndByteFlipFails(t *testing.T) {
	var file bytes.Buffer
	require.NoError(t, SaveSet(&file, testSet(t)))
	good := file.Bytes()
	for n := 0; n < len(good); n++ {
		_, err := decodeOwnSet(good[:n])
		require.ErrorIs(t, err, ErrMalformedFile, "prefix of %d bytes", n)
	}
	for i := len(ownMagic) + 4; i < len(good); i++ {
		corrupt := append([]byte{}, good...)
		corrupt[i] ^= 0x20
		_, err := decodeOwnSet(corrupt)
		require.ErrorIs(t, err, ErrMalformedFile, "byte %d flipped", i)
		assert.Contains(t, err.Error(), "checksum", "byte %d flipped", i)
	}
}

func TestSetFileRejectsHostileInput(t *testing.T) {
	le := binary.LittleEndian
	set := testSet(t)
	var file bytes.Buffer
	require.NoError(t, SaveSet(&file, set))
	good := file.Bytes()
	// Offsets of the fields of the two entries.
	const firstName = ownPrefixSize + 4
	firstSize := firstName + 4 + len("soldier")
	firstSection := firstSize + 8
	secondName := firstSection + int(le.Uint64(good[firstSize:]))
	secondSection := secondName + 4 + len("ogre") + 8

	tests := []struct {
		name    string
		mutate  func([]byte) []byte
		wantMsg string
	}{
		{"no meshes", func(b []byte) []byte { le.PutUint32(b[ownPrefixSize:], 0); return b }, "0 meshes"},
		{"too many meshes", func(b []byte) []byte { le.PutUint32(b[ownPrefixSize:], MaxMeshSetSize+1); return b }, "257 meshes"},
		{"more meshes than room", func(b []byte) []byte { le.PutUint32(b[ownPrefixSize:], 200); return b }, "200 meshes: want 1..256 and the file has room for"},
		{"a mesh count past the meshes", func(b []byte) []byte { le.PutUint32(b[ownPrefixSize:], 3); return b }, "mesh 2 at offset"},
		{"empty name", func(b []byte) []byte { le.PutUint32(b[firstName:], 0); return b }, "name size 0"},
		{"name past the end", func(b []byte) []byte { le.PutUint32(b[firstName:], 0xffffffff); return b }, "name size 4294967295"},
		{"name control character", func(b []byte) []byte { b[firstName+4] = '\t'; return b }, "control characters"},
		{"name not UTF-8", func(b []byte) []byte { b[firstName+4] = 0xc3; return b }, "not UTF-8"},
		{"section past the end", func(b []byte) []byte { le.PutUint64(b[firstSize:], 1<<62); return b }, "section size 4611686018427387904"},
		{"section short", func(b []byte) []byte { le.PutUint64(b[firstSize:], le.Uint64(b[firstSize:])-3); return b }, `mesh "soldier": tile 2 at offset`},
		{"section header short", func(b []byte) []byte { le.PutUint64(b[firstSize:], 20); return b }, `mesh "soldier": header: truncated`},
		{"bad params of the second mesh", func(b []byte) []byte { le.PutUint32(b[secondSection+20:], 0); return b }, `mesh "ogre": header: MaxTiles 0`},
		{"tile count of the second mesh", func(b []byte) []byte { le.PutUint32(b[secondSection+28:], 2); return b }, `mesh "ogre": tile 1 at offset`},
		{"trailing bytes", func(b []byte) []byte {
			tail := append([]byte{}, b[len(b)-4:]...)
			return append(append(b[:len(b)-4], 0, 0), tail...)
		}, "2 bytes after the last mesh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			corrupt := resealOwn(tt.mutate(append([]byte{}, good...)))
			saved, err := decodeOwnSet(corrupt)
			require.ErrorIs(t, err, ErrMalformedFile)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Nil(t, saved)
			loaded, err := LoadSet(bytes.NewReader(corrupt))
			require.Error(t, err)
			assert.Nil(t, loaded)
		})
	}

	duplicate := setFileByHand(t, []string{"soldier", "soldier"}, []*Mesh{set[0].Mesh, set[1].Mesh})
	saved, err := decodeOwnSet(duplicate)
	require.ErrorIs(t, err, ErrMalformedFile)
	assert.Contains(t, err.Error(), `mesh 1 at offset 0x`)
	assert.Contains(t, err.Error(), `name "soldier" already used by mesh 0`)
	assert.Nil(t, saved)
}

func TestLoadSetBuildsNothingWhenOneMeshFails(t *testing.T) {
	// The second mesh decodes but its two tiles clash at one grid location.
	tiles := testTiles(t, 1)
	clash := &savedMesh{params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8}}
	for slot := range uint32(2) {
		flags, areas := make([]uint16, len(tiles[0].Polys)), make([]uint8, len(tiles[0].Polys))
		clash.tiles = append(clash.tiles, savedTile{ref: EncodeRef(1, slot, 0), data: tiles[0], flags: flags, areas: areas})
	}
	file, err := encodeOwnSet(&savedSet{names: []string{"soldier", "ogre"}, meshes: []*savedMesh{savedFromMesh(testMesh(t)), clash}})
	require.NoError(t, err)
	set, err := LoadSet(bytes.NewReader(file))
	require.ErrorIs(t, err, ErrTileExists)
	assert.Contains(t, err.Error(), `mesh "ogre"`)
	assert.Nil(t, set)
}

// TestLoadSetMemoryIsBoundedByTheFile loads the largest set of the
// smallest meshes, each claiming the most tile slots a mesh may have: the
// load allocates within the bound of a single mesh's load
// (maxLoadAllocPerByte) plus the fixed structures of an empty mesh (about
// 0.9 KiB, counted here as 2 KiB) per mesh, at most MaxMeshSetSize of them,
// not in proportion to the meshes' MaxTiles.
func TestLoadSetMemoryIsBoundedByTheFile(t *testing.T) {
	set := &savedSet{}
	params := Params{TileWidth: 1, TileHeight: 1, MaxTiles: MaxTileSlots, MaxPolys: MaxPolysPerTile}
	for i := range MaxMeshSetSize {
		set.names = append(set.names, fmt.Sprintf("mesh %d", i))
		set.meshes = append(set.meshes, &savedMesh{params: params})
	}
	file, err := encodeOwnSet(set)
	require.NoError(t, err)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	loaded, err := LoadSet(bytes.NewReader(file))
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	require.Len(t, loaded, MaxMeshSetSize)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d-byte file of %d empty meshes allocated %d bytes", len(file), MaxMeshSetSize, allocated)
	assert.Less(t, allocated, uint64(maxLoadAllocPerByte*len(file)+MaxMeshSetSize*2048))
}
