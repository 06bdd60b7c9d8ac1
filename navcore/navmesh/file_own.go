package navmesh

import (
	"encoding/binary"
	"fmt"

	"github.com/archenav/archenav/internal/ownfile"
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
//	  links      the runtime links, only when there are any (file_links.go)
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
	ownMagic      = "ANAVMESH"
	ownVersion    = ownfile.SingleVersion
	ownSetVersion = ownfile.SetVersion

	ownPrefixSize     = ownfile.PrefixSize
	ownSectionHeader  = 28 + 4
	ownHeaderSize     = ownPrefixSize + ownSectionHeader
	ownTileHeaderSize = 8 + 4
	ownChecksumSize   = ownfile.ChecksumSize
)

// ownFormat is the envelope of the archenav mesh file (package ownfile).
var ownFormat = ownfile.Format{
	Magic: ownMagic, Noun: "mesh", Nouns: "meshes",
	MinSection: ownSectionHeader, MaxEntries: MaxMeshSetSize, MaxNameLength: MaxMeshNameLength,
	ValidateName: ValidateMeshName,
}

// ownFileError wraps what ownfile found wrong with a file into this
// package's errors.
func ownFileError(problem *ownfile.Error) error {
	return problem.Wrap("navmesh: archenav", ownfile.Sentinels{
		Malformed: ErrMalformedFile, UnknownFormat: ErrUnknownFormat, UnsupportedVersion: ErrUnsupportedVersion,
	})
}

// savedMesh is the content of an archenav mesh file.
type savedMesh struct {
	params Params
	tiles  []savedTile
	links  []savedLink
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
	out := ownFormat.AppendPrefix(make([]byte, 0, ownHeaderSize), ownVersion)
	out, err := appendMeshSection(out, m)
	if err != nil {
		return nil, fmt.Errorf("navmesh: save: %w", err)
	}
	return ownfile.AppendChecksum(out), nil
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
	return appendLinks(out, m.links), nil
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
	// The sections framed before a problem first: errors come in file
	// order.
	body, entries, problem := ownFormat.Decode(file)
	set := &savedSet{names: make([]string, 0, len(entries)), meshes: make([]*savedMesh, 0, len(entries))}
	for _, entry := range entries {
		label := "" // a version 1 file's mesh, the only unnamed one
		if entry.Name != "" {
			label = fmt.Sprintf("mesh %q: ", entry.Name)
		}
		m, err := decodeMeshSection(body[:entry.End], entry.Start, label)
		if err != nil {
			return nil, err
		}
		set.names = append(set.names, entry.Name)
		set.meshes = append(set.meshes, m)
	}
	if problem != nil {
		return nil, ownFileError(problem)
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
	arena := ownArena(body, offset, int(tileCount))
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
		data, err := readDNAV(body[offset:offset+int(size)], arena)
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
		links, err := decodeLinks(body, offset, params, label)
		if err != nil {
			return nil, err
		}
		m.links = links
	}
	return m, nil
}

// ownArena returns the tileArena for the tileCount tiles of a mesh
// section whose first tile record starts at offset: sized by a first pass
// over the tile records, which stops at the first one that does not fit
// (reading it will fail).
func ownArena(body []byte, offset, tileCount int) *tileArena {
	le := binary.LittleEndian
	words := 0
	for range tileCount {
		if len(body)-offset < ownTileHeaderSize {
			break
		}
		size := uint64(le.Uint32(body[offset+8:]))
		offset += ownTileHeaderSize
		if size > uint64(len(body)-offset) {
			break
		}
		tileWords, polyCount := tileArrayWords(body[offset : offset+int(size)])
		words += tileWords
		offset += int(size) + 3*polyCount
		if offset > len(body) {
			break
		}
	}
	return newTileArena(words, tileCount)
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
	out, err := ownfile.AppendEntries(ownFormat.AppendPrefix(nil, ownSetVersion), set.names, func(out []byte, i int) ([]byte, error) {
		out, err := appendMeshSection(out, set.meshes[i])
		if err != nil {
			return nil, fmt.Errorf("navmesh: save set: mesh %q: %w", set.names[i], err)
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return ownfile.AppendChecksum(out), nil
}
