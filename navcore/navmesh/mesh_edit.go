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
	base      *Snapshot
	tiles     tableEdit[*Tile]
	lookup    tableEdit[bucket]
	drafts    []*draft
	tileCount int
	// changes lists the tiles added, removed or edited (snapshot_changes.go).
	changes []TileChange
}

// draft is a tile version under construction and which of its arrays it
// already owns.
type draft struct {
	tile                         *Tile
	ownPolys, ownLinks, ownVerts bool
}

func newEdit(base *Snapshot) *edit {
	return &edit{
		base:      base,
		tiles:     editTable(base.tiles),
		lookup:    editTable(base.lookup),
		tileCount: base.tileCount,
	}
}

// publish returns the edited tile set as a new Snapshot.
func (e *edit) publish() *Snapshot {
	version := e.base.version + 1
	return &Snapshot{
		version:   version,
		history:   e.nextHistory(version),
		params:    e.base.params,
		maxTiles:  e.base.maxTiles,
		tiles:     e.tiles.table,
		lookup:    e.lookup.table,
		lutMask:   e.base.lutMask,
		tileCount: e.tileCount,

		connectivity:     new(connectivityCell),
		flagConnectivity: new(flagConnectivityCell),
	}
}

// tile returns the current version of slot i: the draft if there is one.
func (e *edit) tile(i uint32) *Tile { return e.tiles.table.at(i) }

// draftOf returns the draft of slot i, making one from the current version
// on first use. The slot must hold a tile.
func (e *edit) draftOf(i uint32) *draft {
	for _, d := range e.drafts {
		if d.tile.index == i {
			return d
		}
	}
	version := *e.tile(i)
	version.components = new(componentsCell) // labels of its own
	d := &draft{tile: &version}
	e.drafts = append(e.drafts, d)
	e.tiles.set(i, d.tile)
	return d
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

// links returns the draft's links, copied on first use.
func (d *draft) links() []Link {
	if !d.ownLinks {
		d.tile.Links = slices.Clone(d.tile.Links)
		d.ownLinks = true
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
	b := e.lookup.table.at(tileHash(x, y, e.base.lutMask))
	for _, entry := range b {
		if entry.x == x && entry.y == y && (all || len(buf) < maxLinkedLayers) {
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
	d := &draft{tile: t, ownPolys: true, ownLinks: true}
	e.drafts = append(e.drafts, d)
	e.tiles.set(t.index, t)
	e.tileCount++

	h := t.Header
	e.noteChange(t.index, h.X, h.Y, h.Layer)
	key := tileHash(h.X, h.Y, e.base.lutMask)
	old := e.lookup.table.at(key)
	chain := make(bucket, 0, len(old)+1)
	chain = append(chain, tileEntry{x: h.X, y: h.Y, layer: h.Layer, index: t.index})
	e.lookup.set(key, append(chain, old...))

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
}

// removeTile takes t out of the position lookup and its slot and removes
// every link of the other layers and the neighbour columns into it. Unlike
// the C++, which looks at no more than 32 tiles per column, it unlinks every
// tile so that no link is left pointing at the freed slot.
func (e *edit) removeTile(t *Tile) {
	h := t.Header
	key := tileHash(h.X, h.Y, e.base.lutMask)
	old := e.lookup.table.at(key)
	chain := make(bucket, 0, len(old))
	for _, entry := range old {
		if entry.index != t.index {
			chain = append(chain, entry)
		}
	}
	if len(chain) == 0 {
		chain = nil
	}
	e.lookup.set(key, chain)

	var buf [maxLinkedLayers]uint32
	for _, other := range e.tilesAt(h.X, h.Y, true, buf[:0]) {
		e.unconnectLinks(other, t.index)
	}
	for side := range 8 {
		for _, other := range e.neighbourTilesAt(h.X, h.Y, side, true, buf[:0]) {
			e.unconnectLinks(other, t.index)
		}
	}
	e.tiles.set(t.index, nil)
	e.tileCount--
	e.dropDraft(t.index)
	e.noteChange(t.index, h.X, h.Y, h.Layer)
}
