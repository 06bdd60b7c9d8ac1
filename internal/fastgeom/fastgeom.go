// Package fastgeom holds the xz-plane geometry that the runtime's hot loops
// (nearest polygon, funnel, raycast, local searches) run on, written on
// Point, a small struct the Go compiler keeps in registers where it keeps a
// geom.Vec3 array in memory: measured on the closest-point search this is
// about 1.7× faster. Every function does the float32 operations of its
// Detour counterpart, and of the geom function of the same name, in the same
// order, so results are bit-identical (the tests compare every bit with
// geom's). geom keeps its own copies on geom.Vec3: built on these, they
// would no longer inline or would add a call.
//
// Public APIs keep taking and returning geom.Vec3 (mgl32.Vec3); convert at
// their edges with FromVec3 and Point.Vec3.
package fastgeom

import "github.com/go-gl/mathgl/mgl32"

// Point is a position [Units: world units], y up.
type Point struct{ X, Y, Z float32 }

// FromVec3 returns v as a Point.
func FromVec3(v mgl32.Vec3) Point { return Point{v[0], v[1], v[2]} }

// Load returns *v as a Point, reading the three components straight from
// memory. Prefer it to FromVec3 for an element of a slice: there the
// compiler first copies the array through the stack in an 8- and a 4-byte
// move, and reading the Point back across them stalls store forwarding.
func Load(v *mgl32.Vec3) Point { return Point{v[0], v[1], v[2]} }

// Vec3 returns p as an mgl32.Vec3 (geom.Vec3).
func (p Point) Vec3() mgl32.Vec3 { return mgl32.Vec3{p.X, p.Y, p.Z} }

// equalThresholdSqr is geom.Equal's threshold, (1/16384)².
const equalThresholdSqr = float32(1.0/16384.0) * float32(1.0/16384.0)

// Equal is geom.Equal: a and b are within 1/16384 of each other.
func Equal(a, b Point) bool {
	dx, dy, dz := b.X-a.X, b.Y-a.Y, b.Z-a.Z
	return float32(dx*dx)+float32(dy*dy)+float32(dz*dz) < equalThresholdSqr
}

// TriArea2D is geom.TriArea2D: twice the signed xz area of abc.
func TriArea2D(a, b, c Point) float32 {
	abx, abz := b.X-a.X, b.Z-a.Z
	acx, acz := c.X-a.X, c.Z-a.Z
	return float32(acx*abz) - float32(abx*acz)
}

// Lerp is geom.Lerp: a + (b-a)*t per component.
func Lerp(a, b Point, t float32) Point {
	return Point{a.X + float32((b.X-a.X)*t), a.Y + float32((b.Y-a.Y)*t), a.Z + float32((b.Z-a.Z)*t)}
}

// DistancePtSegSqr2D is geom.DistancePtSegSqr2D: the squared xz distance
// from pt to segment p→q and the parameter in [0, 1] of the closest point.
// It is too big to inline; a hot loop calls its two halves, SegmentParam2D
// and SegmentDistSqr2D, which inline, to save the call.
func DistancePtSegSqr2D(pt, p, q Point) (distSqr, t float32) {
	t = SegmentParam2D(pt, p, q)
	return SegmentDistSqr2D(pt, p, q, t), t
}

// SegmentParam2D is the parameter in [0, 1] of the point of segment p→q
// closest to pt in the xz-plane (the first half of DistancePtSegSqr2D).
func SegmentParam2D(pt, p, q Point) (t float32) {
	pqx, pqz := q.X-p.X, q.Z-p.Z
	d := float32(pqx*pqx) + float32(pqz*pqz)
	t = float32(pqx*(pt.X-p.X)) + float32(pqz*(pt.Z-p.Z))
	if d > 0 {
		t /= d
	}
	if t < 0 {
		return 0
	} else if t > 1 {
		return 1
	}
	return t
}

// SegmentDistSqr2D is the squared xz distance from pt to the point at
// parameter t of segment p→q (the second half of DistancePtSegSqr2D).
func SegmentDistSqr2D(pt, p, q Point, t float32) float32 {
	dx := p.X + float32(t*(q.X-p.X)) - pt.X
	dz := p.Z + float32(t*(q.Z-p.Z)) - pt.Z
	return float32(dx*dx) + float32(dz*dz)
}

// ClosestHeightOnTriangle is geom.ClosestHeightOnTriangle: the height of
// triangle abc at p's xz position, ok false outside its xz projection or
// for a degenerate one (twice its xz area below 1e-6). It is too big to
// inline; a hot loop calls its two halves, TriangleCoords2D and
// TriangleHeight, which inline, to save the call.
func ClosestHeightOnTriangle(p, a, b, c Point) (height float32, ok bool) {
	u, v, denom := TriangleCoords2D(p, a, b, c)
	return TriangleHeight(a, b, c, u, v, denom)
}

