package collider

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// Column is the part of a placed shape over one grid column: the square
// [x0, x1] × [z0, z1] of a cell, unbounded in y.
type Column struct {
	// Bottom and Top are the lowest and highest point of the shape over
	// the whole square, as a rasterized triangle covers a cell from the
	// lowest to the highest point of its part in the cell
	// [Units: world units].
	Bottom, Top float32
	// TopNormalY is the y component of the unit normal of the shape's
	// surface at its highest point (the flattest face there when faces
	// meet): the top is walkable when it is above the slope threshold
	// (bake.WalkableSlopeThreshold).
	TopNormalY float32
	// FloorNormalY is the y component of the unit normal, pointing into
	// the shape, at its lowest point: the floor a carving shape leaves is
	// walkable when it is above the slope threshold.
	FloorNormalY float32
}

// ColumnRange returns the part of a box, sphere, capsule or cylinder over
// the column [x0, x1] × [z0, z1] (x0 <= x1, z0 <= z1, the square closed),
// and false when the shape misses it. It is exact up to float32 rounding:
// the highest point of a convex shape over the column is its own highest
// point, the highest point of its section by one of the column's four
// side planes, or the highest point on one of its four corner lines,
// whichever lies in the column; the lowest likewise. Mesh colliders
// (ConvexHull, TriangleMesh) are rasterized as triangles and always give
// false. It allocates nothing.
func (p *Placed) ColumnRange(x0, z0, x1, z1 float32) (Column, bool) {
	if p.shape.Kind == ConvexHull || p.shape.Kind == TriangleMesh {
		return Column{}, false
	}
	r := rect{x0, z0, x1, z1}
	top := p.top.highest(r)
	if !top.ok {
		return Column{}, false
	}
	bottom := p.bottom.highest(r)
	if !bottom.ok {
		// Only a graze of the column's edge, seen from above but not from
		// below in float32: a flat sliver.
		bottom = highest{y: -top.y, normalY: 1, ok: true}
	}
	return Column{Bottom: -bottom.y, Top: top.y, TopNormalY: top.normalY, FloorNormalY: bottom.normalY}, true
}

// rect is a column's square in xz.
type rect struct{ x0, z0, x1, z1 float32 }

func (r rect) contains(x, z float32) bool { return x >= r.x0 && x <= r.x1 && z >= r.z0 && z <= r.z1 }

// highest collects candidate points and keeps the highest, with the
// flattest normal among those within a tie of it.
type highest struct {
	y, normalY float32
	ok         bool
}

// tie returns how close two heights near y must be to count as the same
// point of the surface.
func tie(y float32) float32 { return float32(1e-5 * max(1, float32(math.Abs(float64(y))))) }

func (h *highest) offer(y, normalY float32) {
	switch {
	case !h.ok:
		h.y, h.normalY, h.ok = y, normalY, true
	case y > h.y:
		if y-h.y <= tie(y) {
			normalY = max(normalY, h.normalY)
		}
		h.y, h.normalY = y, normalY
	case h.y-y <= tie(h.y):
		h.normalY = max(h.normalY, normalY)
	}
}

// highest returns the highest point of the primitive over r.
func (prim *primitive) highest(r rect) highest {
	var h highest
	if prim.kind == OrientedBox {
		prim.boxHighest(r, &h)
		return h
	}
	if peak, normalY := prim.peak(); r.contains(peak[0], peak[2]) {
		h.offer(peak[1], normalY)
	}
	sides := [4]struct {
		axis     int
		at       float32
		low, top float32
	}{
		{0, r.x0, r.z0, r.z1}, {0, r.x1, r.z0, r.z1},
		{2, r.z0, r.x0, r.x1}, {2, r.z1, r.x0, r.x1},
	}
	for _, side := range sides {
		if y, other, normalY, ok := prim.sectionTop(side.axis, side.at); ok && other >= side.low && other <= side.top {
			h.offer(y, normalY)
		}
	}
	for _, corner := range [4][2]float32{{r.x0, r.z0}, {r.x1, r.z0}, {r.x0, r.z1}, {r.x1, r.z1}} {
		if y, normalY, ok := prim.lineTop(corner[0], corner[1]); ok {
			h.offer(y, normalY)
		}
	}
	return h
}

