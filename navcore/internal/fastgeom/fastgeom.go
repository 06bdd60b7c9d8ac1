// Package fastgeom is the part of package geom that the runtime's hot loops
// (nearest polygon, funnel, raycast, local searches) run on: the same float32
// operations in the same order, so the same bits, but on Point, a small
// struct the Go compiler keeps in registers, where it keeps a geom.Vec3 array
// in memory. Measured on the closest-point search this is about 1.7× faster.
//
// Public APIs keep taking and returning geom.Vec3; convert at their edges
// with FromVec3 and Point.Vec3.
package fastgeom

import "github.com/archenav/archenav/navcore/geom"

// Point is a position [Units: world units], y up.
type Point struct{ X, Y, Z float32 }

// FromVec3 returns v as a Point.
func FromVec3(v geom.Vec3) Point { return Point{v[0], v[1], v[2]} }

// Vec3 returns p as a geom.Vec3.
func (p Point) Vec3() geom.Vec3 { return geom.Vec3{p.X, p.Y, p.Z} }

// equalThresholdSqr is geom.Equal's threshold, (1/16384)².
const equalThresholdSqr = float32(1.0/16384.0) * float32(1.0/16384.0)

// Equal is geom.Equal: a and b are within 1/16384 of each other.
func Equal(a, b Point) bool {
	dx, dy, dz := b.X-a.X, b.Y-a.Y, b.Z-a.Z
	return dx*dx+dy*dy+dz*dz < equalThresholdSqr
}

// TriArea2D is geom.TriArea2D: twice the signed xz area of abc.
func TriArea2D(a, b, c Point) float32 {
	abx, abz := b.X-a.X, b.Z-a.Z
	acx, acz := c.X-a.X, c.Z-a.Z
	return acx*abz - abx*acz
}

// Lerp is geom.Lerp: a + (b-a)*t per component.
func Lerp(a, b Point, t float32) Point {
	return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t, a.Z + (b.Z-a.Z)*t}
}

// DistancePtSegSqr2D is geom.DistancePtSegSqr2D: the squared xz distance
// from pt to segment p→q and the parameter in [0, 1] of the closest point.
func DistancePtSegSqr2D(pt, p, q Point) (distSqr, t float32) {
	pqx := q.X - p.X
	pqz := q.Z - p.Z
	dx := pt.X - p.X
	dz := pt.Z - p.Z
	d := pqx*pqx + pqz*pqz
	t = pqx*dx + pqz*dz
	if d > 0 {
		t /= d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = p.X + t*pqx - pt.X
	dz = p.Z + t*pqz - pt.Z
	return dx*dx + dz*dz, t
}

// ClosestHeightOnTriangle is geom.ClosestHeightOnTriangle: the height of
// triangle abc at p's xz position, ok false outside its xz projection or
// for a degenerate one.
func ClosestHeightOnTriangle(p, a, b, c Point) (height float32, ok bool) {
	const eps = float32(1e-6)
	v0x, v0y, v0z := c.X-a.X, c.Y-a.Y, c.Z-a.Z
	v1x, v1y, v1z := b.X-a.X, b.Y-a.Y, b.Z-a.Z
	v2x, v2z := p.X-a.X, p.Z-a.Z
	denom := v0x*v1z - v0z*v1x
	if geom.Abs(denom) < eps {
		return 0, false
	}
	u := v1z*v2x - v1x*v2z
	v := v0x*v2z - v0z*v2x
	if denom < 0 {
		denom, u, v = -denom, -u, -v
	}
	if u >= 0 && v >= 0 && u+v <= denom {
		return a.Y + (v0y*u+v1y*v)/denom, true
	}
	return 0, false
}
