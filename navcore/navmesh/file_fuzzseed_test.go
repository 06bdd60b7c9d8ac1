package navmesh

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWriteFuzzSeeds regenerates the committed fuzz seed corpora under
// testdata/fuzz. It runs only with NAVMESH_WRITE_FUZZ_SEEDS=1.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("NAVMESH_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set NAVMESH_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz")
	}
	dungeon := readDungeonBlob(t)
	dungeonData := readDungeonTile(t)
	tiles := testTiles(t, 3)
	small := make([][]byte, len(tiles))
	for i, data := range tiles {
		blob, err := MarshalDNAV(data)
		require.NoError(t, err)
		small[i] = blob
	}
	writeSeeds(t, "FuzzReadDNAV", map[string][]byte{
		"dungeon":             dungeon,
		"offmesh":             small[0],
		"no_bvtree":           small[1],
		"big_endian":          swapDNAVEndian(t, small[0], tiles[0]),
		"header_only":         dungeon[:dnavHeaderSize],
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
	var dungeonSet bytes.Buffer
	require.NoError(t, WriteMSET(&dungeonSet, &TileSet{
		Params: Params{TileWidth: 80, TileHeight: 100, MaxTiles: 1, MaxPolys: 128},
		Tiles:  []TileSetTile{{Ref: EncodeRef(1, 0, 0), Data: dungeonData}},
	}))
	writeSeeds(t, "FuzzReadMSET", map[string][]byte{
		"three_tiles": mset.Bytes(),
		"no_tiles":    empty.Bytes(),
		"dungeon":     dungeonSet.Bytes(),
	})

	own, err := encodeOwn(testSavedMesh(t))
	require.NoError(t, err)
	ownDungeon, err := encodeOwn(&savedMesh{
		params: Params{TileWidth: 80, TileHeight: 100, MaxTiles: 1, MaxPolys: 128},
		tiles:  []savedTile{{ref: EncodeRef(1, 0, 0), data: dungeonData, flags: make([]uint16, 118), areas: make([]uint8, 118)}},
	})
	require.NoError(t, err)
	ownEmpty, err := encodeOwn(&savedMesh{params: Params{TileWidth: 1, TileHeight: 1, MaxTiles: 1, MaxPolys: 1}})
	require.NoError(t, err)
	writeSeeds(t, "FuzzLoad", map[string][]byte{
		"three_tiles": own,
		"dungeon":     ownDungeon,
		"no_tiles":    ownEmpty,
	})
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
