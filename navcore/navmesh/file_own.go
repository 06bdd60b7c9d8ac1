package navmesh

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// The archenav mesh file, little-endian throughout:
//
//	magic      8 bytes  "ANAVMESH"
//	version    uint32   1
//	reserved   uint32   0
//	params     28 bytes origin (3 float32), tile width, tile height (float32),
//	                    max tiles, max polys (uint32)
//	tile count uint32
//	per tile:
//	  ref      uint64   TileRef (salt, slot) so refs survive a reload
//	  size     uint32   size of the DNAV blob
//	  blob     size bytes, the tile data as WriteDNAV writes it
//	  flags    PolyCount uint16, the polygon flags at save time
//	  areas    PolyCount uint8, the polygon areas at save time
//	checksum   uint32   CRC-32 (IEEE) of every byte before it
const (
	ownMagic          = "ANAVMESH"
	ownVersion uint32 = 1

	ownHeaderSize     = 8 + 4 + 4 + 28 + 4
	ownTileHeaderSize = 8 + 4
	ownChecksumSize   = 4
)

// savedMesh is the content of an archenav mesh file.
type savedMesh struct {
	params Params
	tiles  []savedTile
}

// savedTile is one tile of a savedMesh: its ref, the runtime flags and
// areas of its polygons, and its data.
type savedTile struct {
	ref   TileRef
	flags []uint16
	areas []uint8
	data  *TileData
}

