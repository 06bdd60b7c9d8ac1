package query

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// heuristicScale scales the straight-line distance to the goal that the A*
// searches add to a node's cost (H_SCALE): slightly below 1 so the estimate
// stays below the true cost.
const heuristicScale = float32(0.999)

// FindPath finds a polygon corridor from startRef to endRef with A*
// (dtNavMeshQuery::findPath) and writes it into path, start first; it
// returns how many polygons it wrote. Nodes sit at the middle of the edges
// crossed, costs come from filter.
//
// When the goal cannot be reached, or the node pool runs out (and cannot
// grow: see SetNodeLimit), the corridor leads to the polygon that got
// closest to endPos and the status has StatusPartial (and
// StatusOutOfNodes). A corridor longer than path keeps its
// first len(path) polygons and sets StatusBufferTooSmall.
func (q *Query) FindPath(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, path []navmesh.Ref) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find path: start ref", startRef); err != nil {
		return 0, 0, err
	}
	if err := checkRef(snap, "find path: end ref", endRef); err != nil {
		return 0, 0, err
	}
	if !geom.IsFinite(startPos) {
		return 0, 0, checkPos("find path: start position", startPos) // only here: checkPos is too big to inline
	}
	if !geom.IsFinite(endPos) {
		return 0, 0, checkPos("find path: end position", endPos) // only here: checkPos is too big to inline
	}
	if err := checkCostFilter(filter); err != nil {
		return 0, 0, err
	}
	if len(path) == 0 {
		return 0, 0, fmt.Errorf("query: find path: empty path buffer: %w", ErrBufferTooSmall)
	}

	if startRef == endRef {
		path[0] = startRef
		return 1, 0, nil
	}
	for {
		var n int
		var status Status
		var err error
		if filter.Custom == nil {
			n, status, err = q.searchPathPlain(snap, startRef, endRef, startPos, endPos, filter, path)
		} else {
			n, status, err = q.searchPath(snap, startRef, endRef, startPos, endPos, filter, path)
		}
		if err != nil || !status.OutOfNodes() || !q.growNodes() {
			return n, status, err
		}
	}
}

