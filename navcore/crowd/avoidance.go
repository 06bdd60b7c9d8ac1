package crowd

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// floatMax is C's FLT_MAX and floatEpsilon C's FLT_EPSILON.
const (
	floatMax     = float32(math.MaxFloat32)
	floatEpsilon = float32(1.1920929e-07)
)

// ObstacleCircle is a moving circular obstacle, usually a neighbour agent
// (dtObstacleCircle). Only x and z matter for avoidance.
type ObstacleCircle struct {
	// Position is the obstacle's centre [Units: world units]
	Position geom.Vec3
	// Velocity is its current velocity [Units: world units per second]
	Velocity geom.Vec3
	// DesiredVelocity is the velocity it wants [Units: world units per second]
	DesiredVelocity geom.Vec3
	// Radius [Limit: >= 0] [Units: world units]
	Radius float32
	// Responsibility is the share of avoiding this obstacle the sampling
	// agent takes on: 0.5, the reference's reciprocal avoidance, assumes the
	// obstacle avoids back as much; 1 takes it all (an obstacle that does
	// not avoid, a neighbour with a higher priority). 0 means 0.5
	// [Limit: 0..1]
	Responsibility float32
}

// ObstacleSegment is a static wall segment, usually from the local boundary
// (dtObstacleSegment).
type ObstacleSegment struct {
	// P and Q are the segment's end points [Units: world units]
	P, Q geom.Vec3
}

// ObstacleAvoidance samples candidate velocities for one agent against the
// circles and segments added since the last Reset, and picks the one with the
// least penalty (dtObstacleAvoidanceQuery). Build one per goroutine; after
// NewObstacleAvoidance nothing allocates.
type ObstacleAvoidance struct {
	circles  []ObstacleCircle
	segments []ObstacleSegment

	// The obstacles as the sampling agent sees them, set up per sampling
	// call: what processSample reads, and nothing else.
	sampledCircles  []sampledCircle
	sampledSegments []sampledSegment

	// Per sampling call.
	params AvoidanceParams
	// reciprocal: every circle's responsibility is the reference's 1/2.
	reciprocal     bool
	invHorizonTime float32
	invMaxSpeed    float32
	cutoff         impactCutoff

	// pattern holds the adaptive sampling directions: the centre plus
	// AdaptiveDivisions per ring, at most MaxAdaptiveDivisions·MaxAdaptiveRings+1
	// entries (the reference's array can be overrun by one entry, recast #496).
	pattern [MaxAdaptiveDivisions*MaxAdaptiveRings + 1][2]float32
	// candidates holds the candidate velocities (x, z) of one pass of the
	// adaptive sampler or one row of the grid sampler.
	candidates [max(MaxAdaptiveDivisions*MaxAdaptiveRings+1, MaxGridSize)][2]float32
}

// NewObstacleAvoidance returns an avoidance query with room for maxCircles
// circles and maxSegments segments. The crowd uses 6 and 8.
//
// maxCircles, maxSegments [Limit: >= 0]
func NewObstacleAvoidance(maxCircles, maxSegments int) (*ObstacleAvoidance, error) {
	if maxCircles < 0 || maxSegments < 0 {
		return nil, fmt.Errorf("crowd: obstacle avoidance capacity (%d circles, %d segments) negative: %w",
			maxCircles, maxSegments, ErrInvalidParam)
	}
	return &ObstacleAvoidance{
		circles:         make([]ObstacleCircle, 0, maxCircles),
		segments:        make([]ObstacleSegment, 0, maxSegments),
		sampledCircles:  make([]sampledCircle, 0, maxCircles),
		sampledSegments: make([]sampledSegment, 0, maxSegments),
	}, nil
}

// Reset removes every obstacle.
func (a *ObstacleAvoidance) Reset() {
	a.circles = a.circles[:0]
	a.segments = a.segments[:0]
}

