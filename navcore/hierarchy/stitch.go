package hierarchy

import (
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Stitching turns the route of the search over ports and clusters into a
// polygon corridor without searching the polygons again: the ways through
// the start and goal tiles come from the searches that connected them,
// each tile edge on the route keeps its polygons (tilePathWord) and each
// cluster edge its ports (clusterPathWord). Where two pieces do not meet
// (a way that did not fit its word, or a port of several crossings whose
// pieces start from different polygons), a search inside the tile joins
// them. When even that fails, the Searcher refines the route instead (see
// refineSearch).

// stitcher is the state of a corridor being stitched: the corridor so far
// and how it ends.
type stitcher struct {
	corridor []navmesh.Ref
	// at is the next step of the route to stitch.
	at int
	// pending is set when the corridor stops short of the route: the
	// polygons from its last one through the current tile are still to
	// be found (by a search, at the next border or at the goal).
	pending bool
	// entered is how the corridor entered its last polygon: through the
	// crossing from polygon enteredFrom of tile enteredTile, or at the start
	// when enteredTile is nil.
	enteredTile *navmesh.Tile
	enteredFrom uint32
	// chain is scratch for reversing the ways of tile searches.
	chain []uint32
	// failed is set when the pieces could not be joined.
	failed bool
}

// fail marks the stitching failed.
func (st *stitcher) fail() { st.failed = true }

// last returns the corridor's last polygon.
func (st *stitcher) last() navmesh.Ref { return st.corridor[len(st.corridor)-1] }

// openStitch collects the route from the start to the goal and starts its
// corridor at the start polygon.
func (s *Searcher) openStitch() {
	route := s.route[:0]
	for u := s.goalNode; u >= 0; u = s.origins[u].parent {
		route = append(route, u)
	}
	for i, j := 0, len(route)-1; i < j; i, j = i+1, j-1 {
		route[i], route[j] = route[j], route[i]
	}
	st := &s.stitch
	st.corridor = append(st.corridor[:0], s.startRef)
	st.at = 1
	st.pending = false
	st.enteredTile = nil
	st.failed = false
	if s.goalInside {
		route = s.routeInsideGoalCluster(route)
	}
	s.route = route
}

// routeInsideGoalCluster puts the ports of the way inside the goal cluster
// (goalPortNext) between the route's last port and the goal, as nodes of
// the bottom level, so that they are stitched like any other. A way
// through a port the route passed already (which a cheapest route does
// not take) fails the stitching, and the route is refined instead.
func (s *Searcher) routeInsideGoalCluster(route []int32) []int32 {
	route = route[:len(route)-1] // the goal
	last := route[len(route)-1]
	for at := s.goalPortNext[s.l0Offset[s.origins[last].a]+s.origins[last].b]; at >= 0; at = s.goalPortNext[at] {
		i := s.l0Base + at
		if slices.Contains(route, i) {
			s.stitch.fail()
			return append(route, s.goalNode)
		}
		slot := s.goalPortSlots[uint32(at)-s.l0Offset[s.v.clusters[s.goalCluster].tiles[0].tile.Index()]]
		s.origins[i] = nodeOrigin{parent: last, via: -1, a: slot, b: uint32(at) - s.l0Offset[slot]}
		route = append(route, i)
		last = i
	}
	s.origins[s.goalNode].parent = last
	return append(route, s.goalNode)
}

// stitchSteps stitches up to iterations steps of the route; done is set
// at the goal or when stitching failed (s.stitch.failed). A step counts
// one iteration; the nodes of the searches joining pieces count as
// visited and are paid for by the next updates of a sliced search (as the
// searches inside the start and goal tiles are), so that an update never
// uses more than it was given.
func (s *Searcher) stitchSteps(iterations int) (used int, done bool) {
	st := &s.stitch
	for used < iterations {
		if st.failed || st.at >= len(s.route) {
			return used, true
		}
		used++
		closed := s.stitchStep(s.route[st.at-1], s.route[st.at])
		s.visited += closed
		s.unpaid += closed
		st.at++
	}
	return used, st.failed || st.at >= len(s.route)
}

// stitchStep adds the polygons of the route's step from node parent to
// node child and returns the nodes its searches closed.
func (s *Searcher) stitchStep(parent, child int32) int {
	st := &s.stitch
	switch {
	case parent == s.startNode && child == s.goalNode:
		s.appendReversed(&s.startSearch, s.startSearch.goalState)
		return 0
	case parent == s.startNode:
		p := s.origins[child].b
		s.appendReversed(&s.startSearch, s.startSearch.portState[p])
		return 0
	case child == s.goalNode:
		return s.stitchGoal(s.origins[parent].b)
	}
	fromSlot, fromPort := s.portOfNode(parent)
	toSlot, toPort := s.portOfNode(child)
	k, region, ok := viaEdge(s.origins[child].via)
	if !ok {
		if fromSlot == toSlot {
			return s.stitchTileEdge(fromSlot, fromPort, toPort)
		}
		return s.stitchBorder(fromSlot, fromPort, toSlot, toPort)
	}
	// An edge of the parent's cluster or region, then the step across the
	// border into the child.
	number, node := s.clusterNodeOf(parent)
	closed := 0
	var slot, port uint32
	if region {
		slot, port, closed = s.stitchRegionEdge(number, node, k)
	} else {
		slot, port, closed = s.stitchClusterEdge(s.v.clusters[number], k, fromSlot, fromPort)
	}
	if st.failed {
		return closed
	}
	return closed + s.stitchBorder(slot, port, toSlot, toPort)
}

// stitchRegionEdge adds the polygons of edge k of the region of node node
// of cluster number, which the edge leaves from, and returns the port it
// ends at.
func (s *Searcher) stitchRegionEdge(number, node uint32, k int) (slot, port uint32, closed int) {
	st := &s.stitch
	v := s.v
	r := v.regions[v.clusterRegion[number]]
	word := r.paths[k]
	steps, ok := regionSteps(word)
	if !ok {
		st.fail()
		return 0, 0, 0
	}
	for i := range steps {
		c := v.clusters[number]
		edge, t, ok := regionStep(c, v.links[number], node, regionRank(word, i))
		if !ok {
			st.fail()
			return 0, 0, closed
		}
		from := &c.nodes[node]
		endSlot, endPort, n := s.stitchClusterEdge(c, edge, from.slot, from.port)
		closed += n
		if st.failed {
			return 0, 0, closed
		}
		next := &v.clusters[t.cluster].nodes[t.node]
		closed += s.stitchBorder(endSlot, endPort, next.slot, next.port)
		if st.failed {
			return 0, 0, closed
		}
		number, node = t.cluster, t.node
	}
	c := v.clusters[number]
	first, end := c.edgesOf(int(node))
	last := first + regionRank(word, steps)
	if last >= end {
		st.fail()
		return 0, 0, closed
	}
	from := &c.nodes[node]
	slot, port, n := s.stitchClusterEdge(c, last, from.slot, from.port)
	exit := &r.nodes[r.edges[k].to]
	if want := &v.clusters[exit.cluster].nodes[exit.node]; !st.failed && (want.slot != slot || want.port != port) {
		st.fail()
	}
	return slot, port, closed + n
}

// stitchClusterEdge adds the polygons of edge k of cluster c, which
// leaves from port port of the tile in slot, and returns the port it ends
// at.
func (s *Searcher) stitchClusterEdge(c *clusterGraph, k int, slot, port uint32) (endSlot, endPort uint32, closed int) {
	st := &s.stitch
	steps, ok := clusterSteps(c.paths[k])
	if !ok {
		st.fail()
		return 0, 0, 0
	}
	for i := range steps {
		rank := clusterRank(c.paths[k], i)
		g := s.v.slots[slot].graph
		edges := g.edgesOf(int(port))
		if rank < len(edges) {
			closed += s.stitchEdge(slot, port, &edges[rank])
			port = uint32(edges[rank].to)
			continue
		}
		x, ok := g.crossingOf(int(port), rank-len(edges))
		if !ok {
			st.fail()
			return 0, 0, closed
		}
		next := g.ports[port].neighbour
		other := s.v.slots[next].graph
		if other == nil {
			st.fail()
			return 0, 0, closed
		}
		q, ok := other.entryPort(slot, x.from, x.to)
		if !ok {
			st.fail()
			return 0, 0, closed
		}
		closed += s.stitchCrossing(slot, next, x)
		if st.failed {
			return 0, 0, closed
		}
		slot, port = next, uint32(q)
	}
	end := &c.nodes[c.edges[k].to]
	if slot != end.slot || port != end.port {
		st.fail()
	}
	return slot, port, closed
}

// portOfNode returns the tile slot and port of a search node that is a
// port (a node of the bottom level or a cluster node).
func (s *Searcher) portOfNode(i int32) (slot, port uint32) {
	n := &s.origins[i]
	if i >= s.l0Base {
		return n.a, n.b
	}
	c := &s.v.clusters[n.a].nodes[n.b]
	return c.slot, c.port
}

// stitchTileEdge adds the way of the tile edge from port from to port to
// of the tile in slot.
func (s *Searcher) stitchTileEdge(slot, from, to uint32) int {
	edges := s.v.slots[slot].graph.edgesOf(int(from))
	for k := range edges {
		if uint32(edges[k].to) == to {
			return s.stitchEdge(slot, from, &edges[k])
		}
	}
	s.stitch.fail()
	return 0
}

// stitchEdge adds the polygons of tile edge e out of port from, or marks
// them pending when they were not kept or do not start where the corridor
// ends.
func (s *Searcher) stitchEdge(slot, from uint32, e *tileEdge) int {
	st := &s.stitch
	if st.pending {
		return 0
	}
	steps, ok := pathSteps(e.path)
	g := s.v.slots[slot].graph
	last := st.last()
	x := g.ports[from].first()
	if !ok || last.TileIndex() != slot || last.PolyIndex() != x.from {
		st.pending = true
		return 0
	}
	t := g.tile
	base := t.PolyRefBase()
	mark := len(st.corridor)
	poly := x.from
	for k := range steps {
		next, ok := linkAt(t, &t.Polys[poly], pathRank(e.path, k))
		if !ok || next.TileIndex() != slot {
			st.corridor = st.corridor[:mark]
			st.pending = true
			return 0
		}
		poly = next.PolyIndex()
		st.corridor = append(st.corridor, base|navmesh.Ref(poly))
	}
	return 0
}

// stitchBorder adds the step from port from of the tile in slot across
// the border into port to of the tile in toSlot, through the crossing of
// the port that leads there (the one from the corridor's last polygon if
// several do).
func (s *Searcher) stitchBorder(slot, from, toSlot, to uint32) int {
	g := s.v.slots[slot].graph
	other := s.v.slots[toSlot].graph
	if other == nil || g.ports[from].neighbour != toSlot {
		s.stitch.fail()
		return 0
	}
	last := s.stitch.last()
	var chosen crossing
	found := false
	for i := 0; ; i++ {
		x, ok := g.crossingOf(int(from), i)
		if !ok {
			break
		}
		if q, ok := other.entryPort(slot, x.from, x.to); !ok || uint32(q) != to {
			continue
		}
		if !found || (last.TileIndex() == slot && last.PolyIndex() == x.from) {
			chosen, found = x, true
		}
	}
	if !found {
		s.stitch.fail()
		return 0
	}
	return s.stitchCrossing(slot, toSlot, chosen)
}

// stitchCrossing adds the step through crossing x of the tile in slot,
// first joining the corridor to the crossing's polygon when it ends
// elsewhere.
func (s *Searcher) stitchCrossing(slot, beyond uint32, x crossing) int {
	st := &s.stitch
	t := s.v.slots[slot].graph.tile
	closed := 0
	if last := st.last(); st.pending || last.TileIndex() != slot || last.PolyIndex() != x.from {
		if last.TileIndex() != slot {
			st.fail()
			return 0
		}
		pos, ok := s.crossingMid(t, x, beyond)
		if !ok {
			st.fail()
			return 0
		}
		closed = s.joinInTile(t, x.from, pos)
		if st.failed {
			return closed
		}
	}
	// Across: into polygon x.to of the tile beyond.
	toRef, ok := crossingTarget(t, x, beyond)
	if !ok {
		st.fail()
		return closed
	}
	st.corridor = append(st.corridor, toRef)
	st.enteredTile, st.enteredFrom = t, x.from
	return closed
}

// crossingTarget returns the polygon beyond crossing x of tile t, in the
// tile in slot beyond.
func crossingTarget(t *navmesh.Tile, x crossing, beyond uint32) (navmesh.Ref, bool) {
	poly := &t.Polys[x.from]
	for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
		if ref := t.Links[l].Ref; ref != 0 && ref.TileIndex() == beyond && ref.PolyIndex() == x.to {
			return ref, true
		}
	}
	return 0, false
}

