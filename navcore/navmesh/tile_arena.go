package navmesh

import (
	"unsafe"

	"github.com/go-gl/mathgl/mgl32"
)

// A file of many tiles (ReadMSET, Load) reads its tiles' arrays into a
// tileArena: shared blocks of 32 KiB (a Go size class of its own) carved
// into the polygons, vertices, detail meshes and triangles, BV nodes and
// off-mesh connections of one tile after another, and its TileData
// structs from shared chunks. Allocated one by one, each array and struct
// is rounded up to its size class (about 2.5 KB on a level of 121 small
// tiles, 8 bytes a TileData); carved from blocks, only each block's tail
// is lost. The cost: a block, and a chunk of TileData structs, stays
// alive while any tile read into it does, so removing some of a file's
// tiles from a mesh frees their arrays only once the tiles sharing their
// blocks go too. A single tile (ReadDNAV) is allocated as before.

// arenaBlockWords is the size of a tileArena block [Units: 4-byte words]:
// 32 KiB, the largest small-object size class, so that a full block
// wastes nothing to rounding.
const arenaBlockWords = 32 << 10 / 4

// arenaTileDataChunk is the most TileData structs a tileArena allocates
// at once: as many as fit in 32 KiB.
const arenaTileDataChunk = 32 << 10 / int(unsafe.Sizeof(TileData{}))

// sizeClasses are the Go runtime's size classes for small objects
// [Units: bytes] (runtime/sizeclasses.go, unchanged since Go 1.12; a test
// checks them against the running runtime). An allocation of n bytes
// takes the first class of at least n.
var sizeClasses = [...]uint16{
	8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224,
	240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768,
	896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200,
	3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240,
	10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576,
	27264, 28672, 32768,
}

// roundUpSize returns the bytes an allocation of n bytes (1..32768) takes.
func roundUpSize(n int) int {
	for _, c := range sizeClasses {
		if int(c) >= n {
			return int(c)
		}
	}
	return n
}

// tileDataChunk returns how many of tiles TileData structs (at least 1)
// to allocate in one chunk: of the counts up to arenaTileDataChunk, the
// one losing the fewest bytes per struct to its size class, the largest
// of those.
func tileDataChunk(tiles int) int {
	size := int(unsafe.Sizeof(TileData{}))
	best, bestWaste := 1, 1.0e9
	for k := min(max(tiles, 1), arenaTileDataChunk); k >= 1; k-- {
		if waste := float64(roundUpSize(k*size)-k*size) / float64(k); waste < bestWaste {
			best, bestWaste = k, waste
		}
	}
	return best
}

// blockWords returns the size of a new block [Units: words] for arrays
// still needing words words in all, the first of them need words: a full
// block while more than one is needed; then a size class, the one just
// above what is left when that loses little to rounding (1/32), else the
// one just below (the rest goes into further blocks).
func blockWords(words, need int) int {
	if words >= arenaBlockWords {
		return arenaBlockWords
	}
	bytes := max(words, need) * 4
	above := roundUpSize(bytes)
	if (above-bytes)*32 <= bytes {
		return above / 4
	}
	below := need * 4
	for _, c := range sizeClasses {
		if int(c) > bytes {
			break
		}
		if int(c) >= need*4 {
			below = int(c)
		}
	}
	return below / 4
}

// tileArena hands out the arrays and TileData structs of a file's tiles.
// A nil *tileArena allocates each one by itself.
type tileArena struct {
	// block is the unused rest of the current block.
	block []uint32
	// words is the number of words the arrays of the tiles not yet read
	// need (a hint: it sizes the last block).
	words int
	// datas is the unused rest of the current chunk of TileData structs.
	datas []TileData
	// tiles is the number of TileData structs still to be handed out.
	tiles int
}

// newTileArena returns an arena for tiles tiles whose arrays take words
// 4-byte words in all (tileArrayWords of each).
func newTileArena(words, tiles int) *tileArena {
	return &tileArena{words: max(words, 0), tiles: max(tiles, 0)}
}

// newTileData returns a zero TileData.
func (a *tileArena) newTileData() *TileData {
	if a == nil {
		return &TileData{}
	}
	if len(a.datas) == 0 {
		a.datas = make([]TileData, tileDataChunk(a.tiles))
	}
	d := &a.datas[0]
	a.datas = a.datas[1:]
	a.tiles--
	return d
}

// take returns a slice of n zero words from the current block, starting
// a new block when it has too little room left; an array of more than a
// block gets an allocation of its own.
func (a *tileArena) take(n int) []uint32 {
	if n > arenaBlockWords {
		a.words -= n
		return make([]uint32, n)
	}
	if n > len(a.block) {
		a.block = make([]uint32, blockWords(a.words, n))
	}
	s := a.block[:n:n]
	a.block = a.block[n:]
	a.words -= n
	return s
}

// arenaElement lists the element types a tileArena hands out: each has
// no pointers, a size that is a multiple of 4 bytes and an alignment of
// at most 4, so that its arrays can live in a block of words.
type arenaElement interface {
	mgl32.Vec3 | Poly | PolyDetail | DetailTri | BVNode | OffMeshConnection
}

// arenaMake returns a zeroed slice of n elements (len and cap n) carved
// from a, or allocated by itself when a is nil; nil when n is 0.
func arenaMake[T arenaElement](a *tileArena, n int) []T {
	if n <= 0 {
		return nil
	}
	if a == nil {
		return make([]T, n)
	}
	var zero T
	words := a.take(n * int(unsafe.Sizeof(zero)) / 4)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(words))), n)
}

// tileArrayWords returns the number of 4-byte words the arrays of the
// DNAV blob's tile take in a tileArena and its polygon count, 0 and 0
// when the blob's header does not check out (reading it will fail).
func tileArrayWords(blob []byte) (words, polyCount int) {
	order, err := dnavByteOrder(blob)
	if err != nil || len(blob) < dnavHeaderSize {
		return 0, 0
	}
	r := dnavReader{blob: blob, order: order}
	h := r.header()
	if _, err := dnavBlobLayout(&h, len(blob)); err != nil {
		return 0, 0
	}
	bytes := int64(unsafe.Sizeof(mgl32.Vec3{}))*(int64(h.VertCount)+int64(h.DetailVertCount)) +
		int64(unsafe.Sizeof(Poly{}))*int64(h.PolyCount) +
		int64(unsafe.Sizeof(PolyDetail{}))*int64(h.DetailMeshCount) +
		int64(unsafe.Sizeof(DetailTri{}))*int64(h.DetailTriCount) +
		int64(unsafe.Sizeof(BVNode{}))*int64(h.BVNodeCount) +
		int64(unsafe.Sizeof(OffMeshConnection{}))*int64(h.OffMeshConCount)
	return int(bytes / 4), int(h.PolyCount)
}