// AddCircle adds a circular obstacle. It returns an ErrCapacity error, and adds
// nothing, when the circles are full (the reference drops it silently).
func (a *ObstacleAvoidance) AddCircle(position geom.Vec3, radius float32, velocity, desiredVelocity geom.Vec3) error {
	if len(a.circles) == cap(a.circles) {
		return fmt.Errorf("crowd: obstacle avoidance: %d circles: %w", cap(a.circles), ErrCapacity)
	}
	a.circles = append(a.circles, ObstacleCircle{
		Position:        position,
		Velocity:        velocity,
		DesiredVelocity: desiredVelocity,
		Radius:          radius,
	})
	return nil
}

// AddCircleWithResponsibility adds a circular obstacle of which the
// sampling agent takes on the given share of the avoidance
// (ObstacleCircle.Responsibility; clamped to 0.05..1, 0 means 0.5). It
// returns an ErrCapacity error, and adds nothing, when the circles are
// full.
func (a *ObstacleAvoidance) AddCircleWithResponsibility(position geom.Vec3, radius float32, velocity, desiredVelocity geom.Vec3, responsibility float32) error {
	if err := a.AddCircle(position, radius, velocity, desiredVelocity); err != nil {
		return err
	}
	if !(responsibility > 0) {
		responsibility = 0.5
	}
	a.circles[len(a.circles)-1].Responsibility = max(0.05, min(1, responsibility))
	return nil
}

// AddSegment adds a wall segment from p to q. It returns an ErrCapacity error,
// and adds nothing, when the segments are full.
func (a *ObstacleAvoidance) AddSegment(p, q geom.Vec3) error {
	if len(a.segments) == cap(a.segments) {
		return fmt.Errorf("crowd: obstacle avoidance: %d segments: %w", cap(a.segments), ErrCapacity)
	}
	a.segments = append(a.segments, ObstacleSegment{P: p, Q: q})
	return nil
}

// CircleCount returns the number of circles added since Reset.
func (a *ObstacleAvoidance) CircleCount() int { return len(a.circles) }

// Circle returns circle i [Limit: 0..CircleCount()-1]; the zero
// ObstacleCircle for an i outside that range.
func (a *ObstacleAvoidance) Circle(i int) ObstacleCircle {
	if i < 0 || i >= len(a.circles) {
		return ObstacleCircle{}
	}
	return a.circles[i]
}

// SegmentCount returns the number of segments added since Reset.
func (a *ObstacleAvoidance) SegmentCount() int { return len(a.segments) }

// Segment returns segment i [Limit: 0..SegmentCount()-1]; the zero
// ObstacleSegment for an i outside that range.
func (a *ObstacleAvoidance) Segment(i int) ObstacleSegment {
	if i < 0 || i >= len(a.segments) {
		return ObstacleSegment{}
	}
	return a.segments[i]
}

// sampledCircle is a circle as one sampling call sees it: only the x and z
// terms processSample needs, those that do not depend on the candidate
// velocity worked out once per call with the reference's operations, so
// that every sample gives the same bits.
type sampledCircle struct {
	// velocityX, velocityZ: the obstacle's velocity.
	velocityX, velocityZ float32
	// directionX, directionZ: from the agent towards the obstacle (unit
	// length in 3D); normalX, normalZ: its normal towards the preferred side
	// of passage.
	directionX, directionZ, normalX, normalZ float32
	// offsetX, offsetZ: the obstacle's centre minus the agent's position.
	offsetX, offsetZ float32
	// gapSqr: offset² minus the squared sum of the radii (negative when
	// they overlap).
	gapSqr float32
	// scale and carry give the relative velocity of a candidate c for the
	// circle's responsibility w: c·scale - velocity·carry - the obstacle's,
	// with scale 1/w and carry (1-w)/w (2 and 1 for the reciprocal 1/2).
	scale, carry float32
}

// sampledSegment is a wall segment as one sampling call sees it.
type sampledSegment struct {
	// alongX, alongZ: Q - P.
	alongX, alongZ float32
	// offsetX, offsetZ: the agent's position minus P.
	offsetX, offsetZ float32
	// cross: the 2D cross product of along and offset, the numerator of
	// the ray's hit time.
	cross float32
	// touching: the agent is within 0.01 of the segment.
	touching bool
}

