package systems

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// corridorMaxVisited bounds the polygons one surface move may cross, as in
// crowd.Corridor.MovePosition (MAX_VISITED).
const corridorMaxVisited = 16

// moveScratch is one worker's buffers for movePosition.
type moveScratch struct {
	visited [corridorMaxVisited]navmesh.Ref
	path    []navmesh.Ref
}

// movePosition does what crowd.Corridor.MovePosition does, with the same
// result to the bit: move along the surface from the corridor's position
// towards pos, merge the polygons crossed into the corridor's start, and put
// the new position's height on the detail surface of the corridor's first
// polygon, keeping the old height when the point is (by a rounding error)
// not over it.
//
// It exists because query.PolyHeight builds an error value each time the
// point is not over the polygon, which happens to a few percent of the
// agents each tick, so Corridor.MovePosition allocates in steady state; here
// the height comes from navmesh.Tile.PolyHeight, which does not.
//
// With snapOnEdges, a point that is not over the polygon takes the height
// of the polygon's nearest surface point instead of keeping the old height:
// an agent sliding along a wall on a slope sits exactly on such an edge tick
// after tick, and in the reference its height stays where it was while the
// floor rises or falls away.
func movePosition(c *crowd.Corridor, pos geom.Vec3, q *query.Query, filter *query.Filter, snapOnEdges bool, scratch *moveScratch) error {
	path := c.Path()
	if len(path) == 0 {
		return fmt.Errorf("systems: move position: empty corridor")
	}
	start := c.Position()
	result, visited, _, err := q.MoveAlongSurface(path[0], start, pos, filter, scratch.visited[:])
	if err != nil {
		return err
	}
	maxPath := c.MaxPath()
	if len(scratch.path) < maxPath {
		scratch.path = make([]navmesh.Ref, maxPath)
	}
	buf := scratch.path[:maxPath]
	count := copy(buf, path)
	count = crowd.MergeCorridorStartMoved(buf, count, scratch.visited[:visited])

	result[1] = start[1]
	if h, ok := polyHeight(q, buf[0], result, snapOnEdges); ok {
		result[1] = h
	}
	target := c.Target()
	c.Reset(buf[0], result)
	return c.SetCorridor(target, buf[:count])
}

// polyHeight is query.PolyHeight without the error value: the height of
// polygon ref's detail surface at pos, ok false when ref is not valid or pos
// is not over the polygon (unless snapOnEdges, which then gives the height
// of the polygon's point nearest pos).
func polyHeight(q *query.Query, ref navmesh.Ref, pos geom.Vec3, snapOnEdges bool) (float32, bool) {
	tile, poly, err := q.Mesh().Snapshot().TileAndPoly(ref)
	if err != nil {
		return 0, false
	}
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		h, err := q.PolyHeight(ref, pos)
		return h, err == nil
	}
	if h, ok := tile.PolyHeight(poly, pos); ok || !snapOnEdges {
		return h, ok
	}
	closest, _ := tile.ClosestPointOnPoly(poly, pos)
	return closest[1], true
}
