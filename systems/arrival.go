package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
)

// The arrival rules of the Steering stage (Settings.ArrivalStallTime,
// BrakeFade, StopOnArrival) and of plugin.Stop.

// approachGain is how much nearer its stopping point an agent must come to
// count as getting nearer for Settings.ArrivalStallTime
// [Units: world units]
const approachGain = float32(0.01)

// jostleShare is the share of its braking distance that an agent pressed
// by others inside it must close in Settings.ArrivalStallTime to count as
// getting nearer (approachDemand).
const jostleShare = float32(0.25)

// closeShare is the share of what an unhindered agent closes of its
// distance to its stopping point in a stall time that an agent within
// jostleReach must close to count as getting nearer (approachDemand).
const closeShare = float32(0.5)

// jostleReachShare is the share of its braking distance within which
// (from its stopping point) an agent pressed by others counts as jostled
// (jostleReach): three quarters, 0.9 m for the default agent.
const jostleReachShare = float32(0.75)

// contactReach is how near two agents' bodies must be, as a share of the
// sum of their radii, for one to press against the other (the occupied
// target rule of Settings.ArrivalStallTime).
const contactReach = float32(1.1)

// halted reports whether the agent plans no velocity of its own: it is
// stopped (plugin.Stop), or it arrived short of its target
// (MoveTarget.ArrivedNear) and Settings.StopOnArrival holds. An agent that
// arrived within its arrival distance brakes on to its stopping point (see
// brakeFade).
func (s *Steering) halted(a *agent) bool {
	return a.state.Stopped ||
		(s.settings.StopOnArrival && a.target.ArrivedNear && a.target.State == components.TargetValid)
}

// halt makes the agent stand: no desired velocity, its deadlock watch
// cleared. Its desired speed stays its maximum, the radius within which
// obstacle avoidance may still step it aside.
func halt(a *agent) {
	a.velocity.Desired = geom.Vec3{}
	a.velocity.DesiredSpeed = a.params.MaxSpeed
	a.state.Progress = components.Progress{}
}

// markIdle records for each agent of agents[begin:end] whether it stands
// idle (it waits, see waiting, or is stopped), before any agent of the
// pass changes its target state: the occupied target rule reads it for
// the neighbours.
func (s *Steering) markIdle(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		s.idle[i] = walking(a) && (a.state.Stopped || waiting(a))
	}
}

// arriveNear applies Settings.ArrivalStallTime to a walking agent with a
// path, after its corners are found: it tracks how the agent closes in on
// its stopping point, along its corners, while the target is among them
// (its last), and reports
// whether the agent arrives where it stands (it then has
// EventTargetReached raised and MoveTarget.Arrived and ArrivedNear set).
func (s *Steering) arriveNear(a *agent) bool {
	stallTime := s.settings.ArrivalStallTime
	if !(stallTime > 0) {
		return false
	}
	target := a.target
	approach := &target.Approach
	corners := a.corners
	if target.State != components.TargetValid || target.Arrived || a.state.Partial ||
		a.corridor.LastPoly() != target.Ref || corners.Count == 0 ||
		corners.Points[corners.Count-1].Flags&query.StraightPathEnd == 0 {
		*approach = components.Approach{}
		return false
	}
	pos := a.position.Vec3()
	remaining := max(0, toTarget(pos, target.Position, corners)-a.params.StoppingDistance)
	pressed := remaining < jostleReach(a.params) && s.pressed(a)
	gain := approachDemand(a.params, approach.Nearest, approach.Pressed || pressed, stallTime)
	if !approach.Tracking || remaining < approach.Nearest-gain {
		*approach = components.Approach{Tracking: true, Nearest: remaining, Pressed: pressed}
		return false
	}
	approach.Pressed = approach.Pressed || pressed
	approach.Stalled += s.dt
	if approach.Stalled < stallTime {
		return false
	}
	if remaining > s.settings.ArrivalTolerance && !s.occupied(a, remaining+a.params.StoppingDistance) {
		return false
	}
	s.arrive(a, remaining)
	return true
}

// arrive makes agent a arrive where it stands, remaining short of its
// stopping point: EventTargetReached, MoveTarget.Arrived, and ArrivedNear
// when that is beyond its arrival distance.
func (s *Steering) arrive(a *agent, remaining float32) {
	target := a.target
	target.Arrived = true
	target.ArrivedNear = remaining+a.params.StoppingDistance > arrivalDistance(a, &s.settings)
	a.event = components.EventTargetReached
}

