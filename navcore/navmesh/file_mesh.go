package navmesh

import (
	"fmt"
	"io"
	"os"
)

// Save writes the tiles of m as an archenav mesh file: the mesh parameters,
// then per tile its ref (so polygon refs stay valid after Load), the
// polygon flags and areas as they are now, and the tile data as it was
// added; a CRC-32 closes the file. It writes one consistent Snapshot, even
// while other goroutines change the mesh.
func Save(w io.Writer, m *Mesh) error {
	if m == nil {
		return fmt.Errorf("navmesh: save: nil mesh")
	}
	if w == nil {
		return errNilWriter("save")
	}
	file, err := encodeOwn(savedFromMesh(m))
	if err != nil {
		return err
	}
	if _, err := w.Write(file); err != nil {
		return fmt.Errorf("navmesh: save: %w", err)
	}
	return nil
}

// Load reads an archenav mesh file written by Save and returns a new Mesh
// with every tile in its saved slot with its saved salt, and the saved
// polygon flags and areas (a tile whose flags or areas had changed is
// added as a copy of its data carrying them). The whole input is read and checked before the
// mesh is built; on any error no mesh is returned. A file SaveSet wrote
// with several meshes gives an error wrapping ErrSeveralMeshes (LoadSet
// reads it); one with a single mesh gives that mesh. As with ReadMSET,
// the tiles' arrays and TileData structs share blocks of up to 32 KiB.
func Load(r io.Reader) (*Mesh, error) {
	if r == nil {
		return nil, fmt.Errorf("navmesh: load: nil reader")
	}
	file, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("navmesh: load: %w", err)
	}
	saved, err := decodeOwn(file)
	if err != nil {
		return nil, err
	}
	return meshFromSaved(saved)
}

// LoadFile reads a navmesh file in any format this package knows, told
// apart by its magic number: a single C++ tile blob (DNAV, which becomes a
// one-tile mesh whose grid is the tile's bounds, like dtNavMesh::init with
// tile data), a RecastDemo tile set (MSET) or an archenav mesh file. It
// returns the mesh and the format found. On any error no mesh is returned.
// An archenav file of several meshes (one per agent type, see SaveSet)
// gives an error wrapping ErrSeveralMeshes: LoadSetFile reads it.
func LoadFile(path string) (*Mesh, Format, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, FormatUnknown, fmt.Errorf("navmesh: load: %w", err)
	}
	m, format, err := LoadBytes(file)
	if err != nil {
		return nil, format, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, format, nil
}

// LoadBytes is LoadFile for a file already in memory.
func LoadBytes(file []byte) (*Mesh, Format, error) {
	format := DetectFormat(file)
	var m *Mesh
	var err error
	switch format {
	case FormatDNAV:
		m, err = meshFromDNAV(file)
	case FormatMSET:
		var set *TileSet
		if set, err = ReadMSET(file); err == nil {
			m, err = set.Mesh()
		}
	case FormatArchenav:
		var saved *savedMesh
		if saved, err = decodeOwn(file); err == nil {
			m, err = meshFromSaved(saved)
		}
	default:
		head := file[:min(len(file), 8)]
		err = fmt.Errorf("navmesh: load: magic %q is not DNAV, MSET or archenav: %w", head, ErrUnknownFormat)
	}
	if err != nil {
		return nil, format, err
	}
	return m, format, nil
}

// SingleTileParams returns the parameters of a one-tile mesh for data, as
// dtNavMesh::init does for a single tile: the grid origin at the tile's
// BMin, one tile of the tile's xz size, MaxPolys its polygon count. A nil
// data gives zero Params, which New refuses.
func SingleTileParams(data *TileData) Params {
	if data == nil {
		return Params{}
	}
	h := &data.Header
	return Params{
		Origin:     h.BMin,
		TileWidth:  h.BMax[0] - h.BMin[0],
		TileHeight: h.BMax[2] - h.BMin[2],
		MaxTiles:   1,
		MaxPolys:   int(h.PolyCount),
	}
}

// meshFromDNAV builds a one-tile mesh from a C++ tile blob.
func meshFromDNAV(blob []byte) (*Mesh, error) {
	data, err := ReadDNAV(blob)
	if err != nil {
		return nil, err
	}
	m, err := New(SingleTileParams(data))
	if err != nil {
		return nil, fmt.Errorf("navmesh: load DNAV: %w", err)
	}
	if _, err := m.AddTile(data, 0); err != nil {
		return nil, fmt.Errorf("navmesh: load DNAV: %w", err)
	}
	return m, nil
}

