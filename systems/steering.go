package systems

import (
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
)

// offMeshTriggerRadius is how many agent radii from an off-mesh
// connection's start an agent begins to cross it.
const offMeshTriggerRadius = float32(2.25)

// Steering is the fourth stage (the corner, off-mesh and steering loops of
// dtCrowd::update). For each walking agent with a path it finds the next
// corners of its corridor (with Settings.CornerRefreshDistance searched
// again only once the agent has walked that far, its corridor changed or
// its first corner is near), shortcuts the corridor towards the corner after
// next when it is in sight (OptimizeVisibility; with
// Settings.VisibilityRayDistance the ray is cast again only once the agent
// has walked that far or the corner changed), and starts crossing an
// off-mesh connection whose start is within 2.25 radii (EventOffMeshStarted).
// Then it sets the desired velocity: towards the next corner, or smoothly
// towards the one after (AnticipateTurns), slowing down within two radii of
// the target; or the requested velocity. With Separation, the neighbours
// the agent avoids (AgentParams.Avoids: in its avoidance mask, of no lower
// priority) push the desired velocity away in proportion to
// SeparationWeight. Near the end of a path the agent slows down over its
// BrakingDistance (two radii by default) to stand still at its
// StoppingDistance from the target (the target itself by default).
//
// Arrival (see arrival.go): with Settings.BrakeFade the separation push
// (and, in VelocitySampling, avoidance's change of velocity) fades with the
// braking, so that neither holds an agent short of its target; with
// Settings.ArrivalStallTime an agent walking straight at its target that
// comes no nearer for that long arrives where it stands (EventTargetReached
// with MoveTarget.ArrivedNear) when within Settings.ArrivalTolerance or
// pressed against idle agents nearer the target; with
// Settings.StopOnArrival an agent that arrived separates no more, and one
// that arrived short stands. A stopped agent (AgentState.Stopped) plans no
// velocity and triggers no off-mesh connection.
//
// When Settings.DeadlockBreaker is on, an agent with a path that has not
// moved half a radius in a second is nudged sideways for a while (see
// breakDeadlock), which the reference lacks (recastnavigation #295, #387).
//
// Resources: Queries, Filters; optional Settings, TimeStep, Events, Workers.
type Steering struct {
	stage
	job func(worker, begin, end int)
	// visibilityRay is Settings.VisibilityRayDistance and cornerRefresh
	// Settings.CornerRefreshDistance, each 0 when not valid.
	visibilityRay, cornerRefresh float32
	// idle tells, per agent of the Update, whether it stood idle before
	// the pass (markIdle).
	idle    []bool
	markJob func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *Steering) Initialize(world *ecs.World) {
	s.init(world)
	s.job = s.steerAgents
	s.markJob = s.markIdle
}

// Finalize does nothing.
func (s *Steering) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *Steering) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	s.visibilityRay = validDistance(s.settings.VisibilityRayDistance)
	s.cornerRefresh = validDistance(s.settings.CornerRefreshDistance)
	if s.settings.ArrivalStallTime > 0 {
		s.idle = growBools(s.idle, len(s.agents))
		s.parallel(s.markJob)
	}
	s.parallel(s.job)
	s.emitPending()
}

// validDistance returns d when it is a positive finite distance, else 0.
func validDistance(d float32) float32 {
	if !(d > 0) || math.IsInf(float64(d), 1) {
		return 0
	}
	return d
}

func (s *Steering) steerAgents(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		q := s.query(worker, a.params)
		if returning(a) {
			s.steerBack(a, q)
			continue
		}
		if !walking(a) || a.target.State == components.TargetNone {
			continue
		}
		halted := s.halted(a)
		if a.target.State != components.TargetVelocity {
			s.findCorners(a, q)
			if !halted && s.triggerOffMesh(a, q) {
				continue
			}
			halted = halted || s.arriveNear(a)
		}
		if halted {
			halt(a)
			continue
		}
		s.steer(a)
	}
}

// findCorners updates the agent's corners and shortcuts its corridor.
func (s *Steering) findCorners(a *agent, q *query.Query) {
	corners := a.corners
	n, err := a.corridor.FindCornersAfter(q, corners.Points[:], s.cornerRefresh)
	if err != nil {
		n = 0
	}
	corners.Count = n
	if a.params.UpdateFlags.Has(components.OptimizeVisibility) && n > 0 && !a.state.Stopped {
		target := corners.Points[min(1, n-1)].Pos
		_ = a.corridor.OptimizePathVisibilityAfter(target, a.params.PathOptimizationRange, s.visibilityRay, q, s.filter(a.params))
	}
}

// triggerOffMesh starts the crossing of an off-mesh connection the agent has
// come near, and reports whether it did.
func (s *Steering) triggerOffMesh(a *agent, q *query.Query) bool {
	corners := a.corners
	if corners.Count == 0 {
		return false
	}
	last := &corners.Points[corners.Count-1]
	if last.Flags&query.StraightPathOffMeshConnection == 0 {
		return false
	}
	if last.Ref.TileIndex() >= uint32(q.Mesh().MaxTiles()) {
		return false // a runtime link: the LinkTraversal stage lets agents on
	}
	radius := a.params.Radius * offMeshTriggerRadius
	if geom.Dist2DSqr(a.position.Vec3(), last.Pos) >= radius*radius {
		return false
	}
	refs, start, end, err := a.corridor.MoveOverOffMeshConnection(last.Ref, q)
	if err != nil {
		// PathRequest replans a corridor whose connection went away.
		return false
	}
	*a.animation = components.OffMeshAnimation{
		Active:   true,
		InitPos:  a.position.Vec3(),
		StartPos: start,
		EndPos:   end,
		Poly:     refs[1],
		TMax:     (geom.Dist2D(start, end) / a.params.MaxSpeed) * 0.5,
	}
	if con, err := q.Mesh().OffMeshConnectionByRef(refs[1]); err == nil {
		timeAutoLink(a.animation, con.UserID, a.params.MaxSpeed)
	}
	a.state.Mode = components.AgentOffMesh
	corners.Count = 0
	a.neighbours.Count = 0
	a.event = components.EventOffMeshStarted
	return true
}

