package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Components returns the connected components a path search with filter
// cannot leave: those of the polygons filter's flag rule passes
// (navmesh.Snapshot.FlagConnectivity), or, for a filter with a Custom rule,
// those of the whole tile set (navmesh.Snapshot.Connectivity), which a
// Custom rule may still cut apart. A nil snapshot or filter is
// ErrInvalidParam.
func Components(snap *navmesh.Snapshot, filter *Filter) (*navmesh.Connectivity, error) {
	if snap == nil {
		return nil, fmt.Errorf("query: components: nil snapshot: %w", ErrInvalidParam)
	}
	if err := checkFilter(filter); err != nil {
		return nil, fmt.Errorf("query: components: %w", err)
	}
	return components(snap, filter), nil
}

// components is Components on checked arguments.
func components(snap *navmesh.Snapshot, filter *Filter) *navmesh.Connectivity {
	if filter.Custom != nil {
		return snap.Connectivity()
	}
	return snap.FlagConnectivity(filter.IncludeFlags, filter.ExcludeFlags)
}

// startComponent returns the components for a search from startRef with
// filter and startRef's component in them. A start polygon that filter
// fails (a search may still start there) falls back to the components of
// the whole tile set.
func startComponent(snap *navmesh.Snapshot, startRef navmesh.Ref, filter *Filter) (*navmesh.Connectivity, uint32) {
	conn := components(snap, filter)
	if id := conn.Component(startRef); id != 0 {
		return conn, id
	}
	conn = snap.Connectivity()
	return conn, conn.Component(startRef)
}

// OutOfReach reports whether a path search from startRef with filter
// certainly cannot reach endRef: endRef lies in another connected component
// than startRef (see Components) or fails filter. It is false when the two
// are the same polygon or either is not a polygon of the current tile set,
// and when filter's Custom rule, or a one-way off-mesh connection, is what
// keeps endRef out of reach. It takes O(1) time and allocates nothing but
// for the first use of a tile set's (or, with a flag rule, a snapshot's)
// components.
func (q *Query) OutOfReach(startRef, endRef navmesh.Ref, filter *Filter) bool {
	if startRef == endRef || filter == nil {
		return false
	}
	snap := q.mesh.Snapshot()
	all := snap.Connectivity()
	if all.Component(startRef) == 0 || all.Component(endRef) == 0 {
		return false
	}
	conn, start := startComponent(snap, startRef, filter)
	return conn.Component(endRef) != start
}

// FindNearestPolyInComponent returns the polygon nearest to pos among those
// of startRef's connected component (see Components) that filter passes,
// with its point closest to pos: the place to walk to when pos lies out of
// reach of startRef. Distances are straight-line, to the polygon's
// surface (its detail mesh). A component none of whose polygons passes
// filter gives Ref 0 and no error. It searches boxes around pos that double
// in size, starting from the distance to the component's bounds, so its cost
// grows with the polygons near pos, not with the size of the level, and it
// allocates nothing (but for the first use of a new tile set's components).
//
// With a Custom filter the component is that of the whole tile set: the
// polygon found may then lie beyond polygons filter excludes, and a path to
// it ends partial too.
func (q *Query) FindNearestPolyInComponent(startRef navmesh.Ref, pos geom.Vec3, filter *Filter) (NearestPoly, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find nearest poly in component: start ref", startRef); err != nil {
		return NearestPoly{}, err
	}
	if err := checkPos("find nearest poly in component: position", pos); err != nil {
		return NearestPoly{}, err
	}
	if err := checkFilter(filter); err != nil {
		return NearestPoly{}, fmt.Errorf("query: find nearest poly in component: %w", err)
	}
	conn, component := startComponent(snap, startRef, filter)
	info, _ := conn.Info(component)
	startTile, _ := snap.TileAndPolyUnchecked(startRef)

	// Every polygon of the component lies within reach of pos.
	var below, reach float32
	for a := range 3 {
		gap := max(info.BMin[a]-pos[a], pos[a]-info.BMax[a], 0)
		below = max(below, gap)
		reach = max(reach, pos[a]-info.BMin[a], info.BMax[a]-pos[a])
	}
	step := startTile.Data.Header.WalkableHeight
	if !(step > 0) {
		step = 1
	}

	best := NearestPoly{}
	bestDistSqr := float32(math.MaxFloat32)
	visit := func(tile *navmesh.Tile, refs []navmesh.Ref) {
		for _, ref := range refs {
			if conn.Component(ref) != component {
				continue
			}
			closest, over := tile.ClosestPointOnPoly(&tile.Polys[ref.PolyIndex()], pos)
			if d := geom.DistSqr(closest, pos); d < bestDistSqr {
				best = NearestPoly{Ref: ref, Point: closest, OverPoly: over}
				bestDistSqr = d
			}
		}
	}
	for half := below + step; ; half *= 2 {
		half = min(half, reach)
		// Only the part of the box over the component's bounds (with a
		// margin for rounding) can hold its polygons: a small component far
		// from pos costs a small box, not one reaching all the way to pos.
		var center, extents geom.Vec3
		for a := range 3 {
			lo := max(pos[a]-half, info.BMin[a]-componentMargin)
			hi := min(pos[a]+half, info.BMax[a]+componentMargin)
			center[a], extents[a] = (lo+hi)*0.5, max((hi-lo)*0.5, componentMargin)
		}
		q.queryPolygons(snap, center, extents, filter, visit)
		// A polygon outside the box is farther than half; once the box
		// holds the whole component nothing is left to find.
		if bestDistSqr <= half*half || half >= reach {
			break
		}
	}
	return best, nil
}

// componentMargin widens a component's bounds for the box queries of
// FindNearestPolyInComponent [Units: world units].
const componentMargin = 0.01
