package navmesh

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
)

// RecastDemo's tile-set file (Sample::saveAll / loadAll): a header with
// the mesh parameters, then per tile a 32-bit tile ref, the blob size and
// the DNAV blob, all in the x86 (little-endian) layout.
const (
	// msetMagic is 'M'<<24|'S'<<16|'E'<<8|'T'; little-endian it reads "TESM".
	msetMagic   uint32 = 'M'<<24 | 'S'<<16 | 'E'<<8 | 'T'
	msetVersion uint32 = 1

	msetHeaderSize     = 40 // magic, version, numTiles, dtNavMeshParams (28 bytes)
	msetTileHeaderSize = 8  // 32-bit tileRef, dataSize

	// cppMinSaltBits is the fewest salt bits a 32-bit C++ mesh accepts.
	cppMinSaltBits = 10
)

// TileSet is the content of a RecastDemo tile-set file: the mesh
// parameters and every tile with the ref it had when saved.
type TileSet struct {
	// Params are the parameters of the saved mesh.
	Params Params
	// Tiles are the saved tiles in file order.
	Tiles []TileSetTile
}

// TileSetTile is one tile of a TileSet.
type TileSetTile struct {
	// Ref is the tile's ref in this package's 64-bit form (the file holds
	// the C++ 32-bit form, whose bit widths depend on Params).
	Ref TileRef
	// Data is the tile's data.
	Data *TileData
}

// cppRefBits are the widths of a 32-bit C++ dtPolyRef for some mesh
// parameters (dtNavMesh::init).
type cppRefBits struct {
	salt, tile, poly uint32
}

// newCPPRefBits returns the ref layout a 32-bit C++ mesh with params uses,
// or an error when the C++ would refuse the parameters.
func newCPPRefBits(params Params) (cppRefBits, error) {
	if params.MaxTiles < 1 || params.MaxPolys < 1 || params.MaxTiles > math.MaxInt32 || params.MaxPolys > math.MaxInt32 {
		return cppRefBits{}, fmt.Errorf("MaxTiles %d and MaxPolys %d must be 1..%d", params.MaxTiles, params.MaxPolys, math.MaxInt32)
	}
	tileBits := geom.Ilog2(geom.NextPow2(uint32(params.MaxTiles)))
	polyBits := geom.Ilog2(geom.NextPow2(uint32(params.MaxPolys)))
	if tileBits+polyBits > 32-cppMinSaltBits {
		return cppRefBits{}, fmt.Errorf("MaxTiles %d and MaxPolys %d need %d+%d ref bits, leaving fewer than %d salt bits in a 32-bit ref",
			params.MaxTiles, params.MaxPolys, tileBits, polyBits, cppMinSaltBits)
	}
	return cppRefBits{salt: min(31, 32-tileBits-polyBits), tile: tileBits, poly: polyBits}, nil
}

// decode splits a 32-bit C++ tile ref.
func (b cppRefBits) decode(ref uint32) (salt, tileIndex, polyIndex uint32) {
	salt = (ref >> (b.poly + b.tile)) & (1<<b.salt - 1)
	tileIndex = (ref >> b.poly) & (1<<b.tile - 1)
	polyIndex = ref & (1<<b.poly - 1)
	return salt, tileIndex, polyIndex
}

// encode builds a 32-bit C++ tile ref. A salt wider than the C++ salt
// bits wraps the way the C++ salt counter does (1, 2, ..., max, 1, ...),
// so it is never 0.
func (b cppRefBits) encode(salt, tileIndex uint32) uint32 {
	saltMax := uint32(1)<<b.salt - 1
	if salt == 0 || salt > saltMax {
		salt = (salt+saltMax-1)%saltMax + 1
	}
	return salt<<(b.poly+b.tile) | tileIndex<<b.poly
}

