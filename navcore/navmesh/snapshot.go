package navmesh

import (
	"iter"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/internal/fastgeom"
)

// Snapshot is an immutable view of a Mesh's tile set at one moment. It never
// changes after a Mesh hands it out and is safe for any number of
// goroutines. Refs resolved through one Snapshot are consistent with each
// other: every link of every tile in it names a polygon in it.
type Snapshot struct {
	params   Params
	maxTiles uint32
	// A flat snapshot (isFlat, snapshot_flat.go) holds its tiles by slot
	// in flat, its position lookup in heads (1 + the first slot of each
	// bucket's chain, 0 for none) and next (1 + the next slot of each
	// slot's chain); the radix tables tiles and lookup are then empty.
	// Otherwise they hold the tiles, and flat too when flatAll.
	tiles     radixTable[*Tile]
	flat      []*Tile
	flatAll   bool
	heads     []uint32
	next      []uint32
	lookup    radixTable[bucket]
	lutMask   uint32 // lookup size - 1: the lookup grows with the tile count
	tileCount int
	// linkCount is the number of runtime links, whose tiles take the slots
	// from params.MaxTiles up to maxTiles.
	linkCount int
	// connectivity holds the components of the tile set, computed on first
	// use and shared with the snapshots that only change flags or areas;
	// flagConnectivity those under flag rules, for this snapshot only.
	connectivity     *connectivityCell
	flagConnectivity *flagConnectivityCell
	// version counts publishes; history records what they changed
	// (snapshot_changes.go). stamp names the snapshot (Stamp).
	version uint64
	stamp   uint64
	history changeHistory
}

// Params returns the mesh parameters.
func (s *Snapshot) Params() Params { return s.params }

// MaxTiles returns the number of tile slots: Params.MaxTiles, and above
// them the slots runtime links (Mesh.AddLink) have taken, up to the
// highest ever used. A loop over the slots up to MaxTiles meets the link
// tiles too (Tile.IsLink).
func (s *Snapshot) MaxTiles() int { return int(s.maxTiles) }

// CalcTileLoc returns the grid location of the tile containing pos
// (dtNavMesh::calcTileLoc) [Units: pos in world units]. Locations beyond the
// int32 range saturate, and a NaN coordinate gives 0.
func (s *Snapshot) CalcTileLoc(pos mgl32.Vec3) (tx, ty int) { return tileLoc(&s.params, pos) }

// TileCount returns the number of tiles of the grid in the snapshot (link
// tiles not counted: see LinkCount).
func (s *Snapshot) TileCount() int { return s.tileCount }

// Tile returns the tile in slot i, nil when the slot is free or i is out of
// range.
func (s *Snapshot) Tile(i int) *Tile {
	if i < 0 || i >= int(s.maxTiles) {
		return nil
	}
	return s.tileAt(uint32(i))
}

// NextTile returns the tile in the lowest occupied slot at or after slot,
// nil when there is none. It skips empty ranges of slots whole, so a walk
// over every tile,
//
//	for t := s.NextTile(0); t != nil; t = s.NextTile(t.Index() + 1) {...}
//
// costs about the tile count times the height of the slot table (at most
// 6), not MaxTiles, and allocates nothing; in a mesh whose tiles all sit
// in slots below 65,536 (every mesh but those whose tile cache or runtime
// links use higher slots) it is a walk along the slots up to the highest
// in use.
func (s *Snapshot) NextTile(slot int) *Tile {
	if slot < 0 {
		slot = 0
	}
	if s.isFlat() {
		for ; slot < len(s.flat); slot++ {
			if t := s.flat[slot]; t != nil {
				return t
			}
		}
		return nil
	}
	for from := uint64(slot); ; {
		leaf, base, ok := s.tiles.nextLeaf(from)
		if !ok {
			return nil
		}
		for k := max(from, base) - base; k < radixFanout; k++ {
			if t := leaf.values[k]; t != nil {
				return t
			}
		}
		from = base + radixFanout
	}
}