// crossingMid returns the middle of the portal of crossing x of tile t
// into the tile in slot beyond.
func (s *Searcher) crossingMid(t *navmesh.Tile, x crossing, beyond uint32) (geom.Vec3, bool) {
	poly := &t.Polys[x.from]
	for l := poly.FirstLink; l != navmesh.NullLink; l = t.Links[l].Next {
		link := &t.Links[l]
		if ref := link.Ref; ref != 0 && ref.TileIndex() == beyond && ref.PolyIndex() == x.to {
			toTile, toPoly := s.snap.TileAndPolyUnchecked(ref)
			if toTile == nil {
				return geom.Vec3{}, false
			}
			return portalMid(t, poly, link, t.PolyRefBase()|navmesh.Ref(x.from), toTile, toPoly), true
		}
	}
	return geom.Vec3{}, false
}

// enteredPos returns where the corridor entered its last polygon.
func (s *Searcher) enteredPos() (geom.Vec3, bool) {
	st := &s.stitch
	if st.enteredTile == nil {
		return s.startPos, true
	}
	last := st.last()
	return s.crossingMid(st.enteredTile, crossing{from: st.enteredFrom, to: last.PolyIndex()}, last.TileIndex())
}

// joinInTile searches the tile of the corridor's last polygon for the way
// from it to polygon target, ending at pos, and adds it.
func (s *Searcher) joinInTile(t *navmesh.Tile, target uint32, pos geom.Vec3) int {
	st := &s.stitch
	st.pending = false
	from, ok := s.enteredPos()
	if !ok {
		st.fail()
		return 0
	}
	search := &s.local
	search.reset(t, &s.h.model, nil, nil)
	search.addSource(st.last().PolyIndex(), from, 0)
	search.runToGoal(target, pos)
	if search.goalState < 0 {
		st.fail()
		return search.settled
	}
	s.appendReversed(search, search.goalState)
	return search.settled
}