// ReadMSET decodes a RecastDemo tile-set file (magic "MSET", version 1).
// Tile refs are converted to this package's 64-bit form, keeping tile
// index and salt. Every size and count is checked before use; malformed
// input gives an error wrapping ErrUnknownFormat, ErrUnsupportedVersion or
// ErrMalformedFile that says which tile and byte offset is at fault.
//
// The tiles' arrays and TileData structs are allocated in shared blocks
// of up to 32 KiB (less rounding than one allocation each): a block stays
// alive while any tile read into it does.
func ReadMSET(file []byte) (*TileSet, error) {
	le := binary.LittleEndian
	if len(file) < 8 {
		return nil, malformed("MSET", "header", "truncated: %d bytes, want at least %d", len(file), msetHeaderSize)
	}
	if magic := le.Uint32(file); magic != msetMagic {
		return nil, fmt.Errorf("navmesh: MSET: header: magic %q, want \"TESM\" (little-endian MSET): %w", file[:4], ErrUnknownFormat)
	}
	if version := le.Uint32(file[4:]); version != msetVersion {
		return nil, fmt.Errorf("navmesh: MSET: header: version %d, want %d: %w", version, msetVersion, ErrUnsupportedVersion)
	}
	if len(file) < msetHeaderSize {
		return nil, malformed("MSET", "header", "truncated: %d bytes, want at least %d", len(file), msetHeaderSize)
	}
	tileCount := int32(le.Uint32(file[8:]))
	params := decodeParams(file[12:])
	if err := checkFileParams(params); err != nil {
		return nil, malformed("MSET", "header", "%v", err)
	}
	bits, err := newCPPRefBits(params)
	if err != nil {
		return nil, malformed("MSET", "header", "%v", err)
	}
	maxTileCount := (len(file) - msetHeaderSize) / (msetTileHeaderSize + dnavHeaderSize)
	if tileCount < 0 || int(tileCount) > params.MaxTiles || int(tileCount) > maxTileCount {
		return nil, malformed("MSET", "header", "%d tiles: the mesh holds %d and the file has room for %d", tileCount, params.MaxTiles, maxTileCount)
	}

	set := &TileSet{Params: params, Tiles: make([]TileSetTile, 0, tileCount)}
	usedSlots := make(map[uint32]int, tileCount)
	arena := msetArena(file, int(tileCount))
	offset := msetHeaderSize
	for i := 0; i < int(tileCount); i++ {
		where := fmt.Sprintf("tile %d at offset %#x", i, offset)
		if len(file)-offset < msetTileHeaderSize {
			return nil, malformed("MSET", where, "truncated tile header")
		}
		ref32 := le.Uint32(file[offset:])
		size := int32(le.Uint32(file[offset+4:]))
		offset += msetTileHeaderSize
		if size <= 0 || int(size) > len(file)-offset {
			return nil, malformed("MSET", where, "tile size %d, %d bytes left", size, len(file)-offset)
		}
		ref, err := tileRefFromCPP(bits, ref32, params)
		if err != nil {
			return nil, malformed("MSET", where, "%v", err)
		}
		if previous, taken := usedSlots[ref.TileIndex()]; taken {
			return nil, malformed("MSET", where, "tile slot %d already used by tile %d", ref.TileIndex(), previous)
		}
		usedSlots[ref.TileIndex()] = i
		data, err := readDNAV(file[offset:offset+int(size)], arena)
		if err != nil {
			return nil, fmt.Errorf("navmesh: MSET: %s: %w", where, err)
		}
		set.Tiles = append(set.Tiles, TileSetTile{Ref: ref, Data: data})
		offset += int(size)
	}
	if offset != len(file) {
		return nil, malformed("MSET", fmt.Sprintf("offset %#x", offset), "%d bytes after the last tile", len(file)-offset)
	}
	return set, nil
}

// msetArena returns the tileArena for the tiles of an MSET file whose
// header has been checked: sized by a first pass over the tile records,
// which stops at the first one that does not fit (reading it will fail).
func msetArena(file []byte, tileCount int) *tileArena {
	le := binary.LittleEndian
	words := 0
	offset := msetHeaderSize
	for range tileCount {
		if len(file)-offset < msetTileHeaderSize {
			break
		}
		size := int32(le.Uint32(file[offset+4:]))
		offset += msetTileHeaderSize
		if size <= 0 || int(size) > len(file)-offset {
			break
		}
		tileWords, _ := tileArrayWords(file[offset : offset+int(size)])
		words += tileWords
		offset += int(size)
	}
	return newTileArena(words, tileCount)
}

// tileRefFromCPP converts a 32-bit C++ tile ref to a TileRef.
func tileRefFromCPP(bits cppRefBits, ref32 uint32, params Params) (TileRef, error) {
	salt, tileIndex, polyIndex := bits.decode(ref32)
	switch {
	case polyIndex != 0:
		return 0, fmt.Errorf("tile ref %#x names polygon %d, not a tile", ref32, polyIndex)
	case salt == 0 || salt > saltMask:
		return 0, fmt.Errorf("tile ref %#x has salt %d, want 1..%d", ref32, salt, saltMask)
	case int(tileIndex) >= params.MaxTiles:
		return 0, fmt.Errorf("tile ref %#x names slot %d of %d", ref32, tileIndex, params.MaxTiles)
	}
	return EncodeRef(salt, tileIndex, 0), nil
}

