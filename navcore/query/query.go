package query

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// tinyPoolSize is the node count of the small pool used by the local
// searches (MoveAlongSurface, FindLocalNeighbourhood), as in Detour.
const tinyPoolSize = 64

// Query runs queries on one Mesh (dtNavMeshQuery). It owns the search memory,
// so it is not safe for concurrent use: give each goroutine its own Query.
// Each public call works on one snapshot of the mesh's tile set.
type Query struct {
	mesh      *navmesh.Mesh
	nodeLimit int // the most nodes the pool may grow to (see SetNodeLimit)
	nodes     *nodePool
	tinyNodes *nodePool
	open      *nodeQueue
	sliced    slicedQuery
	local     localQueue

	// Scratch space reused by the queries.
	polyBatch [polyBatchSize]navmesh.Ref
	nearest   nearestCollector
	collect   polyCollector
	tiles     []*navmesh.Tile
	cells     []tileCell
}

// New returns a Query on mesh whose A* and Dijkstra searches can visit up to
// maxNodes polygons per search [Limit: 1..MaxNodes]. Detour's demo uses
// 2048; large levels with long paths need more.
func New(mesh *navmesh.Mesh, maxNodes int) (*Query, error) {
	if mesh == nil {
		return nil, fmt.Errorf("query: new: nil mesh: %w", ErrInvalidParam)
	}
	if maxNodes < 1 || maxNodes > MaxNodes {
		return nil, fmt.Errorf("query: new: max nodes %d outside 1..%d: %w", maxNodes, MaxNodes, ErrInvalidParam)
	}
	nodes := newNodePool(maxNodes, nodeHashSize(maxNodes))
	return &Query{
		mesh:      mesh,
		nodeLimit: maxNodes,
		nodes:     nodes,
		tinyNodes: newNodePool(tinyPoolSize, 32),
		open:      newNodeQueue(nodes),
		tiles:     make([]*navmesh.Tile, 0, 32),
	}, nil
}

// nodeHashSize is the hash table size of a node pool of maxNodes nodes:
// maxNodes rounded up to a power of two, so that chains stay about one
// node long in a full pool (Detour takes a quarter of that, which makes
// the A* searches walk chains of four; a bucket costs 4 bytes).
func nodeHashSize(maxNodes int) int {
	return max(1, int(geom.NextPow2(uint32(maxNodes))))
}

// SetNodeLimit lets the node pool of the path searches grow on demand up to
// limit nodes: a FindPath, or a sliced search, that runs out of nodes
// doubles the pool (at most to limit) and searches again from the start,
// so that long paths on large levels come out complete instead of partial.
// Growing allocates; a grown pool stays, so once it has the size the
// searches need, they allocate nothing. The result is the search a pool of
// the final size gives. Other searches (around a circle, distance to wall,
// random point around a circle) keep the pool they find. A limit below the
// pool's size keeps the pool as it is and stops the growth
// [Limit: 1..MaxNodes].
func (q *Query) SetNodeLimit(limit int) error {
	if limit < 1 || limit > MaxNodes {
		return fmt.Errorf("query: set node limit: %d outside 1..%d: %w", limit, MaxNodes, ErrInvalidParam)
	}
	q.nodeLimit = limit
	return nil
}

// NodeLimit returns how far the node pool may grow: the limit SetNodeLimit
// set, or the pool's size when that is larger.
func (q *Query) NodeLimit() int { return max(q.nodeLimit, q.nodes.maxNodes()) }

// growNodes doubles the node pool, to no more than the node limit, and
// reports whether it grew. The pool and the open list are new: no node of
// the last search survives.
func (q *Query) growNodes() bool {
	size := q.nodes.maxNodes()
	if size >= q.nodeLimit {
		return false
	}
	size = int(min(2*int64(size), int64(q.nodeLimit)))
	q.nodes = newNodePool(size, nodeHashSize(size))
	q.open = newNodeQueue(q.nodes)
	return true
}

// Mesh returns the mesh the Query works on.
func (q *Query) Mesh() *navmesh.Mesh { return q.mesh }

// MaxNodes returns the size of the node pool (it grows up to NodeLimit).
func (q *Query) MaxNodes() int { return q.nodes.maxNodes() }

// IsValidPolyRef reports whether ref names a polygon of the current tile set
// that filter passes (false for a nil filter).
func (q *Query) IsValidPolyRef(ref navmesh.Ref, filter *Filter) bool {
	if filter == nil {
		return false
	}
	tile, poly, err := q.mesh.Snapshot().TileAndPoly(ref)
	if err != nil {
		return false
	}
	return filter.Passes(ref, tile, poly)
}

// startSearch empties the node pool and the open list and opens the start
// node of a search (dtNavMeshQuery's common preamble): polygon ref reached
// at pos, cost 0, with total as its estimated total cost.
func (q *Query) startSearch(ref navmesh.Ref, pos geom.Vec3, total float32) *node {
	q.nodes.clear()
	q.open.clear()
	start := q.nodes.get(ref, 0) // a cleared pool always has a node
	start.pos = pos
	start.total = total
	start.flags = nodeOpen
	q.open.push(start)
	return start
}

// reachAtTotal records that the Dijkstra searches reached n from parent
// with total cost total, unless n is open with a total no higher already,
// and reopens it. The caller has skipped closed nodes.
func (q *Query) reachAtTotal(n, parent *node, total float32) {
	if n.flags&nodeOpen != 0 && total >= n.total {
		return
	}
	n.parent = parent.index
	n.total = total
	q.open.reopen(n)
}

// IsInClosedList reports whether the last search (FindPath, the sliced path,
// FindPolysAroundCircle/Shape, FindDistanceToWall,
// FindRandomPointAroundCircle) closed a node of ref: whether it fully
// explored that polygon.
func (q *Query) IsInClosedList(ref navmesh.Ref) bool {
	var found [maxStatesPerNode]*node
	n := q.nodes.findAll(ref, found[:])
	for _, nd := range found[:n] {
		if nd.flags&nodeClosed != 0 {
			return true
		}
	}
	return false
}

// checkPos returns ErrInvalidParam unless every component of p is finite.
func checkPos(what string, p geom.Vec3) error {
	if !geom.IsFinite(p) {
		return fmt.Errorf("query: %s %v is not finite: %w", what, p, ErrInvalidParam)
	}
	return nil
}

// checkRef returns ErrInvalidRef unless ref is valid in snap.
func checkRef(snap *navmesh.Snapshot, what string, ref navmesh.Ref) error {
	if !snap.IsValid(ref) {
		return fmt.Errorf("query: %s %#x: %w", what, uint64(ref), ErrInvalidRef)
	}
	return nil
}

// checkFilter returns ErrInvalidParam for a nil filter.
func checkFilter(filter *Filter) error {
	if filter == nil {
		return fmt.Errorf("query: nil filter: %w", ErrInvalidParam)
	}
	return nil
}

// checkCostFilter returns ErrInvalidParam for a nil filter, and for a
// filter without a Custom rule whose area costs break their limit, for the
// queries that charge costs. A Custom rule's costs are checked as they come.
func checkCostFilter(filter *Filter) error {
	if filter == nil || filter.Custom == nil {
		return filter.Validate()
	}
	return nil
}

// checkRadius returns ErrInvalidParam unless r is finite and not negative.
func checkRadius(what string, r float32) error {
	if !(r >= 0) || !geom.IsFinite(geom.Vec3{r, 0, 0}) {
		return fmt.Errorf("query: %s %v: %w", what, r, ErrInvalidParam)
	}
	return nil
}