// prepare sets up sampledCircles and sampledSegments for an agent of the
// given radius at position, wanting desiredVelocity.
func (a *ObstacleAvoidance) prepare(position geom.Vec3, radius float32, desiredVelocity geom.Vec3) {
	a.sampledCircles = a.sampledCircles[:len(a.circles)]
	a.reciprocal = true
	for i := range a.circles {
		c := &a.circles[i]
		direction := geom.Normalize(geom.Sub(c.Position, position))
		relative := geom.Sub(c.DesiredVelocity, desiredVelocity)
		s := &a.sampledCircles[i]
		s.velocityX, s.velocityZ = c.Velocity[0], c.Velocity[2]
		s.directionX, s.directionZ = direction[0], direction[2]
		// Twice the area of (origin, direction, relative): which side the
		// obstacle's desired motion passes us on.
		if geom.TriArea2D(geom.Vec3{}, direction, relative) < 0.01 {
			s.normalX, s.normalZ = -direction[2], direction[0]
		} else {
			s.normalX, s.normalZ = direction[2], -direction[0]
		}
		s.offsetX, s.offsetZ = c.Position[0]-position[0], c.Position[2]-position[2]
		r := radius + c.Radius
		s.gapSqr = float32(s.offsetX*s.offsetX) + float32(s.offsetZ*s.offsetZ) - float32(r*r)
		s.scale, s.carry = 2, 1
		if w := c.Responsibility; w > 0 && w != 0.5 {
			s.scale, s.carry = 1/w, (1-w)/w
			a.reciprocal = false
		}
	}
	const touchRadius = float32(0.01)
	a.sampledSegments = a.sampledSegments[:len(a.segments)]
	for i := range a.segments {
		seg := &a.segments[i]
		distSqr, _ := geom.DistancePtSegSqr2D(position, seg.P, seg.Q)
		s := &a.sampledSegments[i]
		s.alongX, s.alongZ = seg.Q[0]-seg.P[0], seg.Q[2]-seg.P[2]
		s.offsetX, s.offsetZ = position[0]-seg.P[0], position[2]-seg.P[2]
		s.cross = float32(s.alongZ*s.offsetX) - float32(s.alongX*s.offsetZ)
		s.touching = distSqr < touchRadius*touchRadius
	}
}

// begin validates params and sets up the per-call state.
func (a *ObstacleAvoidance) begin(params *AvoidanceParams, position geom.Vec3, radius float32, desiredVelocity geom.Vec3, maxSpeed float32, debug *AvoidanceDebug) error {
	if params == nil {
		return fmt.Errorf("crowd: obstacle avoidance: nil params: %w", ErrInvalidParam)
	}
	if err := params.validateSampling(); err != nil {
		return err
	}
	if !(maxSpeed >= 0) || math.IsInf(float64(maxSpeed), 1) {
		return fmt.Errorf("crowd: obstacle avoidance: max speed %v not finite and >= 0: %w", maxSpeed, ErrInvalidParam)
	}
	a.prepare(position, radius, desiredVelocity)
	a.params = *params
	a.cutoff.update(params.WeightTimeOfImpact, params.HorizonTime)
	a.invHorizonTime = 1 / params.HorizonTime
	a.invMaxSpeed = floatMax
	if maxSpeed > 0 {
		a.invMaxSpeed = 1 / maxSpeed
	}
	if debug != nil {
		debug.Reset()
	}
	return nil
}