// Mesh builds a new Mesh from the tile set, each tile in the slot and with
// the salt of its saved ref (the C++ loader does the same). The mesh is the
// one AddTile in file order would build, but built in one edit and
// published once, so loading allocates about the tiles' own data and takes
// time in proportion to the tiles, whatever Params.MaxTiles says.
func (s *TileSet) Mesh() (*Mesh, error) {
	m, err := meshWithTiles(s.Params, s.Tiles, nil)
	if err != nil {
		return nil, fmt.Errorf("navmesh: tile set: %w", err)
	}
	return m, nil
}

// meshWithTiles returns a new mesh for params holding tiles, each added
// with its Ref as lastRef, and links at their ids, in one edit published
// once. On error no mesh is returned.
func meshWithTiles(params Params, tiles []TileSetTile, links []savedLink) (*Mesh, error) {
	m, err := New(params)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.newEdit()
	// Nobody has seen the empty mesh: listing every tile as changed since
	// would cost 24 bytes a tile for nothing.
	e.changesAll = true
	if err := m.addSavedTiles(e, tiles, links); err != nil {
		e.abandon()
		return nil, err
	}
	m.current.Store(e.publish())
	return m, nil
}

// addSavedTiles adds tiles and then links to the edit e of the new mesh m,
// as meshWithTiles describes.
func (m *Mesh) addSavedTiles(e *edit, tiles []TileSetTile, links []savedLink) error {
	for i, tile := range tiles {
		if err := validateTileData(tile.Data, m.params); err != nil {
			return fmt.Errorf("tile %d: %w", i, err)
		}
		if _, err := m.addTileIn(e, tile.Data, tile.Ref); err != nil {
			return fmt.Errorf("tile %d: %w", i, err)
		}
	}
	return m.addSavedLinks(e, links)
}

// TileSetFromMesh returns the tiles of m as a TileSet for WriteMSET. As in
// a C++ mesh, whose polygons live inside the tile blob, a tile whose
// polygon flags or areas were changed at runtime is given with a copy of
// its data that carries the current values. A nil mesh gives nil.
func TileSetFromMesh(m *Mesh) *TileSet {
	if m == nil {
		return nil
	}
	snapshot := m.Snapshot()
	set := &TileSet{Params: snapshot.Params(), Tiles: make([]TileSetTile, 0, snapshot.TileCount())}
	forEachTile(snapshot, func(tile *Tile) {
		flags, areas := runtimeFlagsAndAreas(tile)
		set.Tiles = append(set.Tiles, TileSetTile{Ref: tile.Ref(), Data: withFlagsAndAreas(tile.Data, flags, areas)})
	})
	return set
}

// runtimeFlagsAndAreas returns the current flags and areas of the tile's
// polygons.
func runtimeFlagsAndAreas(tile *Tile) ([]uint16, []uint8) {
	flags := make([]uint16, len(tile.Polys))
	areas := make([]uint8, len(tile.Polys))
	for i := range tile.Polys {
		flags[i] = tile.Polys[i].Flags
		areas[i] = tile.Polys[i].Area()
	}
	return flags, areas
}

// withFlagsAndAreas returns data when its polygons have these flags and
// areas, or else a shallow copy of data with its own polygons carrying
// them. Setting them in the data before AddTile costs one copy, where
// SetPolyFlags per polygon would publish a tile version per call.
func withFlagsAndAreas(data *TileData, flags []uint16, areas []uint8) *TileData {
	same := true
	for i := range data.Polys {
		if data.Polys[i].Flags != flags[i] || data.Polys[i].Area() != areas[i] {
			same = false
			break
		}
	}
	if same {
		return data
	}
	changed := *data
	changed.Polys = clonePolys(data.Polys)
	for i := range changed.Polys {
		changed.Polys[i].Flags = flags[i]
		changed.Polys[i].SetArea(areas[i])
	}
	return withPolysClaim(&changed)
}

// meshFromSaved builds a Mesh from a decoded archenav file. A tile whose
// saved flags or areas differ from its data is added as a copy carrying
// them (as a C++ mesh keeps them in the tile data).
func meshFromSaved(saved *savedMesh) (*Mesh, error) {
	tiles := make([]TileSetTile, len(saved.tiles))
	for i, tile := range saved.tiles {
		tiles[i] = TileSetTile{Ref: tile.ref, Data: withFlagsAndAreas(tile.data, tile.flags, tile.areas)}
	}
	m, err := meshWithTiles(saved.params, tiles, saved.links)
	if err != nil {
		return nil, fmt.Errorf("navmesh: load: %w", err)
	}
	return m, nil
}

// forEachTile calls fn for every tile of the grid of the snapshot in slot
// order (link tiles are saved as links).
func forEachTile(s *Snapshot, fn func(*Tile)) {
	for tile := range s.Tiles() {
		if tile.Data.link == nil {
			fn(tile)
		}
	}
}
