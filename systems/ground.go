package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Ground handling (Settings.WalkBackToMesh, Settings.RecoverInvalidAgents).
const (
	// groundSnapDistance is how near (xz) the navmesh an agent must be to
	// stand on it [Units: world units]
	groundSnapDistance = float32(0.01)
	// wideGroundSearch is how many times wider (xz) than the placement box
	// the second search for ground near a stranded agent looks.
	wideGroundSearch = float32(4)
	// returnAimInside is how far into the polygon it walks back to, past
	// the nearest point of its edge, a returning agent aims, so that it
	// lands inside even at a corner [Units: world units]
	returnAimInside = float32(0.1)
)

// findGround returns the polygon nearest pos that filter passes, searched
// in the placement box, then in a box wideGroundSearch times as wide.
func (s *stage) findGround(q *query.Query, pos geom.Vec3, filter *query.Filter) (query.NearestPoly, bool) {
	extents := s.settings.PlacementHalfExtents
	for pass := 0; pass < 2; pass++ {
		nearest, err := q.FindNearestPoly(pos, extents, filter)
		if err == nil && nearest.Ref != 0 {
			return nearest, true
		}
		extents[0] *= wideGroundSearch
		extents[2] *= wideGroundSearch
	}
	return query.NearestPoly{}, false
}

// standsOn reports whether an agent at pos stands on the nearest polygon
// found for it: right over it, or within groundSnapDistance of it.
func standsOn(nearest query.NearestPoly, pos geom.Vec3) bool {
	return geom.Dist2DSqr(nearest.Point, pos) <= groundSnapDistance*groundSnapDistance
}

// regainGround is the PathRequest stage's answer to an agent whose first
// corridor polygon went away, with Settings.WalkBackToMesh: an agent still
// over a polygon (its tile was rebuilt around it) steps onto it; one whose
// ground was cut away keeps its place and walks to the nearest free point
// (AgentReturning, EventGroundLost); one with no ground near becomes
// AgentInvalid (EventAgentInvalid). It reports whether the agent still has a
// corridor polygon, and returns it and the corridor's position.
func (s *PathRequest) regainGround(a *agent, q *query.Query, filter *query.Filter) (navmesh.Ref, geom.Vec3, bool) {
	pos := a.position.Vec3()
	nearest, found := s.findGround(q, pos, filter)
	if !found {
		s.invalidate(a, pos)
		return 0, pos, false
	}
	a.corridor.FixPathStart(nearest.Ref, nearest.Point)
	a.boundary.Reset()
	if standsOn(nearest, pos) {
		*a.position = components.Position(nearest.Point)
		if returning(a) {
			a.state.Mode = components.AgentWalking
			a.raiseGround(components.EventGroundRegained, nearest.Ref)
		}
		return nearest.Ref, nearest.Point, true
	}
	if !returning(a) {
		a.state.Mode = components.AgentReturning
		a.raiseGround(components.EventGroundLost, nearest.Ref)
	}
	return nearest.Ref, nearest.Point, true
}

// invalidate makes the agent AgentInvalid where it stands.
func (s *PathRequest) invalidate(a *agent, pos geom.Vec3) {
	a.corridor.Reset(0, pos)
	a.state.Partial = false
	a.boundary.Reset()
	a.state.Mode = components.AgentInvalid
	if s.settings.WalkBackToMesh || s.settings.RecoverInvalidAgents {
		a.raiseGround(components.EventAgentInvalid, 0)
	}
}

// recoverInvalid looks for ground under or near an AgentInvalid agent
// (Settings.RecoverInvalidAgents): found, the agent walks again from there,
// or returns to it when it is not right under the agent
// (EventAgentRecovered), and a path it had is planned again. It reports
// whether the agent recovered.
func (s *PathRequest) recoverInvalid(a *agent, q *query.Query, filter *query.Filter) bool {
	pos := a.position.Vec3()
	nearest, found := s.findGround(q, pos, filter)
	if !found {
		return false
	}
	a.corridor.Reset(nearest.Ref, nearest.Point)
	a.boundary.Reset()
	a.velocity.Actual, a.velocity.Desired, a.velocity.Planned = geom.Vec3{}, geom.Vec3{}, geom.Vec3{}
	if standsOn(nearest, pos) || !s.settings.WalkBackToMesh {
		*a.position = components.Position(nearest.Point)
		a.state.Mode = components.AgentWalking
	} else {
		a.state.Mode = components.AgentReturning
	}
	a.raiseGround(components.EventAgentRecovered, nearest.Ref)
	return true
}

// steerBack sets a returning agent's desired velocity: at full speed
// towards a point just inside the polygon its corridor starts in, past
// the nearest free point (the corridor's position).
func (s *Steering) steerBack(a *agent, q *query.Query) {
	pos := a.position.Vec3()
	aim := a.corridor.Position()
	if tile, poly, err := q.Mesh().Snapshot().TileAndPoly(a.corridor.FirstPoly()); err == nil && poly.VertCount >= 3 {
		center := geom.PolyCenter(poly.Verts[:poly.VertCount], tile.Verts)
		inward := geom.Vec3{center[0] - aim[0], 0, center[2] - aim[2]}
		if length := geom.Len(inward); length > 1e-4 {
			aim = geom.Mad(aim, inward, min(returnAimInside, length/2)/length)
		}
	}
	direction := geom.Vec3{aim[0] - pos[0], 0, aim[2] - pos[2]}
	velocity := a.velocity
	velocity.DesiredSpeed = a.params.MaxSpeed
	if length := geom.Len(direction); length > 1e-4 {
		velocity.Desired = geom.Scale(direction, a.params.MaxSpeed/length)
	} else {
		velocity.Desired = geom.Vec3{}
	}
	a.corners.Count = 0
}

// clampReturning is the SurfaceClamp stage for a returning agent: the
// free point it walks to follows it along the edge of the navmesh (the
// corridor moves towards the agent along the surface), and once the agent
// has reached it, or stepped onto the navmesh, it walks again from there
// (EventGroundRegained). Until then it is not held to the surface.
func (s *SurfaceClamp) clampReturning(a *agent, q *query.Query, filter *query.Filter) {
	pos := a.position.Vec3()
	var err error
	if s.settings.EdgeHeightSnap {
		err = a.corridor.MovePositionToSurface(pos, q, filter)
	} else {
		err = a.corridor.MovePosition(pos, q, filter)
	}
	if err != nil {
		return // PathRequest finds new ground next tick
	}
	at := a.corridor.Position()
	if geom.Dist2DSqr(at, pos) > groundSnapDistance*groundSnapDistance {
		return
	}
	*a.position = components.Position(at)
	a.state.Mode = components.AgentWalking
	a.boundary.Reset()
	a.raiseGround(components.EventGroundRegained, a.corridor.FirstPoly())
}