// SampleVelocityGrid picks a new velocity for an agent of the given radius
// and maximum speed at position, moving at velocity and wanting
// desiredVelocity, by scoring a GridSize × GridSize grid of candidates centred
// on desiredVelocity·VelocityBias (dtObstacleAvoidanceQuery::sampleVelocityGrid).
// It returns the best candidate (zero if none lies within maxSpeed) and the
// number of candidates scored. debug, when not nil, receives every fully
// scored sample.
//
// maxSpeed [Limit: >= 0] [Units: world units per second]
func (a *ObstacleAvoidance) SampleVelocityGrid(position geom.Vec3, radius, maxSpeed float32,
	velocity, desiredVelocity geom.Vec3, params *AvoidanceParams, debug *AvoidanceDebug,
) (newVelocity geom.Vec3, samples int, err error) {
	if err := a.begin(params, position, radius, desiredVelocity, maxSpeed, debug); err != nil {
		return geom.Vec3{}, 0, err
	}
	bias := a.params.VelocityBias
	centreX := float32(desiredVelocity[0] * bias)
	centreZ := float32(desiredVelocity[2] * bias)
	steps := float32(a.params.GridSize - 1)
	cellSize := maxSpeed * 2 * (1 - bias) / steps
	half := float32(steps * cellSize * 0.5)
	limit := maxSpeed + float32(cellSize/2)
	limitSqr := limit * limit

	minPenalty := floatMax
	for y := 0; y < a.params.GridSize; y++ {
		// One row at a time.
		n := 0
		for x := 0; x < a.params.GridSize; x++ {
			cx := centreX + float32(float32(x)*cellSize) - half
			cz := centreZ + float32(float32(y)*cellSize) - half
			if float32(cx*cx)+float32(cz*cz) > limitSqr {
				continue
			}
			a.candidates[n] = [2]float32{cx, cz}
			n++
		}
		samples += n
		if best, penalty, ok := a.scoreCandidates(a.candidates[:n], cellSize, &velocity, &desiredVelocity, minPenalty, debug); ok {
			minPenalty = penalty
			newVelocity = geom.Vec3{best[0], 0, best[1]}
		}
	}
	return newVelocity, samples, nil
}

// SampleVelocityAdaptive picks a new velocity like SampleVelocityGrid, but
// samples AdaptiveRings rings of AdaptiveDivisions candidates aligned with
// desiredVelocity, then AdaptiveDepth-1 times again around the best candidate
// at half the radius (dtObstacleAvoidanceQuery::sampleVelocityAdaptive). It
// returns the last pass's best candidate (zero if a pass found none within
// maxSpeed) and the number of candidates scored.
//
// For an even AdaptiveDivisions the reference reads an unwritten pattern entry
// instead of the ring's last direction (recast #496); we use the direction
// itself, so only odd divisions (every preset) match the reference bit for bit.
func (a *ObstacleAvoidance) SampleVelocityAdaptive(position geom.Vec3, radius, maxSpeed float32,
	velocity, desiredVelocity geom.Vec3, params *AvoidanceParams, debug *AvoidanceDebug,
) (newVelocity geom.Vec3, samples int, err error) {
	if err := a.begin(params, position, radius, desiredVelocity, maxSpeed, debug); err != nil {
		return geom.Vec3{}, 0, err
	}
	patternLen := a.buildPattern(desiredVelocity)

	radiusOfSamples := maxSpeed * (1 - a.params.VelocityBias)
	bias := a.params.VelocityBias
	resultX, resultZ := desiredVelocity[0]*bias, desiredVelocity[2]*bias
	limit := maxSpeed + 0.001
	limitSqr := limit * limit

	for k := 0; k < a.params.AdaptiveDepth; k++ {
		n := 0
		for _, dir := range a.pattern[:patternLen] {
			cx := resultX + float32(dir[0]*radiusOfSamples)
			cz := resultZ + float32(dir[1]*radiusOfSamples)
			if float32(cx*cx)+float32(cz*cz) > limitSqr {
				continue
			}
			a.candidates[n] = [2]float32{cx, cz}
			n++
		}
		samples += n
		best, _, ok := a.scoreCandidates(a.candidates[:n], radiusOfSamples/10, &velocity, &desiredVelocity, floatMax, debug)
		if !ok {
			best = [2]float32{}
		}
		resultX, resultZ = best[0], best[1]
		radiusOfSamples *= 0.5
	}
	return geom.Vec3{resultX, 0, resultZ}, samples, nil
}

