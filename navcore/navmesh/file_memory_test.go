package navmesh

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/longtest"
)

// Loader memory bounds, measured with runtime.MemStats against a set of
// hostile files: small valid files whose parameters invite a loader to
// allocate far more than the file holds.
//
// A minimal tile (one triangle) takes 235 bytes in a file. Loading such
// tiles into consecutive slots allocates about 4.6 bytes per file byte in
// all (the tiles' own data: decoded arrays, links, the tile versions) and
// keeps about 3.3. The slot table adds at most one path of six 32-way
// nodes (about 1.7 KB) per tile when the tiles sit in slots far apart, so a
// hostile file allocates at most a small multiple more. Before the slot
// table became a trie sized by the tiles, a 470 KB file of 2000 tiles in
// slots 2^17 apart allocated 1.75 GB (3700 bytes per file byte) and kept
// 626 MB.
const (
	// maxLoadAllocPerByte bounds the bytes a load may allocate, in all, per
	// byte of file.
	maxLoadAllocPerByte = 12
	// maxLoadLivePerByte bounds the bytes a loaded mesh may keep per byte
	// of file.
	maxLoadLivePerByte = 10
)

// minimalTile is a one-triangle tile at (x, y, layer).
func minimalTile(x, y, layer int32) *TileData {
	d := buildTile(tileSpec{polys: [][]mgl32.Vec3{{{1, 0, 1}, {1, 0, 3}, {3, 0, 1}}}})
	d.Header.X, d.Header.Y, d.Header.Layer = x, y, layer
	return d
}

// hostileLayout places tile i of n in a slot and a grid cell.
type hostileLayout struct {
	name     string
	maxTiles int
	slot     func(i, n, maxTiles int) uint32
	cell     func(i int) (x, y, layer int32)
}

func hostileLayouts() []hostileLayout {
	scattered := func(i int) (int32, int32, int32) { return int32(i * 7919), int32(i * 104729), 0 }
	return []hostileLayout{
		{"dense slots (the baseline)", 0, func(i, n, _ int) uint32 { return uint32(i) }, scattered},
		{"slots spread out", MaxTileSlots, func(i, n, maxTiles int) uint32 { return uint32(i * (maxTiles / n)) }, scattered},
		{"the last slots", MaxTileSlots, func(i, n, maxTiles int) uint32 { return uint32(maxTiles - 1 - i) }, scattered},
		{"one column of layers", MaxTileSlots, func(i, n, _ int) uint32 { return uint32(i) }, func(i int) (int32, int32, int32) { return 0, 0, int32(i) }},
		{"a row of neighbours", MaxTileSlots, func(i, n, maxTiles int) uint32 { return uint32(i * (maxTiles / n)) }, func(i int) (int32, int32, int32) { return int32(i), 0, 0 }},
	}
}

// hostileFiles returns each layout of n minimal tiles as an archenav file
// (MaxTiles up to 2^28) and as a RecastDemo tile set (up to 2^22, the most
// a 32-bit C++ ref allows with one polygon per tile).
func hostileFiles(t testing.TB, n int) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, layout := range hostileLayouts() {
		for _, format := range []string{"archenav", "MSET"} {
			maxTiles := layout.maxTiles
			switch {
			case maxTiles == 0:
				maxTiles = n
			case format == "MSET":
				maxTiles = 1 << 22
			}
			params := Params{TileWidth: 10, TileHeight: 10, MaxTiles: maxTiles, MaxPolys: 1}
			saved := &savedMesh{params: params}
			set := &TileSet{Params: params}
			for i := range n {
				x, y, layer := layout.cell(i)
				ref := EncodeRef(1, layout.slot(i, n, maxTiles), 0)
				data := minimalTile(x, y, layer)
				saved.tiles = append(saved.tiles, savedTile{ref: ref, data: data, flags: []uint16{1}, areas: []uint8{0}})
				set.Tiles = append(set.Tiles, TileSetTile{Ref: ref, Data: data})
			}
			var file []byte
			if format == "MSET" {
				var mset bytes.Buffer
				require.NoError(t, WriteMSET(&mset, set))
				file = mset.Bytes()
			} else {
				own, err := encodeOwn(saved)
				require.NoError(t, err)
				file = own
			}
			files[format+", "+layout.name] = file
		}
	}
	return files
}

