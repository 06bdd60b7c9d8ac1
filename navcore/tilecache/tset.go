package tilecache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/navmesh"
)

// RecastDemo's tile cache file (Sample_TempObstacles::saveAll / loadAll),
// little-endian as an x86-64 build writes it:
//
//	magic      int32  'T'<<24|'S'<<16|'E'<<8|'T' (the bytes "TEST")
//	version    int32  1
//	numTiles   int32
//	dtNavMeshParams   28 bytes: origin, tile width, tile height (float32),
//	                  maxTiles, maxPolys (int32)
//	dtTileCacheParams 52 bytes: origin, cs, ch (float32), width, height
//	                  (int32), walkableHeight, walkableRadius, walkableClimb,
//	                  maxSimplificationError (float32), maxTiles,
//	                  maxObstacles (int32)
//	per tile:  layer ref uint32, data size int32, the encoded layer
const (
	tsetMagic   uint32 = 'T'<<24 | 'S'<<16 | 'E'<<8 | 'T'
	tsetVersion uint32 = 1

	tsetHeaderSize     = 12 + 28 + 52
	tsetTileHeaderSize = 8
	meshParamsSize     = 28
)

// Errors of the file readers, for errors.Is.
var (
	// ErrUnknownFormat is wrapped when a file does not start with a magic
	// number this package reads.
	ErrUnknownFormat = errors.New("tilecache: unknown file format")
	// ErrUnsupportedVersion is wrapped when the magic is known but the
	// version is not.
	ErrUnsupportedVersion = errors.New("tilecache: unsupported file version")
	// ErrMalformedFile is wrapped for truncated or corrupted files: sizes
	// that do not add up, counts out of range, a checksum mismatch, a
	// layer that does not decode.
	ErrMalformedFile = errors.New("tilecache: malformed file")
)

// TileSet is the content of a tile cache file: the parameters of the
// navmesh and of the cache, and the encoded layers with their refs.
type TileSet struct {
	// MeshParams are the parameters of the navmesh the cache builds.
	MeshParams navmesh.Params
	// CacheParams are the tile cache's parameters.
	CacheParams Params
	// Layers are the encoded layers in file order.
	Layers []StoredLayer
}

// StoredLayer is one encoded layer of a TileSet.
type StoredLayer struct {
	// Ref is the layer's ref when it was saved (the C++ dtCompressedTileRef
	// layout for CacheParams.MaxTiles).
	Ref LayerRef
	// Data is the encoded layer (EncodeLayer's output).
	Data []byte
}