// peak returns the highest point of a capsule or cylinder and the normal
// y there.
func (prim *primitive) peak() (geom.Vec3, float32) {
	end := prim.a
	if prim.b[1] > prim.a[1] {
		end = prim.b
	}
	if prim.kind == Capsule {
		end[1] += prim.radius
		return end, 1
	}
	u := prim.axis
	sigmaSqr := float32(u[0]*u[0]) + float32(u[2]*u[2])
	if sigmaSqr <= 1e-12 {
		return end, 1 // upright: the cap is flat
	}
	// The rim point straight up from the cap's centre, on a side line.
	sigma := geom.Sqrt(sigmaSqr)
	up := geom.Vec3{-u[1] * u[0] / sigma, sigma, -u[1] * u[2] / sigma}
	return addScaled(end, up, prim.radius), max(abs(u[1]), sigma)
}

// sectionTop returns the highest point of the primitive's section by the
// plane where coordinate axis (0 = x, 2 = z) equals at: its height, its
// other horizontal coordinate and the normal y there.
func (prim *primitive) sectionTop(axis int, at float32) (y, other, normalY float32, ok bool) {
	o := 2 - axis
	a, b, r := prim.a, prim.b, prim.radius
	if prim.kind == Capsule {
		// The section of the ball at a + t(b-a) is a disc of radius
		// sqrt(r² - δ²), δ its centre's distance to the plane.
		t, top, s, ok := maxSqrtAffine(a[1], b[1]-a[1], 1, r*r, at-a[axis], -(b[axis] - a[axis]))
		if !ok {
			return 0, 0, 0, false
		}
		other = a[o] + float32(t*(b[o]-a[o]))
		return top, other, clampUnit(geom.Sqrt(max(0, float32(r*r)-float32(s*s))) / r), true
	}
	// Cylinder: the section of the cap-parallel disc at P(t) = a + t·L·u is
	// a chord; its top end rises above P(t) by w0_y + |n_y|·sqrt(r² -
	// δ²/σ²), with δ = at - P(t)[axis], σ² = 1 - u_axis², w0 = δ(e - u_axis
	// u)/σ² the chord's middle and n = u × e / σ its direction.
	u, length := prim.axis, prim.length
	sigmaSqr := float32(u[1]*u[1]) + float32(u[o]*u[o])
	if sigmaSqr <= 1e-12 {
		// The axis runs along the plane's normal: the section is one disc.
		t := (at - a[axis]) / float32(length*u[axis])
		if !(t >= 0 && t <= 1) {
			return 0, 0, 0, false
		}
		center := addScaled(a, u, float32(t*length))
		return center[1] + r, center[o], 1, true
	}
	sigma := geom.Sqrt(sigmaSqr)
	var n geom.Vec3 // u × e_axis
	if axis == 0 {
		n = geom.Vec3{0, u[2], -u[1]}
	} else {
		n = geom.Vec3{u[1], -u[0], 0}
	}
	n = scale(n, 1/sigma)
	offset := at - a[axis]
	constant := a[1] - float32(offset*u[axis])*u[1]/sigmaSqr
	slope := float32(length*u[1]) / sigmaSqr
	t, top, _, ok := maxSqrtAffine(constant, slope, abs(n[1]), r*r, offset/sigma, -float32(length*u[axis])/sigma)
	if !ok {
		return 0, 0, 0, false
	}
	center := addScaled(a, u, float32(t*length))
	delta := at - center[axis]
	var e geom.Vec3
	e[axis] = 1
	middle := scale(addScaled(e, u, -u[axis]), delta/sigmaSqr)
	half := geom.Sqrt(max(0, float32(r*r)-float32(delta*delta)/sigmaSqr))
	if n[1] < 0 {
		half = -half
	}
	w := addScaled(middle, n, half)
	other = center[o] + w[o]
	normalY = clampUnit(w[1] / r)
	normalY = max(normalY, prim.capNormalY(t))
	return top, other, normalY, true
}

// capNormalY returns the normal y of the cap at axis parameter t when t
// is an end whose cap faces up, else -1.
func (prim *primitive) capNormalY(t float32) float32 {
	switch {
	case t >= 1 && prim.axis[1] > 0:
		return prim.axis[1]
	case t <= 0 && prim.axis[1] < 0:
		return -prim.axis[1]
	}
	return -1
}