// WriteMSET writes set as a RecastDemo tile-set file, each tile as a DNAV
// blob with zeroed links. Tile refs are written in the 32-bit C++ form for
// set.Params; the C++ loader puts each tile back in its slot.
func WriteMSET(w io.Writer, set *TileSet) error {
	if set == nil {
		return fmt.Errorf("navmesh: write MSET: nil tile set: %w", ErrInconsistentTileData)
	}
	if w == nil {
		return errNilWriter("write MSET")
	}
	if err := checkFileParams(set.Params); err != nil {
		return fmt.Errorf("navmesh: write MSET: %v: %w", err, ErrInconsistentTileData)
	}
	bits, err := newCPPRefBits(set.Params)
	if err != nil {
		return fmt.Errorf("navmesh: write MSET: %v: %w", err, ErrInconsistentTileData)
	}
	if len(set.Tiles) > set.Params.MaxTiles {
		return fmt.Errorf("navmesh: write MSET: %d tiles for MaxTiles %d: %w", len(set.Tiles), set.Params.MaxTiles, ErrInconsistentTileData)
	}

	le := binary.LittleEndian
	out := make([]byte, 0, msetHeaderSize)
	out = le.AppendUint32(out, msetMagic)
	out = le.AppendUint32(out, msetVersion)
	out = le.AppendUint32(out, uint32(len(set.Tiles)))
	out = appendParams(out, set.Params)
	for i, tile := range set.Tiles {
		if tile.Data == nil {
			return fmt.Errorf("navmesh: write MSET: tile %d: nil data: %w", i, ErrInconsistentTileData)
		}
		if int(tile.Ref.TileIndex()) >= set.Params.MaxTiles {
			return fmt.Errorf("navmesh: write MSET: tile %d: slot %d of %d: %w", i, tile.Ref.TileIndex(), set.Params.MaxTiles, ErrInconsistentTileData)
		}
		blob, err := MarshalDNAV(tile.Data)
		if err != nil {
			return fmt.Errorf("navmesh: write MSET: tile %d: %w", i, err)
		}
		out = le.AppendUint32(out, bits.encode(tile.Ref.Salt(), tile.Ref.TileIndex()))
		out = le.AppendUint32(out, uint32(len(blob)))
		out = append(out, blob...)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("navmesh: write MSET: %w", err)
	}
	return nil
}

// decodeParams decodes dtNavMeshParams (28 bytes, little-endian).
func decodeParams(b []byte) Params {
	le := binary.LittleEndian
	f := func(off int) float32 { return math.Float32frombits(le.Uint32(b[off:])) }
	return Params{
		Origin:     mgl32.Vec3{f(0), f(4), f(8)},
		TileWidth:  f(12),
		TileHeight: f(16),
		MaxTiles:   int(int32(le.Uint32(b[20:]))),
		MaxPolys:   int(int32(le.Uint32(b[24:]))),
	}
}

// appendParams appends dtNavMeshParams (28 bytes, little-endian).
func appendParams(dst []byte, p Params) []byte {
	dst = appendVec3s(dst, p.Origin)
	dst = appendFloats(dst, p.TileWidth, p.TileHeight)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(p.MaxTiles))
	return binary.LittleEndian.AppendUint32(dst, uint32(p.MaxPolys))
}

// checkFileParams checks mesh parameters read from or written to a file
// against the limits of Params.
func checkFileParams(p Params) error {
	switch {
	case !geom.IsFinite(p.Origin):
		return fmt.Errorf("origin %v not finite", p.Origin)
	case !(p.TileWidth > 0) || !(p.TileHeight > 0) || !isFinite32(p.TileWidth) || !isFinite32(p.TileHeight):
		return fmt.Errorf("tile size %v x %v not positive and finite", p.TileWidth, p.TileHeight)
	case p.MaxTiles < 1 || p.MaxTiles > 1<<TileBits:
		return fmt.Errorf("MaxTiles %d outside 1..%d", p.MaxTiles, 1<<TileBits)
	case p.MaxPolys < 1 || p.MaxPolys > 1<<PolyBits:
		return fmt.Errorf("MaxPolys %d outside 1..%d", p.MaxPolys, 1<<PolyBits)
	}
	return nil
}
