package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FindPathOptions tune a sliced path search.
type FindPathOptions uint8

const (
	// FindPathAnyAngle lets the search shortcut corners with raycasts, so
	// that a node's parent need not be its neighbour (DT_FINDPATH_ANY_ANGLE).
	// Raycasts are tried only between nodes closer than 50 agent radii (the
	// start tile's walkable radius).
	FindPathAnyAngle FindPathOptions = 0x02
)

// rayCastLimitProportions scales the agent radius into the longest parent
// step an any-angle search tries to shortcut (DT_RAY_CAST_LIMIT_PROPORTIONS).
const rayCastLimitProportions = float32(50.0)

// slicedState says where a sliced path search is.
type slicedState uint8

const (
	slicedNone       slicedState = iota // no search started, or finalized
	slicedFailed                        // a start, end or parent ref went away
	slicedInProgress                    // open nodes remain
	slicedDone                          // reached the goal or ran out of open nodes
)

// slicedQuery is the state a sliced path search keeps between calls
// (dtNavMeshQuery::dtQueryData).
type slicedQuery struct {
	state            slicedState
	details          Status // partial, out of nodes...
	lastBestNode     *node
	lastBestNodeCost float32
	startRef, endRef navmesh.Ref
	startPos, endPos geom.Vec3
	filter           *Filter
	options          FindPathOptions
	raycastLimitSqr  float32
	steps            int // iterations so far, bounded by maxSearchSteps
}

// fail ends the search with err: the next update or finalize reports
// ErrNoSlicedQuery.
func (s *slicedQuery) fail(err error) error {
	s.state = slicedFailed
	return err
}

// InitSlicedFindPath starts an A* search from startRef to endRef that runs
// in steps of UpdateSlicedFindPath and ends with FinalizeSlicedFindPath
// (dtNavMeshQuery::initSlicedFindPath). It replaces any sliced search in
// progress and uses the node pool, so other searches on this Query between
// the steps break it. filter is kept until the search is finalized and must
// not change meanwhile. The status is StatusInProgress, or 0 when start and
// end are the same polygon and the search is already done.
func (q *Query) InitSlicedFindPath(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, options FindPathOptions) (Status, error) {
	snap := q.mesh.Snapshot()
	q.sliced = slicedQuery{
		state:           slicedFailed,
		startRef:        startRef,
		endRef:          endRef,
		startPos:        startPos,
		endPos:          endPos,
		filter:          filter,
		options:         options,
		raycastLimitSqr: math.MaxFloat32,
	}
	if err := checkRef(snap, "init sliced find path: start ref", startRef); err != nil {
		return 0, err
	}
	if err := checkRef(snap, "init sliced find path: end ref", endRef); err != nil {
		return 0, err
	}
	if err := checkPos("init sliced find path: start position", startPos); err != nil {
		return 0, err
	}
	if err := checkPos("init sliced find path: end position", endPos); err != nil {
		return 0, err
	}
	if err := checkCostFilter(filter); err != nil {
		return 0, err
	}

	if options&FindPathAnyAngle != 0 {
		tile, _ := snap.TileAndPolyUnchecked(startRef)
		limit := tile.Data.Header.WalkableRadius * rayCastLimitProportions
		q.sliced.raycastLimitSqr = limit * limit
	}

	if startRef == endRef {
		q.sliced.state = slicedDone
		return 0, nil
	}

	startNode := q.startSearch(startRef, startPos, dist(startPos, endPos)*heuristicScale)

	q.sliced.state = slicedInProgress
	q.sliced.lastBestNode = startNode
	q.sliced.lastBestNodeCost = startNode.total
	return StatusInProgress, nil
}

