package crowd

import "github.com/archenav/archenav/navcore/geom"

// vec2 is a vector in the xz-plane: velocities and offsets of ORCA, which
// plans in two dimensions. A two-field struct stays in registers where a
// [2]float32 would not.
type vec2 struct{ x, z float32 }

func (a vec2) add(b vec2) vec2             { return vec2{a.x + b.x, a.z + b.z} }
func (a vec2) sub(b vec2) vec2             { return vec2{a.x - b.x, a.z - b.z} }
func (a vec2) scale(s float32) vec2        { return vec2{float32(a.x * s), float32(a.z * s)} }
func (a vec2) dot(b vec2) float32          { return float32(a.x*b.x) + float32(a.z*b.z) }
func (a vec2) lengthSqr() float32          { return float32(a.x*a.x) + float32(a.z*a.z) }
func (a vec2) length() float32             { return geom.Sqrt(float32(a.x*a.x) + float32(a.z*a.z)) }
func (a vec2) turnedLeft() vec2            { return vec2{-a.z, a.x} }
func (a vec2) turnedRight() vec2           { return vec2{a.z, -a.x} }
func (a vec2) vec3() geom.Vec3             { return geom.Vec3{a.x, 0, a.z} }
func xz(v geom.Vec3) vec2                  { return vec2{v[0], v[2]} }
func det(a, b vec2) float32                { return float32(a.x*b.z) - float32(a.z*b.x) }
func (a vec2) madd(b vec2, s float32) vec2 { return vec2{a.x + float32(b.x*s), a.z + float32(b.z*s)} }

// unit returns a scaled to length 1, or the zero vector for a zero a.
func (a vec2) unit() vec2 {
	l := a.length()
	if l == 0 {
		return vec2{}
	}
	return vec2{a.x / l, a.z / l}
}

// "Left" and "right" in the ORCA code are those of the x-z plot, x to the
// right and z up: det(a, b) > 0 when b lies to the left of a, turnedLeft
// turns counterclockwise. Seen from above (y up) the plot is mirrored: its
// left is the right of someone walking on the mesh, and the walkable side
// of a wall, on the left of P→Q seen from above, is on its right.

// halfPlane is one ORCA constraint: the velocities on the left of the line
// through point along direction (unit length), the line included.
type halfPlane struct {
	point, direction vec2
}

// violation returns how far v lies outside the half-plane: its distance to
// the line when outside, minus that distance when inside.
func (h *halfPlane) violation(v vec2) float32 {
	return det(h.direction, h.point.sub(v))
}

// parallelLimit is the |det| of two unit directions below which the linear
// programs treat their lines as parallel.
const parallelLimit = float32(1e-5)

// solveOnLine finds the best velocity on the line of planes[k] that lies in
// the speed circle (radius maxSpeed around zero) and in every plane before
// k. Best is the nearest to goal, or with extreme the farthest along goal
// (a unit direction then). ok is false when no point of the line qualifies.
func solveOnLine(planes []halfPlane, k int, maxSpeed float32, goal vec2, extreme bool) (v vec2, ok bool) {
	line := &planes[k]
	// The line's points foot + t·direction, from its point nearest zero
	// (which keeps the roots exact for a line far from zero), inside the
	// circle: t in [low, high], the roots of |foot + t·direction|² =
	// maxSpeed².
	foot := line.point.madd(line.direction, -line.point.dot(line.direction))
	discriminant := float32(maxSpeed*maxSpeed) - foot.lengthSqr()
	if discriminant < 0 {
		return vec2{}, false // the line passes outside the circle
	}
	root := geom.Sqrt(discriminant)
	low, high := -root, root

	for i := range planes[:k] {
		other := &planes[i]
		// The line's point at t is inside other when
		// offset + t·det(other.direction, line.direction) >= 0.
		offset := det(other.direction, foot.sub(other.point))
		slope := det(other.direction, line.direction)
		switch {
		case slope > parallelLimit: // bounds t from below
			low = max(low, -offset/slope)
		case slope < -parallelLimit: // from above
			high = min(high, -offset/slope)
		case offset < 0:
			return vec2{}, false // parallel, and the line lies outside other
		}
		if low > high {
			return vec2{}, false
		}
	}

	var t float32
	if extreme {
		t = low
		if goal.dot(line.direction) > 0 {
			t = high
		}
	} else {
		t = min(max(line.direction.dot(goal.sub(foot)), low), high)
	}
	return foot.madd(line.direction, t), true
}

// solvePlanes finds the velocity inside the speed circle and every plane
// that is nearest to goal, or with extreme the farthest along the unit
// direction goal: the incremental two-dimensional linear program, planes
// taken in order, each violated one moving the optimum onto its line. It
// returns the number of planes met: len(planes) on success, otherwise the
// index of the first plane that could not be met with those before it, v
// then being the optimum of the planes before that one.
func solvePlanes(planes []halfPlane, maxSpeed float32, goal vec2, extreme bool) (v vec2, met int) {
	switch {
	case extreme:
		v = goal.scale(maxSpeed)
	case goal.lengthSqr() > maxSpeed*maxSpeed:
		v = goal.unit().scale(maxSpeed)
	default:
		v = goal
	}
	for k := range planes {
		if planes[k].violation(v) <= 0 {
			continue
		}
		next, ok := solveOnLine(planes, k, maxSpeed, goal, extreme)
		if !ok {
			return v, k
		}
		v = next
	}
	return v, len(planes)
}

// leastViolation is the fallback for an infeasible program: from v, which
// meets planes[:first], it finds a velocity in the speed circle that meets
// the hard planes planes[:hard] and makes the largest violation of the
// others as small as it can (hard <= first). This is the three-dimensional
// linear program of ORCA's paper (velocity and violation), solved plane by
// plane: when plane k is violated more than the planes before it, the new
// optimum lies where k's violation is the largest, inside the bisectors
// between k and each soft plane before it; the two-dimensional program over
// the hard planes and those bisectors then pushes v as far into k as it
// goes. projected is scratch with room for len(planes) planes.
func leastViolation(planes []halfPlane, hard, first int, maxSpeed float32, v vec2, projected []halfPlane) vec2 {
	worst := float32(0)
	for k := first; k < len(planes); k++ {
		plane := &planes[k]
		if plane.violation(v) <= worst {
			continue
		}
		projected = append(projected[:0], planes[:hard]...)
		// With n the inward normal of a plane and c = n·point its offset,
		// the violation at v is c - n·v. Where k is violated at least as
		// much as j: (n_k - n_j)·v <= c_k - c_j, a half-plane whose line
		// is written through its point nearest zero, which keeps it exact
		// for nearly parallel planes.
		normal := plane.direction.turnedLeft()
		for j := hard; j < k; j++ {
			other := &planes[j]
			otherNormal := other.direction.turnedLeft()
			difference := normal.sub(otherNormal)
			lengthSqr := difference.lengthSqr()
			if lengthSqr < parallelLimit*parallelLimit {
				// Parallel, facing the same way: one of the two is
				// stricter everywhere, and k, violated more at v, is.
				continue
			}
			offset := normal.dot(plane.point) - otherNormal.dot(other.point)
			length := geom.Sqrt(lengthSqr)
			projected = append(projected, halfPlane{
				point:     difference.scale(offset / lengthSqr),
				direction: difference.turnedLeft().scale(1 / length),
			})
		}
		// Optimise into plane k: along its inward normal.
		if next, met := solvePlanes(projected, maxSpeed, normal, true); met == len(projected) {
			v = next
		}
		// Otherwise rounding made the program, feasible by construction,
		// fail: keep v.
		worst = plane.violation(v)
	}
	return v
}