// buildPattern fills a.pattern with unit-circle sample directions (x, z): the
// centre, then per ring, from the outside in, AdaptiveDivisions directions
// fanning out both ways from the desired direction (odd rings turned by half a
// division). It returns the number of entries.
func (a *ObstacleAvoidance) buildPattern(desiredVelocity geom.Vec3) int {
	divisions := a.params.AdaptiveDivisions
	rings := a.params.AdaptiveRings
	cosA, sinA, cosH, sinH := patternRotation(divisions)

	// The desired direction, and the same turned by half a division.
	dirX, dirZ := desiredVelocity[0], desiredVelocity[2]
	if d := geom.Sqrt(float32(dirX*dirX) + float32(dirZ*dirZ)); d != 0 {
		d = 1 / d
		dirX *= d
		dirZ *= d
	}
	ringStart := [2][2]float32{
		{dirX, dirZ},
		{float32(dirX*cosH) - float32(dirZ*sinH), float32(dirX*sinH) + float32(dirZ*cosH)},
	}

	p := &a.pattern
	n := 0
	p[n] = [2]float32{0, 0}
	n++
	for j := 0; j < rings; j++ {
		r := float32(rings-j) / float32(rings)
		start := ringStart[j%2]
		p[n] = [2]float32{start[0] * r, start[1] * r}
		right, left := n, n
		n++
		for i := 1; i < divisions-1; i += 2 {
			// One step clockwise on the right, one counter-clockwise on the left.
			p[n] = [2]float32{float32(p[right][0]*cosA) + float32(p[right][1]*sinA), float32(-p[right][0]*sinA) + float32(p[right][1]*cosA)}
			p[n+1] = [2]float32{float32(p[left][0]*cosA) - float32(p[left][1]*sinA), float32(p[left][0]*sinA) + float32(p[left][1]*cosA)}
			right, left = n, n+1
			n += 2
		}
		if divisions&1 == 0 {
			// The direction opposite the ring's start closes an even ring.
			p[n] = [2]float32{float32(p[left][0]*cosA) - float32(p[left][1]*sinA), float32(p[left][0]*sinA) + float32(p[left][1]*cosA)}
			n++
		}
	}
	return n
}

