package navmesh

// A published tile version holds only the links its polygons use: a tile's
// link array has room for Header.MaxLinkCount links (the C++ blob's
// size), of which a tile on the 1 km level uses about a fifth, so keeping
// the room in every version would cost about three times the links
// themselves. A version is never written once published, so compactLinks
// drops the room when an edit finishes and expandLinks gives it back to
// the next draft of the tile, which alone may add links. Each polygon's
// list keeps its order (path searches visit neighbours in list order, as
// the C++ does); only the links' indices change, which nothing outside a
// version depends on.

// compactLinks renumbers the draft's links in polygon order, each
// polygon's list in its order, into an array of the links in use.
func (d *draft) compactLinks() {
	t := d.tile
	used := 0
	for i := range t.Polys {
		for l := t.Polys[i].FirstLink; l != NullLink; l = t.Links[l].Next {
			used++
		}
	}
	if used == len(t.Links) && t.linksFreeList == NullLink {
		return
	}
	polys := d.polys()
	links := make([]Link, used)
	k := uint32(0)
	for i := range polys {
		l := polys[i].FirstLink
		if l == NullLink {
			continue
		}
		polys[i].FirstLink = k
		for l != NullLink {
			next := t.Links[l].Next
			links[k] = t.Links[l]
			links[k].Next = NullLink
			if next != NullLink {
				links[k].Next = k + 1
			}
			k++
			l = next
		}
	}
	t.Links = links
	t.linksFreeList = NullLink
	d.ownLinks = false
}

// expandLinks gives the draft a link array with room for
// Header.MaxLinkCount links: the version's links first, then the free
// ones, chained in index order.
func (d *draft) expandLinks() {
	t := d.tile
	n := len(t.Links)
	size := max(n, int(t.Header.MaxLinkCount))
	links := make([]Link, size)
	copy(links, t.Links)
	t.linksFreeList = NullLink
	if n < size {
		for i := n; i < size-1; i++ {
			links[i].Next = uint32(i + 1)
		}
		links[size-1].Next = NullLink
		t.linksFreeList = uint32(n)
	}
	t.Links = links
	d.ownLinks = true
}
