package navmesh

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/go-gl/mathgl/mgl32"
)

// Mesh is a tiled navigation mesh (dtNavMesh). Readers take a Snapshot and
// work on it; writers (AddTile, RemoveTile, SetPolyFlags, SetPolyArea)
// serialize on a mutex, build the next tile set beside the current one and
// publish it with one atomic store. A Mesh is safe for concurrent use.
type Mesh struct {
	params  Params
	current atomic.Pointer[Snapshot]

	mu    sync.Mutex // serializes writers
	slots slotAllocator
	links linkRegistry
}

// Limits of Params.
const (
	// MaxTileSlots is the largest MaxTiles (2^TileBits).
	MaxTileSlots = 1 << TileBits
	// MaxPolysPerTile is the largest MaxPolys (2^PolyBits).
	MaxPolysPerTile = 1 << PolyBits
)

// New returns an empty mesh for params. The error wraps ErrInvalidParams when
// MaxTiles is outside 1..2^28, MaxPolys outside 1..2^20, the origin is not
// finite or a tile size is not a positive finite number.
func New(params Params) (*Mesh, error) {
	if err := validateParams(params); err != nil {
		return nil, err
	}
	m := &Mesh{
		params: params,
		slots:  slotAllocator{maxTiles: uint32(params.MaxTiles)},
	}
	m.current.Store(&Snapshot{
		params:   params,
		maxTiles: uint32(params.MaxTiles),
		flatAll:  true,
		heads:    make([]uint32, 1),
		stamp:    newStamp(),

		connectivity:     new(connectivityCell),
		flagConnectivity: new(flagConnectivityCell),
	})
	return m, nil
}

func validateParams(p Params) error {
	switch {
	case p.MaxTiles < 1 || p.MaxTiles > MaxTileSlots:
		return fmt.Errorf("%w: MaxTiles %d outside 1..%d", ErrInvalidParams, p.MaxTiles, MaxTileSlots)
	case p.MaxPolys < 1 || p.MaxPolys > MaxPolysPerTile:
		return fmt.Errorf("%w: MaxPolys %d outside 1..%d", ErrInvalidParams, p.MaxPolys, MaxPolysPerTile)
	case !finite(p.Origin[0]) || !finite(p.Origin[1]) || !finite(p.Origin[2]):
		return fmt.Errorf("%w: origin %v is not finite", ErrInvalidParams, p.Origin)
	case !finite(p.TileWidth) || p.TileWidth <= 0:
		return fmt.Errorf("%w: tile width %v is not a positive number", ErrInvalidParams, p.TileWidth)
	case !finite(p.TileHeight) || p.TileHeight <= 0:
		return fmt.Errorf("%w: tile height %v is not a positive number", ErrInvalidParams, p.TileHeight)
	}
	return nil
}

func finite(f float32) bool {
	return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0)
}

// Params returns the parameters the mesh was made with.
func (m *Mesh) Params() Params { return m.params }

// Snapshot returns the current tile set: one atomic load, no allocation.
func (m *Mesh) Snapshot() *Snapshot { return m.current.Load() }

// CalcTileLoc returns the grid location of the tile containing pos; see
// Snapshot.CalcTileLoc.
func (m *Mesh) CalcTileLoc(pos mgl32.Vec3) (tx, ty int) { return tileLoc(&m.params, pos) }

// AddTile adds data as a tile and links it with its neighbours
// (dtNavMesh::addTile). With lastRef 0 the tile takes the head of the free
// slot list (slots 0, 1, 2... on a fresh mesh, then the most recently freed
// first); with a non-zero lastRef it goes to that slot with that salt, so the
// tile's polygon refs are the ones it had before (tile cache). The mesh keeps
// data and modifies nothing of it but the polygons' FirstLink, when it links
// them in place (see TileData). Errors wrap ErrInvalidData (inconsistent
// data), ErrTileExists (location or slot taken), ErrOutOfTiles or
// ErrInvalidRef (bad lastRef); on error nothing changes. The caller must not
// modify data while the mesh or any Snapshot may still use it, nor read its
// polygons' FirstLink while AddTile runs.
func (m *Mesh) AddTile(data *TileData, lastRef TileRef) (TileRef, error) {
	if err := validateTileData(data, m.params); err != nil {
		return 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()

	e := m.newEdit()
	ref, err := m.addTileIn(e, data, lastRef)
	if err != nil {
		return 0, err
	}
	m.current.Store(e.publish())
	return ref, nil
}

// addTileIn adds validated data to the edit e of m, as AddTile does. The
// caller holds m.mu. On error neither e nor the slots change.
func (m *Mesh) addTileIn(e *edit, data *TileData, lastRef TileRef) (TileRef, error) {
	h := &data.Header
	if e.tileAt(h.X, h.Y, h.Layer) != nil {
		return 0, fmt.Errorf("navmesh: add tile (%d, %d, layer %d): %w", h.X, h.Y, h.Layer, ErrTileExists)
	}
	index, salt, err := m.slots.choose(lastRef)
	if err != nil {
		return 0, fmt.Errorf("navmesh: add tile (%d, %d, layer %d) at ref %#x: %w", h.X, h.Y, h.Layer, uint64(lastRef), err)
	}
	m.slots.take(index)
	tile := newTile(data, index, salt)
	e.addTile(tile)
	return tile.Ref(), nil
}

// RemoveTile removes the tile ref names, unlinks its neighbours from it and
// returns the data it was added with (dtNavMesh::removeTile). The slot's salt
// is bumped, so refs into the removed tile become invalid. The error wraps
// ErrInvalidRef when ref is zero, stale or out of range.
func (m *Mesh) RemoveTile(ref TileRef) (*TileData, error) {
	m.mu.Lock()
	defer m.mu.Unlock()

	cur := m.current.Load()
	tile := cur.TileByRef(ref)
	if tile == nil || tile.Data.link != nil {
		return nil, fmt.Errorf("navmesh: remove tile %#x: %w", uint64(ref), ErrInvalidRef)
	}
	e := m.newEdit()
	e.removeTile(tile)
	m.slots.release(tile.index, nextSalt(tile.salt))
	m.current.Store(e.publish())
	return tile.Data, nil
}

// SetPolyFlags sets the user flags of the polygon ref. The error wraps
// ErrInvalidRef when ref names no polygon.
func (m *Mesh) SetPolyFlags(ref Ref, flags uint16) error {
	return m.editPoly(ref, func(p *Poly) { p.Flags = flags })
}

// SetPolyArea sets the area id of the polygon ref [Limit: 0..63; higher bits
// are dropped]. The error wraps ErrInvalidRef when ref names no polygon.
func (m *Mesh) SetPolyArea(ref Ref, area uint8) error {
	return m.editPoly(ref, func(p *Poly) { p.SetArea(area) })
}

func (m *Mesh) editPoly(ref Ref, change func(*Poly)) error {
	m.mu.Lock()
	defer m.mu.Unlock()

	cur := m.current.Load()
	if _, _, err := cur.TileAndPoly(ref); err != nil {
		return fmt.Errorf("navmesh: set polygon %#x: %w", uint64(ref), err)
	}
	e := newEdit(cur)
	d := e.draftOf(ref.TileIndex())
	change(&d.polys()[ref.PolyIndex()])
	e.noteChange(d.tile.index, d.tile.Data.Header.X, d.tile.Data.Header.Y, d.tile.Data.Header.Layer)
	next := e.publish()
	next.connectivity = cur.connectivity // links unchanged: same components
	m.current.Store(next)
	return nil
}
