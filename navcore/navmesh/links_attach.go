package navmesh

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// linkRegistry is the Mesh writer's record of its runtime links: the slots
// above the grid they take and, per grid column, the links whose ends
// search it, so that a tile added to or removed from a column lands those
// links again. Only the writer (holding Mesh.mu) uses it.
type linkRegistry struct {
	// slots hands out link slots relative to Params.MaxTiles.
	slots   slotAllocator
	columns map[linkColumn][]uint32
}

// note records that the link in slot searches columns.
func (r *linkRegistry) note(slot uint32, columns []linkColumn) {
	if r.columns == nil {
		r.columns = make(map[linkColumn][]uint32)
	}
	for _, c := range columns {
		r.columns[c] = append(r.columns[c], slot)
	}
}

// forget drops the link in slot from columns.
func (r *linkRegistry) forget(slot uint32, columns []linkColumn) {
	for _, c := range columns {
		list := slices.DeleteFunc(r.columns[c], func(s uint32) bool { return s == slot })
		if len(list) == 0 {
			delete(r.columns, c)
		} else {
			r.columns[c] = list
		}
	}
}

// addLinkIn adds the link desc (validated: lanes and columns from
// LinkDesc.validate) to the edit e of m at the next free link slot, or at
// the slot and salt of at when it is not 0 (loading a saved mesh), and
// lands its ends. The caller holds m.mu; on error neither e nor m changes.
func (m *Mesh) addLinkIn(e *edit, desc LinkDesc, lanes int, columns []linkColumn, at LinkID) (LinkID, error) {
	grid := uint32(m.params.MaxTiles)
	var rel TileRef
	if at != 0 {
		if Ref(at).TileIndex() < grid || Ref(at).PolyIndex() != 0 {
			return 0, errTileIndexRange
		}
		rel = EncodeRef(Ref(at).Salt(), Ref(at).TileIndex()-grid, 0)
	}
	m.links.slots.maxTiles = MaxTileSlots - grid
	index, salt, err := m.links.slots.choose(rel)
	if err != nil {
		return 0, err
	}
	m.links.slots.take(index)
	slot := grid + index
	t := newTile(linkTileData(&desc, lanes, &m.params), slot, salt)
	t.Data.link = &linkInfo{desc: desc, columns: columns}
	e.keepDraft(newDraft(t))
	e.setTile(slot, t)
	e.linkCount++
	e.maxTiles = max(e.maxTiles, slot+1)
	e.landLink(slot)
	e.noteChange(slot, t.Data.Header.X, t.Data.Header.Y, t.Data.Header.Layer)
	m.links.note(slot, columns)
	return LinkID(t.Ref()), nil
}

// removeLinkIn removes the link tile t from the edit e of m, with the
// links into it from the polygons its ends landed on. The caller holds
// m.mu.
func (m *Mesh) removeLinkIn(e *edit, t *Tile) {
	slot := t.index
	for lane := range t.Polys {
		for end := range uint8(2) {
			e.detachEnd(slot, uint32(lane), end)
		}
	}
	e.setTile(slot, nil)
	e.linkCount--
	e.dropDraft(slot)
	e.noteChange(slot, t.Data.Header.X, t.Data.Header.Y, t.Data.Header.Layer)
	m.links.forget(slot, t.Data.link.columns)
	m.links.slots.release(slot-uint32(m.params.MaxTiles), nextSalt(t.salt))
}