// loadCost loads file and returns the bytes allocated during the load and
// the bytes the mesh keeps after a collection.
func loadCost(t testing.TB, file []byte) (allocated, live uint64, m *Mesh) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	m, _, err := LoadBytes(file)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	allocated = after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&after)
	if after.HeapAlloc > before.HeapAlloc {
		live = after.HeapAlloc - before.HeapAlloc
	}
	runtime.KeepAlive(m)
	return allocated, live, m
}

// TestLoadersBoundMemory: every file of the hostile set loads allocating at
// most maxLoadAllocPerByte bytes per file byte and keeping at most
// maxLoadLivePerByte, and the mesh holds the tiles where the file put them.
func TestLoadersBoundMemory(t *testing.T) {
	const n = 1000
	files := hostileFiles(t, n)
	for name, file := range files {
		allocated, live, m := loadCost(t, file)
		t.Logf("%-42s %7d bytes: allocated %5.1f×, keeps %4.1f×", name, len(file), float64(allocated)/float64(len(file)), float64(live)/float64(len(file)))
		assert.LessOrEqual(t, allocated, uint64(maxLoadAllocPerByte*len(file)), "%s: allocated %d bytes for a %d-byte file", name, allocated, len(file))
		assert.LessOrEqual(t, live, uint64(maxLoadLivePerByte*len(file)), "%s: keeps %d bytes for a %d-byte file", name, live, len(file))
		require.Equal(t, n, m.TileCount(), name)
		count := 0
		for range m.Snapshot().Tiles() {
			count++
		}
		assert.Equal(t, n, count, "%s: Tiles visits every tile", name)
	}
}

// TestLoadersRejectHostileHeadersCheaply: headers that promise more than
// the file holds are refused before anything is allocated for them.
func TestLoadersRejectHostileHeadersCheaply(t *testing.T) {
	le := binary.LittleEndian
	tile, err := MarshalDNAV(minimalTile(0, 0, 0))
	require.NoError(t, err)
	own, err := encodeOwn(&savedMesh{
		params: Params{TileWidth: 10, TileHeight: 10, MaxTiles: MaxTileSlots, MaxPolys: 1 << 20},
		tiles:  []savedTile{{ref: EncodeRef(1, 5, 0), data: minimalTile(0, 0, 0), flags: []uint16{1}, areas: []uint8{0}}},
	})
	require.NoError(t, err)
	reseal := func(file []byte) []byte {
		body := file[:len(file)-ownChecksumSize]
		le.PutUint32(file[len(body):], crc32.ChecksumIEEE(body))
		return file
	}
	edit := func(base []byte, offset int, value uint32, seal bool) []byte {
		file := bytes.Clone(base)
		le.PutUint32(file[offset:], value)
		if seal {
			file = reseal(file)
		}
		return file
	}
	// dtMeshHeader: magic, version, x, y, layer, userId, then polyCount,
	// vertCount, maxLinkCount at these offsets
	const polyCount, vertCount, maxLinkCount = 24, 28, 32
	cases := map[string][]byte{
		"archenav: 2^28 tiles claimed":          edit(own, 44, MaxTileSlots, true),
		"archenav: tile blob of 4 GB claimed":   edit(own, ownHeaderSize+8, 0xffffffff, true),
		"archenav: 2^20 polygons in a tile":     edit(own, ownHeaderSize+ownTileHeaderSize+polyCount, 1<<20, true),
		"MSET: 2^31 tiles claimed":              edit(msetFile(t, tile), 8, 1<<31-1, false),
		"MSET: tile blob of 2 GB claimed":       edit(msetFile(t, tile), msetHeaderSize+4, 1<<31-1, false),
		"DNAV: 2^20 polygons and 2^16 vertices": edit(edit(tile, polyCount, 1<<20, false), vertCount, 1<<16, false),
		"DNAV: 2^31 links":                      edit(tile, maxLinkCount, 1<<31-1, false),
	}
	for name, file := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m, _, err := LoadBytes(file)
		runtime.ReadMemStats(&after)
		assert.Error(t, err, name)
		assert.Nil(t, m, name)
		allocated := after.TotalAlloc - before.TotalAlloc
		assert.LessOrEqual(t, allocated, uint64(64<<10+4*len(file)), "%s: %d bytes allocated to refuse a %d-byte file", name, allocated, len(file))
	}
}