// scoreCandidates scores the candidate velocities in order and returns the
// first one whose penalty is the least and below minPenalty, with that
// penalty; ok is false when none is below minPenalty. sampleSize is only
// passed on to debug. The agent moves at velocity and wants desiredVelocity.
//
// A candidate is given up (as the reference's processSample returns
// minPenalty) as soon as it cannot beat the best so far. The scoring is
// written out in this one loop, scalar: Go keeps [3]float32 values in
// memory, and a call per candidate would spill every float register.
func (a *ObstacleAvoidance) scoreCandidates(candidates [][2]float32, sampleSize float32,
	velocity, desiredVelocity *geom.Vec3, minPenalty float32, debug *AvoidanceDebug,
) (best [2]float32, bestPenalty float32, ok bool) {
	p := &a.params
	vx, vz := velocity[0], velocity[2]
	dvx, dvz := desiredVelocity[0], desiredVelocity[2]
candidates:
	for _, candidate := range candidates {
		cx, cz := candidate[0], candidate[1]
		dx, dz := dvx-cx, dvz-cz
		desiredPenalty := float32(p.WeightDesiredVelocity * (geom.Sqrt(float32(dx*dx)+float32(dz*dz)) * a.invMaxSpeed))
		dx, dz = vx-cx, vz-cz
		currentPenalty := float32(p.WeightCurrentVelocity * (geom.Sqrt(float32(dx*dx)+float32(dz*dz)) * a.invMaxSpeed))

		// The time of impact below which the penalty would reach minPenalty
		// anyway: past it, stop scoring. When even no impact at all would
		// do, give up now.
		remaining := minPenalty - desiredPenalty - currentPenalty
		if a.cutoff.exits(remaining) {
			continue
		}
		threshold := (p.WeightTimeOfImpact/remaining - 0.1) * p.HorizonTime
		timeOfImpact := p.HorizonTime

		// The earliest impact decides whether the candidate is given up,
		// whatever the order the obstacles are looked at in; the side term,
		// a sum, is added up in the circles' order afterwards, only for a
		// candidate kept.
		//
		// Reciprocal velocity obstacle: each side takes half the avoidance,
		// so the relative velocity is 2·candidate - velocity - the
		// obstacle's.
		twiceX, twiceZ := float32(cx*2)-vx, float32(cz*2)-vz
		for i := range a.sampledCircles {
			c := &a.sampledCircles[i]
			rx := twiceX - c.velocityX
			rz := twiceZ - c.velocityZ
			if !a.reciprocal {
				rx, rz = c.relative(cx, cz, vx, vz)
			}
			// Sweep the agent's circle along (rx, rz) against the obstacle's
			// (sweepCircleCircle): the roots of |offset - t·r|² = (r0+r1)².
			speedSqr := float32(rx*rx) + float32(rz*rz)
			if speedSqr < 0.0001 {
				continue // not moving
			}
			b := float32(rx*c.offsetX) + float32(rz*c.offsetZ)
			d := float32(b*b) - float32(speedSqr*c.gapSqr)
			if d < 0 {
				continue // never overlapping
			}
			inv := 1 / speedSqr
			rd := geom.Sqrt(d)
			enter := (b - rd) * inv
			if enter < 0 {
				if exit := (b + rd) * inv; exit > 0 {
					// Already overlapping: avoid more the deeper the overlap.
					enter = -enter * 0.5
				}
			}
			if enter >= 0 && enter < timeOfImpact {
				timeOfImpact = enter
				if timeOfImpact < threshold {
					continue candidates
				}
			}
		}

		for i := range a.sampledSegments {
			s := &a.sampledSegments[i]
			var hitTime float32
			if s.touching {
				// Right at the wall: moving away is free, anything else hits
				// now.
				if float32(-s.alongZ*cx)+float32(s.alongX*cz) < 0 {
					continue
				}
			} else {
				// Where the ray from the agent along the candidate crosses
				// the segment (isectRaySeg), as a fraction of the candidate.
				d := float32(cz*s.alongX) - float32(cx*s.alongZ)
				if d < 1e-6 && -d < 1e-6 {
					continue // parallel
				}
				d = 1 / d
				t := s.cross * d
				if t < 0 || t > 1 {
					continue
				}
				if u := (float32(cz*s.offsetX) - float32(cx*s.offsetZ)) * d; u < 0 || u > 1 {
					continue
				}
				hitTime = t
			}
			// Walls count half as much as agents.
			hitTime *= 2
			if hitTime < timeOfImpact {
				timeOfImpact = hitTime
				if timeOfImpact < threshold {
					continue candidates
				}
			}
		}

		var side float32
		for i := range a.sampledCircles {
			c := &a.sampledCircles[i]
			rx := twiceX - c.velocityX
			rz := twiceZ - c.velocityZ
			if !a.reciprocal {
				rx, rz = c.relative(cx, cz, vx, vz)
			}
			side += clampf(minf(float32((float32(c.directionX*rx)+float32(c.directionZ*rz))*0.5)+0.5, (float32(c.normalX*rx)+float32(c.normalZ*rz))*2), 0, 1)
		}
		if n := len(a.sampledCircles); n > 0 {
			side /= float32(n)
		}
		sidePenalty := float32(p.WeightSide * side)
		impactPenalty := float32(p.WeightTimeOfImpact * (1 / (0.1 + float32(timeOfImpact*a.invHorizonTime))))
		penalty := desiredPenalty + currentPenalty + sidePenalty + impactPenalty

		if debug != nil {
			debug.add(AvoidanceSample{
				Velocity:               geom.Vec3{cx, 0, cz},
				Size:                   sampleSize,
				Penalty:                penalty,
				DesiredVelocityPenalty: desiredPenalty,
				CurrentVelocityPenalty: currentPenalty,
				SidePenalty:            sidePenalty,
				TimeOfImpactPenalty:    impactPenalty,
			})
		}
		if penalty < minPenalty {
			minPenalty = penalty
			best, bestPenalty, ok = candidate, penalty, true
		}
	}
	return best, bestPenalty, ok
}

// relative returns the velocity of candidate (cx, cz) relative to the
// circle for an agent moving at (vx, vz) that takes on the circle's share
// of the avoidance.
func (c *sampledCircle) relative(cx, cz, vx, vz float32) (rx, rz float32) {
	return float32(cx*c.scale) - float32(vx*c.carry) - c.velocityX, float32(cz*c.scale) - float32(vz*c.carry) - c.velocityZ
}

// minf and clampf follow the reference's dtMin and dtClamp exactly, NaN and
// signed-zero cases included (Go's min differs on both).
func minf(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func clampf(v, lo, hi float32) float32 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
