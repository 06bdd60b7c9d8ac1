package query

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// SearchNode is one node of the query's last search, for debug drawing and
// inspection (a dtNode of the node pool).
type SearchNode struct {
	// Ref is the node's polygon.
	Ref navmesh.Ref
	// Position is where the search reached the polygon [Units: world units]
	Position geom.Vec3
	// Cost is the cost from the start to Position; Total adds the estimate
	// to the goal that orders the open list.
	Cost, Total float32
	// Parent is the index (in the same slice) of the node this one was
	// reached from, -1 for none.
	Parent int
	// Open reports a node still in the open list; Closed one whose polygon
	// was fully explored.
	Open, Closed bool
}

// SearchNodes appends the nodes of the last search that used the query's
// node pool (FindPath, the sliced path, FindPolysAroundCircle/Shape,
// FindDistanceToWall, FindRandomPointAroundCircle) to dst, in the order the
// search made them, and returns it: what duDebugDrawNavMeshNodes shows. A
// finished path search leaves the parent links of its result path pointing
// from the start towards the end. It allocates only when dst is too short.
func (q *Query) SearchNodes(dst []SearchNode) []SearchNode {
	p := q.nodes
	for i := range p.count {
		n := &p.nodes[i]
		dst = append(dst, SearchNode{
			Ref:      n.ref,
			Position: n.pos,
			Cost:     n.cost,
			Total:    n.total,
			Parent:   int(n.parent) - 1,
			Open:     n.flags&nodeOpen != 0,
			Closed:   n.flags&nodeClosed != 0,
		})
	}
	return dst
}