func msetFile(t testing.TB, blob []byte) []byte {
	t.Helper()
	return cppTileSetFile(t, Params{TileWidth: 10, TileHeight: 10, MaxTiles: 1 << 20, MaxPolys: 4}, []uint32{1 << 22}, [][]byte{blob})
}

// TestAddTileCostIndependentOfMaxTiles: replacing a tile allocates the same
// bytes whatever MaxTiles is, and a tile added in a far slot costs a few
// kilobytes, not a slot directory.
func TestAddTileCostIndependentOfMaxTiles(t *testing.T) {
	cost := func(maxTiles int, far bool) uint64 {
		m, err := New(testParams(maxTiles))
		require.NoError(t, err)
		for y := range int32(3) {
			for x := range int32(3) {
				_, err := m.AddTile(gridTile(x, y), 0)
				require.NoError(t, err)
			}
		}
		centre := m.TileAt(1, 1, 0).Ref()
		const rounds = 50
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for i := range rounds {
			data, err := m.RemoveTile(centre)
			require.NoError(t, err)
			last := TileRef(0)
			if far {
				last = EncodeRef(uint32(i%7+1), uint32(maxTiles-1-i), 0)
			}
			centre, err = m.AddTile(data, last)
			require.NoError(t, err)
		}
		runtime.ReadMemStats(&after)
		return (after.TotalAlloc - before.TotalAlloc) / rounds
	}
	small, big := cost(16, false), cost(MaxTileSlots, false)
	t.Logf("remove and add the centre tile of 3×3: %d bytes with 16 slots, %d with 2^28", small, big)
	assert.InDelta(t, float64(small), float64(big), float64(small)/10, "the cost must not depend on MaxTiles")
	far := cost(MaxTileSlots, true)
	t.Logf("the same into the last slots of 2^28: %d bytes", far)
	assert.Less(t, far, small+16<<10, "a far slot costs at most the table path")
}

// TestLoadIssueSizedHostileFile loads the file of the report (3.85 MB,
// MaxTiles 2^28, tiles in slots far apart), which allocated 14.3 GB and took
// 20 s before the slot table was bounded.
func TestLoadIssueSizedHostileFile(t *testing.T) {
	longtest.Skip(t)
	n := 16384
	files := hostileFiles(t, n)
	for _, name := range []string{"archenav, slots spread out", "MSET, slots spread out", "archenav, one column of layers"} {
		file := files[name]
		allocated, live, m := loadCost(t, file)
		t.Logf("%s: %d bytes, %d tiles: allocated %d KB, keeps %d KB", name, len(file), n, allocated>>10, live>>10)
		assert.LessOrEqual(t, allocated, uint64(maxLoadAllocPerByte*len(file)), name)
		assert.LessOrEqual(t, live, uint64(maxLoadLivePerByte*len(file)), name)
		assert.Equal(t, n, m.TileCount())
	}
}

// TestWriteHostileSeeds writes the hostile set into the loaders' fuzz
// corpora (NAVMESH_WRITE_FUZZ_SEEDS=1).
func TestWriteHostileSeeds(t *testing.T) {
	if os.Getenv("NAVMESH_WRITE_FUZZ_SEEDS") != "1" {
		t.Skip("set NAVMESH_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz")
	}
	for name, file := range hostileFiles(t, 3) {
		target := "FuzzLoad"
		if DetectFormat(file) == FormatMSET {
			target = "FuzzReadMSET"
		}
		seed := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", file)
		slug := bytes.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				return r
			}
			return '_'
		}, bytes.ToLower([]byte(name)))
		require.NoError(t, os.WriteFile(filepath.Join("testdata", "fuzz", target, "hostile_"+string(slug)), []byte(seed), 0o644))
	}
}
