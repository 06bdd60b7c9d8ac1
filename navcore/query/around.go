package query

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FindPolysAroundCircle runs a Dijkstra search from startRef over the
// polygons whose portals touch the circle center/radius, seen from above
// (dtNavMeshQuery::findPolysAroundCircle). It writes the polygons in the
// order they were reached into refs, and when they are not nil the polygon
// each was reached from (0 for the start) into parents and the cost of
// reaching it into costs; parents and costs must then be at least as long as
// refs. When refs fills up the rest is dropped with StatusBufferTooSmall.
// Afterwards PathFromDijkstraSearch gives the path to any polygon reached.
//
// radius [Limit: >= 0] [Units: world units]; costs [Units: filter cost]
func (q *Query) FindPolysAroundCircle(startRef navmesh.Ref, center geom.Vec3, radius float32, filter *Filter, refs, parents []navmesh.Ref, costs []float32) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find polys around circle: start ref", startRef); err != nil {
		return 0, 0, err
	}
	if err := checkPos("find polys around circle: center", center); err != nil {
		return 0, 0, err
	}
	if err := checkRadius("find polys around circle: radius", radius); err != nil {
		return 0, 0, err
	}
	if err := checkCostFilter(filter); err != nil {
		return 0, 0, err
	}
	if err := checkResultBuffers("find polys around circle", refs, parents, costs); err != nil {
		return 0, 0, err
	}
	radiusSqr := radius * radius
	return q.dijkstra("find polys around circle", snap, startRef, center, filter, refs, parents, costs, func(va, vb geom.Vec3) bool {
		d, _ := geom.DistancePtSegSqr2D(center, va, vb)
		return d <= radiusSqr
	})
}

// FindPolysAroundShape is FindPolysAroundCircle for a convex polygon shape
// instead of a circle: the search goes through portals that overlap shape,
// seen from above, and starts at the shape's centroid
// (dtNavMeshQuery::findPolysAroundShape). shape needs at least 3 vertices.
//
// shape [Limit: 3+ vertices, convex] [Units: world units]; costs [Units:
// filter cost]
func (q *Query) FindPolysAroundShape(startRef navmesh.Ref, shape []geom.Vec3, filter *Filter, refs, parents []navmesh.Ref, costs []float32) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find polys around shape: start ref", startRef); err != nil {
		return 0, 0, err
	}
	if len(shape) < 3 {
		return 0, 0, fmt.Errorf("query: find polys around shape: %d vertices, need 3: %w", len(shape), ErrInvalidParam)
	}
	for _, v := range shape {
		if err := checkPos("find polys around shape: vertex", v); err != nil {
			return 0, 0, err
		}
	}
	if err := checkCostFilter(filter); err != nil {
		return 0, 0, err
	}
	if err := checkResultBuffers("find polys around shape", refs, parents, costs); err != nil {
		return 0, 0, err
	}
	var center geom.Vec3
	for _, v := range shape {
		center = geom.Vec3{center[0] + v[0], center[1] + v[1], center[2] + v[2]}
	}
	scale := 1 / float32(len(shape))
	center = geom.Vec3{center[0] * scale, center[1] * scale, center[2] * scale}

	return q.dijkstra("find polys around shape", snap, startRef, center, filter, refs, parents, costs, func(va, vb geom.Vec3) bool {
		tmin, tmax, _, _, ok := geom.IntersectSegmentPoly2D(va, vb, shape)
		return ok && tmin <= 1 && tmax >= 0
	})
}

// checkResultBuffers validates the result buffers of the Dijkstra searches.
func checkResultBuffers(what string, refs, parents []navmesh.Ref, costs []float32) error {
	if len(refs) == 0 {
		return fmt.Errorf("query: %s: empty result buffer: %w", what, ErrBufferTooSmall)
	}
	if parents != nil && len(parents) < len(refs) {
		return fmt.Errorf("query: %s: %d parents for %d refs: %w", what, len(parents), len(refs), ErrBufferTooSmall)
	}
	if costs != nil && len(costs) < len(refs) {
		return fmt.Errorf("query: %s: %d costs for %d refs: %w", what, len(costs), len(refs), ErrBufferTooSmall)
	}
	return nil
}

// dijkstra is the search behind FindPolysAroundCircle and
// FindPolysAroundShape: it expands through every portal that touches
// reports as inside the region. It fails only on a Custom cost outside its
// limit.
func (q *Query) dijkstra(what string, snap *navmesh.Snapshot, startRef navmesh.Ref, center geom.Vec3, filter *Filter,
	refs, parents []navmesh.Ref, costs []float32, touches func(va, vb geom.Vec3) bool) (int, Status, error) {
	pool := q.nodes
	open := q.open

	q.startSearch(startRef, center, 0)

	var status Status
	n := 0
	for !open.empty() {
		bestNode := open.closeCheapest()

		bestRef := bestNode.ref
		bestTile, bestPoly := snap.TileAndPolyUnchecked(bestRef)

		parentRef := pool.refAt(bestNode.parent)
		var parentTile *navmesh.Tile
		var parentPoly *navmesh.Poly
		if parentRef != 0 {
			parentTile, parentPoly = snap.TileAndPolyUnchecked(parentRef)
		}

		if n < len(refs) {
			refs[n] = bestRef
			if parents != nil {
				parents[n] = parentRef
			}
			if costs != nil {
				costs[n] = bestNode.total
			}
			n++
		} else {
			status |= StatusBufferTooSmall
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
			va, vb, ok := portalPoints(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile)
			if !ok || !touches(va, vb) {
				continue
			}
			neighbourNode := pool.get(neighbourRef, 0)
			if neighbourNode == nil {
				status |= StatusOutOfNodes
				continue
			}
			if neighbourNode.flags&nodeClosed != 0 {
				continue
			}
			if neighbourNode.flags == 0 {
				neighbourNode.pos = lerp(va, vb, 0.5)
			}
			cost := filter.cost(&bestNode.pos, &neighbourNode.pos,
				parentRef, parentTile, parentPoly,
				bestRef, bestTile, bestPoly,
				neighbourRef, neighbourTile, neighbourPoly)
			if !(cost >= 0) && filter.Custom != nil {
				return 0, 0, customCostError(what, cost, bestRef, neighbourRef)
			}
			total := bestNode.total + cost
			q.reachAtTotal(neighbourNode, bestNode, total)
		}
	}
	return n, status, nil
}

// PathFromDijkstraSearch writes into path the polygons from the start of the
// last FindPolysAroundCircle or FindPolysAroundShape to endRef, which that
// search must have reached (dtNavMeshQuery::getPathFromDijkstraSearch). A
// path longer than the buffer keeps its start and sets StatusBufferTooSmall.
func (q *Query) PathFromDijkstraSearch(endRef navmesh.Ref, path []navmesh.Ref) (int, Status, error) {
	if err := checkRef(q.mesh.Snapshot(), "path from dijkstra search: end ref", endRef); err != nil {
		return 0, 0, err
	}
	if len(path) == 0 {
		return 0, 0, fmt.Errorf("query: path from dijkstra search: empty path buffer: %w", ErrBufferTooSmall)
	}
	var found [1]*node
	if q.nodes.findAll(endRef, found[:]) != 1 || found[0].flags&nodeClosed == 0 {
		return 0, 0, fmt.Errorf("query: path from dijkstra search: polygon %#x was not reached: %w", uint64(endRef), ErrInvalidParam)
	}
	n, status, err := q.pathToNode(found[0], path)
	if err != nil {
		return 0, 0, fmt.Errorf("query: path from dijkstra search: %w", err)
	}
	return n, status, nil
}