// UpdateSlicedFindPath runs up to maxIterations iterations of the sliced search
// (each closes one node) and returns how many it ran
// (dtNavMeshQuery::updateSlicedFindPath). The status keeps StatusInProgress
// until the search is done; it also collects StatusOutOfNodes, unless the
// node pool may grow (see SetNodeLimit): then the search starts again in a
// larger pool, this call returns StatusInProgress and the next ones go on
// with the new search. When the start
// or end polygon, or a polygon the search stands on, was removed meanwhile,
// the search fails with ErrInvalidRef and must be started again.
//
// maxIterations [Limit: >= 1 to make progress; 0 or less runs none]
func (q *Query) UpdateSlicedFindPath(maxIterations int) (int, Status, error) {
	s := &q.sliced
	switch s.state {
	case slicedNone, slicedFailed:
		return 0, 0, fmt.Errorf("query: update sliced find path: %w", ErrNoSlicedQuery)
	case slicedDone:
		return 0, s.details, nil
	}
	snap := q.mesh.Snapshot()
	if !snap.IsValid(s.startRef) || !snap.IsValid(s.endRef) {
		s.state = slicedFailed
		return 0, 0, fmt.Errorf("query: update sliced find path: start or end polygon is gone: %w", ErrInvalidRef)
	}

	pool := q.nodes
	open := q.open
	filter := s.filter
	custom := filter.Custom != nil
	iter := 0
	for iter < maxIterations && !open.empty() {
		iter++
		if s.steps++; s.steps > maxSearchSteps(pool) {
			// Only reopened nodes get here: call it running out of nodes.
			s.details |= StatusOutOfNodes
			s.state = slicedDone
			return iter, s.details, nil
		}

		bestNode := open.closeCheapest()

		if bestNode.ref == s.endRef {
			s.lastBestNode = bestNode
			s.state = slicedDone
			return iter, s.details, nil
		}

		// The tile set may have changed since the node was opened.
		bestRef := bestNode.ref
		bestTile, bestPoly, err := snap.TileAndPoly(bestRef)
		if err != nil {
			s.state = slicedFailed
			return iter, 0, fmt.Errorf("query: update sliced find path: polygon on the search front is gone: %w", ErrInvalidRef)
		}

		var parentRef, grandpaRef navmesh.Ref
		var parentTile *navmesh.Tile
		var parentPoly *navmesh.Poly
		var parentNode *node
		if bestNode.parent != 0 {
			parentNode = pool.at(bestNode.parent)
			parentRef = parentNode.ref
			if parentNode.parent != 0 {
				grandpaRef = pool.at(parentNode.parent).ref
			}
		}
		if parentRef != 0 {
			var err error
			parentTile, parentPoly, err = snap.TileAndPoly(parentRef)
			if err != nil || (grandpaRef != 0 && !snap.IsValid(grandpaRef)) {
				s.state = slicedFailed
				return iter, 0, fmt.Errorf("query: update sliced find path: polygon behind the search front is gone: %w", ErrInvalidRef)
			}
		}

		tryLOS := false
		if s.options&FindPathAnyAngle != 0 && parentRef != 0 && distSqr(parentNode.pos, bestNode.pos) < s.raycastLimitSqr {
			tryLOS = true
		}

		links := bestTile.Links
		for i := bestPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			neighbourRef := links[i].Ref
			if neighbourRef == 0 || neighbourRef == parentRef {
				continue
			}
			neighbourTile, neighbourPoly := snap.TileAndPolyUnchecked(neighbourRef)
			if !filter.Passes(neighbourRef, neighbourTile, neighbourPoly) {
				continue
			}
			neighbourNode := pool.get(neighbourRef, 0)
			if neighbourNode == nil {
				if q.growNodes() {
					// A larger pool: the search starts again in it.
					start := q.startSearch(s.startRef, s.startPos, dist(s.startPos, s.endPos)*heuristicScale)
					s.lastBestNode, s.lastBestNodeCost, s.details, s.steps = start, start.total, 0, 0
					return iter, StatusInProgress, nil
				}
				s.details |= StatusOutOfNodes
				continue
			}
			// Already reached from the same parent: nothing to gain.
			if neighbourNode.parent != 0 && neighbourNode.parent == bestNode.parent {
				continue
			}
			if neighbourNode.flags == 0 {
				if mid, ok := edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile); ok {
					neighbourNode.pos = mid
				}
			}

			var cost, heuristic float32
			foundShortCut := false
			var rayHit RaycastHit
			if tryLOS {
				// The path buffer is empty, as in Detour: the ray stops after
				// the parent polygon.
				rayHit, _ = q.raycast(snap, parentRef, parentNode.pos, neighbourNode.pos, filter, RaycastUseCosts, nil, grandpaRef)
				foundShortCut = rayHit.T >= 1
			}
			if foundShortCut {
				if custom && !(rayHit.PathCost >= 0) {
					return iter, 0, s.fail(customCostError("update sliced find path", rayHit.PathCost, parentRef, neighbourRef))
				}
				cost = parentNode.cost + rayHit.PathCost
			} else {
				curCost := filter.cost(&bestNode.pos, &neighbourNode.pos,
					parentRef, parentTile, parentPoly,
					bestRef, bestTile, bestPoly,
					neighbourRef, neighbourTile, neighbourPoly)
				if custom && !(curCost >= 0) {
					return iter, 0, s.fail(customCostError("update sliced find path", curCost, bestRef, neighbourRef))
				}
				cost = bestNode.cost + curCost
			}
			if neighbourRef == s.endRef {
				endCost := filter.cost(&neighbourNode.pos, &s.endPos,
					bestRef, bestTile, bestPoly,
					neighbourRef, neighbourTile, neighbourPoly,
					0, nil, nil)
				if custom && !(endCost >= 0) {
					return iter, 0, s.fail(customCostError("update sliced find path", endCost, neighbourRef, 0))
				}
				cost += endCost
			} else {
				heuristic = dist(neighbourNode.pos, s.endPos) * heuristicScale
			}
			total := cost + heuristic

			// Not "total >= node's total": a NaN total never replaces a
			// node's way (see searchPath).
			if neighbourNode.flags&(nodeOpen|nodeClosed) != 0 && !(total < neighbourNode.total) {
				continue
			}

			if foundShortCut {
				neighbourNode.parent = bestNode.parent
			} else {
				neighbourNode.parent = bestNode.index
			}
			neighbourNode.flags &^= nodeClosed | nodeParentDetached
			neighbourNode.cost = cost
			neighbourNode.total = total
			if foundShortCut {
				neighbourNode.flags |= nodeParentDetached
			}
			open.reopen(neighbourNode)

			if heuristic < s.lastBestNodeCost {
				s.lastBestNodeCost = heuristic
				s.lastBestNode = neighbourNode
			}
		}
	}

	if open.empty() {
		s.state = slicedDone
		return iter, s.details, nil
	}
	return iter, s.details | StatusInProgress, nil
}

