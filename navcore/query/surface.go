package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// localSearchQueue is how many polygons the local searches (MoveAlongSurface,
// FindLocalNeighbourhood) keep waiting to be expanded.
const localSearchQueue = 48

// localQueue is the first-in first-out queue of the local searches, which
// expand polygons breadth first from the tiny node pool.
type localQueue struct {
	nodes [localSearchQueue]*node
	count int
}

// startLocalSearch empties the tiny node pool and returns a queue holding
// the closed start node of ref.
func (q *Query) startLocalSearch(ref navmesh.Ref) *localQueue {
	q.tinyNodes.clear()
	start := q.tinyNodes.get(ref, 0) // a cleared pool always has a node
	start.flags = nodeClosed
	q.local = localQueue{count: 1}
	q.local.nodes[0] = start
	return &q.local
}

func (l *localQueue) empty() bool { return l.count == 0 }

// pop removes and returns the oldest node.
func (l *localQueue) pop() *node {
	n := l.nodes[0]
	copy(l.nodes[:l.count-1], l.nodes[1:l.count])
	l.count--
	return n
}

// push adds n and reports whether it fit.
func (l *localQueue) push(n *node) bool {
	if l.count == localSearchQueue {
		return false
	}
	l.nodes[l.count] = n
	l.count++
	return true
}

// MoveAlongSurface moves from startPos in polygon startRef towards endPos,
// staying on the surface: it slides along walls and stops where the polygons
// run out (dtNavMeshQuery::moveAlongSurface). It searches only polygons
// touching the circle through startPos and endPos, up to 64 of them, so it is
// meant for small moves, such as one frame of an agent. It returns the
// position reached (its height is not adjusted to the surface) and writes the
// polygons from startRef to the one holding that position into visited.
// When visited fills up the list is cut with StatusBufferTooSmall.
//
// The move [Limit: short, within the 64 polygons around startPos] [Units:
// world units]
func (q *Query) MoveAlongSurface(startRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, visited []navmesh.Ref) (geom.Vec3, int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "move along surface: start ref", startRef); err != nil {
		return geom.Vec3{}, 0, 0, err
	}
	if err := checkPos("move along surface: start position", startPos); err != nil {
		return geom.Vec3{}, 0, 0, err
	}
	if err := checkPos("move along surface: end position", endPos); err != nil {
		return geom.Vec3{}, 0, 0, err
	}
	if err := checkFilter(filter); err != nil {
		return geom.Vec3{}, 0, 0, err
	}
	if len(visited) == 0 {
		return geom.Vec3{}, 0, 0, fmt.Errorf("query: move along surface: empty visited buffer: %w", ErrBufferTooSmall)
	}

	var status Status
	pool := q.tinyNodes
	queue := q.startLocalSearch(startRef)

	bestPos := startPos
	bestDist := float32(math.MaxFloat32)
	var bestNode *node

	// Search only polygons touching the circle through start and end.
	searchPos := fastgeom.FromVec3(lerp(startPos, endPos, 0.5))
	searchRad := float32(dist(startPos, endPos)/2) + 0.001
	searchRadSqr := searchRad * searchRad

	end := fastgeom.FromVec3(endPos)
	var verts [navmesh.MaxVertsPerPoly]fastgeom.Point
	for !queue.empty() {
		curNode := queue.pop()

		curRef := curNode.ref
		curTile, curPoly := snap.TileAndPolyUnchecked(curRef)
		nv := int(curPoly.VertCount)
		for i := 0; i < nv; i++ {
			verts[i] = fastgeom.Load(&curTile.Verts[curPoly.Verts[i]])
		}

		// The end lies in this polygon: done.
		if fastgeom.PointInPolygon(end, verts[:nv]) {
			bestNode = curNode
			bestPos = endPos
			break
		}

		links := curTile.Links
		for i, j := 0, nv-1; i < nv; j, i = i, i+1 {
			// Find the passable neighbours across edge j.
			const maxNeighbours = 8
			var neighbours [maxNeighbours]navmesh.Ref
			count := 0
			if curPoly.Neighbours[j]&navmesh.ExternalLink != 0 {
				for k := curPoly.FirstLink; k != navmesh.NullLink; k = links[k].Next {
					link := &links[k]
					if int(link.Edge) == j && link.Ref != 0 {
						neiTile, neiPoly := snap.TileAndPolyUnchecked(link.Ref)
						if filter.Passes(link.Ref, neiTile, neiPoly) && count < maxNeighbours {
							neighbours[count] = link.Ref
							count++
						}
					}
				}
			} else if curPoly.Neighbours[j] != 0 {
				idx := uint32(curPoly.Neighbours[j] - 1)
				ref := curTile.PolyRefBase() | navmesh.Ref(idx)
				if filter.Passes(ref, curTile, &curTile.Polys[idx]) {
					neighbours[count] = ref
					count++
				}
			}

			if count == 0 {
				// A wall: the closest point on it is a candidate end.
				vj, vi := verts[j], verts[i]
				distSqr, t := fastgeom.DistancePtSegSqr2D(end, vj, vi)
				if distSqr < bestDist {
					bestPos = fastgeom.Lerp(vj, vi, t).Vec3()
					bestDist = distSqr
					bestNode = curNode
				}
				continue
			}
			for _, neighbour := range neighbours[:count] {
				neighbourNode := pool.get(neighbour, 0)
				if neighbourNode == nil || neighbourNode.flags&nodeClosed != 0 {
					continue
				}
				// Skip edges outside the search circle.
				if distSqr, _ := fastgeom.DistancePtSegSqr2D(searchPos, verts[j], verts[i]); distSqr > searchRadSqr {
					continue
				}
				if queue.push(neighbourNode) {
					neighbourNode.parent = curNode.index
					neighbourNode.flags |= nodeClosed
				}
			}
		}
	}

	n := 0
	if bestNode != nil {
		var err error
		if n, status, err = reverseAndWrite(pool, bestNode, visited); err != nil {
			return geom.Vec3{}, 0, 0, fmt.Errorf("query: move along surface: %w", err)
		}
	}
	return bestPos, n, status, nil
}

// reverseAndWrite reverses the parent chain ending at last, so it runs from
// the search start, and writes its polygons into dst. A chain longer than
// dst is cut with StatusBufferTooSmall.
func reverseAndWrite(pool *nodePool, last *node, dst []navmesh.Ref) (int, Status, error) {
	first, err := pool.reverseChain(last)
	if err != nil {
		return 0, 0, err
	}
	n := 0
	for nd := first; nd != nil; nd = pool.at(nd.parent) {
		dst[n] = nd.ref
		n++
		if n >= len(dst) {
			return n, StatusBufferTooSmall, nil
		}
	}
	return n, 0, nil
}
