package navmesh

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
)

// The archenav mesh file, little-endian throughout. Version 1 holds one
// mesh:
//
//	magic      8 bytes  "ANAVMESH"
//	version    uint32   1
//	reserved   uint32   0
//	mesh       the mesh section:
//	  params     28 bytes origin (3 float32), tile width, tile height
//	             (float32), max tiles, max polys (uint32)
//	  tile count uint32
//	  per tile:
//	    ref      uint64   TileRef (salt, slot) so refs survive a reload
//	    size     uint32   size of the DNAV blob
//	    blob     size bytes, the tile data as WriteDNAV writes it
//	    flags    PolyCount uint16, the polygon flags at save time
//	    areas    PolyCount uint8, the polygon areas at save time
//	checksum   uint32   CRC-32 (IEEE) of every byte before it
//
// Version 2 holds a MeshSet, one named mesh per agent type:
//
//	magic      8 bytes  "ANAVMESH"
//	version    uint32   2
//	reserved   uint32   0
//	mesh count uint32   1..MaxMeshSetSize
//	per mesh, in the set's order:
//	  name size uint32  1..MaxMeshNameLength
//	  name      UTF-8 bytes, no control characters, unique in the file
//	  size      uint64  size of the mesh section that follows
//	  mesh      the mesh section, as in version 1
//	checksum   uint32   CRC-32 (IEEE) of every byte before it
//
// SaveSet writes version 1 for a set of one unnamed mesh, so that Save and
// SaveSet write the same bytes for it.
const (
	ownMagic             = "ANAVMESH"
	ownVersion    uint32 = 1
	ownSetVersion uint32 = 2

	ownPrefixSize     = 8 + 4 + 4
	ownSectionHeader  = 28 + 4
	ownHeaderSize     = ownPrefixSize + ownSectionHeader
	ownTileHeaderSize = 8 + 4
	ownChecksumSize   = 4
	// ownSetEntrySize is the smallest entry of a mesh in a version 2 file:
	// the name size, a one-byte name, the section size and an empty
	// section.
	ownSetEntrySize = 4 + 1 + 8 + ownSectionHeader
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

// encodeOwn returns the version 1 file bytes of m.
func encodeOwn(m *savedMesh) ([]byte, error) {
	out := appendOwnPrefix(make([]byte, 0, ownHeaderSize), ownVersion)
	out, err := appendMeshSection(out, m)
	if err != nil {
		return nil, fmt.Errorf("navmesh: save: %w", err)
	}
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}

// appendOwnPrefix appends the magic, the version and the reserved field.
func appendOwnPrefix(out []byte, version uint32) []byte {
	out = append(out, ownMagic...)
	out = binary.LittleEndian.AppendUint32(out, version)
	return binary.LittleEndian.AppendUint32(out, 0)
}

// appendMeshSection appends the mesh section of m: its params, its tile
// count and its tiles.
func appendMeshSection(out []byte, m *savedMesh) ([]byte, error) {
	if err := checkFileParams(m.params); err != nil {
		return nil, fmt.Errorf("%v: %w", err, ErrInconsistentTileData)
	}
	le := binary.LittleEndian
	out = appendParams(out, m.params)
	out = le.AppendUint32(out, uint32(len(m.tiles)))
	for i, tile := range m.tiles {
		blob, err := MarshalDNAV(tile.data)
		if err != nil {
			return nil, fmt.Errorf("tile %d: %w", i, err)
		}
		if len(tile.flags) != len(tile.data.Polys) || len(tile.areas) != len(tile.data.Polys) {
			return nil, fmt.Errorf("tile %d: %d flags and %d areas for %d polygons: %w",
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
	return out, nil
}

// savedSet is the content of an archenav mesh file of either version: a
// version 1 file holds one mesh named "".
type savedSet struct {
	names  []string
	meshes []*savedMesh
}

// decodeOwn decodes an archenav mesh file that holds one mesh: any version
// 1 file, or a version 2 file of one mesh. A file of several meshes gives
// an error wrapping ErrSeveralMeshes that names them.
func decodeOwn(file []byte) (*savedMesh, error) {
	set, err := decodeOwnSet(file)
	if err != nil {
		return nil, err
	}
	if len(set.meshes) != 1 {
		return nil, fmt.Errorf("navmesh: archenav: the file holds %d meshes (%s): load it with LoadSet: %w",
			len(set.meshes), quotedNames(set.names), ErrSeveralMeshes)
	}
	return set.meshes[0], nil
}

// decodeOwnSet decodes an archenav mesh file of either version. Sizes and
// counts are checked against the bytes present before anything is
// allocated for them.
func decodeOwnSet(file []byte) (*savedSet, error) {
	le := binary.LittleEndian
	if len(file) < len(ownMagic)+4 {
		return nil, malformed("archenav", "header", "truncated: %d bytes, want at least %d", len(file), ownHeaderSize+ownChecksumSize)
	}
	if string(file[:len(ownMagic)]) != ownMagic {
		return nil, fmt.Errorf("navmesh: archenav: header: magic %q, want %q: %w", file[:len(ownMagic)], ownMagic, ErrUnknownFormat)
	}
	version := le.Uint32(file[8:])
	if version != ownVersion && version != ownSetVersion {
		return nil, fmt.Errorf("navmesh: archenav: header: version %d, want %d or %d: %w", version, ownVersion, ownSetVersion, ErrUnsupportedVersion)
	}
	minSize := ownHeaderSize + ownChecksumSize
	if version == ownSetVersion {
		minSize = ownPrefixSize + 4 + ownSetEntrySize + ownChecksumSize
	}
	if len(file) < minSize {
		return nil, malformed("archenav", "header", "truncated: %d bytes, want at least %d", len(file), minSize)
	}
	body := file[:len(file)-ownChecksumSize]
	if stored, computed := le.Uint32(file[len(body):]), crc32.ChecksumIEEE(body); stored != computed {
		return nil, malformed("archenav", fmt.Sprintf("checksum at offset %#x", len(body)), "stored %#08x, computed %#08x (truncated or corrupted)", stored, computed)
	}
	if reserved := le.Uint32(file[12:]); reserved != 0 {
		return nil, malformed("archenav", "header", "reserved field is %#x, want 0", reserved)
	}
	if version == ownVersion {
		m, err := decodeMeshSection(body, ownPrefixSize, "")
		if err != nil {
			return nil, err
		}
		return &savedSet{names: []string{""}, meshes: []*savedMesh{m}}, nil
	}
	return decodeSetEntries(body)
}

// decodeSetEntries decodes the meshes of a version 2 file's body.
func decodeSetEntries(body []byte) (*savedSet, error) {
	le := binary.LittleEndian
	count := le.Uint32(body[ownPrefixSize:])
	roomFor := (len(body) - ownPrefixSize - 4) / ownSetEntrySize
	if count == 0 || count > MaxMeshSetSize || uint64(count) > uint64(roomFor) {
		return nil, malformed("archenav", "header", "%d meshes: want 1..%d and the file has room for %d", count, MaxMeshSetSize, roomFor)
	}
	set := &savedSet{names: make([]string, 0, count), meshes: make([]*savedMesh, 0, count)}
	offset := ownPrefixSize + 4
	for i := 0; i < int(count); i++ {
		where := fmt.Sprintf("mesh %d at offset %#x", i, offset)
		if len(body)-offset < 4 {
			return nil, malformed("archenav", where, "truncated name size")
		}
		nameSize := uint64(le.Uint32(body[offset:]))
		offset += 4
		if nameSize == 0 || nameSize > MaxMeshNameLength || nameSize > uint64(len(body)-offset) {
			return nil, malformed("archenav", where, "name size %d: want 1..%d, %d bytes left", nameSize, MaxMeshNameLength, len(body)-offset)
		}
		name := string(body[offset : offset+int(nameSize)])
		offset += int(nameSize)
		if err := ValidateMeshName(name); err != nil {
			return nil, malformed("archenav", where, "%v", err)
		}
		if previous := slices.Index(set.names, name); previous >= 0 {
			return nil, malformed("archenav", where, "name %q already used by mesh %d", name, previous)
		}
		if len(body)-offset < 8 {
			return nil, malformed("archenav", where, "truncated section size")
		}
		size := le.Uint64(body[offset:])
		offset += 8
		if size > uint64(len(body)-offset) {
			return nil, malformed("archenav", where, "section size %d, %d bytes left", size, len(body)-offset)
		}
		end := offset + int(size)
		m, err := decodeMeshSection(body[:end], offset, fmt.Sprintf("mesh %q: ", name))
		if err != nil {
			return nil, err
		}
		set.names = append(set.names, name)
		set.meshes = append(set.meshes, m)
		offset = end
	}
	if offset != len(body) {
		return nil, malformed("archenav", fmt.Sprintf("offset %#x", offset), "%d bytes after the last mesh", len(body)-offset)
	}
	return set, nil
}

// decodeMeshSection decodes the mesh section that starts at offset start
// and ends at the end of body; label starts the place of its errors
// ("mesh \"ogre\": "). Offsets in errors are offsets in body.
func decodeMeshSection(body []byte, start int, label string) (*savedMesh, error) {
	le := binary.LittleEndian
	if len(body)-start < ownSectionHeader {
		return nil, malformed("archenav", label+"header", "truncated: %d bytes for the mesh, want at least %d", len(body)-start, ownSectionHeader)
	}
	params := decodeParams(body[start:])
	if err := checkFileParams(params); err != nil {
		return nil, malformed("archenav", label+"header", "%v", err)
	}
	tileCount := le.Uint32(body[start+28:])
	maxTileCount := (len(body) - start - ownSectionHeader) / (ownTileHeaderSize + dnavHeaderSize)
	if uint64(tileCount) > uint64(params.MaxTiles) || uint64(tileCount) > uint64(maxTileCount) {
		return nil, malformed("archenav", label+"header", "%d tiles: the mesh holds %d and the file has room for %d", tileCount, params.MaxTiles, maxTileCount)
	}

	m := &savedMesh{params: params, tiles: make([]savedTile, 0, tileCount)}
	usedSlots := make(map[uint32]int, tileCount)
	offset := start + ownSectionHeader
	for i := 0; i < int(tileCount); i++ {
		where := fmt.Sprintf("%stile %d at offset %#x", label, i, offset)
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
				return nil, malformed("archenav", fmt.Sprintf("%stile %d area %d at offset %#x", label, i, j, offset+j), "area %d, limit %d", area, MaxAreas-1)
			}
		}
		offset += polyCount
		m.tiles = append(m.tiles, tile)
	}
	if offset != len(body) {
		return nil, malformed("archenav", fmt.Sprintf("%soffset %#x", label, offset), "%d bytes after the last tile", len(body)-offset)
	}
	return m, nil
}

// encodeOwnSet returns the file bytes of the meshes with their names:
// version 1 for one mesh named "", else version 2.
func encodeOwnSet(set *savedSet) ([]byte, error) {
	if len(set.meshes) == 1 && set.names[0] == "" {
		return encodeOwn(set.meshes[0])
	}
	if err := checkSetNames(set.names); err != nil {
		return nil, fmt.Errorf("navmesh: save set: %w", err)
	}
	le := binary.LittleEndian
	out := appendOwnPrefix(nil, ownSetVersion)
	out = le.AppendUint32(out, uint32(len(set.meshes)))
	for i, m := range set.meshes {
		name := set.names[i]
		out = le.AppendUint32(out, uint32(len(name)))
		out = append(out, name...)
		sizeAt := len(out)
		out = le.AppendUint64(out, 0)
		var err error
		if out, err = appendMeshSection(out, m); err != nil {
			return nil, fmt.Errorf("navmesh: save set: mesh %q: %w", name, err)
		}
		le.PutUint64(out[sizeAt:], uint64(len(out)-sizeAt-8))
	}
	return le.AppendUint32(out, crc32.ChecksumIEEE(out)), nil
}
