package navmesh

// A snapshot keeps, beside its radix table of tiles, a flat array of them
// indexed by slot while every slot in use is below flatTileSlots: a tile
// lookup (every polygon lookup of every query) is then one array index, as
// in Detour's dtNavMesh::m_tiles, instead of a walk down the radix table
// (three levels on the 1 km level's 4096 slots). Publishing copies the
// array, 8 bytes per slot up to the highest in use (22 KB for the 1 km
// level's 2809 tiles); a mesh whose tiles use higher slots (Params.MaxTiles
// up to 2^28) keeps the radix table alone, whose publishing does not grow
// with the slots.
const flatTileSlots = 1 << 16

// TileSlots returns the snapshot's tiles indexed by slot (nil for a free
// slot) when it keeps them in a flat array, which it does while every tile
// is in a slot below 65,536; else nil. A search can then resolve a polygon
// reference with one index into it, falling back on TileAndPoly for slots
// beyond it. The array is the snapshot's own: do not modify it.
func (s *Snapshot) TileSlots() []*Tile { return s.flat }

// tileAt returns the tile in slot i, nil for none.
func (s *Snapshot) tileAt(i uint32) *Tile {
	if s.flatAll {
		if i < uint32(len(s.flat)) {
			return s.flat[i]
		}
		return nil
	}
	return s.tiles.at(i)
}

// setTile puts t (nil: none) in slot i of the edit's table, noting the
// slot for the flat array.
func (e *edit) setTile(i uint32, t *Tile) {
	e.tiles.set(i, t)
	e.touched = append(e.touched, i)
}

// flatTiles returns the flat array of the edited table and whether it
// holds every tile.
func (e *edit) flatTiles() ([]*Tile, bool) {
	base := e.base
	size := len(base.flat)
	for _, i := range e.touched {
		if e.tiles.table.at(i) == nil {
			continue
		}
		if i >= flatTileSlots {
			return nil, false
		}
		size = max(size, int(i)+1)
	}
	flat := make([]*Tile, size)
	if base.flatAll {
		copy(flat, base.flat)
		for _, i := range e.touched {
			if int(i) < size {
				flat[i] = e.tiles.table.at(i)
			}
		}
		return flat, true
	}
	// The base had tiles in slots past the flat array's reach: start
	// afresh, if they all went.
	all := true
	e.tiles.table.each(func(i uint32, t *Tile) {
		switch {
		case t == nil:
		case i >= flatTileSlots:
			all = false
		default:
			if int(i) >= len(flat) {
				flat = append(flat, make([]*Tile, int(i)+1-len(flat))...)
			}
			flat[i] = t
		}
	})
	if !all {
		return nil, false
	}
	return flat, true
}
