package navmesh

import "slices"

// A snapshot whose tiles all sit in slots below flatTileSlots (every mesh
// but those whose tile cache or runtime links use slots from 65,536 on)
// keeps them as Detour's dtNavMesh does: a flat array indexed by slot
// (m_tiles), so that a tile lookup (every polygon lookup of every query) is
// one array index, and a position lookup of bucket heads (posLookup) with
// a next slot per slot (dtMeshTile::next), the tile's place read from its
// header. It costs 8 bytes a slot, 4 a slot for next and 4 a bucket (about
// 16 bytes a tile), where a radix table of tiles and a persistent chain of
// 24-byte lookup entries took about 60; publishing copies the three arrays
// (44 KB for the 1 km level's 2809 tiles). A snapshot with a tile in a
// higher slot (Params.MaxTiles up to 2^28) keeps persistent radix tables
// (snapshot_table.go) instead, whose publishing does not grow with the
// slots.
const flatTileSlots = 1 << 16

// isFlat reports whether the snapshot keeps its tiles in flat arrays (flat,
// heads, next) rather than in its radix tables.
func (s *Snapshot) isFlat() bool { return s.heads != nil }

// TileSlots returns the snapshot's tiles indexed by slot (nil for a free
// slot) when it keeps them in a flat array, which it does while every tile
// is in a slot below 65,536; else nil. A search can then resolve a polygon
// reference with one index into it, falling back on TileAndPoly for slots
// beyond it. The array is the snapshot's own: do not modify it.
func (s *Snapshot) TileSlots() []*Tile {
	if s.flatAll {
		return s.flat
	}
	return nil
}

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

// setTile puts t (nil: none) in slot i of the edit's table.
func (e *edit) setTile(i uint32, t *Tile) {
	if e.flatMode {
		// A slot far past the tiles (a file or tile cache that spreads
		// them out) goes to the radix tables, so that an edit never grows
		// the flat arrays ahead of its tiles; publish takes the flat
		// arrays back when every tile is below flatTileSlots.
		if i < uint32(len(e.flat)) || i < flatTileSlots && int(i) < 4*(e.tileCount+e.linkCount)+64 {
			if int(i) >= len(e.flat) {
				e.growFlat(int(i) + 1)
			}
			e.flat[i] = t
			return
		}
		e.toRadix()
	}
	e.tiles.set(i, t)
	e.touched = append(e.touched, i)
}

// growFlat lengthens the flat edit's arrays to n slots, their room at
// least doubling (an edit adding tiles in rising slots, as a load does,
// copies them a logarithmic number of times).
func (e *edit) growFlat(n int) {
	if n > cap(e.flat) {
		room := min(max(n, 2*cap(e.flat), 64), flatTileSlots)
		flat := make([]*Tile, len(e.flat), room)
		copy(flat, e.flat)
		e.flat = flat
	}
	if n > cap(e.next) {
		room := min(max(n, 2*cap(e.next), 64), flatTileSlots)
		next := make([]uint32, len(e.next), room)
		copy(next, e.next)
		e.next = next
	}
	e.flat = e.flat[:n]
	e.next = e.next[:n]
}

// toRadix moves the edit from flat arrays to radix tables, for a tile in a
// slot past flatTileSlots: the tiles, and each bucket's chain in its order.
func (e *edit) toRadix() {
	tiles := editRadix(radixTable[*Tile]{})
	for i, t := range e.flat {
		if t != nil {
			tiles.set(uint32(i), t)
		}
		e.touched = append(e.touched, uint32(i))
	}
	lookup := editRadix(radixTable[bucket]{})
	var chain []uint32
	for key := range e.heads {
		chain = e.chain(uint32(key), chain[:0])
		for _, slot := range slices.Backward(chain) {
			h := &e.flat[slot].Data.Header
			lookup.set(uint32(key), &tileEntry{x: h.X, y: h.Y, layer: h.Layer, index: slot, next: lookup.table.at(uint32(key))})
		}
	}
	e.tiles, e.lookup = tiles, lookup
	e.flatMode, e.flat, e.heads, e.next = false, nil, nil, nil
}

// chain appends to buf the slots of the flat edit's bucket key, in chain
// order.
func (e *edit) chain(key uint32, buf []uint32) []uint32 {
	for s := e.heads[key]; s != 0; s = e.next[s-1] {
		buf = append(buf, s-1)
	}
	return buf
}

// flatTiles returns the flat array of the edited radix table and whether
// it holds every tile.
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

// flatten moves a snapshot kept in radix tables whose tiles all sit below
// flatTileSlots to flat arrays, keeping each bucket's chain order: for a
// publish that took the last far tile away, and for a restored state.
func (s *Snapshot) flatten() {
	if s.isFlat() {
		return
	}
	if !s.flatAll {
		size := 0
		s.tiles.each(func(i uint32, t *Tile) {
			if t != nil {
				size = int(i) + 1
			}
		})
		if size > flatTileSlots {
			return
		}
		flat := make([]*Tile, size)
		s.tiles.each(func(i uint32, t *Tile) {
			if t != nil {
				flat[i] = t
			}
		})
		s.flat, s.flatAll = flat, true
	}
	heads := make([]uint32, s.lutMask+1)
	next := make([]uint32, len(s.flat))
	s.lookup.each(func(key uint32, head bucket) {
		if head != nil {
			heads[key] = head.index + 1
		}
		for entry := head; entry != nil; entry = entry.next {
			if entry.next != nil {
				next[entry.index] = entry.next.index + 1
			}
		}
	})
	s.heads, s.next = heads, next
	s.tiles, s.lookup = radixTable[*Tile]{}, radixTable[bucket]{}
}

// chain appends to buf the slots of bucket key's chain, in chain order.
func (s *Snapshot) chain(key uint32, buf []uint32) []uint32 {
	if s.isFlat() {
		for slot := s.heads[key]; slot != 0; slot = s.next[slot-1] {
			buf = append(buf, slot-1)
		}
		return buf
	}
	for entry := s.lookup.at(key); entry != nil; entry = entry.next {
		buf = append(buf, entry.index)
	}
	return buf
}