// searchPath is FindPath's A* on checked arguments. It fails only on a
// Custom cost outside its limit.
func (q *Query) searchPath(snap *navmesh.Snapshot, startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, path []navmesh.Ref) (int, Status, error) {
	pool := q.nodes
	open := q.open
	flat := snap.TileSlots()
	startNode := q.startSearch(startRef, startPos, dist(startPos, endPos)*heuristicScale)

	lastBestNode := startNode
	lastBestNodeCost := startNode.total
	outOfNodes := false
	custom := filter.Custom != nil

	for steps := maxSearchSteps(pool); !open.empty(); steps-- {
		if steps == 0 {
			// Only reopened nodes get here: call it running out of nodes.
			outOfNodes = true
			break
		}
		bestNode := open.closeCheapest()

		if bestNode.ref == endRef {
			lastBestNode = bestNode
			break
		}

		bestRef := bestNode.ref
		// The lookups by hand, the flat array's case inlined.
		bestTile := flatTile(flat, bestRef)
		var bestPoly *navmesh.Poly
		if bestTile != nil && bestRef.PolyIndex() < uint32(len(bestTile.Polys)) {
			bestPoly = &bestTile.Polys[bestRef.PolyIndex()]
		} else {
			bestTile, bestPoly = snap.TileAndPolyUnchecked(bestRef)
		}
		bestTileIndex := bestRef.TileIndex()

		parentRef := pool.refAt(bestNode.parent)
		var parentTile *navmesh.Tile
		var parentPoly *navmesh.Poly
		if parentRef != 0 && custom {
			// Only a custom cost needs the parent polygon.
			parentTile, parentPoly = snap.TileAndPolyUnchecked(parentRef)
		}

		bestAreaCost := filter.AreaCost[bestPoly.AreaAndType&0x3f]
		if bestPoly.Type() == navmesh.PolyTypeOffMeshConnection {
			bestAreaCost = bestTile.OffMeshAreaCost(bestAreaCost)
		}

		links := bestTile.Links
		for i := bestPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			link := &links[i]
			neighbourRef := link.Ref
			if neighbourRef == 0 || neighbourRef == parentRef {
				continue
			}
			// Most links stay in the tile: no lookup needed then (links only
			// name polygons of their own snapshot).
			neighbourTile, neighbourPoly := bestTile, (*navmesh.Poly)(nil)
			if neighbourRef.TileIndex() == bestTileIndex {
				neighbourPoly = &bestTile.Polys[neighbourRef.PolyIndex()]
			} else if neighbourTile = flatTile(flat, neighbourRef); neighbourTile != nil && neighbourRef.PolyIndex() < uint32(len(neighbourTile.Polys)) {
				neighbourPoly = &neighbourTile.Polys[neighbourRef.PolyIndex()]
			} else {
				neighbourTile, neighbourPoly = snap.TileAndPolyUnchecked(neighbourRef)
			}
			if custom {
				if !filter.customPasses(neighbourRef, neighbourTile, neighbourPoly) {
					continue
				}
			} else if neighbourPoly.Flags&filter.IncludeFlags == 0 || neighbourPoly.Flags&filter.ExcludeFlags != 0 {
				continue
			}

			// Reaching a polygon across different tile sides gives different
			// nodes, so the search can use each side.
			var crossSide uint8
			if link.Side != 0xff {
				crossSide = link.Side >> 1
			}
			neighbourNode := pool.get(neighbourRef, crossSide)
			if neighbourNode == nil {
				outOfNodes = true
				continue
			}
			if neighbourNode.flags == 0 {
				if mid, ok := linkMidPoint(link, bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile); ok {
					neighbourNode.pos = mid
				}
			}

			var cost, heuristic float32
			if custom {
				curCost := filter.customCost(&bestNode.pos, &neighbourNode.pos,
					parentRef, parentTile, parentPoly,
					bestRef, bestTile, bestPoly,
					neighbourRef, neighbourTile, neighbourPoly)
				if !(curCost >= 0) {
					return 0, 0, customCostError("find path", curCost, bestRef, neighbourRef)
				}
				if neighbourRef == endRef {
					endCost := filter.customCost(&neighbourNode.pos, &endPos,
						bestRef, bestTile, bestPoly,
						neighbourRef, neighbourTile, neighbourPoly,
						0, nil, nil)
					if !(endCost >= 0) {
						return 0, 0, customCostError("find path", endCost, neighbourRef, 0)
					}
					cost = bestNode.cost + curCost + endCost
				} else {
					cost = bestNode.cost + curCost
					heuristic = dist(neighbourNode.pos, endPos) * heuristicScale
				}
			} else {
				curCost := float32(dist(bestNode.pos, neighbourNode.pos) * bestAreaCost)
				if neighbourRef == endRef {
					endCost := float32(dist(neighbourNode.pos, endPos) * offMeshAreaCost(filter, neighbourTile, neighbourPoly))
					cost = bestNode.cost + curCost + endCost
				} else {
					cost = bestNode.cost + curCost
					heuristic = dist(neighbourNode.pos, endPos) * heuristicScale
				}
			}
			total := cost + heuristic

			// Keep the node unless this way is cheaper. Written as "not less"
			// so that a NaN total (an infinite distance times a cost of 0)
			// never replaces a node's way: parents then always cost no more
			// than their children, so they form no cycle.
			if neighbourNode.flags&(nodeOpen|nodeClosed) != 0 && !(total < neighbourNode.total) {
				continue
			}

			neighbourNode.parent = bestNode.index
			neighbourNode.flags &^= nodeClosed
			neighbourNode.cost = cost
			neighbourNode.total = total
			// open.reopen by hand: this loop is the hottest of the package.
			if neighbourNode.flags&nodeOpen != 0 {
				open.modify(neighbourNode)
			} else {
				neighbourNode.flags |= nodeOpen
				open.push(neighbourNode)
			}

			if heuristic < lastBestNodeCost {
				lastBestNodeCost = heuristic
				lastBestNode = neighbourNode
			}
		}
	}

	n, status, err := q.pathToNode(lastBestNode, path)
	if err != nil {
		return 0, 0, fmt.Errorf("query: find path: %w", err)
	}
	if lastBestNode.ref != endRef {
		status |= StatusPartial
	}
	if outOfNodes {
		status |= StatusOutOfNodes
	}
	return n, status, nil
}