// steer sets the agent's desired velocity.
func (s *Steering) steer(a *agent) {
	var desired geom.Vec3
	velocity := a.velocity
	if a.target.State == components.TargetVelocity {
		desired = a.target.Velocity
		velocity.DesiredSpeed = geom.Len(a.target.Velocity)
	} else {
		if a.params.UpdateFlags.Has(components.AnticipateTurns) {
			desired = smoothSteerDirection(a)
		} else {
			desired = straightSteerDirection(a)
		}
		// Slow down near the end of the path.
		velocity.DesiredSpeed = a.params.MaxSpeed
		desired = geom.Scale(desired, velocity.DesiredSpeed*speedScale(a))
	}

	if a.params.UpdateFlags.Has(components.Separation) {
		desired = s.separate(a, desired, s.brakeFade(a))
	}
	if s.settings.DeadlockBreaker {
		desired = s.breakDeadlock(a, desired)
	}
	velocity.Desired = desired
}

// separate adds the push away from the neighbours, scaled by fade (1 in
// the reference, see Settings.BrakeFade), to the desired velocity, keeping
// its speed.
func (s *Steering) separate(a *agent, desired geom.Vec3, fade float32) geom.Vec3 {
	separationDist := a.params.CollisionQueryRange
	invSeparationDist := 1.0 / separationDist
	weight := a.params.SeparationWeight
	pos := a.position

	var w float32
	var disp geom.Vec3
	for _, nb := range a.neighbours.Slice() {
		j := s.table.lookup(nb.Entity)
		if j < 0 || !a.params.Avoids(s.agents[j].params) {
			continue
		}
		other := s.agents[j].position
		diff := geom.Vec3{pos[0] - other[0], 0, pos[2] - other[2]}
		distSqr := geom.LenSqr(diff)
		if distSqr < 0.00001 || distSqr > separationDist*separationDist {
			continue
		}
		dist := geom.Sqrt(distSqr)
		scaled := dist * invSeparationDist
		pushWeight := weight * (1.0 - float32(scaled*scaled))
		disp = geom.Mad(disp, diff, pushWeight/dist)
		w += 1.0
	}
	if w > 0.0001 {
		desired = geom.Mad(desired, disp, fade/w)
		// Keep the desired speed (the reference scales by the squared ratio).
		speedSqr := geom.LenSqr(desired)
		desiredSqr := a.velocity.DesiredSpeed * a.velocity.DesiredSpeed
		if speedSqr > desiredSqr {
			desired = geom.Scale(desired, desiredSqr/speedSqr)
		}
	}
	return desired
}

// smoothSteerDirection aims between the next corner and the one after, so
// that the agent cuts turns (calcSmoothSteerDirection).
func smoothSteerDirection(a *agent) geom.Vec3 {
	corners := a.corners
	if corners.Count == 0 {
		return geom.Vec3{}
	}
	pos := a.position
	p0 := corners.Points[0].Pos
	p1 := corners.Points[min(1, corners.Count-1)].Pos
	dir0 := geom.Vec3{p0[0] - pos[0], 0, p0[2] - pos[2]}
	dir1 := geom.Vec3{p1[0] - pos[0], 0, p1[2] - pos[2]}
	len0 := geom.Len(dir0)
	len1 := geom.Len(dir1)
	if len1 > 0.001 {
		dir1 = geom.Scale(dir1, 1.0/len1)
	}
	dir := geom.Vec3{
		dir0[0] - float32(dir1[0]*len0*0.5),
		0,
		dir0[2] - float32(dir1[2]*len0*0.5),
	}
	return geom.Normalize(dir)
}

// straightSteerDirection aims straight at the next corner
// (calcStraightSteerDirection).
func straightSteerDirection(a *agent) geom.Vec3 {
	corners := a.corners
	if corners.Count == 0 {
		return geom.Vec3{}
	}
	pos := a.position
	p0 := corners.Points[0].Pos
	return geom.Normalize(geom.Vec3{p0[0] - pos[0], 0, p0[2] - pos[2]})
}

// speedScale is the share of its speed an agent walks with near the end of
// its path: 1 until its braking distance (two radii by default) before its
// stopping point, then falling to 0 there (AgentParams.StoppingDistance
// before the target, the target itself by default).
func speedScale(a *agent) float32 {
	braking := a.params.BrakingDistance
	if braking <= 0 {
		braking = a.params.Radius * 2
	}
	stop := a.params.StoppingDistance
	if stop <= 0 {
		return distanceToGoal(a, braking) / braking
	}
	return max(0, distanceToGoal(a, braking+stop)-stop) / braking
}

// distanceToGoal returns the xz distance to the target when it is among
// the corners, capped at limit, and limit otherwise (getDistanceToGoal).
func distanceToGoal(a *agent, limit float32) float32 {
	corners := a.corners
	if corners.Count == 0 {
		return limit
	}
	last := &corners.Points[corners.Count-1]
	if last.Flags&query.StraightPathEnd == 0 {
		return limit
	}
	return min(geom.Dist2D(a.position.Vec3(), last.Pos), limit)
}