// lineTop returns the highest point of the primitive on the vertical line
// through (x, z) and the normal y there.
func (prim *primitive) lineTop(x, z float32) (y, normalY float32, ok bool) {
	a, b, r := prim.a, prim.b, prim.radius
	if prim.kind == Capsule {
		// The highest point within r of the segment: the ball at a + t(b-a)
		// reaches sqrt(r² - |q - P(t)|²) above its centre, q = (x, z).
		mx, mz := b[0]-a[0], b[2]-a[2]
		wx, wz := x-a[0], z-a[2]
		m := geom.Sqrt(float32(mx*mx) + float32(mz*mz))
		if m == 0 {
			d := float32(wx*wx) + float32(wz*wz)
			if d > float32(r*r) {
				return 0, 0, false
			}
			h := geom.Sqrt(float32(r*r) - d)
			return max(a[1], b[1]) + h, clampUnit(h / r), true
		}
		ux, uz := mx/m, mz/m
		along := float32(wx*ux) + float32(wz*uz)
		across := float32(wx*uz) - float32(wz*ux)
		radiusSqr := float32(r*r) - float32(across*across)
		if radiusSqr < 0 {
			return 0, 0, false
		}
		_, top, s, ok := maxSqrtAffine(a[1], b[1]-a[1], 1, radiusSqr, along, -m)
		if !ok {
			return 0, 0, false
		}
		return top, clampUnit(geom.Sqrt(max(0, radiusSqr-float32(s*s))) / r), true
	}
	// Cylinder: the y range where the line is within r of the axis, cut to
	// the slab between the caps. y is measured from a[1].
	u, length := prim.axis, prim.length
	p0 := geom.Vec3{x - a[0], 0, z - a[2]}
	c0 := cross(p0, u)
	c1 := geom.Vec3{u[2], 0, -u[0]} // ŷ × u
	sigmaSqr := float32(u[0]*u[0]) + float32(u[2]*u[2])
	radialBottom, radialTop := float32(math.Inf(-1)), float32(math.Inf(1))
	if sigmaSqr > 1e-12 {
		mid := -dot(c0, c1) / sigmaSqr
		e := addScaled(c0, c1, mid)
		nearest := dot(e, e)
		if nearest > float32(r*r) {
			return 0, 0, false
		}
		half := geom.Sqrt((float32(r*r) - nearest) / sigmaSqr)
		radialBottom, radialTop = mid-half, mid+half
	} else if dot(c0, c0) > float32(r*r) {
		return 0, 0, false
	}
	capBottom, capTop := float32(math.Inf(-1)), float32(math.Inf(1))
	along := dot(p0, u)
	if abs(u[1]) > 1e-6 {
		capBottom, capTop = -along/u[1], (length-along)/u[1]
		if capBottom > capTop {
			capBottom, capTop = capTop, capBottom
		}
	} else if along < 0 || along > length {
		return 0, 0, false
	}
	if max(radialBottom, capBottom) > min(radialTop, capTop) {
		return 0, 0, false
	}
	top := min(radialTop, capTop)
	normalY = float32(-1)
	if capTop <= radialTop+tie(capTop) {
		normalY = abs(u[1])
	}
	if radialTop <= capTop+tie(radialTop) {
		// The radial direction at the point: its offset from the axis.
		point := geom.Vec3{p0[0], top, p0[2]}
		w := addScaled(point, u, -dot(point, u))
		if length := geom.Sqrt(dot(w, w)); length > 0 {
			normalY = max(normalY, clampUnit(w[1]/length))
		}
	}
	return a[1] + top, normalY, true
}

// boxHighest offers the points where the highest point of a box over r
// can lie: its corners inside r, the crossings of its edges with the four
// side planes within r, and its highest points on the four corner lines.
func (prim *primitive) boxHighest(r rect, h *highest) {
	for i := range prim.corners {
		if c := &prim.corners[i]; r.contains(c[0], c[2]) {
			h.offer(c[1], prim.boxNormalY(*c))
		}
	}
	for k := range 3 {
		for m := range 8 {
			if m&(1<<k) != 0 {
				continue
			}
			v0, v1 := prim.corners[m], prim.corners[m|1<<k]
			prim.offerCrossing(v0, v1, 0, r.x0, r.z0, r.z1, h)
			prim.offerCrossing(v0, v1, 0, r.x1, r.z0, r.z1, h)
			prim.offerCrossing(v0, v1, 2, r.z0, r.x0, r.x1, h)
			prim.offerCrossing(v0, v1, 2, r.z1, r.x0, r.x1, h)
		}
	}
	for _, corner := range [4][2]float32{{r.x0, r.z0}, {r.x1, r.z0}, {r.x0, r.z1}, {r.x1, r.z1}} {
		if y, normalY, ok := prim.boxLineTop(corner[0], corner[1]); ok {
			h.offer(y, normalY)
		}
	}
}

