package sim

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// pickHalfWidth is the half size of the column searched under a picked
// point [Units: world units].
const pickHalfWidth = 0.05

// PointAt returns the highest navmesh point under world x, z (the one seen
// from above) within the height range minY..maxY, ok false when the column
// there holds no polygon.
func PointAt(q *query.Query, filter *query.Filter, x, z, minY, maxY float32) (point geom.Vec3, ok bool) {
	center := geom.Vec3{x, (minY + maxY) / 2, z}
	halfExtents := geom.Vec3{pickHalfWidth, float32((maxY-minY)/2) + 1, pickHalfWidth}
	best := float32(0)
	_ = q.QueryPolygonsFunc(center, halfExtents, filter, func(_ *navmesh.Tile, refs []navmesh.Ref) {
		for _, ref := range refs {
			closest, over, err := q.ClosestPointOnPoly(ref, center)
			if err != nil || !over {
				continue
			}
			if !ok || closest[1] > best {
				point, best, ok = closest, closest[1], true
			}
		}
	})
	return point, ok
}

// PointAt returns the highest point of the first agent type's navmesh
// under world x, z within minY..maxY, as seen from above (see the package
// function PointAt).
func (s *Sim) PointAt(x, z, minY, maxY float32) (geom.Vec3, bool) {
	return PointAt(s.types[0].query, s.filter, x, z, minY, maxY)
}
