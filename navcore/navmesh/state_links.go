package navmesh

import (
	"cmp"
	"maps"
	"slices"

	"github.com/archenav/archenav/internal/binstate"
	"github.com/go-gl/mathgl/mgl32"
)

// The runtime links of a MeshState follow its tiles, only when the mesh
// has or had any (so that a state without links is written as before
// links were saved):
//
//	slot count    uint32: Snapshot.MaxTiles, the link slots included
//	link slots    the link slot allocator (relative to Params.MaxTiles):
//	              next fresh slot, the freed slots with their next salt
//	              (head last), the slots taken out of order
//	columns       per grid column a link end searches (sorted by x, y):
//	              x, y and the link slots in the order they land again
//	link tiles    count, then per link tile in slot order: slot, salt,
//	              its LinkDesc, its vertices (the ends where they landed)
//	              and what appendTileLinks writes

// Smallest encodings of the link block [Units: bytes].
const (
	stateColumnSize   = 4 + 4 + 4
	stateLinkTileSize = 4 + 4 + 12 + 12 + 4 + 4 + 4 + 1 + 1 + 2 + 4 + 4 + 4 + 4 + 4
)

// empty reports whether the registry never held a link.
func (r *linkRegistry) empty() bool {
	return r.slots.nextFresh == 0 && len(r.slots.freed) == 0 && len(r.slots.takenFresh) == 0 && len(r.columns) == 0
}

// appendLinkState appends the link block of snap and registry.
func appendLinkState(w *binstate.Writer, snap *Snapshot, registry *linkRegistry) error {
	w.U32(snap.maxTiles)
	slots := &registry.slots
	w.U32(slots.nextFresh)
	w.Count(len(slots.freed))
	for _, f := range slots.freed {
		w.U32(f.index)
		w.U32(f.salt)
	}
	taken := slices.Sorted(maps.Keys(slots.takenFresh))
	w.Count(len(taken))
	for _, index := range taken {
		w.U32(index)
	}

	columns := slices.SortedFunc(maps.Keys(registry.columns), func(a, b linkColumn) int {
		return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.y, b.y))
	})
	w.Count(len(columns))
	for _, c := range columns {
		w.I32(c.x)
		w.I32(c.y)
		list := registry.columns[c]
		w.Count(len(list))
		for _, slot := range list {
			w.U32(slot)
		}
	}

	w.Count(snap.linkCount)
	for t := snap.NextTile(snap.params.MaxTiles); t != nil; t = snap.NextTile(t.Index() + 1) {
		if t.Data.link == nil {
			continue
		}
		w.U32(t.index)
		w.U32(t.salt)
		d := &t.Data.link.desc
		w.Vec3(d.Start)
		w.Vec3(d.End)
		w.F32(d.Radius)
		w.F32(d.Width)
		w.F32(d.Cost)
		w.Bool(d.Bidirectional)
		w.U8(d.Area)
		w.U16(d.Flags)
		w.U32(d.UserID)
		w.Count(len(t.Verts))
		for _, v := range t.Verts {
			w.Vec3(v)
		}
		appendTileLinks(w, t)
	}
	return nil
}

// linkState is the link block of a MeshState as read.
type linkState struct {
	maxTiles uint32
	registry linkRegistry
	tiles    []*Tile
}