// searchPathPlain is searchPath for a filter without a Custom rule: the
// same search, step for step, on the area costs and flags alone. It is a
// copy because it is the package's hottest loop: without the custom rule's
// variables live across it, the loop keeps its state in registers.
func (q *Query) searchPathPlain(snap *navmesh.Snapshot, startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, path []navmesh.Ref) (int, Status, error) {
	pool := q.nodes
	open := q.open
	flat := snap.TileSlots()
	startNode := q.startSearch(startRef, startPos, dist(startPos, endPos)*heuristicScale)

	lastBestNode := startNode
	lastBestNodeCost := startNode.total
	outOfNodes := false
	include, exclude := filter.IncludeFlags, filter.ExcludeFlags

	for steps := maxSearchSteps(pool); !open.empty(); steps-- {
		if steps == 0 {
			outOfNodes = true
			break
		}
		bestNode := open.closeCheapest()
		bestRef := bestNode.ref
		if bestRef == endRef {
			lastBestNode = bestNode
			break
		}

		bestTile := flatTile(flat, bestRef)
		var bestPoly *navmesh.Poly
		if bestTile != nil && bestRef.PolyIndex() < uint32(len(bestTile.Polys)) {
			bestPoly = &bestTile.Polys[bestRef.PolyIndex()]
		} else {
			bestTile, bestPoly = snap.TileAndPolyUnchecked(bestRef)
		}
		bestTileIndex := bestRef.TileIndex()
		parentRef := pool.refAt(bestNode.parent)

		bestAreaCost := filter.AreaCost[bestPoly.AreaAndType&0x3f]
		if bestPoly.Type() == navmesh.PolyTypeOffMeshConnection {
			bestAreaCost = bestTile.OffMeshAreaCost(bestAreaCost)
		}

		links := bestTile.Links
		for i := bestPoly.FirstLink; i != navmesh.NullLink; {
			link := &links[i]
			i = link.Next
			neighbourRef := link.Ref
			if neighbourRef == 0 || neighbourRef == parentRef {
				continue
			}
			neighbourTile, neighbourPoly := bestTile, (*navmesh.Poly)(nil)
			if neighbourRef.TileIndex() == bestTileIndex {
				neighbourPoly = &bestTile.Polys[neighbourRef.PolyIndex()]
			} else if neighbourTile = flatTile(flat, neighbourRef); neighbourTile != nil && neighbourRef.PolyIndex() < uint32(len(neighbourTile.Polys)) {
				neighbourPoly = &neighbourTile.Polys[neighbourRef.PolyIndex()]
			} else {
				neighbourTile, neighbourPoly = snap.TileAndPolyUnchecked(neighbourRef)
			}
			if neighbourPoly.Flags&include == 0 || neighbourPoly.Flags&exclude != 0 {
				continue
			}

			var crossSide uint8
			if link.Side != 0xff {
				crossSide = link.Side >> 1
			}
			neighbourNode := pool.get(neighbourRef, crossSide)
			if neighbourNode == nil {
				outOfNodes = true
				continue
			}
			if neighbourNode.flags == 0 {
				// linkMidPoint, its common case inlined.
				if (bestPoly.AreaAndType|neighbourPoly.AreaAndType)>>6 != uint8(navmesh.PolyTypeGround) {
					if mid, ok := edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile); ok {
						neighbourNode.pos = mid
					}
				} else if link.Side == 0xff || (link.BMin == 0 && link.BMax == 255) {
					// The whole edge.
					verts := bestTile.Verts
					v0 := &verts[bestPoly.Verts[link.Edge]]
					v1 := &verts[bestPoly.Verts[nextVert(int(link.Edge), int(bestPoly.VertCount))]]
					neighbourNode.pos = geom.Vec3{(v0[0] + v1[0]) * 0.5, (v0[1] + v1[1]) * 0.5, (v0[2] + v1[2]) * 0.5}
				} else {
					neighbourNode.pos = linkEdgeMidPoint(link, bestPoly, bestTile.Verts)
				}
			}

			var cost, heuristic float32
			curCost := float32(dist(bestNode.pos, neighbourNode.pos) * bestAreaCost)
			if neighbourRef == endRef {
				endCost := float32(dist(neighbourNode.pos, endPos) * offMeshAreaCost(filter, neighbourTile, neighbourPoly))
				cost = bestNode.cost + curCost + endCost
			} else {
				cost = bestNode.cost + curCost
				heuristic = dist(neighbourNode.pos, endPos) * heuristicScale
			}
			total := cost + heuristic

			// See searchPath: "not less" keeps NaN totals out.
			if neighbourNode.flags&(nodeOpen|nodeClosed) != 0 && !(total < neighbourNode.total) {
				continue
			}

			neighbourNode.parent = bestNode.index
			neighbourNode.cost = cost
			neighbourNode.total = total
			if neighbourNode.flags&nodeOpen != 0 {
				open.modify(neighbourNode)
			} else {
				neighbourNode.flags = neighbourNode.flags&^nodeClosed | nodeOpen
				open.push(neighbourNode)
			}

			if heuristic < lastBestNodeCost {
				lastBestNodeCost = heuristic
				lastBestNode = neighbourNode
			}
		}
	}

	n, status, err := q.pathToNode(lastBestNode, path)
	if err != nil {
		return 0, 0, fmt.Errorf("query: find path: %w", err)
	}
	if lastBestNode.ref != endRef {
		status |= StatusPartial
	}
	if outOfNodes {
		status |= StatusOutOfNodes
	}
	return n, status, nil
}

