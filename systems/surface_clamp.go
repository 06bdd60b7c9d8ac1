package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// SurfaceClamp is the eighth stage (the "move along navmesh" loop of
// dtCrowd::update): each walking agent's corridor moves from its last
// position towards the new one along the navmesh surface, sliding along
// walls, and the agent takes the corridor's position, its height snapped to
// the detail surface. An agent without a path keeps a one-polygon corridor.
// With Settings.EdgeHeightSnap, an agent that ends on a polygon edge (it
// slides along a wall) gets the height of the surface there; the reference
// keeps its old height, which drifts off a sloped floor tick after tick.
// Finally an agent with a complete corridor that came within its
// AgentParams.StoppingDistance plus Settings.ArrivalDistance (xz) of its
// target raises EventTargetReached, once per target. A returning agent
// (components.AgentReturning) is not held to the surface: the free point
// it walks to follows it along the navmesh's edge, and it walks again once
// it reaches it or steps onto the navmesh (EventGroundRegained).
//
// Resources: Queries, Filters; optional Settings, Events, Workers.
type SurfaceClamp struct {
	stage
	job func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *SurfaceClamp) Initialize(world *ecs.World) {
	s.init(world)
	s.job = s.clampAgents
}

// Finalize does nothing.
func (s *SurfaceClamp) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *SurfaceClamp) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	s.parallel(s.job)
	s.emitPending()
}

func (s *SurfaceClamp) clampAgents(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		q := s.query(worker, a.params)
		if returning(a) {
			s.clampReturning(a, q, s.filter(a.params))
			continue
		}
		if !walking(a) {
			continue
		}
		filter := s.filter(a.params)
		corridor := a.corridor
		// The move snaps the height to the polygon's detail surface; when it
		// fails (the polygon went away) the agent stays where the corridor
		// is and PathRequest recovers it next tick.
		switch {
		case s.settings.NoSurfaceJumps:
			_ = corridor.MovePositionNoFarther(a.position.Vec3(), q, filter, s.settings.EdgeHeightSnap)
		case s.settings.EdgeHeightSnap:
			_ = corridor.MovePositionToSurface(a.position.Vec3(), q, filter)
		default:
			_ = corridor.MovePosition(a.position.Vec3(), q, filter)
		}
		*a.position = components.Position(corridor.Position())

		target := a.target
		if !target.State.HasPath() {
			corridor.Reset(corridor.FirstPoly(), a.position.Vec3())
			a.state.Partial = false
			continue
		}
		arrival := arrivalDistance(a, &s.settings)
		if target.State == components.TargetValid && !target.Arrived && !a.state.Partial &&
			corridor.LastPoly() == target.Ref &&
			geom.Dist2DSqr(a.position.Vec3(), target.Position) <= arrival*arrival {
			target.Arrived = true
			a.event = components.EventTargetReached
		}
	}
}
