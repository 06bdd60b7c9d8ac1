package crowd

import (
	"fmt"
	"github.com/archenav/archenav/internal/detmath"
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// ORCANeighbour is another agent as ReciprocalAvoidance sees it. Only x and
// z matter.
type ORCANeighbour struct {
	// Position is the neighbour's centre [Units: world units]
	Position geom.Vec3
	// Velocity is its current velocity [Units: world units per second]
	Velocity geom.Vec3
	// Radius [Limit: >= 0, finite] [Units: world units]
	Radius float32
	// Responsibility is the share of avoiding this neighbour that the agent
	// takes on: 0.5 when both avoid each other alike (reciprocal), 1 when
	// the agent gives way alone (the neighbour has priority or does not
	// avoid), 0 when the neighbour gives way alone; the agent then only
	// keeps from closing in faster than it does now. [Limit: 0..1]
	Responsibility float32
}

// ORCAAgent is the agent ReciprocalAvoidance.Solve plans for. Only x and z
// matter.
type ORCAAgent struct {
	// Position is the agent's centre [Units: world units]
	Position geom.Vec3
	// Radius is its body's radius, kept clear of other agents
	// [Limit: >= 0, finite] [Units: world units]
	Radius float32
	// MaxSpeed bounds the planned velocity [Limit: >= 0, finite]
	// [Units: world units per second]
	MaxSpeed float32
	// Velocity is the current velocity [Units: world units per second]
	Velocity geom.Vec3
	// PreferredVelocity is the velocity the agent would take with nothing
	// in the way: the steering's desired velocity
	// [Units: world units per second]
	PreferredVelocity geom.Vec3
}

// ORCAResult tells how Solve found its velocity.
type ORCAResult struct {
	// WallPlanes is the number of half-planes from walls.
	WallPlanes int
	// NeighbourPlanes is the number of half-planes from neighbours.
	NeighbourPlanes int
	// Infeasible reports that no velocity in the speed circle met every
	// half-plane: the velocity then meets the walls' (when they can be
	// met at all) and violates the neighbours' as little as it can.
	Infeasible bool
}

// WallClearance is how far from a wall segment ORCA keeps an agent's centre.
// The navmesh is already shrunk by the agent's radius, so walls bound the
// centre, not the body; the small clearance keeps the wall constraints
// well-conditioned for an agent standing on its boundary
// [Units: world units]
const WallClearance = float32(0.01)

// ReciprocalAvoidance plans an agent's velocity with optimal reciprocal
// collision avoidance (ORCA; van den Berg, Guy, Lin and Manocha,
// "Reciprocal n-body collision avoidance", 2011): every neighbour and every
// wall segment facing the agent forbids a half-plane of velocities, those
// that would collide within a time horizon (for a neighbour, the agent takes
// its share of the avoidance, the neighbour the rest), and the velocity
// nearest the preferred one in the speed circle outside all of them wins.
// When none is left, the walls stay hard and the largest violation of the
// neighbours' half-planes is made as small as possible.
//
// Add the neighbours and segments, then call Solve; Reset before the next
// agent. Wall segments that meet end to end are linked, so that corners are
// treated as convex or concave; a segment end with no partner counts as a
// convex corner. Build one per goroutine; after NewReciprocalAvoidance
// nothing allocates. The result depends only on the inputs and their order.
//
// Per-agent controls stay with the caller: which neighbours to avoid at all
// (avoidance layers: add only those), and how much of each encounter the
// agent takes on (priorities: ORCANeighbour.Responsibility).
//
// Where this departs from RVO2, the reference implementation: agents that
// meet exactly head on step to their right instead of stopping face to face
// (a plane that would meet the neighbour's cut-off disc within 0.1 rad of
// straight ahead meets it 0.1 rad to the right; RVO2's examples jitter the
// preferred velocities at random instead), and the fallback writes its bisecting lines through their
// point nearest zero rather than through the crossing of nearly parallel
// lines, so it keeps its precision in float32 (TestLeastViolationNearlyParallel).
type ReciprocalAvoidance struct {
	neighbours []ORCANeighbour
	walls      []orcaWall
	planes     []halfPlane
	projected  []halfPlane
}

// orcaWall is a wall segment, P to Q, with the walkable side on its right
// (in the xz-plane, as the local boundary gives them; see vec2).
type orcaWall struct {
	p, q vec2
	// direction is Q - P at unit length.
	direction vec2
	// previous and next are the walls ending at P and starting at Q, -1
	// when there are none (or the wall is not in reach).
	previous, next int
	// inReach: the wall faces the agent and a velocity in the speed circle
	// can come within WallClearance of it within the obstacle horizon.
	inReach bool
}

// NewReciprocalAvoidance returns a planner with room for maxNeighbours
// neighbours and maxSegments wall segments. The crowd uses
// components.MaxNeighbours and MaxLocalSegments.
//
// maxNeighbours, maxSegments [Limit: >= 0]
func NewReciprocalAvoidance(maxNeighbours, maxSegments int) (*ReciprocalAvoidance, error) {
	if maxNeighbours < 0 || maxSegments < 0 {
		return nil, fmt.Errorf("crowd: reciprocal avoidance capacity (%d neighbours, %d segments) negative: %w",
			maxNeighbours, maxSegments, ErrInvalidParam)
	}
	planes := maxNeighbours + maxSegments
	return &ReciprocalAvoidance{
		neighbours: make([]ORCANeighbour, 0, maxNeighbours),
		walls:      make([]orcaWall, 0, maxSegments),
		planes:     make([]halfPlane, 0, planes),
		projected:  make([]halfPlane, 0, planes),
	}, nil
}

// Reset removes every neighbour and segment.
func (a *ReciprocalAvoidance) Reset() {
	a.neighbours = a.neighbours[:0]
	a.walls = a.walls[:0]
}

// AddNeighbour adds a neighbour to avoid. Solve avoids the first
// ORCAParams.MaxNeighbours added, so add the nearest first. It returns an
// ErrCapacity error, and adds nothing, when the neighbours are full; an
// ErrInvalidParam error for a radius or responsibility outside its limits
// or a position or velocity that is not finite.
func (a *ReciprocalAvoidance) AddNeighbour(n ORCANeighbour) error {
	if len(a.neighbours) == cap(a.neighbours) {
		return fmt.Errorf("crowd: reciprocal avoidance: %d neighbours: %w", cap(a.neighbours), ErrCapacity)
	}
	if !finiteNonNegative(n.Radius) || !(n.Responsibility >= 0 && n.Responsibility <= 1) ||
		!geom.IsFinite2D(n.Position) || !geom.IsFinite2D(n.Velocity) {
		return fmt.Errorf("crowd: reciprocal avoidance: neighbour at %v moving %v, radius %v, responsibility %v: %w",
			n.Position, n.Velocity, n.Radius, n.Responsibility, ErrInvalidParam)
	}
	a.neighbours = append(a.neighbours, n)
	return nil
}

// AddSegment adds a wall segment from p to q, walkable side on the left of
// p→q seen from above (as LocalBoundary gives them). Solve ignores a segment
// whose back faces the agent, but still uses it to tell its neighbours'
// corners apart, so add every segment of the boundary. It returns an
// ErrCapacity error, and adds nothing, when the segments are full, an
// ErrInvalidParam error for an end that is not finite.
func (a *ReciprocalAvoidance) AddSegment(p, q geom.Vec3) error {
	if len(a.walls) == cap(a.walls) {
		return fmt.Errorf("crowd: reciprocal avoidance: %d segments: %w", cap(a.walls), ErrCapacity)
	}
	if !geom.IsFinite2D(p) || !geom.IsFinite2D(q) {
		return fmt.Errorf("crowd: reciprocal avoidance: segment %v to %v not finite: %w", p, q, ErrInvalidParam)
	}
	a.walls = append(a.walls, orcaWall{p: xz(p), q: xz(q)})
	return nil
}

// NeighbourCount returns the number of neighbours added since Reset.
func (a *ReciprocalAvoidance) NeighbourCount() int { return len(a.neighbours) }

// SegmentCount returns the number of segments added since Reset.
func (a *ReciprocalAvoidance) SegmentCount() int { return len(a.walls) }

// Solve plans agent's velocity against the neighbours and walls added since
// Reset: the velocity within agent.MaxSpeed nearest agent.PreferredVelocity
// that collides with no wall within params.ObstacleTimeHorizon and with no
// neighbour within params.TimeHorizon, given that each neighbour does its
// share. dt is the tick's length: two agents already overlapping are pushed
// apart within it. The planned velocity has y = 0.
//
// Bad params, a non-finite or negative speed or radius, a non-finite
// position or velocity, or a dt that is not finite and > 0 give an
// ErrInvalidParam error and a zero velocity.
//
// dt [Limit: > 0, finite] [Units: s]
func (a *ReciprocalAvoidance) Solve(agent *ORCAAgent, params *ORCAParams, dt float32) (geom.Vec3, ORCAResult, error) {
	if err := a.check(agent, params, dt); err != nil {
		return geom.Vec3{}, ORCAResult{}, err
	}
	a.planes = a.planes[:0]
	if agent.MaxSpeed == 0 {
		return geom.Vec3{}, ORCAResult{}, nil // no velocity but zero to choose from
	}
	position, velocity := xz(agent.Position), xz(agent.Velocity)

	a.prepareWalls(position, float32(params.ObstacleTimeHorizon*agent.MaxSpeed)+WallClearance)
	invHorizon := 1 / params.ObstacleTimeHorizon
	for i := range a.walls {
		if a.walls[i].inReach {
			a.addWallPlane(i, position, velocity, invHorizon)
		}
	}
	var result ORCAResult
	result.WallPlanes = len(a.planes)

	invHorizon = 1 / params.TimeHorizon
	invDt := 1 / dt
	for i := range a.neighbours[:min(params.MaxNeighbours, len(a.neighbours))] {
		a.addNeighbourPlane(&a.neighbours[i], agent.Radius, position, velocity, invHorizon, invDt)
	}
	result.NeighbourPlanes = len(a.planes) - result.WallPlanes

	v, met := solvePlanes(a.planes, agent.MaxSpeed, xz(agent.PreferredVelocity), false)
	if met < len(a.planes) {
		result.Infeasible = true
		// The walls stay hard unless they alone cannot be met.
		hard := result.WallPlanes
		if met < hard {
			hard = 0
		}
		v = leastViolation(a.planes, hard, met, agent.MaxSpeed, v, a.projected)
	}
	// Rounding may leave v a hair outside the speed circle.
	if lengthSqr := v.lengthSqr(); lengthSqr > agent.MaxSpeed*agent.MaxSpeed {
		v = v.scale(agent.MaxSpeed / geom.Sqrt(lengthSqr))
	}
	return v.vec3(), result, nil
}

// check validates Solve's arguments.
func (a *ReciprocalAvoidance) check(agent *ORCAAgent, params *ORCAParams, dt float32) error {
	if agent == nil || params == nil {
		return fmt.Errorf("crowd: reciprocal avoidance: nil agent or params: %w", ErrInvalidParam)
	}
	if err := params.Validate(); err != nil {
		return err
	}
	switch {
	case !finiteNonNegative(agent.MaxSpeed) || !finiteNonNegative(agent.Radius):
		return fmt.Errorf("crowd: reciprocal avoidance: speed %v, radius %v not finite and >= 0: %w",
			agent.MaxSpeed, agent.Radius, ErrInvalidParam)
	case !geom.IsFinite2D(agent.Position) || !geom.IsFinite2D(agent.Velocity) || !geom.IsFinite2D(agent.PreferredVelocity):
		return fmt.Errorf("crowd: reciprocal avoidance: position, velocity or preferred velocity not finite: %w", ErrInvalidParam)
	case !(dt > 0) || math.IsInf(float64(dt), 1):
		return fmt.Errorf("crowd: reciprocal avoidance: dt %v not finite and > 0: %w", dt, ErrInvalidParam)
	}
	return nil
}

// linkTolerance is how near (in x and in z) two segment ends must be to be
// one corner [Units: world units]
const linkTolerance = float32(1e-4)

// near reports whether u and v are within linkTolerance in x and z.
func near(u, v vec2) bool {
	dx, dz := u.x-v.x, u.z-v.z
	return dx <= linkTolerance && dx >= -linkTolerance && dz <= linkTolerance && dz >= -linkTolerance
}

// prepareWalls sets each wall's direction and whether it is in reach: it
// faces the agent at position and lies within reach of it. For each wall
// in reach it finds the walls that meet it end to end: the first whose Q
// is its P and the first whose P is its Q (any wall, in reach or not).
func (a *ReciprocalAvoidance) prepareWalls(position vec2, reach float32) {
	for i := range a.walls {
		w := &a.walls[i]
		along := w.q.sub(w.p)
		w.direction = along.unit()
		w.previous, w.next = -1, -1
		// Facing the agent (on its right) and near enough.
		offset := position.sub(w.p)
		w.inReach = false
		if det(along, offset) > 0 {
			continue
		}
		t := float32(0)
		if lengthSqr := along.lengthSqr(); lengthSqr > 0 {
			t = min(max(offset.dot(along)/lengthSqr, 0), 1)
		}
		w.inReach = offset.sub(along.scale(t)).lengthSqr() <= reach*reach
	}
	for i := range a.walls {
		w := &a.walls[i]
		if !w.inReach {
			continue
		}
		for j := range a.walls {
			if j == i {
				continue
			}
			o := &a.walls[j]
			if w.next < 0 && near(w.q, o.p) {
				w.next = j
			}
			if w.previous < 0 && near(w.p, o.q) {
				w.previous = j
			}
		}
	}
}

// convexAt reports whether the corner where wall in ends and wall out
// begins pokes into the walkable side: the wall turns left there (the
// walkable side is on the right). A corner with a missing wall (-1) is an
// open end, and counts as convex.
func (a *ReciprocalAvoidance) convexAt(in, out int) bool {
	if in < 0 || out < 0 {
		return true
	}
	return det(a.walls[in].direction, a.walls[out].direction) >= 0
}

// addWallPlane adds the half-plane of wall i, which is in reach, unless it
// is too short, or the walls before it already forbid all its velocity
// obstacle. Offsets are from the agent (position); the velocity
// obstacle is that of a point agent against the wall grown by
// WallClearance, cut off at 1/invHorizon seconds.
//
// Seen from the agent, P is the wall's left end and Q its right end. The
// velocity obstacle is bounded by a left leg (a ray from zero past the left
// end's disc), a right leg, and the cut-off: the segment between the two
// ends' discs scaled by invHorizon. At a concave corner the leg continues
// the wall's own line (the neighbouring wall is covered by its own plane);
// at a convex corner a leg that would cut into the neighbouring wall is
// that wall's direction instead, and gives no plane of its own ("foreign").
// The plane touches the velocity obstacle where it lies nearest the current
// velocity.
func (a *ReciprocalAvoidance) addWallPlane(i int, position, velocity vec2, invHorizon float32) {
	w := &a.walls[i]
	along := w.q.sub(w.p)
	lengthSqr := along.lengthSqr()
	if lengthSqr < 1e-12 {
		return // no direction to work with
	}
	left, right := w.p.sub(position), w.q.sub(position)
	const radius = WallClearance
	radiusSqr := radius * radius
	scaledRadius := float32(radius * invHorizon)

	// Already forbidden: both ends, grown by the clearance and cut off,
	// lie beyond a wall plane made before.
	for k := range a.planes {
		plane := &a.planes[k]
		if plane.violation(left.scale(invHorizon))-scaledRadius >= -parallelLimit &&
			plane.violation(right.scale(invHorizon))-scaledRadius >= -parallelLimit {
			return
		}
	}

	leftSqr, rightSqr := left.lengthSqr(), right.lengthSqr()
	// s: where along the wall the agent's foot lies (0 at P, 1 at Q);
	// lineSqr: the squared distance to the wall's line.
	s := -left.dot(along) / lengthSqr
	lineSqr := left.madd(along, s).lengthSqr()

	convexP := a.convexAt(w.previous, i)
	convexQ := a.convexAt(i, w.next)

	// Already within the clearance: keep from moving further in.
	switch {
	case s < 0 && leftSqr <= radiusSqr:
		if convexP {
			a.planes = append(a.planes, halfPlane{direction: left.turnedLeft().unit()})
		}
		return
	case s > 1 && rightSqr <= radiusSqr:
		if convexQ {
			a.planes = append(a.planes, halfPlane{direction: right.turnedLeft().unit()})
		}
		return
	case s >= 0 && s <= 1 && lineSqr <= radiusSqr:
		a.planes = append(a.planes, halfPlane{direction: w.direction.scale(-1)})
		return
	}

	// The corners the legs start from, the walls coming into the left one
	// and going out of the right one (-1: none), and the legs.
	var leftCorner, rightCorner vec2
	var leftConvex, rightConvex, oneCorner bool
	var incoming, outgoing int
	var leftLeg, rightLeg vec2
	switch {
	case s < 0 && lineSqr <= radiusSqr:
		// Seen end-on, P in front: both legs pass P's disc.
		if !convexP {
			return // the wall before P hides this one
		}
		leftCorner, rightCorner, oneCorner = left, left, true
		leftConvex, rightConvex = true, true
		incoming, outgoing = w.previous, i
		leftLeg, rightLeg = tangents(left, leftSqr, radius)
	case s > 1 && lineSqr <= radiusSqr:
		// End-on, Q in front.
		if !convexQ {
			return
		}
		leftCorner, rightCorner, oneCorner = right, right, true
		leftConvex, rightConvex = true, true
		incoming, outgoing = i, w.next
		leftLeg, rightLeg = tangents(right, rightSqr, radius)
	default:
		leftCorner, rightCorner = left, right
		leftConvex, rightConvex = convexP, convexQ
		incoming, outgoing = w.previous, w.next
		if convexP {
			leftLeg, _ = tangents(left, leftSqr, radius)
		} else {
			leftLeg = w.direction.scale(-1)
		}
		if convexQ {
			_, rightLeg = tangents(right, rightSqr, radius)
		} else {
			rightLeg = w.direction
		}
	}

	// A leg from a convex corner must not cut into the wall on its other
	// side: there it follows that wall, whose own plane covers it.
	leftForeign, rightForeign := false, false
	if leftConvex && incoming >= 0 {
		if back := a.walls[incoming].direction.scale(-1); det(leftLeg, back) >= 0 {
			leftLeg, leftForeign = back, true
		}
	}
	if rightConvex && outgoing >= 0 {
		if forth := a.walls[outgoing].direction; det(rightLeg, forth) <= 0 {
			rightLeg, rightForeign = forth, true
		}
	}

	// The cut-off: the corners scaled to where they are reached at the
	// horizon.
	leftCut, rightCut := leftCorner.scale(invHorizon), rightCorner.scale(invHorizon)
	cut := rightCut.sub(leftCut)
	t := float32(0.5)
	if !oneCorner {
		t = velocity.sub(leftCut).dot(cut) / cut.lengthSqr()
	}
	tLeft := velocity.sub(leftCut).dot(leftLeg)
	tRight := velocity.sub(rightCut).dot(rightLeg)

	// Nearest the left end of the cut-off, or the right end: a plane
	// touching that end's disc.
	if (t < 0 && tLeft < 0) || (oneCorner && tLeft < 0 && tRight < 0) {
		a.planes = append(a.planes, discPlane(velocity, leftCut, leftCorner, scaledRadius))
		return
	}
	if t > 1 && tRight < 0 {
		a.planes = append(a.planes, discPlane(velocity, rightCut, rightCorner, scaledRadius))
		return
	}

	// Otherwise the nearest of the cut-off line and the two legs.
	inf := float32(math.Inf(1))
	cutSqr, leftSqrDist, rightSqrDist := inf, inf, inf
	if !oneCorner && t >= 0 && t <= 1 {
		cutSqr = velocity.sub(leftCut.madd(cut, t)).lengthSqr()
	}
	if tLeft >= 0 {
		leftSqrDist = velocity.sub(leftCut.madd(leftLeg, tLeft)).lengthSqr()
	}
	if tRight >= 0 {
		rightSqrDist = velocity.sub(rightCut.madd(rightLeg, tRight)).lengthSqr()
	}
	switch {
	case cutSqr <= leftSqrDist && cutSqr <= rightSqrDist:
		direction := w.direction.scale(-1)
		a.planes = append(a.planes, halfPlane{point: leftCut.madd(direction.turnedLeft(), scaledRadius), direction: direction})
	case leftSqrDist <= rightSqrDist:
		if !leftForeign {
			a.planes = append(a.planes, halfPlane{point: leftCut.madd(leftLeg.turnedLeft(), scaledRadius), direction: leftLeg})
		}
	default:
		if !rightForeign {
			direction := rightLeg.scale(-1)
			a.planes = append(a.planes, halfPlane{point: rightCut.madd(direction.turnedLeft(), scaledRadius), direction: direction})
		}
	}
}

// tangents returns the unit directions from zero that graze the disc of
// the given radius around offset (|offset|² = distanceSqr > radius²), the
// left one and the right one.
func tangents(offset vec2, distanceSqr, radius float32) (left, right vec2) {
	leg := geom.Sqrt(distanceSqr - float32(radius*radius))
	inv := 1 / distanceSqr
	left = vec2{float32(offset.x*leg) - float32(offset.z*radius), float32(offset.x*radius) + float32(offset.z*leg)}.scale(inv)
	right = vec2{float32(offset.x*leg) + float32(offset.z*radius), float32(-offset.x*radius) + float32(offset.z*leg)}.scale(inv)
	return left, right
}

// discPlane is the plane touching the disc of scaledRadius around centre
// where it faces velocity. When velocity is the centre, it faces zero, the
// way back from corner (the corner's offset from the agent) instead.
func discPlane(velocity, centre, corner vec2, scaledRadius float32) halfPlane {
	outward := velocity.sub(centre).unit()
	if outward == (vec2{}) {
		outward = corner.scale(-1).unit()
	}
	return halfPlane{point: centre.madd(outward, scaledRadius), direction: outward.turnedRight()}
}

// Keeping right: two agents walking straight at each other, exactly, meet
// the cut-off disc head on, where its plane is square to their way; each
// slows down and neither steps aside, and they stop face to face (ORCA's
// symmetric deadlock, which RVO2's examples break by jittering the preferred
// velocities at random). Instead, a plane that would touch the disc within
// keepRightAngle of straight ahead touches it keepRightAngle aside, on the
// side that sends the agent to its right (as someone walking on the mesh,
// y up, has it; in the x-z plot of vec2 that is to the left). It still keeps
// out the whole velocity obstacle, and it is the plane the other agent picks
// too (its view is this one turned by half a turn), so both step to their
// right and pass. Ties between the legs go the same way.
const keepRightAngle = 0.1 // radians

var keepRightCos, keepRightSin = float32(detmath.Cos(keepRightAngle)), float32(detmath.Sin(keepRightAngle))

// keepRight returns unitW, the unit direction from the cut-off disc's
// centre to the relative velocity, or, when it lies within keepRightAngle
// of ahead (the unit direction from the disc's centre back to the agent)
// and not already on the agent's right of it, ahead turned by
// keepRightAngle (clockwise in the x-z plot), whose plane sends the
// relative velocity to the agent's right.
func keepRight(unitW, ahead vec2) vec2 {
	if unitW.dot(ahead) > keepRightCos && det(ahead, unitW) > -keepRightSin {
		return vec2{float32(ahead.x*keepRightCos) + float32(ahead.z*keepRightSin), float32(ahead.z*keepRightCos) - float32(ahead.x*keepRightSin)}
	}
	return unitW
}

// addNeighbourPlane adds the half-plane of neighbour n: with relative
// velocity w = velocity - n's, the velocity obstacle is the cone of
// relative velocities that bring the two discs together within the
// horizon, cut off by the disc of the summed radii scaled by invHorizon
// around the offset scaled likewise. u is the shortest change of w that
// leaves it; the agent takes Responsibility of u, and the plane's line
// passes through velocity + Responsibility·u, square to u. Agents that
// overlap already use the tick (invDt) as the horizon, so that they move
// apart within it.
func (a *ReciprocalAvoidance) addNeighbourPlane(n *ORCANeighbour, radius float32, position, velocity vec2, invHorizon, invDt float32) {
	offset := xz(n.Position).sub(position)
	relative := velocity.sub(xz(n.Velocity))
	distanceSqr := offset.lengthSqr()
	reach := radius + n.Radius
	reachSqr := reach * reach

	var direction, u vec2
	if distanceSqr > reachSqr {
		// From the cut-off disc's centre to the relative velocity.
		w := relative.sub(offset.scale(invHorizon))
		wSqr := w.lengthSqr()
		along := w.dot(offset)
		if along < 0 && along*along > reachSqr*wSqr {
			// Nearest the cut-off disc: the plane touches it where it
			// faces w, or just right of straight ahead (keepRight).
			unitW := keepRight(w.scale(1/geom.Sqrt(wSqr)), offset.scale(-1/geom.Sqrt(distanceSqr)))
			direction = unitW.turnedRight()
			u = unitW.scale(reach * invHorizon).sub(w)
		} else {
			// Nearest a leg: the left one (in the x-z plot; the agent's
			// right) when w lies left of the offset, or on it.
			leftLeg, rightLeg := tangents(offset, distanceSqr, reach)
			if det(offset, w) >= 0 {
				direction = leftLeg
			} else {
				direction = rightLeg.scale(-1)
			}
			u = direction.scale(relative.dot(direction)).sub(relative)
		}
	} else {
		// Overlapping: leave the disc around the offset scaled by the
		// tick within the tick.
		w := relative.sub(offset.scale(invDt))
		wLength := w.length()
		var unitW vec2
		switch {
		case wLength > 0:
			unitW = w.scale(1 / wLength)
		case distanceSqr > 0:
			unitW = offset.scale(-1).unit() // at the centre: straight apart
		default:
			return // on top of each other, not moving: no way to tell which way
		}
		direction = unitW.turnedRight()
		u = unitW.scale(float32(reach*invDt) - wLength)
	}
	a.planes = append(a.planes, halfPlane{point: velocity.madd(u, n.Responsibility), direction: direction})
}
