package query

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FindNearestPolyInComponent returns the polygon nearest to pos among those
// of startRef's connected component (see navmesh.Connectivity) that filter
// passes, with its point closest to pos: the place to walk to when pos lies
// out of reach of startRef. Distances are straight-line, to the polygon's
// surface (its detail mesh). A component none of whose polygons passes
// filter gives Ref 0 and no error. It searches boxes around pos that double
// in size, starting from the distance to the component's bounds, so its cost
// grows with the polygons near pos, not with the size of the level, and it
// allocates nothing (but for the first use of a new tile set's components).
//
// The component ignores filter: the polygon found may lie beyond polygons
// filter excludes, and a path to it then ends partial too.
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
	conn := snap.Connectivity()
	component := conn.Component(startRef)
	info, _ := conn.Info(component)
	startTile, _ := snap.TileAndPolyUnchecked(startRef)

	// Every polygon of the component lies within reach of pos.
	var below, reach float32
	for a := range 3 {
		gap := max(info.BMin[a]-pos[a], pos[a]-info.BMax[a], 0)
		below = max(below, gap)
		reach = max(reach, pos[a]-info.BMin[a], info.BMax[a]-pos[a])
	}
	step := startTile.Header.WalkableHeight
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
		q.queryPolygons(snap, pos, geom.Vec3{half, half, half}, filter, visit)
		// A polygon outside the box is farther than half; once the box
		// holds the whole component nothing is left to find.
		if bestDistSqr <= half*half || half >= reach {
			break
		}
	}
	return best, nil
}
