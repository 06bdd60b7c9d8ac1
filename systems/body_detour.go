package systems

import (
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Detours around obstacle bodies.
const (
	// detourClearance is how far beyond its radius an agent passes the
	// corners of a body it walks around [Units: world units]
	detourClearance = float32(0.1)
	// detourTightClearance is the clearance of the way tried when the one
	// with detourClearance leaves the navmesh [Units: world units]
	detourTightClearance = float32(0.02)
	// detourBlockShare is the share of its radius by which the straight
	// way of an agent must come into a body for the agent to walk around
	// it: an agent already sliding along a body keeps its way.
	detourBlockShare = float32(0.9)
	// circleDetourSides is the number of sides of the polygon an agent
	// walks around a cylinder body.
	circleDetourSides = 8
	// maxDetourPoints bounds the corners of a detour outline.
	maxDetourPoints = max(components.MaxObstaclePoints, circleDetourSides)
	// detourRayPolys is the room for the polygons a detour leg's ray
	// crosses; a leg crossing more is taken as blocked.
	detourRayPolys = 32
)

// detourScratch is one worker's room for planning detours around bodies.
type detourScratch struct {
	outline [maxDetourPoints]geom.Vec3
	rayPath [detourRayPolys]navmesh.Ref
}

// detourAroundBodies returns agent a's desired velocity turned, at the same
// speed, along the way around the nearest obstacle body that blocks its
// straight way to its next corner outside bodies; desired itself when none
// does, when the agent follows a velocity, or when neither way around the
// body stays on the navmesh.
//
// Bodies do not carve the navmesh, so a path may run through one and its
// corners may lie inside it; avoidance alone then holds the agent against
// the body, since every velocity that gets it nearer the corner walks into
// the body. The way around follows the body's outline grown by the agent's
// radius and detourClearance, on the side that is shorter to the first
// corner beyond the body, and is dropped for the other side when one of its
// legs up to the point where the corner comes in sight crosses a navmesh
// wall.
func (s *stage) detourAroundBodies(a *agent, q *query.Query, desired geom.Vec3, bodies *bodyScratch, scratch *detourScratch) geom.Vec3 {
	if s.bodies == nil || a.target.State != components.TargetValid || a.corners.Count == 0 {
		return desired
	}
	speed := geom.Len(desired)
	if speed < 0.0001 {
		return desired
	}
	pos := a.position.Vec3()
	radius := a.params.Radius
	blockAt := radius * detourBlockShare
	for _, id := range s.nearBodies(pos, a.params.CollisionQueryRange, a.params.Height, bodies) {
		f := &s.bodies.List[id].Footprint
		goal, ok := cornerBeyond(a, f, radius)
		if !ok || segmentClearance(f, pos, goal) >= blockAt {
			continue
		}
		// Where the roomy way is off the navmesh, a tight one may fit.
		var waypoint geom.Vec3
		ok = false
		for _, clearance := range [2]float32{detourClearance, detourTightClearance} {
			n := detourOutline(f, radius+clearance, pos[1], &scratch.outline)
			if n < 3 {
				break
			}
			if waypoint, ok = s.detourWaypoint(a, q, f, scratch.outline[:n], goal, scratch); ok {
				break
			}
		}
		if !ok {
			return slideAlongBody(f, pos, radius, desired)
		}
		dx, dz := waypoint[0]-pos[0], waypoint[2]-pos[2]
		length := geom.Sqrt(float32(dx*dx) + float32(dz*dz))
		if length < 0.0001 {
			return desired
		}
		return geom.Vec3{dx * (speed / length), desired[1], dz * (speed / length)}
	}
	return desired
}

// slideAlongBody drops the part of desired that walks an agent of the
// given radius at pos into footprint f when it touches it (within
// detourClearance): with no way around the body, the agent stands at it
// or slides along it instead of pressing into it, which would wedge it
// between the body and a wall its pushes cannot cross.
func slideAlongBody(f *components.Footprint, pos geom.Vec3, radius float32, desired geom.Vec3) geom.Vec3 {
	d, nx, nz := f.Distance(pos[0], pos[2])
	if d > radius+detourClearance {
		return desired
	}
	if into := float32(desired[0]*nx) + float32(desired[2]*nz); into < 0 {
		desired[0] -= float32(nx * into)
		desired[2] -= float32(nz * into)
	}
	return desired
}

// cornerBeyond returns the first of agent a's corners that lies outside
// footprint f grown by radius, or its corridor's end when none does; false
// when that end lies inside too (the target is in the body).
func cornerBeyond(a *agent, f *components.Footprint, radius float32) (geom.Vec3, bool) {
	for i := range a.corners.Count {
		p := a.corners.Points[i].Pos
		if d, _, _ := f.Distance(p[0], p[2]); d >= radius {
			return p, true
		}
	}
	end := a.corridor.Target()
	d, _, _ := f.Distance(end[0], end[2])
	return end, d >= radius
}

// detourWaypoint returns the next point of the shorter way that stays on
// the navmesh around outline (counter-clockwise, the grown footprint f)
// from agent a to goal; false when neither way does.
func (s *stage) detourWaypoint(a *agent, q *query.Query, f *components.Footprint, outline []geom.Vec3, goal geom.Vec3, scratch *detourScratch) (geom.Vec3, bool) {
	pos := a.position.Vec3()
	n := len(outline)
	// The edge of the outline nearest the agent: the walks start at its
	// ends.
	edge, best := 0, float32(math.MaxFloat32)
	for i := range n {
		d, _ := geom.DistancePtSegSqr2D(pos, outline[i], outline[(i+1)%n])
		if d < best {
			edge, best = i, d
		}
	}
	clear := a.params.Radius * detourBlockShare
	var bestPoint geom.Vec3
	bestCost := float32(math.MaxFloat32)
	// Counter-clockwise first: exact ties go that way.
	for _, step := range [2]int{1, -1} {
		first := edge + 1
		if step < 0 {
			first = edge
		}
		from, fromRef := pos, a.corridor.FirstPoly()
		cost := float32(0)
		var waypoint geom.Vec3
		haveWaypoint, found := false, false
		for k := range n {
			v := outline[((first+step*k)%n+n)%n]
			// A corner the agent stands at is passed: head for the next.
			if !haveWaypoint && geom.Dist2D(pos, v) >= detourTightClearance {
				waypoint, haveWaypoint = v, true
			}
			ref, ok := s.clearLeg(q, a, fromRef, from, v, scratch)
			if !ok {
				break
			}
			cost += geom.Dist2D(from, v)
			from, fromRef = v, ref
			if segmentClearance(f, v, goal) >= clear {
				cost += geom.Dist2D(v, goal)
				found = true
				break
			}
		}
		if found && haveWaypoint && cost < bestCost {
			bestCost, bestPoint = cost, waypoint
		}
	}
	return bestPoint, bestCost < math.MaxFloat32
}

// clearLeg reports whether the straight walk from (ref, from) to to stays
// on agent a's navmesh, and returns the polygon it ends in.
func (s *stage) clearLeg(q *query.Query, a *agent, ref navmesh.Ref, from, to geom.Vec3, scratch *detourScratch) (navmesh.Ref, bool) {
	if ref == 0 {
		return 0, false
	}
	hit, _, err := q.Raycast(ref, from, to, s.filter(a.params), 0, 0, scratch.rayPath[:])
	if err != nil || hit.T != math.MaxFloat32 || hit.PathCount == 0 || hit.PathCount == len(scratch.rayPath) {
		return 0, false
	}
	return scratch.rayPath[hit.PathCount-1], true
}

// detourOutline writes into out footprint f grown by d, counter-clockwise
// at height y: a polygon's corners pushed out along their bisectors, a
// circle's circumscribed polygon; it returns the number of corners.
func detourOutline(f *components.Footprint, d, y float32, out *[maxDetourPoints]geom.Vec3) int {
	if f.Circle {
		r := (f.Radius + d) / geom.Cos(math.Pi/circleDetourSides)
		for i := range circleDetourSides {
			angle := float32(2*math.Pi) * float32(i) / circleDetourSides
			out[i] = geom.Vec3{f.Center[0] + float32(r*geom.Cos(angle)), y, f.Center[1] + float32(r*geom.Sin(angle))}
		}
		return circleDetourSides
	}
	n := min(f.Count, maxDetourPoints)
	if n < 3 {
		return 0
	}
	for i := range n {
		prev, pt, next := f.Points[(i+n-1)%n], f.Points[i], f.Points[(i+1)%n]
		n0x, n0z := outwardNormal(prev, pt)
		n1x, n1z := outwardNormal(pt, next)
		bx, bz := n0x+n1x, n0z+n1z
		// Moving the corner by s along b moves both edges out by s·(b·n0).
		dot := float32(bx*n0x) + float32(bz*n0z)
		if dot < 0.25 {
			// A corner sharper than about 80°: cap its spike.
			dot = 0.25
		}
		s := d / dot
		out[i] = geom.Vec3{pt[0] + float32(bx*s), y, pt[1] + float32(bz*s)}
	}
	return n
}

// outwardNormal returns the outward unit normal of the counter-clockwise
// edge a→b, zero for a degenerate edge.
func outwardNormal(a, b [2]float32) (nx, nz float32) {
	ex, ez := b[0]-a[0], b[1]-a[1]
	length := geom.Sqrt(float32(ex*ex) + float32(ez*ez))
	if length < 1e-9 {
		return 0, 0
	}
	return ez / length, -ex / length
}

// segmentClearance returns the least xz distance between the segment p→q
// and footprint f, 0 when they meet.
func segmentClearance(f *components.Footprint, p, q geom.Vec3) float32 {
	if f.Circle {
		center := geom.Vec3{f.Center[0], p[1], f.Center[1]}
		d, _ := geom.DistancePtSegSqr2D(center, p, q)
		return max(geom.Sqrt(d)-f.Radius, 0)
	}
	if f.Count < 3 {
		return float32(math.MaxFloat32)
	}
	if d, _, _ := f.Distance(p[0], p[2]); d <= 0 {
		return 0
	}
	if d, _, _ := f.Distance(q[0], q[2]); d <= 0 {
		return 0
	}
	best := float32(math.MaxFloat32)
	for i := range f.Count {
		ca, cb := f.Points[i], f.Points[(i+1)%f.Count]
		a := geom.Vec3{ca[0], p[1], ca[1]}
		b := geom.Vec3{cb[0], p[1], cb[1]}
		if segmentsCross2D(p, q, a, b) {
			return 0
		}
		d1, _ := geom.DistancePtSegSqr2D(a, p, q)
		d2, _ := geom.DistancePtSegSqr2D(p, a, b)
		d3, _ := geom.DistancePtSegSqr2D(q, a, b)
		best = min(best, d1, d2, d3)
	}
	return geom.Sqrt(best)
}

// segmentsCross2D reports whether the segments p→q and a→b cross in xz.
func segmentsCross2D(p, q, a, b geom.Vec3) bool {
	d1 := geom.TriArea2D(p, q, a)
	d2 := geom.TriArea2D(p, q, b)
	d3 := geom.TriArea2D(a, b, p)
	d4 := geom.TriArea2D(a, b, q)
	return (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0)
}
