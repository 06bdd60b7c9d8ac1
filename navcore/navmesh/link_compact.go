package navmesh

// A published tile version holds only the links its polygons use: a tile's
// link array has room for Header.MaxLinkCount links (the C++ blob's
// size), of which a tile on the 1 km level uses about a fifth, so keeping
// the room in every version would cost about three times the links
// themselves. A version is never written once published, so compactLinks
// drops the room when an edit finishes and expandLinks gives it back to
// the next draft of the tile, which alone may add links.
//
// The links into runtime links (addExtraLink) live beyond the baked room
// in a draft, so that they never take a border link's place; a compact
// version keeps them after its baked links (draft.bakedLinks marks the
// split, Tile.bakedLinkCount finds it), and expandLinks moves them beyond the room again. Each polygon's
// list keeps its order (path searches visit neighbours in list order, as
// the C++ does); only the links' indices change, which nothing outside a
// version depends on.

// compactLinks renumbers the draft's links into an array of the links in
// use: the baked ones (below Header.MaxLinkCount) in polygon order, then
// the extra ones in polygon order, each polygon's list in its order.
func (d *draft) compactLinks() {
	t := d.tile
	baked := uint32(t.Data.Header.MaxLinkCount)
	used, extra := 0, 0
	for i := range t.Polys {
		for l := t.Polys[i].FirstLink; l != NullLink; l = t.Links[l].Next {
			used++
			if l >= baked {
				extra++
			}
		}
	}
	if used == len(t.Links) && extra == 0 && d.linksFreeList == NullLink {
		d.bakedLinks = uint32(used)
		return
	}
	remap := make([]uint32, len(t.Links))
	k := uint32(0)
	for _, wantExtra := range []bool{false, true} {
		for i := range t.Polys {
			for l := t.Polys[i].FirstLink; l != NullLink; l = t.Links[l].Next {
				if (l >= baked) == wantExtra {
					remap[l] = k
					k++
				}
			}
		}
	}
	polys := d.polys()
	links := make([]Link, used)
	for i := range polys {
		l := polys[i].FirstLink
		if l == NullLink {
			continue
		}
		polys[i].FirstLink = remap[l]
		for l != NullLink {
			link := t.Links[l]
			if link.Next != NullLink {
				link.Next = remap[link.Next]
			}
			links[remap[l]] = link
			l = t.Links[l].Next
		}
	}
	t.Links = links
	d.bakedLinks = uint32(used - extra)
	d.linksFreeList, d.extraFreeList = NullLink, NullLink
	d.ownLinks = false
}

// expandLinks gives the draft a link array with room for
// Header.MaxLinkCount baked links: the version's baked links first, then
// the free ones chained in index order, then the version's extra links.
func (d *draft) expandLinks() {
	t := d.tile
	n := uint32(len(t.Links))
	baked := min(d.bakedLinks, n)
	room := max(baked, uint32(t.Data.Header.MaxLinkCount))
	links := make([]Link, room+n-baked)
	copy(links, t.Links[:baked])
	copy(links[room:], t.Links[baked:])
	if shift := room - baked; shift > 0 && baked < n {
		// The extra links move up by shift: so do the indices naming them.
		moved := func(l uint32) uint32 {
			if l != NullLink && l >= baked {
				return l + shift
			}
			return l
		}
		for i := range links {
			links[i].Next = moved(links[i].Next)
		}
		polys := d.polys()
		for i := range polys {
			polys[i].FirstLink = moved(polys[i].FirstLink)
		}
	}
	d.linksFreeList = NullLink
	if baked < room {
		for i := baked; i < room-1; i++ {
			links[i].Next = i + 1
		}
		links[room-1].Next = NullLink
		d.linksFreeList = baked
	}
	d.extraFreeList = NullLink
	t.Links = links
	d.bakedLinks = room
	d.ownLinks = true
}