// offerCrossing offers the point where edge v0-v1 crosses the plane of
// coordinate axis = at, when its other coordinate lies in [low, top].
func (prim *primitive) offerCrossing(v0, v1 geom.Vec3, axis int, at, low, top float32, h *highest) {
	d0, d1 := v0[axis]-at, v1[axis]-at
	if (d0 > 0 && d1 > 0) || (d0 < 0 && d1 < 0) || d0 == d1 {
		return // both on one side, or along the plane (its corners count)
	}
	t := d0 / (d0 - d1)
	p := addScaled(v0, sub(v1, v0), t)
	p[axis] = at
	if o := p[2-axis]; o >= low && o <= top {
		h.offer(p[1], prim.boxNormalY(p))
	}
}

// boxLineTop returns the highest point of the box on the vertical line
// through (x, z): the lowest of the three slabs' upper bounds.
func (prim *primitive) boxLineTop(x, z float32) (y, normalY float32, ok bool) {
	lower, upper := float32(math.Inf(-1)), float32(math.Inf(1))
	normalY = -1
	for k := range 3 {
		axis := prim.axes[k]
		// (q - centre)·axis at y = centre's.
		base := float32((x-prim.center[0])*axis[0]) + float32((z-prim.center[2])*axis[2])
		half := prim.half[k]
		if abs(axis[1]) <= 1e-7 {
			if base < -half || base > half {
				return 0, 0, false
			}
			continue
		}
		lo, hi := (-half-base)/axis[1], (half-base)/axis[1]
		if lo > hi {
			lo, hi = hi, lo
		}
		lower = max(lower, lo)
		switch {
		case hi < upper-tie(hi):
			upper, normalY = hi, abs(axis[1])
		case hi <= upper+tie(hi):
			upper, normalY = min(upper, hi), max(normalY, abs(axis[1]))
		}
	}
	if lower > upper || math.IsInf(float64(upper), 1) {
		return 0, 0, false
	}
	return prim.center[1] + upper, normalY, true
}

// boxNormalY returns the y of the flattest outward face normal among the
// faces point p lies on (within rounding), -1 when it lies on none.
func (prim *primitive) boxNormalY(p geom.Vec3) float32 {
	normalY := float32(-1)
	offset := sub(p, prim.center)
	for k := range 3 {
		d := dot(offset, prim.axes[k])
		slack := float32(1e-5 * (1 + prim.half[k] + abs(d)))
		switch {
		case d >= prim.half[k]-slack:
			normalY = max(normalY, prim.axes[k][1])
		case d <= -prim.half[k]+slack:
			normalY = max(normalY, -prim.axes[k][1])
		}
	}
	return normalY
}

// maxSqrtAffine maximizes f(t) = A + B·t + K·sqrt(R² - s(t)²), s(t) = α +
// β·t, over the t in [0, 1] with |s(t)| <= R (K >= 0, radiusSqr = R² >= 0):
// a concave function on an interval, whose maximum is the unconstrained
// one clamped to the interval. It returns the best t, f there and s(t),
// and false when no t in [0, 1] has |s(t)| <= R.
func maxSqrtAffine(constant, slope, k, radiusSqr, alpha, beta float32) (t, value, s float32, ok bool) {
	if radiusSqr < 0 {
		return 0, 0, 0, false
	}
	radius := geom.Sqrt(radiusSqr)
	lo, hi := float32(0), float32(1)
	if abs(beta) <= 1e-12 {
		if abs(alpha) > radius {
			return 0, 0, 0, false
		}
		if slope > 0 {
			t = 1
		}
	} else {
		a, b := (-radius-alpha)/beta, (radius-alpha)/beta
		if a > b {
			a, b = b, a
		}
		lo, hi = max(lo, a), min(hi, b)
		if lo > hi {
			return 0, 0, 0, false
		}
		// In s, f is (B/β)·s + K·sqrt(R² - s²) plus a constant: its top is
		// at s = g·R/sqrt(g² + K²), g = B/β.
		g := slope / beta
		best := float32(0)
		if norm := geom.Sqrt(float32(g*g) + float32(k*k)); norm > 0 {
			best = g * radius / norm
		}
		t = min(max((best-alpha)/beta, lo), hi)
	}
	s = alpha + float32(beta*t)
	value = constant + float32(slope*t) + float32(k*geom.Sqrt(max(0, radiusSqr-float32(s*s))))
	return t, value, s, true
}

func abs(f float32) float32 { return float32(math.Abs(float64(f))) }

// clampUnit clamps a normal component to [-1, 1] against rounding.
func clampUnit(f float32) float32 { return min(max(f, -1), 1) }
