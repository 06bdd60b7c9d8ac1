package navmesh

// allocLink takes the head of the draft's free link list, NullLink when the
// tile has no free link left (the link is then silently not made, as in the
// C++).
func (d *draft) allocLink() uint32 {
	links := d.links()
	if d.linksFreeList == NullLink {
		return NullLink
	}
	idx := d.linksFreeList
	d.linksFreeList = links[idx].Next
	return idx
}

// freeLink puts link idx back at the head of its free list: the baked
// links' or, beyond Header.MaxLinkCount, the extra links'.
func (d *draft) freeLink(idx uint32) {
	links := d.links()
	if idx >= uint32(d.tile.Data.Header.MaxLinkCount) {
		links[idx].Next = d.extraFreeList
		d.extraFreeList = idx
		return
	}
	links[idx].Next = d.linksFreeList
	d.linksFreeList = idx
}

// addLink allocates a link and prepends it to polygon ip's list. The link
// order matters: path searches visit neighbours in list order.
func (d *draft) addLink(ip uint32, link Link) {
	idx := d.allocLink()
	if idx == NullLink {
		return
	}
	polys, links := d.polys(), d.links()
	link.Next = polys[ip].FirstLink
	links[idx] = link
	polys[ip].FirstLink = idx
}

// hasLinksTo reports whether any polygon of t links into slot target.
func (t *Tile) hasLinksTo(target uint32) bool {
	for i := range t.Polys {
		for l := t.Polys[i].FirstLink; l != NullLink; l = t.Links[l].Next {
			if t.Links[l].Ref.TileIndex() == target {
				return true
			}
		}
	}
	return false
}

// unconnectLinks removes every link of tile slot from into slot target
// (dtNavMesh::unconnectLinks), freeing them in list order.
func (e *edit) unconnectLinks(from, target uint32) {
	if !e.tile(from).hasLinksTo(target) {
		return
	}
	d := e.draftOf(from)
	polys, links := d.polys(), d.links()
	for i := range polys {
		poly := &polys[i]
		prev := NullLink
		for j := poly.FirstLink; j != NullLink; {
			next := links[j].Next
			if links[j].Ref.TileIndex() != target {
				prev = j
				j = next
				continue
			}
			if prev == NullLink {
				poly.FirstLink = next
			} else {
				links[prev].Next = next
			}
			d.freeLink(j)
			j = next
		}
	}
}