// appendReversed adds the polygons of the way a tile search found to
// state, from its source (the corridor's last polygon, not added again)
// on.
func (s *Searcher) appendReversed(search *tileSearch, state int32) {
	st := &s.stitch
	if state < 0 {
		st.fail()
		return
	}
	chain := st.chain[:0]
	for i := state; search.states[i].parent >= 0; i = search.states[i].parent {
		chain = append(chain, search.states[i].poly)
	}
	st.chain = chain
	base := search.tile.PolyRefBase()
	for k := len(chain) - 1; k >= 0; k-- {
		st.corridor = append(st.corridor, base|navmesh.Ref(chain[k]))
	}
}

// stitchGoal adds the way from port port of the goal tile to the goal:
// the way the goal's search found from the goal, backwards, when the
// corridor ends at its polygon, else a search inside the tile.
func (s *Searcher) stitchGoal(port uint32) int {
	st := &s.stitch
	search := &s.goalSearch
	state := search.portState[port]
	last := st.last()
	if st.pending || state < 0 || last.TileIndex() != s.goalSlot || last.PolyIndex() != search.states[state].poly {
		if last.TileIndex() != s.goalSlot {
			st.fail()
			return 0
		}
		return s.joinInTile(search.tile, s.goalRef.PolyIndex(), s.goalPos)
	}
	base := search.tile.PolyRefBase()
	for i := search.states[state].parent; i >= 0; i = search.states[i].parent {
		st.corridor = append(st.corridor, base|navmesh.Ref(search.states[i].poly))
	}
	return 0
}

// linkAt returns the polygon the link of rank rank in poly's list leads
// to.
func linkAt(t *navmesh.Tile, poly *navmesh.Poly, rank int) (navmesh.Ref, bool) {
	l := poly.FirstLink
	for ; rank > 0 && l != navmesh.NullLink; rank-- {
		l = t.Links[l].Next
	}
	if l == navmesh.NullLink || t.Links[l].Ref == 0 {
		return 0, false
	}
	return t.Links[l].Ref, true
}

// crossingOf returns crossing i of port p: its first, then its extra ones.
func (g *tileGraph) crossingOf(p, i int) (crossing, bool) {
	if i == 0 {
		return g.ports[p].first(), true
	}
	extra := g.extraOf(p)
	if i-1 < len(extra) {
		return extra[i-1].crossing, true
	}
	return crossing{}, false
}