// Tiles returns an iterator over the tiles of the snapshot in slot order;
// see NextTile for its cost.
func (s *Snapshot) Tiles() iter.Seq[*Tile] {
	return func(yield func(*Tile) bool) {
		for t := s.NextTile(0); t != nil; t = s.NextTile(t.Index() + 1) {
			if !yield(t) {
				return
			}
		}
	}
}

// TileAt returns the tile at grid location (x, y, layer), nil if none.
func (s *Snapshot) TileAt(x, y, layer int) *Tile {
	if !fitsInt32(x) || !fitsInt32(y) || !fitsInt32(layer) {
		return nil
	}
	if s.isFlat() {
		for slot := s.heads[tileHash(int32(x), int32(y), s.lutMask)]; slot != 0; slot = s.next[slot-1] {
			if t := s.flat[slot-1]; t.Data.Header.X == int32(x) && t.Data.Header.Y == int32(y) && t.Data.Header.Layer == int32(layer) {
				return t
			}
		}
		return nil
	}
	for e := s.bucketAt(int32(x), int32(y)); e != nil; e = e.next {
		if e.x == int32(x) && e.y == int32(y) && e.layer == int32(layer) {
			return s.tileAt(e.index)
		}
	}
	return nil
}

// TilesAt appends every tile at grid column (x, y), all layers, to dst, most
// recently added first (the C++ hash-chain order).
func (s *Snapshot) TilesAt(x, y int, dst []*Tile) []*Tile {
	if !fitsInt32(x) || !fitsInt32(y) {
		return dst
	}
	if s.isFlat() {
		for slot := s.heads[tileHash(int32(x), int32(y), s.lutMask)]; slot != 0; slot = s.next[slot-1] {
			if t := s.flat[slot-1]; t.Data.Header.X == int32(x) && t.Data.Header.Y == int32(y) {
				dst = append(dst, t)
			}
		}
		return dst
	}
	for e := s.bucketAt(int32(x), int32(y)); e != nil; e = e.next {
		if e.x == int32(x) && e.y == int32(y) {
			dst = append(dst, s.tileAt(e.index))
		}
	}
	return dst
}

// NeighbourTilesAt appends to dst the tiles of the grid column next to
// (x, y) towards side (0 = +x, 2 = +y i.e. +z, 4 = -x, 6 = -y, odd values
// the diagonals). dst is returned unchanged for a side outside 0..7.
func (s *Snapshot) NeighbourTilesAt(x, y, side int, dst []*Tile) []*Tile {
	nx, ny, ok := neighbourLocation(x, y, side)
	if !ok {
		return dst
	}
	return s.TilesAt(nx, ny, dst)
}

// TileRefAt returns the reference of the tile at (x, y, layer), 0 if none.
func (s *Snapshot) TileRefAt(x, y, layer int) TileRef {
	if t := s.TileAt(x, y, layer); t != nil {
		return t.Ref()
	}
	return 0
}

// TileByRef returns the tile ref names, nil when ref is zero, stale or out
// of range. The polygon part of ref is ignored.
func (s *Snapshot) TileByRef(ref TileRef) *Tile {
	if ref == 0 {
		return nil
	}
	it := ref.TileIndex()
	if it >= s.maxTiles {
		return nil
	}
	t := s.tileAt(it)
	if t == nil || t.salt != ref.Salt() {
		return nil
	}
	return t
}

// IsValid reports whether ref names a polygon of this snapshot.
func (s *Snapshot) IsValid(ref Ref) bool {
	_, _, err := s.TileAndPoly(ref)
	return err == nil
}