// FinalizeSlicedFindPath writes the corridor the sliced search found into
// path and ends the search (dtNavMeshQuery::finalizeSlicedFindPath). A
// search that did not reach the goal gives the corridor to the polygon
// closest to it, with StatusPartial; an any-angle search fills the gaps of
// its shortcuts with raycasts. Calling it while the search is still in
// progress finalizes the best corridor so far.
func (q *Query) FinalizeSlicedFindPath(path []navmesh.Ref) (int, Status, error) {
	return q.finalizeSliced(nil, path, "finalize sliced find path")
}

// FinalizeSlicedFindPathPartial is FinalizeSlicedFindPath for a search that
// replans an existing corridor: the result leads to the furthest polygon of
// existing that the search visited, or to the polygon closest to the goal
// (with StatusPartial) when it visited none
// (dtNavMeshQuery::finalizeSlicedFindPathPartial).
func (q *Query) FinalizeSlicedFindPathPartial(existing, path []navmesh.Ref) (int, Status, error) {
	if len(existing) == 0 {
		return 0, 0, fmt.Errorf("query: finalize sliced find path partial: empty existing corridor: %w", ErrInvalidParam)
	}
	return q.finalizeSliced(existing, path, "finalize sliced find path partial")
}

func (q *Query) finalizeSliced(existing, path []navmesh.Ref, what string) (int, Status, error) {
	if len(path) == 0 {
		return 0, 0, fmt.Errorf("query: %s: empty path buffer: %w", what, ErrBufferTooSmall)
	}
	s := &q.sliced
	if s.state == slicedNone || s.state == slicedFailed {
		q.sliced = slicedQuery{}
		return 0, 0, fmt.Errorf("query: %s: %w", what, ErrNoSlicedQuery)
	}
	snap := q.mesh.Snapshot()

	n := 0
	details := s.details
	if s.startRef == s.endRef {
		path[n] = s.startRef
		n++
	} else {
		var endNode *node
		if existing == nil {
			endNode = s.lastBestNode
			if endNode.ref != s.endRef {
				details |= StatusPartial
			}
		} else {
			var found [1]*node
			for i := len(existing) - 1; i >= 0; i-- {
				if q.nodes.findAll(existing[i], found[:]) == 1 {
					endNode = found[0]
					break
				}
			}
			if endNode == nil {
				details |= StatusPartial
				endNode = s.lastBestNode
			}
		}
		var more Status
		var err error
		n, more, err = q.writeSlicedPath(snap, endNode, path)
		if err != nil {
			q.sliced = slicedQuery{}
			return 0, 0, fmt.Errorf("query: %s: %w", what, err)
		}
		details |= more
	}
	q.sliced = slicedQuery{}
	return n, details, nil
}

// writeSlicedPath reverses the parent chain ending at endNode and writes it
// into path, raycasting across the shortcuts of an any-angle search.
func (q *Query) writeSlicedPath(snap *navmesh.Snapshot, endNode *node, path []navmesh.Ref) (int, Status, error) {
	pool := q.nodes
	first, err := pool.reverseChain(endNode)
	if err != nil {
		return 0, 0, err
	}
	n := 0
	filter := q.sliced.filter
	var status Status
	for nd := first; nd != nil; {
		next := pool.at(nd.parent)
		var stepStatus Status
		if nd.flags&nodeParentDetached != 0 {
			hit, st := q.raycast(snap, nd.ref, nd.pos, next.pos, filter, 0, path[n:], 0)
			stepStatus = st
			n += hit.PathCount
			// The next node adds itself.
			if n > 0 && path[n-1] == next.ref {
				n--
			}
		} else {
			if n >= len(path) {
				status |= StatusBufferTooSmall
				break
			}
			path[n] = nd.ref
			n++
			if n >= len(path) {
				stepStatus = StatusBufferTooSmall
			}
		}
		if stepStatus != 0 {
			status |= stepStatus
			break
		}
		nd = next
	}
	return n, status, nil
}

// distSqr is dtVdistSqr.
func distSqr(a, b geom.Vec3) float32 {
	dx := b[0] - a[0]
	dy := b[1] - a[1]
	dz := b[2] - a[2]
	return float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
}