// encodeOwn returns the file bytes of m.
func encodeOwn(m *savedMesh) ([]byte, error) {
	if err := checkFileParams(m.params); err != nil {
		return nil, fmt.Errorf("navmesh: save: %v: %w", err, ErrInconsistentTileData)
	}
	le := binary.LittleEndian
	out := make([]byte, 0, ownHeaderSize)
	out = append(out, ownMagic...)
	out = le.AppendUint32(out, ownVersion)
	out = le.AppendUint32(out, 0)
	out = appendParams(out, m.params)
	out = le.AppendUint32(out, uint32(len(m.tiles)))
	for i, tile := range m.tiles {
		blob, err := MarshalDNAV(tile.data)
		if err != nil {
			return nil, fmt.Errorf("navmesh: save: tile %d: %w", i, err)
		}
		if len(tile.flags) != len(tile.data.Polys) || len(tile.areas) != len(tile.data.Polys) {
			return nil, fmt.Errorf("navmesh: save: tile %d: %d flags and %d areas for %d polygons: %w",
				i, len(tile.flags), len(tile.areas), len(tile.data.Polys), ErrInconsistentTileData)
		}
		out = le.AppendUint64(out, uint64(tile.ref))
		out = le.AppendUint32(out, uint32(len(blob)))
		out = append(out, blob...)
		for _, f := range tile.flags {
			out = le.AppendUint16(out, f)
		}
		out = append(out, tile.areas...)
	}
	return le.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

// decodeOwn decodes an archenav mesh file. Sizes and counts are checked
// against the bytes present before anything is allocated for them.
func decodeOwn(file []byte) (*savedMesh, error) {
	le := binary.LittleEndian
	if len(file) < len(ownMagic)+4 {
		return nil, malformed("archenav", "header", "truncated: %d bytes, want at least %d", len(file), ownHeaderSize+ownChecksumSize)
	}
	if string(file[:len(ownMagic)]) != ownMagic {
		return nil, fmt.Errorf("navmesh: archenav: header: magic %q, want %q: %w", file[:len(ownMagic)], ownMagic, ErrUnknownFormat)
	}
	if version := le.Uint32(file[8:]); version != ownVersion {
		return nil, fmt.Errorf("navmesh: archenav: header: version %d, want %d: %w", version, ownVersion, ErrUnsupportedVersion)
	}
	if len(file) < ownHeaderSize+ownChecksumSize {
		return nil, malformed("archenav", "header", "truncated: %d bytes, want at least %d", len(file), ownHeaderSize+ownChecksumSize)
	}
	body := file[:len(file)-ownChecksumSize]
	if stored, computed := le.Uint32(file[len(body):]), crc32.ChecksumIEEE(body); stored != computed {
		return nil, malformed("archenav", fmt.Sprintf("checksum at offset %#x", len(body)), "stored %#08x, computed %#08x (truncated or corrupted)", stored, computed)
	}
	if reserved := le.Uint32(file[12:]); reserved != 0 {
		return nil, malformed("archenav", "header", "reserved field is %#x, want 0", reserved)
	}
	params := decodeParams(file[16:])
	if err := checkFileParams(params); err != nil {
		return nil, malformed("archenav", "header", "%v", err)
	}
	tileCount := le.Uint32(file[44:])
	maxTileCount := (len(body) - ownHeaderSize) / (ownTileHeaderSize + dnavHeaderSize)
	if uint64(tileCount) > uint64(params.MaxTiles) || uint64(tileCount) > uint64(maxTileCount) {
		return nil, malformed("archenav", "header", "%d tiles: the mesh holds %d and the file has room for %d", tileCount, params.MaxTiles, maxTileCount)
	}

	m := &savedMesh{params: params, tiles: make([]savedTile, 0, tileCount)}
	usedSlots := make(map[uint32]int, tileCount)
	offset := ownHeaderSize
	for i := 0; i < int(tileCount); i++ {
		where := fmt.Sprintf("tile %d at offset %#x", i, offset)
		if len(body)-offset < ownTileHeaderSize {
			return nil, malformed("archenav", where, "truncated tile header")
		}
		ref := TileRef(le.Uint64(body[offset:]))
		size := uint64(le.Uint32(body[offset+8:]))
		offset += ownTileHeaderSize
		if ref.PolyIndex() != 0 || ref.Salt() == 0 || int(ref.TileIndex()) >= params.MaxTiles {
			return nil, malformed("archenav", where, "tile ref %#x: salt %d, slot %d, polygon %d (want salt >= 1, slot < %d, polygon 0)",
				uint64(ref), ref.Salt(), ref.TileIndex(), ref.PolyIndex(), params.MaxTiles)
		}
		if previous, taken := usedSlots[ref.TileIndex()]; taken {
			return nil, malformed("archenav", where, "tile slot %d already used by tile %d", ref.TileIndex(), previous)
		}
		usedSlots[ref.TileIndex()] = i
		if size > uint64(len(body)-offset) {
			return nil, malformed("archenav", where, "tile size %d, %d bytes left", size, len(body)-offset)
		}
		data, err := ReadDNAV(body[offset : offset+int(size)])
		if err != nil {
			return nil, fmt.Errorf("navmesh: archenav: %s: %w", where, err)
		}
		offset += int(size)

		polyCount := len(data.Polys)
		if len(body)-offset < 3*polyCount {
			return nil, malformed("archenav", where, "truncated polygon flags and areas: %d bytes for %d polygons", len(body)-offset, polyCount)
		}
		tile := savedTile{ref: ref, data: data, flags: make([]uint16, polyCount), areas: make([]uint8, polyCount)}
		for j := range tile.flags {
			tile.flags[j] = le.Uint16(body[offset+2*j:])
		}
		offset += 2 * polyCount
		copy(tile.areas, body[offset:offset+polyCount])
		for j, area := range tile.areas {
			if area >= MaxAreas {
				return nil, malformed("archenav", fmt.Sprintf("tile %d area %d at offset %#x", i, j, offset+j), "area %d, limit %d", area, MaxAreas-1)
			}
		}
		offset += polyCount
		m.tiles = append(m.tiles, tile)
	}
	if offset != len(body) {
		return nil, malformed("archenav", fmt.Sprintf("offset %#x", offset), "%d bytes after the last tile", len(body)-offset)
	}
	return m, nil
}