// TileAndPoly returns the tile and polygon ref names. The error wraps
// ErrInvalidRef when ref is zero, stale (its tile was removed) or out of
// range. It does not allocate.
func (s *Snapshot) TileAndPoly(ref Ref) (*Tile, *Poly, error) {
	if ref == 0 {
		return nil, nil, errNullRef
	}
	it := ref.TileIndex()
	if it >= s.maxTiles {
		return nil, nil, errTileIndexRange
	}
	t := s.tileAt(it)
	if t == nil {
		return nil, nil, errEmptySlot
	}
	if t.salt != ref.Salt() {
		return nil, nil, errStaleSalt
	}
	ip := ref.PolyIndex()
	if ip >= uint32(len(t.Polys)) {
		return nil, nil, errPolyIndexRange
	}
	return t, &t.Polys[ip], nil
}

// TileAndPolyUnchecked returns the tile and polygon of a ref already known
// to be valid in this snapshot, skipping the salt check. For a ref that
// names no polygon it returns nil, nil (it never panics); for a stale ref it
// may return whatever tile now holds the slot.
func (s *Snapshot) TileAndPolyUnchecked(ref Ref) (*Tile, *Poly) {
	if t := s.tileAt(ref.TileIndex()); t != nil {
		if ip := ref.PolyIndex(); ip < uint32(len(t.Polys)) {
			return t, &t.Polys[ip]
		}
	}
	return nil, nil
}

// OffMeshConnectionEndPoints returns the end points of the off-mesh
// connection polygon polyRef in the order it is travelled when entered from
// prevRef: start is the end linked to prevRef.
func (s *Snapshot) OffMeshConnectionEndPoints(prevRef, polyRef Ref) (start, end mgl32.Vec3, err error) {
	t, poly, err := s.TileAndPoly(polyRef)
	if err != nil {
		return start, end, err
	}
	if poly.Type() != PolyTypeOffMeshConnection {
		return start, end, errNotOffMesh
	}
	first, second := 0, 1
	for i := poly.FirstLink; i != NullLink; i = t.Links[i].Next {
		if t.Links[i].Edge == 0 {
			if t.Links[i].Ref != prevRef {
				first, second = 1, 0
			}
			break
		}
	}
	return t.Verts[poly.Verts[first]], t.Verts[poly.Verts[second]], nil
}

// OffMeshConnectionByRef returns the off-mesh connection of the polygon ref.
// The connection belongs to the tile's TileData: do not modify it.
func (s *Snapshot) OffMeshConnectionByRef(ref Ref) (*OffMeshConnection, error) {
	t, poly, err := s.TileAndPoly(ref)
	if err != nil {
		return nil, err
	}
	if poly.Type() != PolyTypeOffMeshConnection {
		return nil, errNotOffMesh
	}
	return &t.Data.OffMeshConnections[ref.PolyIndex()-uint32(t.Data.Header.OffMeshBase)], nil
}

// PolyFlags returns the user flags of the polygon ref.
func (s *Snapshot) PolyFlags(ref Ref) (uint16, error) {
	_, poly, err := s.TileAndPoly(ref)
	if err != nil {
		return 0, err
	}
	return poly.Flags, nil
}

// PolyArea returns the area id of the polygon ref.
func (s *Snapshot) PolyArea(ref Ref) (uint8, error) {
	_, poly, err := s.TileAndPoly(ref)
	if err != nil {
		return 0, err
	}
	return poly.Area(), nil
}

// ClosestPointOnPoly returns the point of polygon ref closest to pos; see
// Tile.ClosestPointOnPoly.
func (s *Snapshot) ClosestPointOnPoly(ref Ref, pos mgl32.Vec3) (closest mgl32.Vec3, posOverPoly bool, err error) {
	t, _, err := s.TileAndPoly(ref)
	if err != nil {
		return pos, false, err
	}
	p, posOverPoly := t.closestPointOnPoly(ref.PolyIndex(), fastgeom.FromVec3(pos))
	return p.Vec3(), posOverPoly, nil
}

func (s *Snapshot) bucketAt(x, y int32) bucket {
	// The lookup has lutMask+1 buckets, grown with the tile count.
	return s.lookup.at(tileHash(x, y, s.lutMask))
}