// searchStepsPerNode bounds an A* search to this many iterations per node
// of its pool. Each iteration closes a node; a closed node opens again only
// for a strictly cheaper way to it, which area costs below 1 make possible
// (the distance heuristic then overestimates). On the dungeon, 200 random
// cost models (costs from 0 to 1e6) × 200 pairs made at most 1.06
// iterations per node in use; the bound only ends searches that would run
// on through the float32 rounding of a pathological cost model.
const searchStepsPerNode = 64

// maxSearchSteps returns the iteration bound of an A* search in pool.
func maxSearchSteps(pool *nodePool) int { return searchStepsPerNode * pool.maxNodes() }

// customCostError reports a Custom cost outside its limit on the step from
// polygon from to polygon to (0: the goal position).
func customCostError(what string, cost float32, from, to navmesh.Ref) error {
	return fmt.Errorf("query: %s: custom filter cost %v on the step from polygon %#x to %#x, want a number >= 0: %w",
		what, cost, uint64(from), uint64(to), ErrInvalidParam)
}

// pathToNode writes into path the polygons from the search start to
// endNode, following parents (dtNavMeshQuery::getPathToNode). A path longer
// than the buffer keeps its start and sets StatusBufferTooSmall. A parent
// chain longer than the pool's nodes (a cycle, which the searches never
// build) is an error, not an endless walk.
func (q *Query) pathToNode(endNode *node, path []navmesh.Ref) (int, Status, error) {
	pool := q.nodes
	length := 0
	for cur := endNode; cur != nil; cur = pool.at(cur.parent) {
		length++
		if length > pool.nodeCount() {
			return 0, 0, errParentCycle
		}
	}
	cur := endNode
	writeCount := length
	for ; writeCount > len(path); writeCount-- {
		cur = pool.at(cur.parent)
	}
	for i := writeCount - 1; i >= 0; i-- {
		path[i] = cur.ref
		cur = pool.at(cur.parent)
	}
	if length > len(path) {
		return len(path), StatusBufferTooSmall, nil
	}
	return length, 0, nil
}
