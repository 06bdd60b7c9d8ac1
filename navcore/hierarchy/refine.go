package hierarchy

import (
	"math/bits"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// refineSearch is A* over the polygons of the tiles the route crosses,
// on the steps of query.Query.FindPath (a polygon is entered at the middle
// of a portal, moving on costs the distance times the polygon's area cost)
// but with a node per portal rather than per polygon, so that a polygon
// reached through several portals keeps each: the corridor it finds is the
// cheapest of those tiles (CorridorCost), where FindPath keeps the place
// it first reached a polygon at. Each tile entered gets a block of node
// indices, one per link, and nodes are made as links are crossed, so the
// memory follows what is searched, not the mesh.
type refineSearch struct {
	nodes     []polyNode
	index     []int32 // blocks of node indices, -1 for no node yet
	heap      []heapEntry
	blockGen  []uint32 // per slot: the search generation of its block
	blockBase []int32  // per slot: where its block starts in index
	gen       uint32
	goal      int32
	reached   bool
}

// polyNode is a polygon entered through one portal (or the start).
type polyNode struct {
	pos         geom.Vec3
	cost, total float32
	parent      int32
	ref         navmesh.Ref // the polygon
	state       nodeState
}

// nodeState is where a node stands in the refinement.
type nodeState uint8

const (
	nodeNew nodeState = iota
	nodeOpen
	nodeClosed
)

// open starts the refinement of s's route at its start.
func (r *refineSearch) open(s *Searcher) {
	r.gen++
	if r.gen == 0 {
		clear(r.blockGen)
		r.gen = 1
	}
	if n := s.snap.MaxTiles(); len(r.blockGen) < n {
		r.blockGen = append(r.blockGen, make([]uint32, n-len(r.blockGen))...)
		r.blockBase = append(r.blockBase, make([]int32, n-len(r.blockBase))...)
	}
	r.index = r.index[:0]
	r.nodes = append(r.nodes[:0], polyNode{
		pos:    s.startPos,
		total:  distance(&s.startPos, &s.goalPos) * heuristicScale,
		parent: -1,
		ref:    s.startRef,
		state:  nodeOpen,
	})
	r.heap = pushEntry(r.heap[:0], heapEntry{total: r.nodes[0].total, node: 0})
	r.goal, r.reached = -1, false
}

// node returns the index of the node of link l of tile, making it (and
// the tile's block) on first use.
func (r *refineSearch) node(tile *navmesh.Tile, l uint32) int32 {
	slot := tile.Index()
	if r.blockGen[slot] != r.gen {
		base := len(r.index)
		n := len(tile.Links)
		r.index = slices.Grow(r.index, n)[:base+n]
		for i := range r.index[base:] {
			r.index[base+i] = -1
		}
		r.blockGen[slot] = r.gen
		r.blockBase[slot] = int32(base)
	}
	at := &r.index[r.blockBase[slot]+int32(l)]
	if *at < 0 {
		*at = int32(len(r.nodes))
		r.nodes = append(r.nodes, polyNode{})
	}
	return *at
}

// steps closes up to iterations nodes; done is set when the goal is
// closed (reached) or nothing is left open.
func (r *refineSearch) steps(s *Searcher, iterations int) (used int, done bool) {
	snap, model := s.snap, &s.h.model
	goalRef, goalPos := s.goalRef, s.goalPos
	allowed, gen := s.allowed, s.gen
	for used < iterations {
		bestIndex, ok := r.pop()
		if !ok {
			return used, true
		}
		used++
		s.visited++
		s.refineClosed++
		best := &r.nodes[bestIndex]
		best.state = nodeClosed
		bestRef := best.ref
		if bestRef == goalRef {
			r.goal, r.reached = bestIndex, true
			return used, true
		}
		bestTile, bestPoly := snap.TileAndPolyUnchecked(bestRef)
		bestSlot := bestRef.TileIndex()
		var parentRef navmesh.Ref
		if best.parent >= 0 {
			parentRef = r.nodes[best.parent].ref
		}
		bestCost, bestPos := best.cost, best.pos
		area := model.areaCostOf(bestTile, bestPoly)
		links := bestTile.Links
		for l := bestPoly.FirstLink; l != navmesh.NullLink; l = links[l].Next {
			link := &links[l]
			next := link.Ref
			if next == 0 || next == parentRef {
				continue
			}
			slot := next.TileIndex()
			if allowed[slot] != gen {
				continue
			}
			nextTile := bestTile
			var nextPoly *navmesh.Poly
			if slot == bestSlot {
				nextPoly = &bestTile.Polys[next.PolyIndex()]
			} else {
				nextTile, nextPoly = snap.TileAndPolyUnchecked(next)
			}
			if nextPoly.Flags&model.include == 0 || nextPoly.Flags&model.exclude != 0 {
				continue
			}
			ni := r.node(bestTile, l)
			n := &r.nodes[ni]
			if n.state == nodeClosed {
				continue
			}
			if n.state == nodeNew {
				n.ref = next
			}
			if n.state == nodeNew {
				n.pos = portalMid(bestTile, bestPoly, link, bestRef, nextTile, nextPoly)
			}
			cost := bestCost + float32(distance(&bestPos, &n.pos)*area)
			var heuristic float32
			if next == goalRef {
				cost += float32(distance(&n.pos, &goalPos) * model.areaCostOf(nextTile, nextPoly))
			} else {
				heuristic = distance(&n.pos, &goalPos) * heuristicScale
			}
			total := cost + heuristic
			if n.state == nodeOpen && total >= n.total {
				continue
			}
			n.parent, n.cost, n.total, n.state = bestIndex, cost, total, nodeOpen
			r.heap = pushEntry(r.heap, heapEntry{total: total, node: ni})
		}
	}
	return used, false
}

// writePath writes the corridor from the start to the goal into path,
// keeping its start when it is longer (StatusBufferTooSmall).
func (r *refineSearch) writePath(path []navmesh.Ref) (int, query.Status) {
	length := 0
	for i := r.goal; i >= 0; i = r.nodes[i].parent {
		length++
	}
	i := r.goal
	write := length
	for ; write > len(path); write-- {
		i = r.nodes[i].parent
	}
	for k := write - 1; k >= 0; k-- {
		path[k] = r.nodes[i].ref
		i = r.nodes[i].parent
	}
	if length > len(path) {
		return len(path), query.StatusBufferTooSmall
	}
	return length, 0
}

// pop takes the cheapest open polygon off the open list, skipping stale
// entries; ok is false when none is left.
func (r *refineSearch) pop() (int32, bool) {
	for len(r.heap) > 0 {
		var e heapEntry
		r.heap, e = popEntry(r.heap)
		if n := &r.nodes[e.node]; n.state == nodeOpen && e.total == n.total {
			return e.node, true
		}
	}
	return 0, false
}

func trailingZeros(x uint64) int { return bits.TrailingZeros64(x) }