// ReadTSET decodes a RecastDemo tile cache file (magic "TSET", version 1).
// Every size and count is checked against the bytes present before it is
// used, so memory stays within a small multiple of len(file); each layer
// header is checked (DecodeLayerHeader). Errors wrap ErrUnknownFormat,
// ErrUnsupportedVersion or ErrMalformedFile and name the tile and offset
// at fault. The layers share no memory with file.
func ReadTSET(file []byte) (*TileSet, error) {
	le := binary.LittleEndian
	if len(file) < 8 {
		return nil, malformed("TSET", "header", "truncated: %d bytes, want at least %d", len(file), tsetHeaderSize)
	}
	if magic := le.Uint32(file); magic != tsetMagic {
		return nil, fmt.Errorf("tilecache: TSET: header: magic %q, want \"TEST\" (little-endian TSET): %w", file[:4], ErrUnknownFormat)
	}
	if version := le.Uint32(file[4:]); version != tsetVersion {
		return nil, fmt.Errorf("tilecache: TSET: header: version %d, want %d: %w", version, tsetVersion, ErrUnsupportedVersion)
	}
	if len(file) < tsetHeaderSize {
		return nil, malformed("TSET", "header", "truncated: %d bytes, want at least %d", len(file), tsetHeaderSize)
	}
	tileCount := int32(le.Uint32(file[8:]))
	set := &TileSet{MeshParams: decodeMeshParams(file[12:]), CacheParams: decodeCacheParams(file[40:])}
	if err := checkFileParams(set); err != nil {
		return nil, malformed("TSET", "header", "%v", err)
	}
	maxTileCount := (len(file) - tsetHeaderSize) / (tsetTileHeaderSize + EncodedLayerHeaderSize)
	if tileCount < 0 || int(tileCount) > int(set.CacheParams.MaxTiles) || int(tileCount) > maxTileCount {
		return nil, malformed("TSET", "header", "%d layers: the cache holds %d and the file has room for %d",
			tileCount, set.CacheParams.MaxTiles, maxTileCount)
	}
	bits := newLayerRefBits(set.CacheParams.MaxTiles)
	set.Layers = make([]StoredLayer, 0, tileCount)
	offset := tsetHeaderSize
	for i := 0; i < int(tileCount); i++ {
		where := fmt.Sprintf("layer %d at offset %#x", i, offset)
		if len(file)-offset < tsetTileHeaderSize {
			return nil, malformed("TSET", where, "truncated layer header")
		}
		ref := LayerRef(le.Uint32(file[offset:]))
		size := int32(le.Uint32(file[offset+4:]))
		offset += tsetTileHeaderSize
		if size < EncodedLayerHeaderSize || int(size) > len(file)-offset {
			return nil, malformed("TSET", where, "layer size %d, want %d..%d", size, EncodedLayerHeaderSize, len(file)-offset)
		}
		if salt, index := bits.decode(ref); salt == 0 || int(index) >= int(set.CacheParams.MaxTiles) {
			return nil, malformed("TSET", where, "layer ref %#x: salt %d, slot %d (want salt >= 1, slot < %d)", uint32(ref), salt, index, set.CacheParams.MaxTiles)
		}
		data := file[offset : offset+int(size)]
		if _, err := DecodeLayerHeader(data); err != nil {
			return nil, malformed("TSET", where, "%v", err)
		}
		set.Layers = append(set.Layers, StoredLayer{Ref: ref, Data: append([]byte(nil), data...)})
		offset += int(size)
	}
	if offset != len(file) {
		return nil, malformed("TSET", fmt.Sprintf("offset %#x", offset), "%d bytes after the last layer", len(file)-offset)
	}
	return set, nil
}

// WriteTSET writes set as a RecastDemo tile cache file, which
// Sample_TempObstacles::loadAll reads. The layers are written as they are;
// each must start with a valid layer header.
func WriteTSET(w io.Writer, set *TileSet) error {
	out, err := MarshalTSET(set)
	if err != nil {
		return err
	}
	if w == nil {
		return fmt.Errorf("tilecache: write TSET: nil writer")
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("tilecache: write TSET: %w", err)
	}
	return nil
}

// MarshalTSET returns the bytes WriteTSET writes.
func MarshalTSET(set *TileSet) ([]byte, error) {
	if set == nil {
		return nil, fmt.Errorf("tilecache: write TSET: nil tile set: %w", ErrInvalidParams)
	}
	if err := checkFileParams(set); err != nil {
		return nil, fmt.Errorf("tilecache: write TSET: %w", err)
	}
	if len(set.Layers) > int(set.CacheParams.MaxTiles) {
		return nil, fmt.Errorf("tilecache: write TSET: %d layers for MaxTiles %d: %w", len(set.Layers), set.CacheParams.MaxTiles, ErrInvalidParams)
	}
	size := tsetHeaderSize
	for i, layer := range set.Layers {
		if _, err := DecodeLayerHeader(layer.Data); err != nil {
			return nil, fmt.Errorf("tilecache: write TSET: layer %d: %w", i, err)
		}
		if len(layer.Data) > math.MaxInt32 {
			return nil, fmt.Errorf("tilecache: write TSET: layer %d: %d bytes: %w", i, len(layer.Data), ErrInvalidLayer)
		}
		size += tsetTileHeaderSize + len(layer.Data)
	}
	le := binary.LittleEndian
	out := make([]byte, 0, size)
	out = le.AppendUint32(out, tsetMagic)
	out = le.AppendUint32(out, tsetVersion)
	out = le.AppendUint32(out, uint32(len(set.Layers)))
	out = appendMeshParams(out, set.MeshParams)
	out = appendCacheParams(out, set.CacheParams)
	for _, layer := range set.Layers {
		out = le.AppendUint32(out, uint32(layer.Ref))
		out = le.AppendUint32(out, uint32(len(layer.Data)))
		out = append(out, layer.Data...)
	}
	return out, nil
}

