package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
)

// Deadlock breaker tuning.
const (
	// progressSampleTime is the time between two progress samples
	// [Units: s]; an agent's progress is judged over
	// components.ProgressSamples of them (1.5 s).
	progressSampleTime = float32(0.5)
	// progressRadii is the least distance, in agent radii, an agent with a
	// path must cover over the samples not to count as stuck.
	progressRadii = float32(0.75)
	// detourDuration is how long a stuck agent is nudged [Units: s]
	detourDuration = float32(1.0)
	// detourSideWeight is the sideways share of a nudged agent's desired
	// velocity.
	detourSideWeight = float32(0.5)
)

// breakDeadlock watches the progress of an agent that follows a path and
// nudges it when it makes none, so that agents do not stay deadlocked
// against each other or against a wall where the reference leaves them
// (recastnavigation #295, #387).
//
// Every half second the agent's position is sampled; an agent that has not
// arrived and moved less than 0.75 radii (or half its remaining distance,
// near the target) over the last 1.5 s is stuck, whether it stood still or
// went to and fro (avoidance flicker).
// It then gets, for the next second, a desired velocity turned aside, away
// from the walls near it (in the open: to its right first, then to its left
// at the next detour, and so on, so that two agents blocking each other
// head-on both step to their right), and
// VelocitySampling lets it push through instead of sampling the slow,
// cautious velocities that kept it in place; the collision pass moves the
// agents in its way aside.
func (s *Steering) breakDeadlock(a *agent, desired geom.Vec3) geom.Vec3 {
	progress := &a.state.Progress
	pos := a.position.Vec3()
	target := a.target
	// The corridor's end: the target, or the nearest reachable point to it.
	remaining := geom.Dist2D(pos, a.corridor.Target())
	if target.State != components.TargetValid || target.Arrived || remaining <= arrivalDistance(a, &s.settings) {
		*progress = components.Progress{}
		return desired
	}

	progress.Elapsed += s.dt
	if progress.Elapsed >= progressSampleTime || progress.TrailCount == 0 {
		progress.Elapsed = 0
		if progress.TrailCount == components.ProgressSamples {
			oldest := progress.Trail[components.ProgressSamples-1]
			// Near the target the agent slows down: expect half the way.
			minMove := min(a.params.Radius*progressRadii, remaining*0.5)
			if geom.Dist2DSqr(pos, oldest) < minMove*minMove {
				if progress.DetourTime <= 0 {
					progress.Detours++
					progress.DetourTime = detourDuration
					progress.Side = detourSide(a, desired, progress.Detours)
				}
			} else {
				progress.Detours = 0
			}
		}
		copy(progress.Trail[1:], progress.Trail[:components.ProgressSamples-1])
		progress.Trail[0] = pos
		progress.TrailCount = min(progress.TrailCount+1, components.ProgressSamples)
	}

	if progress.DetourTime <= 0 {
		return desired
	}
	progress.DetourTime -= s.dt
	speed := geom.Len(desired)
	if speed < 0.0001 {
		return desired
	}
	// Right of the direction of travel, seen from above (y up).
	side := geom.Vec3{-desired[2] * progress.Side, 0, desired[0] * progress.Side}
	turned := geom.Mad(geom.Scale(desired, 1-detourSideWeight), side, detourSideWeight)
	if l := geom.Len(turned); l > 0.0001 {
		turned = geom.Scale(turned, speed/l)
	}
	return turned
}

// detourSide picks the side of a detour: away from the walls near the
// agent when they lie on one side of its way, otherwise right on the first
// detour and alternating after.
func detourSide(a *agent, desired geom.Vec3, detours uint8) float32 {
	// Right of the direction of travel, seen from above (y up).
	rightX, rightZ := -desired[2], desired[0]
	pos := a.position.Vec3()
	var away float32
	for _, seg := range a.boundary.Segments() {
		distSqr, t := geom.DistancePtSegSqr2D(pos, seg.P, seg.Q)
		if distSqr > detourWallRange*detourWallRange {
			continue
		}
		// From the wall's nearest point to the agent.
		nearest := geom.Lerp(seg.P, seg.Q, t)
		dx, dz := pos[0]-nearest[0], pos[2]-nearest[2]
		away += (float32(dx*rightX) + float32(dz*rightZ)) / (geom.Sqrt(distSqr) + 0.1)
	}
	switch {
	case away > 0.01:
		return 1
	case away < -0.01:
		return -1
	case detours%2 == 0:
		return -1
	}
	return 1
}

// detourWallRange is how near walls must be to steer a detour's side
// [Units: world units]
const detourWallRange = float32(2.0)

// detouring reports whether the deadlock breaker is nudging the agent.
func detouring(a *agent) bool { return a.state.Progress.DetourTime > 0 }
