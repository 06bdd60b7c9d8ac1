package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// MaxGoals bounds the goals of one FindNearestGoal: each polygon the search
// closes is checked against every goal.
const MaxGoals = 1024

// Goal is one of the places FindNearestGoal chooses among: a point and the
// polygon it lies on.
type Goal struct {
	// Ref is the polygon of the goal.
	Ref navmesh.Ref
	// Pos is the goal point, on that polygon [Units: world units]
	Pos geom.Vec3
}

// NearestGoal is the answer of FindNearestGoal.
type NearestGoal struct {
	// Index is the index of the cheapest goal to reach in the goals given,
	// -1 when no goal can be reached.
	Index int
	// Cost is the cost of the path to it: the filter's cost from the start
	// through the middle of each edge crossed to the goal, the measure
	// FindPath's search uses [Units: filter cost]
	Cost float32
	// PathCount is the number of polygons written to the path buffer,
	// from the start's polygon to the goal's.
	PathCount int
	// Status has StatusOutOfNodes when the search ran out of nodes (the
	// goal found may then not be the cheapest, or no goal was found) and
	// StatusBufferTooSmall when the path was cut to the buffer.
	Status Status
}

// FindNearestGoal finds, among goals, the one that costs least to reach
// from startPos on polygon startRef, with one Dijkstra search from the start
// that stops as soon as no goal left can be cheaper: "which exit is
// nearest" costs one search, not one per exit. It writes the polygon
// corridor to that goal into path and returns the goal's index (-1 when
// none is reachable: they lie in other connected parts of the navmesh, or
// the filter excludes their polygons).
//
// Nodes sit at the middle of the first edge a polygon is reached through,
// as in FindPath; a goal's cost is that of its polygon's node plus the
// filter's cost from there to the goal. Ties go to the goal found first.
// The search grows the node pool as FindPath does (SetNodeLimit); when it
// still runs out of nodes the status says so.
//
// goals [Limit: 1..MaxGoals, each on a valid polygon]
func (q *Query) FindNearestGoal(startRef navmesh.Ref, startPos geom.Vec3, goals []Goal, filter *Filter, path []navmesh.Ref) (NearestGoal, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find nearest goal: start ref", startRef); err != nil {
		return NearestGoal{Index: -1}, err
	}
	if err := checkPos("find nearest goal: start position", startPos); err != nil {
		return NearestGoal{Index: -1}, err
	}
	if err := checkFilter(filter); err != nil {
		return NearestGoal{Index: -1}, err
	}
	if len(goals) == 0 || len(goals) > MaxGoals {
		return NearestGoal{Index: -1}, fmt.Errorf("query: find nearest goal: %d goals, want 1..%d: %w", len(goals), MaxGoals, ErrInvalidParam)
	}
	for i := range goals {
		if err := checkRef(snap, fmt.Sprintf("find nearest goal: goal %d ref", i), goals[i].Ref); err != nil {
			return NearestGoal{Index: -1}, err
		}
		if err := checkPos(fmt.Sprintf("find nearest goal: goal %d position", i), goals[i].Pos); err != nil {
			return NearestGoal{Index: -1}, err
		}
	}
	if len(path) == 0 {
		return NearestGoal{Index: -1}, fmt.Errorf("query: find nearest goal: empty path buffer: %w", ErrBufferTooSmall)
	}
	for {
		result, goalNode := q.searchNearestGoal(snap, startRef, startPos, goals, filter)
		if result.Status.OutOfNodes() && q.growNodes() {
			continue
		}
		if goalNode != nil {
			n, status, err := q.pathToNode(goalNode, path)
			if err != nil {
				return NearestGoal{Index: -1}, fmt.Errorf("query: find nearest goal: %w", err)
			}
			result.PathCount = n
			result.Status |= status
		}
		return result, nil
	}
}

// searchNearestGoal is FindNearestGoal's Dijkstra search on checked
// arguments; it returns the answer without the path and the node of the
// chosen goal's polygon (nil for none).
func (q *Query) searchNearestGoal(snap *navmesh.Snapshot, startRef navmesh.Ref, startPos geom.Vec3, goals []Goal, filter *Filter) (NearestGoal, *node) {
	pool := q.nodes
	open := q.open
	q.startSearch(startRef, startPos, 0)

	best := NearestGoal{Index: -1, Cost: float32(math.Inf(1))}
	var bestNode *node
	for !open.empty() {
		bestNodeHere := open.closeCheapest()
		// Every goal still to be found costs at least this node's cost.
		if bestNodeHere.total >= best.Cost {
			break
		}
		curRef := bestNodeHere.ref
		curTile, curPoly := snap.TileAndPolyUnchecked(curRef)
		parentRef := pool.refAt(bestNodeHere.parent)
		var parentTile *navmesh.Tile
		var parentPoly *navmesh.Poly
		if parentRef != 0 {
			parentTile, parentPoly = snap.TileAndPolyUnchecked(parentRef)
		}

		for i := range goals {
			if goals[i].Ref != curRef {
				continue
			}
			cost := bestNodeHere.total + filter.cost(&bestNodeHere.pos, &goals[i].Pos,
				parentRef, parentTile, parentPoly,
				curRef, curTile, curPoly,
				0, nil, nil)
			if cost < best.Cost {
				best.Index, best.Cost, bestNode = i, cost, bestNodeHere
			}
		}

		links := curTile.Links
		for i := curPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
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
				best.Status |= StatusOutOfNodes
				continue
			}
			if neighbourNode.flags&nodeClosed != 0 {
				continue
			}
			if neighbourNode.flags == 0 {
				mid, ok := edgeMidPoint(curRef, curPoly, curTile, neighbourRef, neighbourPoly, neighbourTile)
				if !ok {
					continue
				}
				neighbourNode.pos = mid
			}
			cost := filter.cost(&bestNodeHere.pos, &neighbourNode.pos,
				parentRef, parentTile, parentPoly,
				curRef, curTile, curPoly,
				neighbourRef, neighbourTile, neighbourPoly)
			q.reachAtTotal(neighbourNode, bestNodeHere, bestNodeHere.total+cost)
		}
	}
	if bestNode == nil {
		best.Cost = 0
	}
	return best, bestNode
}
