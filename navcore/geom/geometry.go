package geom

// ClosestPointOnTriangle returns the point of triangle abc closest to p.
// Degenerate triangles are handled: the result is then a point on one of the
// triangle's edges or vertices.
func ClosestPointOnTriangle(p, a, b, c Vec3) Vec3 {
	ab := Sub(b, a)
	ac := Sub(c, a)
	ap := Sub(p, a)
	d1 := Dot(ab, ap)
	d2 := Dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return a
	}

	bp := Sub(p, b)
	d3 := Dot(ab, bp)
	d4 := Dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return b
	}

	vc := float32(d1*d4) - float32(d3*d2)
	// d1 == d3 only when a and b coincide (d1-d3 = |ab|²); the C++ divides
	// 0 by 0 there and returns NaN. Skipping the empty edge lets the tests
	// below project p onto the edge ac instead.
	if vc <= 0 && d1 >= 0 && d3 <= 0 && d1 != d3 {
		v := d1 / (d1 - d3)
		return Mad(a, ab, v)
	}

	cp := Sub(p, c)
	d5 := Dot(ab, cp)
	d6 := Dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return c
	}

	vb := float32(d5*d2) - float32(d1*d6)
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return Mad(a, ac, w)
	}

	va := float32(d3*d6) - float32(d5*d4)
	if va <= 0 && (d4-d3) >= 0 && (d5-d6) >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return Lerp(b, c, w)
	}

	denom := 1 / (va + vb + vc)
	v := vb * denom
	w := vc * denom
	return Mad(Mad(a, ab, v), ac, w)
}

// ClosestHeightOnTriangle returns the height of triangle abc at the xz
// position of p, and whether p lies inside the triangle's xz projection
// (edges included). A triangle whose projection is degenerate (twice its area
// below 1e-6) contains nothing.
func ClosestHeightOnTriangle(p, a, b, c Vec3) (height float32, ok bool) {
	const eps = float32(1e-6)
	v0 := Sub(c, a)
	v1 := Sub(b, a)
	v2 := Sub(p, a)

	denom := float32(v0[0]*v1[2]) - float32(v0[2]*v1[0])
	if abs32(denom) < eps {
		return 0, false
	}
	u := float32(v1[2]*v2[0]) - float32(v1[0]*v2[2])
	v := float32(v0[0]*v2[2]) - float32(v0[2]*v2[0])
	if denom < 0 {
		denom, u, v = -denom, -u, -v
	}
	if u >= 0 && v >= 0 && (u+v) <= denom {
		return a[1] + (float32(v0[1]*u)+float32(v1[1]*v))/denom, true
	}
	return 0, false
}

// IntersectSegmentPoly2D clips segment p0→p1 against the convex polygon verts
// in the xz-plane. It returns the parametric entry and exit values along the
// segment and the indices of the polygon edges (edge j runs from verts[j] to
// verts[j+1]) crossed there, -1 when the segment starts or ends inside. ok is
// false when the segment misses the polygon, and for fewer than 3 vertices.
func IntersectSegmentPoly2D(p0, p1 Vec3, verts []Vec3) (tMin, tMax float32, segMin, segMax int, ok bool) {
	if len(verts) < 3 {
		return 0, 0, -1, -1, false
	}
	const eps = float32(0.000001)
	tMin, tMax = 0, 1
	segMin, segMax = -1, -1
	dir := Sub(p1, p0)
	n := len(verts)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		edge := Sub(verts[i], verts[j])
		diff := Sub(p0, verts[j])
		num := Perp2D(edge, diff)
		den := Perp2D(dir, edge)
		if abs32(den) < eps {
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

// IntersectSegSeg2D intersects the lines through segments ap→aq and bp→bq in
// the xz-plane. s and t are the parameters of the crossing along each; ok is
// false for (nearly) parallel lines.
func IntersectSegSeg2D(ap, aq, bp, bq Vec3) (s, t float32, ok bool) {
	u := Sub(aq, ap)
	v := Sub(bq, bp)
	w := Sub(ap, bp)
	d := perpXZ(u, v)
	if abs32(d) < 1e-6 {
		return 0, 0, false
	}
	return perpXZ(v, w) / d, perpXZ(u, w) / d, true
}

func perpXZ(a, b Vec3) float32 { return float32(a[0]*b[2]) - float32(a[2]*b[0]) }

// PointInPolygon reports whether pt lies inside the polygon verts in the
// xz-plane (crossing-number test; points exactly on an edge may go either
// way, as in the reference).
func PointInPolygon(pt Vec3, verts []Vec3) bool {
	inside := false
	n := len(verts)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		vi, vj := verts[i], verts[j]
		if (vi[2] > pt[2]) != (vj[2] > pt[2]) &&
			pt[0] < (vj[0]-vi[0])*(pt[2]-vi[2])/(vj[2]-vi[2])+vi[0] {
			inside = !inside
		}
	}
	return inside
}

// DistancePtPolyEdgesSqr reports whether pt lies inside the polygon verts (as
// PointInPolygon) and fills edgeDistSqr[j] and edgeT[j] with the squared xz
// distance from pt to edge j (verts[j]→verts[j+1]) and the parameter of the
// closest point on it. Both slices must hold len(verts) values: with
// shorter ones it fills nothing and returns false.
func DistancePtPolyEdgesSqr(pt Vec3, verts []Vec3, edgeDistSqr, edgeT []float32) bool {
	n := len(verts)
	if len(edgeDistSqr) < n || len(edgeT) < n {
		return false
	}
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		edgeDistSqr[j], edgeT[j] = DistancePtSegSqr2D(pt, verts[j], verts[i])
	}
	return PointInPolygon(pt, verts)
}