// TriangleCoords2D returns p's unnormalised barycentric coordinates u (along
// a→c) and v (along a→b) in triangle abc seen from above, and their
// denominator, twice the triangle's signed xz area (the first half of
// ClosestHeightOnTriangle).
func TriangleCoords2D(p, a, b, c Point) (u, v, denom float32) {
	v0x, v0z := c.X-a.X, c.Z-a.Z
	v1x, v1z := b.X-a.X, b.Z-a.Z
	v2x, v2z := p.X-a.X, p.Z-a.Z
	return float32(v1z*v2x) - float32(v1x*v2z), float32(v0x*v2z) - float32(v0z*v2x), float32(v0x*v1z) - float32(v0z*v1x)
}

// TriangleHeight is the height of triangle abc at the point with
// TriangleCoords2D's u, v and denom, ok false when the point lies outside
// the triangle or the triangle is degenerate (|denom| below 1e-6) (the second
// half of ClosestHeightOnTriangle).
func TriangleHeight(a, b, c Point, u, v, denom float32) (height float32, ok bool) {
	const eps = float32(1e-6)
	if denom < 0 {
		denom, u, v = -denom, -u, -v
	}
	if denom >= eps && u >= 0 && v >= 0 && u+v <= denom {
		return a.Y + (float32((c.Y-a.Y)*u)+float32((b.Y-a.Y)*v))/denom, true
	}
	return 0, false
}

// IntersectSegmentPoly2D is geom.IntersectSegmentPoly2D: it clips segment
// p0→p1 against the convex polygon verts in the xz-plane and returns the
// entry and exit parameters along the segment and the edges crossed there
// (edge j runs from verts[j] to verts[j+1]), -1 for an end inside. ok is
// false when the segment misses the polygon, and for fewer than 3 vertices.
func IntersectSegmentPoly2D(p0, p1 Point, verts []Point) (tMin, tMax float32, segMin, segMax int, ok bool) {
	const eps = float32(0.000001)
	n := len(verts)
	if n < 3 {
		return 0, 0, -1, -1, false
	}
	tMin, tMax = 0, 1
	segMin, segMax = -1, -1
	dirX, dirZ := p1.X-p0.X, p1.Z-p0.Z
	vj := verts[n-1]
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		vi := verts[i]
		edgeX, edgeZ := vi.X-vj.X, vi.Z-vj.Z
		diffX, diffZ := p0.X-vj.X, p0.Z-vj.Z
		num := float32(edgeZ*diffX) - float32(edgeX*diffZ)
		den := float32(dirZ*edgeX) - float32(dirX*edgeZ)
		vj = vi
		if den < eps && -den < eps {
			if num < 0 {
				return tMin, tMax, segMin, segMax, false
			}
			continue
		}
		t := num / den
		if den < 0 {
			if t > tMin {
				tMin = t
				segMin = j
				if tMin > tMax {
					return tMin, tMax, segMin, segMax, false
				}
			}
		} else if t < tMax {
			tMax = t
			segMax = j
			if tMax < tMin {
				return tMin, tMax, segMin, segMax, false
			}
		}
	}
	return tMin, tMax, segMin, segMax, true
}

// OverlapPolyPoly2D is geom.OverlapPolyPoly2D: whether the convex polygons
// polyA and polyB overlap in the xz-plane (separating-axis test); polygons
// that only touch, within 1e-4, do not, nor do those of fewer than 3
// vertices.
func OverlapPolyPoly2D(polyA, polyB []Point) bool {
	if len(polyA) < 3 || len(polyB) < 3 {
		return false
	}
	return !hasSeparatingAxis(polyA, polyA, polyB) && !hasSeparatingAxis(polyB, polyA, polyB)
}

// hasSeparatingAxis reports whether the normal of one of the edges of edges
// separates polyA from polyB.
func hasSeparatingAxis(edges, polyA, polyB []Point) bool {
	const eps = float32(1e-4)
	n := len(edges)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		va, vb := edges[j], edges[i]
		axisX, axisZ := vb.Z-va.Z, -(vb.X - va.X)
		aMin, aMax := projectPoly(axisX, axisZ, polyA)
		bMin, bMax := projectPoly(axisX, axisZ, polyB)
		if aMin+eps > bMax || aMax-eps < bMin {
			return true
		}
	}
	return false
}

// projectPoly returns the extent of poly along the xz axis (axisX, axisZ).
func projectPoly(axisX, axisZ float32, poly []Point) (lo, hi float32) {
	lo = float32(axisX*poly[0].X) + float32(axisZ*poly[0].Z)
	hi = lo
	for _, p := range poly[1:] {
		d := float32(axisX*p.X) + float32(axisZ*p.Z)
		lo = min(lo, d)
		hi = max(hi, d)
	}
	return lo, hi
}

// PointInPolygon is geom.PointInPolygon: whether pt lies inside the polygon
// verts seen from above (crossing-number test; a point exactly on an edge
// may go either way).
func PointInPolygon(pt Point, verts []Point) bool {
	inside := false
	n := len(verts)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		vi, vj := verts[i], verts[j]
		if (vi.Z > pt.Z) != (vj.Z > pt.Z) &&
			pt.X < (vj.X-vi.X)*(pt.Z-vi.Z)/(vj.Z-vi.Z)+vi.X {
			inside = !inside
		}
	}
	return inside
}
