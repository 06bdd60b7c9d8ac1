package navmesh

import (
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// maxLinkedLayers is how many tiles of one grid column addTile links with
// (MAX_NEIS in the C++).
const maxLinkedLayers = 32

// edit builds the next Snapshot of a Mesh from the current one. Tiles it
// changes are drafts: new *Tile versions that copy, on first write, only the
// arrays they change. Nothing reachable from the base snapshot is modified.
type edit struct {
	base *Snapshot
	// flatMode edits copies of a flat base's arrays (snapshot_flat.go):
	// flat the tiles by slot, heads and next the position lookup. Without
	// it (a base in radix tables, or a tile in a slot past flatTileSlots)
	// tiles and lookup are edited copies of the radix tables.
	flatMode bool
	flat     []*Tile
	heads    []uint32
	next     []uint32
	tiles    radixEdit[*Tile]
	lookup   radixEdit[bucket]
	lutMask  uint32
	drafts   []*draft
	// draftBySlot indexes drafts once there are more than a few (an edit
	// that adds many tiles, as the loaders make), so finding one stays O(1).
	draftBySlot map[uint32]*draft
	tileCount   int
	// changes lists the tiles added, removed or edited (snapshot_changes.go).
	changes []TileChange
	// changesAll records the edit as "everything changed" instead of
	// listing changes: for the edit that fills a new mesh, whose empty
	// first snapshot nobody has seen.
	changesAll bool
	// touched lists the slots set in the radix table, for the flat array
	// (snapshot_flat.go).
	touched []uint32
	// maxTiles is the slot count, grid and runtime links; linkCount the
	// runtime links. links is the Mesh's record of them, nil for an edit
	// that does not land them (a mesh being loaded, before its links).
	maxTiles  uint32
	linkCount int
	links     *linkRegistry
	// claimed lists the tile data whose polygons the edit's new tiles use
	// in place, for abandon to give back.
	claimed []*TileData
}

// draftIndexThreshold is the draft count past which an edit indexes them.
const draftIndexThreshold = 8

// draft is a tile version under construction, which of its arrays it
// already owns and the state of its links that a published version does
// not need (so that a Tile fits the 96-byte size class, not the 112).
type draft struct {
	tile                         *Tile
	ownPolys, ownLinks, ownVerts bool
	// linksFreeList chains the free links below Header.MaxLinkCount,
	// extraFreeList those beyond it, which only the links into runtime
	// links take (addExtraLink); NullLink when none is free.
	linksFreeList, extraFreeList uint32
	// bakedLinks is the number of the tile's Links before the extra ones:
	// Header.MaxLinkCount once the draft owns its links (expandLinks), the
	// baked links in use while they are the published version's.
	bakedLinks uint32
}

// newDraft returns the draft of a new tile made by newTile: it owns its
// arrays, and its links, all free, are chained in index order.
func newDraft(t *Tile) *draft {
	d := &draft{
		tile: t, ownPolys: true, ownLinks: true,
		linksFreeList: NullLink, extraFreeList: NullLink,
		bakedLinks: uint32(len(t.Links)),
	}
	if len(t.Links) > 0 {
		d.linksFreeList = 0
	}
	return d
}

func newEdit(base *Snapshot) *edit {
	e := &edit{
		base:      base,
		lutMask:   base.lutMask,
		tileCount: base.tileCount,
		maxTiles:  base.maxTiles,
		linkCount: base.linkCount,
	}
	if base.isFlat() {
		e.flatMode = true
		e.flat, e.heads, e.next = slices.Clone(base.flat), slices.Clone(base.heads), slices.Clone(base.next)
	} else {
		e.tiles, e.lookup = editRadix(base.tiles), editRadix(base.lookup)
	}
	return e
}

// publish returns the edited tile set as a new Snapshot, the links of the
// tiles it changed compacted (compactLinks).
func (e *edit) publish() *Snapshot {
	for _, d := range e.drafts {
		if d.ownLinks && e.tile(d.tile.index) == d.tile {
			d.compactLinks()
		}
	}
	version := e.base.version + 1
	s := &Snapshot{
		version:   version,
		stamp:     newStamp(),
		history:   e.nextHistory(version),
		params:    e.base.params,
		maxTiles:  e.maxTiles,
		linkCount: e.linkCount,
		lutMask:   e.lutMask,
		tileCount: e.tileCount,

		connectivity:     new(connectivityCell),
		flagConnectivity: new(flagConnectivityCell),
	}
	if e.flatMode {
		// An edit that added many tiles (a load) grew the arrays with
		// room to spare: the snapshot keeps them at their length.
		if cap(e.flat) > len(e.flat)+len(e.flat)/8+8 {
			e.flat, e.next = slices.Clone(e.flat), slices.Clone(e.next)
		}
		s.flat, s.flatAll, s.heads, s.next = e.flat, true, e.heads, e.next
		return s
	}
	s.tiles, s.lookup = e.tiles.table, e.lookup.table
	s.flat, s.flatAll = e.flatTiles()
	if s.flatAll {
		s.flatten()
	}
	return s
}

// abandon gives back the polygon arrays the edit's tiles claimed, for an
// edit that fails and is never published: no reader has seen them, so the
// next mesh to add the data may use them in place again.
func (e *edit) abandon() {
	for _, data := range e.claimed {
		data.releasePolys()
	}
	e.claimed = nil
}

// tile returns the current version of slot i: the draft if there is one.
func (e *edit) tile(i uint32) *Tile {
	if e.flatMode {
		if i < uint32(len(e.flat)) {
			return e.flat[i]
		}
		return nil
	}
	return e.tiles.table.at(i)
}

// draftOf returns the draft of slot i, making one from the current version
// on first use. The slot must hold a tile.
func (e *edit) draftOf(i uint32) *draft {
	if d := e.findDraft(i); d != nil {
		return d
	}
	t := e.tile(i).newVersion()
	d := &draft{
		tile: t, linksFreeList: NullLink, extraFreeList: NullLink,
		bakedLinks: t.bakedLinkCount(uint32(e.base.params.MaxTiles)),
	}
	e.keepDraft(d)
	e.setTile(i, d.tile)
	return d
}

// findDraft returns the latest draft of slot i, nil when there is none.
func (e *edit) findDraft(i uint32) *draft {
	if e.draftBySlot != nil {
		return e.draftBySlot[i]
	}
	for _, d := range slices.Backward(e.drafts) {
		if d.tile.index == i {
			return d
		}
	}
	return nil
}

// keepDraft records d as the latest draft of its slot.
func (e *edit) keepDraft(d *draft) {
	e.drafts = append(e.drafts, d)
	switch {
	case e.draftBySlot != nil:
		e.draftBySlot[d.tile.index] = d
	case len(e.drafts) > draftIndexThreshold:
		e.draftBySlot = make(map[uint32]*draft, 2*len(e.drafts))
		for _, kept := range e.drafts {
			e.draftBySlot[kept.tile.index] = kept
		}
	}
}

// polys returns the draft's polygons, copied from the previous version on
// first use.
func (d *draft) polys() []Poly {
	if !d.ownPolys {
		d.tile.Polys = slices.Clone(d.tile.Polys)
		d.ownPolys = true
	}
	return d.tile.Polys
}

// links returns the draft's links, copied on first use with room for
// Header.MaxLinkCount of them (see expandLinks).
func (d *draft) links() []Link {
	if !d.ownLinks {
		d.expandLinks()
	}
	return d.tile.Links
}

// setVert moves vertex i of the draft to v, copying the vertices on the
// first real change.
func (d *draft) setVert(i uint16, v mgl32.Vec3) {
	if d.tile.Verts[i] == v {
		return
	}
	if !d.ownVerts {
		d.tile.Verts = slices.Clone(d.tile.Verts)
		d.ownVerts = true
	}
	d.tile.Verts[i] = v
}

// tilesAt returns the slots of the tiles at (x, y), at most
// maxLinkedLayers of them in C++ hash-chain order, or all of them when all
// is set.
func (e *edit) tilesAt(x, y int32, all bool, buf []uint32) []uint32 {
	if e.flatMode {
		for s := e.heads[tileHash(x, y, e.lutMask)]; s != 0; s = e.next[s-1] {
			if h := &e.flat[s-1].Data.Header; h.X == x && h.Y == y {
				if !all && len(buf) == maxLinkedLayers {
					break
				}
				buf = append(buf, s-1)
			}
		}
		return buf
	}
	for entry := e.lookup.table.at(tileHash(x, y, e.lutMask)); entry != nil; entry = entry.next {
		if entry.x == x && entry.y == y {
			if !all && len(buf) == maxLinkedLayers {
				break
			}
			buf = append(buf, entry.index)
		}
	}
	return buf
}

// neighbourTilesAt is tilesAt for the column next to (x, y) towards side.
func (e *edit) neighbourTilesAt(x, y int32, side int, all bool, buf []uint32) []uint32 {
	nx, ny, _ := neighbourLocation(int(x), int(y), side)
	if !fitsInt32(nx) || !fitsInt32(ny) {
		return buf
	}
	return e.tilesAt(int32(nx), int32(ny), all, buf)
}

// addTile inserts a new tile version into its slot and the position lookup,
// then links it in the order of dtNavMesh::addTile: internal links,
// off-mesh connections based in the tile, the other layers of the column,
// then the eight neighbour columns.
func (e *edit) addTile(t *Tile) {
	if t.usesDataPolys() {
		e.claimed = append(e.claimed, t.Data)
	}
	d := newDraft(t)
	e.keepDraft(d)
	e.setTile(t.index, t)
	e.tileCount++
	if e.tileCount > int(e.lutMask)+1 {
		e.growLookup()
	}

	h := &t.Data.Header
	e.noteChange(t.index, h.X, h.Y, h.Layer)
	key := tileHash(h.X, h.Y, e.lutMask)
	if e.flatMode {
		e.next[t.index] = e.heads[key]
		e.heads[key] = t.index + 1
	} else {
		e.lookup.set(key, &tileEntry{x: h.X, y: h.Y, layer: h.Layer, index: t.index, next: e.lookup.table.at(key)})
	}

	connectIntLinks(d)
	baseOffMeshLinks(d)
	e.connectExtOffMeshLinks(t.index, t.index, -1)

	var buf [maxLinkedLayers]uint32
	for _, other := range e.tilesAt(h.X, h.Y, false, buf[:0]) {
		if other == t.index {
			continue
		}
		e.connectExtLinks(t.index, other, -1)
		e.connectExtLinks(other, t.index, -1)
		e.connectExtOffMeshLinks(t.index, other, -1)
		e.connectExtOffMeshLinks(other, t.index, -1)
	}
	for side := range 8 {
		for _, other := range e.neighbourTilesAt(h.X, h.Y, side, false, buf[:0]) {
			e.connectExtLinks(t.index, other, side)
			e.connectExtLinks(other, t.index, geom.OppositeSide(side))
			e.connectExtOffMeshLinks(t.index, other, side)
			e.connectExtOffMeshLinks(other, t.index, geom.OppositeSide(side))
		}
	}
	e.relandColumn(h.X, h.Y)
}

// withoutEntry returns chain without the entry of slot index: the entries
// before it are copied, the tail after it is shared.
func withoutEntry(chain bucket, index uint32) bucket {
	if chain == nil {
		return nil
	}
	if chain.index == index {
		return chain.next
	}
	copied := *chain
	copied.next = withoutEntry(chain.next, index)
	return &copied
}

// growLookup doubles the buckets of the position lookup, keeping the order
// of the tiles of each grid column (all in one bucket under any size).
// Sizing the lookup by the tile count rather than by MaxTiles (as the C++
// does) keeps its memory proportional to the tiles; the doubling costs
// O(tiles) once per doubling, so O(1) per added tile on average.
func (e *edit) growLookup() {
	mask := e.lutMask<<1 | 1
	if e.flatMode {
		heads := make([]uint32, mask+1)
		var chain []uint32
		for key := range e.heads {
			// prepend the chain's tiles last to first, so that each
			// column keeps its order
			chain = e.chain(uint32(key), chain[:0])
			for _, slot := range slices.Backward(chain) {
				h := &e.flat[slot].Data.Header
				grown := tileHash(h.X, h.Y, mask)
				e.next[slot] = heads[grown]
				heads[grown] = slot + 1
			}
		}
		e.heads, e.lutMask = heads, mask
		return
	}
	grown := editRadix(radixTable[bucket]{})
	var chain []*tileEntry
	e.lookup.table.each(func(_ uint32, b bucket) {
		// prepend the chain's entries last to first, so that each column
		// keeps its order
		chain = chain[:0]
		for entry := b; entry != nil; entry = entry.next {
			chain = append(chain, entry)
		}
		for _, entry := range slices.Backward(chain) {
			key := tileHash(entry.x, entry.y, mask)
			moved := *entry
			moved.next = grown.table.at(key)
			grown.set(key, &moved)
		}
	})
	e.lookup, e.lutMask = grown, mask
}

// removeTile takes t out of the position lookup and its slot and removes
// every link of the other layers and the neighbour columns into it. Unlike
// the C++, which looks at no more than 32 tiles per column, it unlinks every
// tile so that no link is left pointing at the freed slot.
func (e *edit) removeTile(t *Tile) {
	h := &t.Data.Header
	key := tileHash(h.X, h.Y, e.lutMask)
	if e.flatMode {
		e.unchain(key, t.index)
	} else {
		e.lookup.set(key, withoutEntry(e.lookup.table.at(key), t.index))
	}

	var buf [maxLinkedLayers]uint32
	for _, other := range e.tilesAt(h.X, h.Y, true, buf[:0]) {
		e.unconnectLinks(other, t.index)
	}
	for side := range 8 {
		for _, other := range e.neighbourTilesAt(h.X, h.Y, side, true, buf[:0]) {
			e.unconnectLinks(other, t.index)
		}
	}
	e.setTile(t.index, nil)
	e.tileCount--
	e.dropDraft(t.index)
	e.noteChange(t.index, h.X, h.Y, h.Layer)
	e.relandColumn(h.X, h.Y)
}

// unchain takes slot out of the flat edit's bucket key.
func (e *edit) unchain(key, slot uint32) {
	if e.heads[key] == slot+1 {
		e.heads[key] = e.next[slot]
	} else {
		for s := e.heads[key]; s != 0; s = e.next[s-1] {
			if e.next[s-1] == slot+1 {
				e.next[s-1] = e.next[slot]
				break
			}
		}
	}
	e.next[slot] = 0
}