// DistancePtSegSqr2D returns the squared xz distance from pt to segment p→q
// and the parameter t in [0, 1] of the closest point. A zero-length segment
// gives the distance to p.
func DistancePtSegSqr2D(pt, p, q Vec3) (distSqr, t float32) {
	pqx := q[0] - p[0]
	pqz := q[2] - p[2]
	dx := pt[0] - p[0]
	dz := pt[2] - p[2]
	d := float32(pqx*pqx) + float32(pqz*pqz)
	t = float32(pqx*dx) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = p[0] + float32(t*pqx) - pt[0]
	dz = p[2] + float32(t*pqz) - pt[2]
	return float32(dx*dx) + float32(dz*dz), t
}

// DistancePtSegSqr returns the squared 3D distance from pt to segment p→q.
func DistancePtSegSqr(pt, p, q Vec3) float32 {
	pqx, pqy, pqz := q[0]-p[0], q[1]-p[1], q[2]-p[2]
	dx, dy, dz := pt[0]-p[0], pt[1]-p[1], pt[2]-p[2]
	d := float32(pqx*pqx) + float32(pqy*pqy) + float32(pqz*pqz)
	t := float32(pqx*dx) + float32(pqy*dy) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = p[0] + float32(t*pqx) - pt[0]
	dy = p[1] + float32(t*pqy) - pt[1]
	dz = p[2] + float32(t*pqz) - pt[2]
	return float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
}

// PolyCenter returns the mean of the vertices verts[indices[i]]; the zero
// vector for no indices or an index outside verts.
func PolyCenter(indices []uint16, verts []Vec3) Vec3 {
	var c Vec3
	for _, idx := range indices {
		if int(idx) >= len(verts) {
			return Vec3{}
		}
		v := verts[idx]
		c[0] += v[0]
		c[1] += v[1]
		c[2] += v[2]
	}
	if len(indices) == 0 {
		return Vec3{}
	}
	s := 1 / float32(len(indices))
	return Scale(c, s)
}

// OverlapPolyPoly2D reports whether two convex polygons overlap in the
// xz-plane (separating-axis test). Polygons that only touch, within 1e-4, do
// not overlap, nor do those with fewer than 3 vertices.
func OverlapPolyPoly2D(polyA, polyB []Vec3) bool {
	if len(polyA) < 3 || len(polyB) < 3 {
		return false
	}
	return !hasSeparatingAxis(polyA, polyA, polyB) && !hasSeparatingAxis(polyB, polyA, polyB)
}

func hasSeparatingAxis(edges, polyA, polyB []Vec3) bool {
	const eps = float32(1e-4)
	n := len(edges)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		va, vb := edges[j], edges[i]
		axis := Vec3{vb[2] - va[2], 0, -(vb[0] - va[0])}
		aMin, aMax := projectPoly(axis, polyA)
		bMin, bMax := projectPoly(axis, polyB)
		if aMin+eps > bMax || aMax-eps < bMin {
			return true
		}
	}
	return false
}

func projectPoly(axis Vec3, poly []Vec3) (lo, hi float32) {
	lo = Dot2D(axis, poly[0])
	hi = lo
	for _, p := range poly[1:] {
		d := Dot2D(axis, p)
		lo = min(lo, d)
		hi = max(hi, d)
	}
	return lo, hi
}

// RandomPointInConvexPoly returns a point of the convex polygon pts chosen by
// the two uniform random numbers s and t in [0, 1], area-weighted over the
// polygon's fan triangles. areas is scratch space of at least len(pts) values.
// s = 1 selects the last triangle instead of falling off the end. Fewer than
// 3 points, or areas shorter than pts, give the zero vector.
func RandomPointInConvexPoly(pts []Vec3, areas []float32, s, t float32) Vec3 {
	n := len(pts)
	if n < 3 || len(areas) < n {
		return Vec3{}
	}
	var areaSum float32
	for i := 2; i < n; i++ {
		areas[i] = TriArea2D(pts[0], pts[i-1], pts[i])
		areaSum += max(0.001, areas[i])
	}
	threshold := float32(s * areaSum)
	var acc float32
	u := float32(1)
	tri := n - 1
	for i := 2; i < n; i++ {
		dacc := areas[i]
		if threshold >= acc && threshold < acc+dacc {
			u = (threshold - acc) / dacc
			tri = i
			break
		}
		acc += dacc
	}
	v := Sqrt(t)
	a := 1 - v
	b := (1 - u) * v
	c := u * v
	pa, pb, pc := pts[0], pts[tri-1], pts[tri]
	return Vec3{
		float32(a*pa[0]) + float32(b*pb[0]) + float32(c*pc[0]),
		float32(a*pa[1]) + float32(b*pb[1]) + float32(c*pc[1]),
		float32(a*pa[2]) + float32(b*pb[2]) + float32(c*pc[2]),
	}
}

func abs32(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// Abs returns |f|.
func Abs(f float32) float32 { return abs32(f) }

// Clamp returns v limited to [lo, hi].
func Clamp[T int | int32 | uint16 | float32](v, lo, hi T) T {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