// checkFileParams checks both parameter sets of a file.
func checkFileParams(set *TileSet) error {
	if err := checkParams(set.CacheParams); err != nil {
		return err
	}
	p := set.MeshParams
	switch {
	case !finite(p.Origin[0]) || !finite(p.Origin[1]) || !finite(p.Origin[2]):
		return fmt.Errorf("tilecache: mesh origin %v not finite: %w", p.Origin, ErrInvalidParams)
	case !(p.TileWidth > 0) || !(p.TileHeight > 0) || !finite(p.TileWidth) || !finite(p.TileHeight):
		return fmt.Errorf("tilecache: mesh tile size %v×%v not positive and finite: %w", p.TileWidth, p.TileHeight, ErrInvalidParams)
	case p.MaxTiles < 1 || p.MaxTiles > navmesh.MaxTileSlots || p.MaxPolys < 1 || p.MaxPolys > navmesh.MaxPolysPerTile:
		return fmt.Errorf("tilecache: mesh MaxTiles %d, MaxPolys %d outside 1..%d, 1..%d: %w",
			p.MaxTiles, p.MaxPolys, navmesh.MaxTileSlots, navmesh.MaxPolysPerTile, ErrInvalidParams)
	}
	return nil
}

func decodeMeshParams(b []byte) navmesh.Params {
	le := binary.LittleEndian
	f := func(at int) float32 { return math.Float32frombits(le.Uint32(b[at:])) }
	return navmesh.Params{
		Origin:     mgl32.Vec3{f(0), f(4), f(8)},
		TileWidth:  f(12),
		TileHeight: f(16),
		MaxTiles:   int(int32(le.Uint32(b[20:]))),
		MaxPolys:   int(int32(le.Uint32(b[24:]))),
	}
}

func appendMeshParams(dst []byte, p navmesh.Params) []byte {
	le := binary.LittleEndian
	for _, f := range []float32{p.Origin[0], p.Origin[1], p.Origin[2], p.TileWidth, p.TileHeight} {
		dst = le.AppendUint32(dst, math.Float32bits(f))
	}
	dst = le.AppendUint32(dst, uint32(int32(p.MaxTiles)))
	return le.AppendUint32(dst, uint32(int32(p.MaxPolys)))
}

func decodeCacheParams(b []byte) Params {
	le := binary.LittleEndian
	f := func(at int) float32 { return math.Float32frombits(le.Uint32(b[at:])) }
	i := func(at int) int32 { return int32(le.Uint32(b[at:])) }
	return Params{
		Origin:                 mgl32.Vec3{f(0), f(4), f(8)},
		CellSize:               f(12),
		CellHeight:             f(16),
		Width:                  i(20),
		Height:                 i(24),
		WalkableHeight:         f(28),
		WalkableRadius:         f(32),
		WalkableClimb:          f(36),
		MaxSimplificationError: f(40),
		MaxTiles:               i(44),
		MaxObstacles:           i(48),
	}
}

func appendCacheParams(dst []byte, p Params) []byte {
	le := binary.LittleEndian
	for _, f := range []float32{p.Origin[0], p.Origin[1], p.Origin[2], p.CellSize, p.CellHeight} {
		dst = le.AppendUint32(dst, math.Float32bits(f))
	}
	dst = le.AppendUint32(dst, uint32(p.Width))
	dst = le.AppendUint32(dst, uint32(p.Height))
	for _, f := range []float32{p.WalkableHeight, p.WalkableRadius, p.WalkableClimb, p.MaxSimplificationError} {
		dst = le.AppendUint32(dst, math.Float32bits(f))
	}
	dst = le.AppendUint32(dst, uint32(p.MaxTiles))
	return le.AppendUint32(dst, uint32(p.MaxObstacles))
}

// malformed returns an ErrMalformedFile error naming the format, the place
// and what is wrong.
func malformed(format, where, what string, args ...any) error {
	return fmt.Errorf("tilecache: %s: %s: %s: %w", format, where, fmt.Sprintf(what, args...), ErrMalformedFile)
}
