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
// Finally an agent with a complete corridor that came within
// Settings.ArrivalDistance (xz) of its target raises EventTargetReached,
// once per target.
//
// Unlike the reference, a position that the height query cannot place on
// its polygon (a point a rounding error outside it) is pulled onto the
// polygon, so a walking agent always ends the tick on its corridor's first
// polygon.
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
	q := s.queries[worker]
	arrivalSqr := s.settings.ArrivalDistance * s.settings.ArrivalDistance
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if !walking(a) {
			continue
		}
		filter := s.filter(a.params)
		corridor := a.corridor
		if err := corridor.MovePosition(a.position.Vec3(), q, filter); err == nil {
			pos := corridor.Position()
			if _, err := q.PolyHeight(corridor.FirstPoly(), pos); err != nil {
				// Off the polygon by a rounding error: pull it on, which
				// snaps the height too (the reference keeps the old height).
				if closest, _, err := q.ClosestPointOnPoly(corridor.FirstPoly(), pos); err == nil {
					pos = closest
				}
			}
			*a.position = components.Position(pos)
		} else {
			// The corridor's polygon went away; PathRequest recovers next tick.
			*a.position = components.Position(corridor.Position())
		}

		target := a.target
		if !target.State.HasPath() {
			corridor.Reset(corridor.FirstPoly(), a.position.Vec3())
			a.state.Partial = false
			continue
		}
		if target.State == components.TargetValid && !target.Arrived && !a.state.Partial &&
			corridor.LastPoly() == target.Ref &&
			geom.Dist2DSqr(a.position.Vec3(), target.Position) <= arrivalSqr {
			target.Arrived = true
			a.event = components.EventTargetReached
		}
	}
}
