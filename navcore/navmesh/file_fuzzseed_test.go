package navmesh

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"
)

// TestWriteFuzzSeeds regenerates the committed fuzz seed corpora under
// testdata/fuzz. It runs only with NAVMESH_WRITE_FUZZ_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("NAVMESH_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set NAVMESH_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz")
	}
	// Small inputs keep the fuzzer fast (minimising a mutant of a 19 KB
	// tile takes a minute); the dungeon tile is covered by unit tests.
	tiles := testTiles(t, 3)
	small := make([][]byte, len(tiles))
	for i, data := range tiles {
		blob, err := MarshalDNAV(data)
		require.NoError(t, err)
		small[i] = blob
	}
	detail := detailTestTile(t)
	detailBlob, err := MarshalDNAV(detail)
	require.NoError(t, err)
	writeSeeds(t, "FuzzReadDNAV", map[string][]byte{
		"detail_mesh":         detailBlob,
		"offmesh":             small[0],
		"no_bvtree":           small[1],
		"big_endian":          swapDNAVEndian(t, small[0], tiles[0]),
		"header_only":         detailBlob[:dnavHeaderSize],
		"wrong_version":       append([]byte("VAND\x06\x00\x00\x00"), small[0][8:]...),
		"links_64bit_offmesh": widenLinks(small[0], tiles[0]),
	})

	var mset bytes.Buffer
	set := &TileSet{Params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 4, MaxPolys: 8}}
	for i, data := range tiles {
		set.Tiles = append(set.Tiles, TileSetTile{Ref: EncodeRef(uint32(i+1), uint32(3-i), 0), Data: data})
	}
	require.NoError(t, WriteMSET(&mset, set))
	var empty bytes.Buffer
	require.NoError(t, WriteMSET(&empty, &TileSet{Params: set.Params}))
	var detailSet bytes.Buffer
	require.NoError(t, WriteMSET(&detailSet, &TileSet{
		Params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 1, MaxPolys: 2},
		Tiles:  []TileSetTile{{Ref: EncodeRef(1, 0, 0), Data: detail}},
	}))
	writeSeeds(t, "FuzzReadMSET", map[string][]byte{
		"three_tiles": mset.Bytes(),
		"no_tiles":    empty.Bytes(),
		"detail_mesh": detailSet.Bytes(),
	})

	own, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	ownDetail, err := encodeOwn(&savedMesh{
		params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 2, MaxPolys: 2},
		tiles:  []savedTile{{ref: EncodeRef(3, 1, 0), data: detail, flags: []uint16{1, 0x8001}, areas: []uint8{0, 63}}},
	})
	require.NoError(t, err)
	ownEmpty, err := encodeOwn(&savedMesh{params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 1, MaxPolys: 1}})
	require.NoError(t, err)
	writeSeeds(t, "FuzzLoad", map[string][]byte{
		"three_tiles": own,
		"detail_mesh": ownDetail,
		"no_tiles":    ownEmpty,
	})

	detailMesh := &savedMesh{
		params: Params{TileWidth: 6, TileHeight: 3, MaxTiles: 2, MaxPolys: 2},
		tiles:  []savedTile{{ref: EncodeRef(3, 1, 0), data: detail, flags: []uint16{1, 0x8001}, areas: []uint8{0, 63}}},
	}
	emptyMesh := &savedMesh{params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 1, MaxPolys: 1}}
	twoTypes, err := encodeOwnSet(&savedSet{names: []string{"soldier", "ogre"}, meshes: []*savedMesh{testSavedMesh(t), detailMesh}})
	require.NoError(t, err)
	oneNamed, err := encodeOwnSet(&savedSet{names: []string{"cart"}, meshes: []*savedMesh{detailMesh}})
	require.NoError(t, err)
	threeEmpty, err := encodeOwnSet(&savedSet{names: []string{"a", "é", "c c"}, meshes: []*savedMesh{emptyMesh, emptyMesh, emptyMesh}})
	require.NoError(t, err)
	writeSeeds(t, "FuzzLoadSet", map[string][]byte{
		"two_types":   twoTypes,
		"one_named":   oneNamed,
		"three_empty": threeEmpty,
		"single_mesh": ownDetail,
	})
}

// detailTestTile builds a two-polygon tile with a detail mesh that adds a
// vertex to the first polygon.
func detailTestTile(t testing.TB) *TileData {
	t.Helper()
	params := offMeshTestParams()
	params.OffMeshConnections = nil
	params.DetailMeshes = [][4]uint32{{0, 5, 0, 3}, {5, 4, 3, 2}}
	params.DetailVerts = []mgl32.Vec3{
		{0, 1.2, 0}, {0, 1.2, 3}, {3, 1.2, 3}, {3, 1.2, 0}, {1.5, 1.7, 1.5},
		{3, 1.2, 0}, {3, 1.2, 3}, {6, 1.2, 3}, {6, 1.2, 0},
	}
	params.DetailTris = [][4]uint8{{0, 1, 4, 1}, {1, 2, 4, 1}, {2, 3, 4, 1}, {0, 1, 2, 5}, {0, 2, 3, 20}}
	data, err := BuildTileData(params)
	require.NoError(t, err)
	return data
}

// widenLinks returns a blob with 16-byte (64-bit ref) link records.
func widenLinks(blob []byte, data *TileData) []byte {
	layout := newDNAVLayout(headerCounts(&data.Header), dnavLinkSize)
	wide := append([]byte{}, blob[:layout.start[sectionLinks]]...)
	wide = append(wide, make([]byte, dnavLinkSize64*int(data.Header.MaxLinkCount))...)
	return append(wide, blob[layout.start[sectionDetailMeshes]:]...)
}

func writeSeeds(t *testing.T, target string, seeds map[string][]byte) {
	t.Helper()
	dir := filepath.Join("testdata", "fuzz", target)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, data := range seeds {
		content := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\n", strconv.Quote(string(data)))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "seed_"+name), []byte(content), 0o644))
	}
}