// readLinkState reads the link block of a state of params, whose grid
// tiles take the slots in used; the free lists of link tiles in a
// draft's layout go into free; a problem fails r.
func readLinkState(r *binstate.Reader, params Params, used map[uint32]bool, free restoredFreeLists) linkState {
	grid := uint32(params.MaxTiles)
	var s linkState
	s.maxTiles = r.U32()
	if r.Err() == nil && (s.maxTiles < grid || s.maxTiles > MaxTileSlots) {
		r.Fail("%d slots, want %d..%d", s.maxTiles, grid, MaxTileSlots)
	}
	linkSlots := s.maxTiles - grid
	slots := &s.registry.slots
	slots.maxTiles = MaxTileSlots - grid
	slots.nextFresh = r.U32()
	if r.Err() == nil && slots.nextFresh > linkSlots {
		r.Fail("next fresh link slot %d beyond %d link slots", slots.nextFresh, linkSlots)
	}
	freed := map[uint32]bool{}
	n := r.Count(MaxTileSlots, stateFreedSlotSize)
	for range n {
		f := freedSlot{index: r.U32(), salt: r.U32()}
		if r.Err() != nil {
			return s
		}
		switch {
		case f.index >= slots.nextFresh:
			r.Fail("freed link slot %d never used (next fresh %d)", f.index, slots.nextFresh)
		case f.salt == 0 || f.salt > saltMask:
			r.Fail("freed link slot %d salt %d outside 1..%d", f.index, f.salt, saltMask)
		case freed[f.index]:
			r.Fail("link slot %d freed twice", f.index)
		}
		freed[f.index] = true
		slots.freed = append(slots.freed, f)
	}
	n = r.Count(MaxTileSlots, 4)
	for range n {
		index := r.U32()
		if r.Err() == nil && (index < slots.nextFresh || index >= linkSlots) {
			r.Fail("taken link slot %d outside %d..%d", index, slots.nextFresh, int64(linkSlots)-1)
		}
		if slots.takenFresh == nil {
			slots.takenFresh = map[uint32]struct{}{}
		}
		slots.takenFresh[index] = struct{}{}
	}

	n = r.Count(MaxTileSlots, stateColumnSize)
	for range n {
		c := linkColumn{x: r.I32(), y: r.I32()}
		k := r.Count(MaxTileSlots, 4)
		if r.Err() != nil {
			return s
		}
		if s.registry.columns == nil {
			s.registry.columns = map[linkColumn][]uint32{}
		}
		if _, twice := s.registry.columns[c]; twice || k == 0 {
			r.Fail("link column (%d, %d) twice or empty", c.x, c.y)
			return s
		}
		list := make([]uint32, k)
		for i := range list {
			list[i] = r.U32()
		}
		s.registry.columns[c] = list
	}

	n = r.Count(MaxTileSlots, stateLinkTileSize)
	for range n {
		t := readLinkTile(r, params, s.maxTiles, free)
		if r.Err() != nil {
			return s
		}
		rel := t.index - grid
		_, taken := slots.takenFresh[rel]
		switch {
		case used[t.index]:
			r.Fail("link slot %d used twice", t.index)
		case freed[rel]:
			r.Fail("link slot %d is also free", t.index)
		case rel >= slots.nextFresh && !taken:
			r.Fail("link slot %d beyond the next fresh link slot and not taken", t.index)
		}
		if r.Err() != nil {
			return s
		}
		used[t.index] = true
		s.tiles = append(s.tiles, t)
	}
	for c, list := range s.registry.columns {
		for _, slot := range list {
			if !used[slot] || slot < grid {
				r.Fail("link column (%d, %d) names slot %d, no link's", c.x, c.y, slot)
				return s
			}
		}
	}
	return s
}

// readLinkTile reads one link tile of the link block; a problem fails r.
func readLinkTile(r *binstate.Reader, params Params, maxTiles uint32, free restoredFreeLists) *Tile {
	index, salt := r.U32(), r.U32()
	desc := LinkDesc{Start: r.Vec3(), End: r.Vec3(), Radius: r.F32(), Width: r.F32(), Cost: r.F32()}
	desc.Bidirectional = r.Bool()
	desc.Area, desc.Flags, desc.UserID = r.U8(), r.U16(), r.U32()
	if r.Err() != nil {
		return nil
	}
	if index < uint32(params.MaxTiles) || index >= maxTiles || salt == 0 || salt > saltMask {
		r.Fail("link slot %d outside %d..%d or salt %d outside 1..%d", index, params.MaxTiles, int64(maxTiles)-1, salt, saltMask)
		return nil
	}
	lanes, columns, err := desc.validate(&params)
	if err != nil {
		r.Fail("link slot %d: %v", index, err)
		return nil
	}
	t := newTile(linkTileData(&desc, lanes, &params), index, salt)
	t.Data.link = &linkInfo{desc: desc, columns: columns}
	n := r.Count(len(t.Verts), 12)
	if r.Err() == nil && n != len(t.Verts) {
		r.Fail("link slot %d: %d vertices for %d", index, n, len(t.Verts))
	}
	if r.Err() != nil {
		return nil
	}
	verts := make([]mgl32.Vec3, n)
	for i := range verts {
		verts[i] = r.Vec3()
	}
	if !slices.Equal(verts, t.Verts) {
		t.Verts = verts
	}
	readTileLinks(r, t, "link slot", free)
	return t
}

// addTo puts the link tiles into snap, made by restoredSnapshot.
func (s *linkState) addTo(snap *Snapshot) {
	if len(s.tiles) == 0 && s.maxTiles == 0 {
		return
	}
	snap.maxTiles = max(snap.maxTiles, s.maxTiles)
	table := editRadix(snap.tiles)
	for _, t := range s.tiles {
		table.set(t.index, t)
	}
	snap.tiles = table.table
	snap.linkCount = len(s.tiles)
}