// approachDemand is how much nearer than nearest (its stopping point) an
// agent must come to count as getting nearer (see
// Settings.ArrivalStallTime): approachGain, less for a slow agent; within
// jostleReach, closeShare of the share of nearest an unhindered agent
// closes at least in stallTime (one that creeps in, held off by
// neighbours it does not touch, stalls and arrives); and,
// when another agent's body pressed it within jostleReach of its stopping
// point (jostled), jostleShare of its braking distance (less for a slow
// agent), a walking pace: a jostled agent shoved round its target, that
// now and then gets a centimetre nearer, or one that slides in along the
// bodies of the agents standing there, stalls by it and arrives within a
// few stall times. An agent braking unhindered is never pressed and never
// asked it; walkers pressed on their way, and agents pressed in the outer
// quarter of their braking distance, are asked no more than a centimetre,
// so the rule adds no arrivals far from the target. (Asked the walking
// pace in the whole braking distance, the crowd of the long obstacle test,
// plugin.TestRandomObstaclesOnLevels, ended dungeon with 9 agents stuck
// where it ends with 5 without the rule.)
func approachDemand(params *components.AgentParams, nearest float32, pressed bool, stallTime float32) float32 {
	reach := params.MaxSpeed * stallTime // how far it walks in stallTime
	gain := min(approachGain, 0.1*reach)
	if nearest < jostleReach(params) {
		if pressed {
			gain = max(gain, min(jostleShare*brakingDistance(params), 0.25*reach))
		}
		// An unhindered agent closes all but e^-k of its distance in
		// stallTime, at least k/(1+k) of it.
		k := reach / brakingDistance(params)
		gain = max(gain, closeShare*nearest*(k/(1+k)))
	}
	return gain
}

// jostleReach is how near its stopping point an agent pressed by others
// must be to count as jostled (approachDemand): jostleReachShare of its
// braking distance [Units: world units].
func jostleReach(params *components.AgentParams) float32 {
	return jostleReachShare * brakingDistance(params)
}

// brakingDistance is the distance before its stopping point at which the
// agent starts to brake: AgentParams.BrakingDistance, or twice its radius
// when that is 0 (as speedScale).
func brakingDistance(params *components.AgentParams) float32 {
	if params.BrakingDistance > 0 {
		return params.BrakingDistance
	}
	return params.Radius * 2
}

// pressed reports whether another agent's body touches agent a's (their
// centres within contactReach times the sum of the radii).
func (s *Steering) pressed(a *agent) bool {
	pos := a.position.Vec3()
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 {
			continue
		}
		other := &s.agents[j]
		reach := (a.params.Radius + other.params.Radius) * contactReach
		if geom.Dist2DSqr(pos, other.position.Vec3()) <= reach*reach {
			return true
		}
	}
	return false
}

// toTarget is how far (xz) an agent at pos walks to target round its
// corners, the last of which is the target: straight there when it is the
// next corner. An agent held short of a corner by agents standing there
// (their own targets round it) stalls as one held short of its target.
func toTarget(pos, target geom.Vec3, corners *components.Corners) float32 {
	from, length := pos, float32(0)
	for i := range corners.Count - 1 {
		length += geom.Dist2D(from, corners.Points[i].Pos)
		from = corners.Points[i].Pos
	}
	return length + geom.Dist2D(from, target)
}

// occupied reports whether agent a, distance from its target (xz), presses
// against an idle neighbour that stands nearer the target, within its
// CollisionQueryRange of the target.
func (s *Steering) occupied(a *agent, distance float32) bool {
	if distance > a.params.CollisionQueryRange {
		return false
	}
	pos := a.position.Vec3()
	target := a.target.Position
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 || !s.idle[j] {
			continue
		}
		other := &s.agents[j]
		reach := (a.params.Radius + other.params.Radius) * contactReach
		if geom.Dist2DSqr(pos, other.position.Vec3()) <= reach*reach &&
			geom.Dist2D(other.position.Vec3(), target) < distance {
			return true
		}
	}
	return false
}

// brakeFade is the share of separation an agent keeps: with
// Settings.StopOnArrival none once it arrived (it brakes on to its stopping
// point), else fadeShare.
func (s *Steering) brakeFade(a *agent) float32 {
	if s.settings.StopOnArrival && a.target.Arrived && a.target.State == components.TargetValid {
		return 0
	}
	return fadeShare(a, &s.settings)
}

// fadeShare is the share of separation and of avoidance's change of
// velocity an agent keeps with Settings.BrakeFade: its braking speed share
// (speedScale) while it walks to a target it has not arrived at, 1
// otherwise.
func fadeShare(a *agent, settings *components.Settings) float32 {
	if !settings.BrakeFade || a.target.State != components.TargetValid || a.target.Arrived {
		return 1
	}
	return min(1, speedScale(a))
}

// growBools returns b resized to n, its contents undefined.
func growBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n, n+n/4)
	}
	return b[:n]
}