// linkTileData builds the content of a link tile: one off-mesh polygon of
// two vertices per lane, with room for a link at each end.
func linkTileData(desc *LinkDesc, lanes int, params *Params) *TileData {
	x, y := tileLoc(params, desc.Start)
	data := withPolysClaim(&TileData{
		Header: TileHeader{
			X: int32(x), Y: int32(y), Layer: LinkLayer,
			UserID:          desc.UserID,
			PolyCount:       int32(lanes),
			VertCount:       int32(2 * lanes),
			MaxLinkCount:    int32(2 * lanes),
			OffMeshConCount: int32(lanes),
			BVQuantFactor:   1,
		},
		Verts:              make([]mgl32.Vec3, 2*lanes),
		Polys:              make([]Poly, lanes),
		OffMeshConnections: make([]OffMeshConnection, lanes),
	})
	flags := uint8(0)
	if desc.Bidirectional {
		flags = OffMeshBidirectional
	}
	bmin := mgl32.Vec3{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	bmax := mgl32.Vec3{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
	for lane := range lanes {
		start, end := desc.lanePoint(lane, lanes, 0), desc.lanePoint(lane, lanes, 1)
		data.Verts[2*lane], data.Verts[2*lane+1] = start, end
		growBounds(&bmin, &bmax, &start)
		growBounds(&bmin, &bmax, &end)
		poly := &data.Polys[lane]
		poly.FirstLink = NullLink
		poly.Verts[0], poly.Verts[1] = uint16(2*lane), uint16(2*lane+1)
		poly.VertCount = 2
		poly.Flags = desc.Flags
		poly.SetArea(desc.Area)
		poly.SetType(PolyTypeOffMeshConnection)
		data.OffMeshConnections[lane] = OffMeshConnection{
			Start: start, End: end, Radius: desc.Radius,
			Poly: uint16(lane), Flags: flags, Side: noSide, UserID: desc.UserID,
		}
	}
	data.Header.BMin, data.Header.BMax = bmin, bmax
	return data
}

// relandColumn lands again every link whose ends search grid column
// (x, y), after a tile there was added or removed.
func (e *edit) relandColumn(x, y int32) {
	if e.links == nil || len(e.links.columns) == 0 {
		return
	}
	for _, slot := range e.links.columns[linkColumn{x, y}] {
		if t := e.tile(slot); t != nil && t.Data.link != nil {
			e.landLink(slot)
		}
	}
}

// landLink lands each end of each lane of the link in slot on the polygon
// nearest to it now, moving its links (and the links back into it) from
// wherever it landed before. An end that lands where it did is left alone.
func (e *edit) landLink(slot uint32) {
	t := e.tile(slot)
	desc := &t.Data.link.desc
	lanes := len(t.Polys)
	for lane := range lanes {
		for end := range uint8(2) {
			want, point, ok := e.findLanding(desc.lanePoint(lane, lanes, int(end)), desc.Radius)
			t = e.tile(slot)
			have := t.endLanding(uint32(lane), end)
			if ok && have == want && t.Verts[t.Polys[lane].Verts[end]] == point {
				continue
			}
			if !ok && have == 0 {
				continue
			}
			e.detachEnd(slot, uint32(lane), end)
			if ok {
				e.attachEnd(slot, uint32(lane), end, want, point)
			}
		}
	}
}

// endLanding returns the polygon end (0: start, 1: end) of lane of the
// link tile t is linked to, 0 when it has landed nowhere.
func (t *Tile) endLanding(lane uint32, end uint8) Ref {
	for l := t.Polys[lane].FirstLink; l != NullLink; l = t.Links[l].Next {
		if t.Links[l].Edge == end {
			return t.Links[l].Ref
		}
	}
	return 0
}

// findLanding returns the polygon a link end at p with radius lands on:
// of the nearest polygons of the tiles around p (each within the box
// p ± (radius, tile's WalkableClimb, radius)), the nearest one whose
// nearest point lies within radius of p in the xz-plane, with that point.
func (e *edit) findLanding(p mgl32.Vec3, radius float32) (Ref, mgl32.Vec3, bool) {
	x0, y0 := tileLoc(&e.base.params, mgl32.Vec3{p[0] - radius, p[1], p[2] - radius})
	x1, y1 := tileLoc(&e.base.params, mgl32.Vec3{p[0] + radius, p[1], p[2] + radius})
	var best Ref
	var bestPoint mgl32.Vec3
	bestDist := float32(math.MaxFloat32)
	var buf [maxLinkedLayers]uint32
	// Counted, not x++ up to x1, which may be math.MaxInt32 (an int wraps
	// past it on 32-bit CPUs); the span is a link's, checked by validate.
	for dx := range int64(x1) - int64(x0) + 1 {
		for dy := range int64(y1) - int64(y0) + 1 {
			x, y := x0+int(dx), y0+int(dy)
			if !fitsInt32(x) || !fitsInt32(y) {
				continue
			}
			for _, slot := range e.tilesAt(int32(x), int32(y), true, buf[:0]) {
				tile := e.tile(slot)
				halfExtents := mgl32.Vec3{radius, tile.Data.Header.WalkableClimb, radius}
				ref, nearest := tile.FindNearestPoly(p, halfExtents)
				if ref == 0 {
					continue
				}
				dx, dy, dz := nearest[0]-p[0], nearest[1]-p[1], nearest[2]-p[2]
				xz := float32(dx*dx) + float32(dz*dz)
				if xz > float32(radius*radius) {
					continue
				}
				if d := xz + float32(dy*dy); d < bestDist {
					best, bestPoint, bestDist = ref, nearest, d
				}
			}
		}
	}
	return best, bestPoint, best != 0
}

// attachEnd links end (0: start, 1: end) of lane of the link in slot to
// polygon land, moves the end's vertex to point, and links land back to
// the lane when the lane can be entered there (always at the start, at
// the end of a bidirectional link).
func (e *edit) attachEnd(slot, lane uint32, end uint8, land Ref, point mgl32.Vec3) {
	d := e.draftOf(slot)
	d.setVert(d.tile.Polys[lane].Verts[end], point)
	d.addLink(lane, Link{Ref: land, Edge: end, Side: noSide})
	if end == 0 || d.tile.Data.link.desc.Bidirectional {
		laneRef := d.tile.PolyRefBase() | Ref(lane)
		e.draftOf(land.TileIndex()).addExtraLink(land.PolyIndex(), Link{Ref: laneRef, Edge: 0xff, Side: noSide})
	}
}

// detachEnd unlinks end (0: start, 1: end) of lane of the link in slot
// from the polygon it landed on, and that polygon (when its tile is still
// there) from the lane, and puts the end's vertex back where the link
// description has it.
func (e *edit) detachEnd(slot, lane uint32, end uint8) {
	t := e.tile(slot)
	land := t.endLanding(lane, end)
	if land == 0 {
		return
	}
	d := e.draftOf(slot)
	d.unlinkFirst(lane, func(l *Link) bool { return l.Edge == end })
	desc := &d.tile.Data.link.desc
	d.setVert(d.tile.Polys[lane].Verts[end], desc.lanePoint(int(lane), len(d.tile.Polys), int(end)))

	landTile := e.tile(land.TileIndex())
	if landTile == nil || landTile.salt != land.Salt() || land.PolyIndex() >= uint32(len(landTile.Polys)) {
		return // the tile it landed on is gone
	}
	laneRef := d.tile.PolyRefBase() | Ref(lane)
	if !landTile.polyLinksTo(land.PolyIndex(), laneRef) {
		return
	}
	e.draftOf(land.TileIndex()).unlinkFirst(land.PolyIndex(), func(l *Link) bool { return l.Ref == laneRef })
}

// polyLinksTo reports whether polygon ip of t has a link to ref.
func (t *Tile) polyLinksTo(ip uint32, ref Ref) bool {
	for l := t.Polys[ip].FirstLink; l != NullLink; l = t.Links[l].Next {
		if t.Links[l].Ref == ref {
			return true
		}
	}
	return false
}

// unlinkFirst removes the first link of polygon ip that match accepts and
// frees it.
func (d *draft) unlinkFirst(ip uint32, match func(*Link) bool) {
	polys, links := d.polys(), d.links()
	prev := NullLink
	for j := polys[ip].FirstLink; j != NullLink; j = links[j].Next {
		if !match(&links[j]) {
			prev = j
			continue
		}
		if prev == NullLink {
			polys[ip].FirstLink = links[j].Next
		} else {
			links[prev].Next = links[j].Next
		}
		d.freeLink(j)
		return
	}
}

// addExtraLink prepends link to polygon ip's list in a link beyond the
// tile's Header.MaxLinkCount, growing the tile's links when none of those
// is free. The links a tile was baked with stay for the links of the
// grid, so that a runtime link never takes the place of a border link.
func (d *draft) addExtraLink(ip uint32, link Link) {
	links := d.links()
	idx := d.extraFreeList
	if idx == NullLink {
		idx = uint32(len(links))
		links = append(links, Link{})
		d.tile.Links = links
	} else {
		d.extraFreeList = links[idx].Next
	}
	polys := d.polys()
	link.Next = polys[ip].FirstLink
	links[idx] = link
	polys[ip].FirstLink = idx
}
