package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// OffMeshAnimation is the last stage (the off-mesh loop of dtCrowd::update):
// an agent crossing an off-mesh connection moves from where it started to
// the connection's start during the first 15% of the crossing time, then
// along the connection, with zero velocity; when the time is up it walks
// again and raises EventOffMeshFinished.
//
// The bake's automatic links (their UserID names the kind, see
// navmesh.ParseAutoLinkUserID) are crossed along the path the bake checked
// (navmesh.LinkPath), timed as under gravity (LinkGravity): the approach to
// the start at the agent's maximum speed, then for a drop the walk out at
// that speed and the fall, for a jump the ballistic flight over the arc at
// a steady horizontal speed. Any other connection is crossed as the C++
// crosses it.
//
// Resources: optional TimeStep (1/60 s without), Events.
type OffMeshAnimation struct {
	agentFilter *generic.Filter5[components.OffMeshAnimation, components.AgentState,
		components.Position, components.Velocity, components.MoveTarget]
	timeStep generic.Resource[components.TimeStep]
	events   generic.Resource[components.Events]
}

// LinkGravity is the acceleration that times the falls and jumps of
// automatic links [Units: world units / s², metres assumed]
const LinkGravity = 9.81

// Initialize prepares the stage for world.
func (s *OffMeshAnimation) Initialize(world *ecs.World) {
	s.agentFilter = generic.NewFilter5[components.OffMeshAnimation, components.AgentState,
		components.Position, components.Velocity, components.MoveTarget]()
	s.timeStep = generic.NewResource[components.TimeStep](world)
	s.events = generic.NewResource[components.Events](world)
}

// Finalize does nothing.
func (s *OffMeshAnimation) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *OffMeshAnimation) Update(world *ecs.World) {
	dt := float32(1.0 / 60)
	if s.timeStep.Has() {
		dt = s.timeStep.Get().Dt
	}
	var events *components.Events
	if s.events.Has() {
		events = s.events.Get()
	}
	q := s.agentFilter.Query(world)
	for q.Next() {
		anim, state, position, velocity, target := q.Get()
		if !anim.Active {
			continue
		}
		anim.T += dt
		if anim.T > anim.TMax {
			anim.Active = false
			state.Mode = components.AgentWalking
			if events != nil {
				events.Add(components.Event{
					Kind:     components.EventOffMeshFinished,
					Entity:   q.Entity(),
					Position: position.Vec3(),
					Target:   target.Position,
					Poly:     anim.Poly,
				})
			}
			continue
		}
		ta := anim.TMax * 0.15
		if anim.Approach > 0 {
			ta = anim.Approach
		}
		tb := anim.TMax
		switch {
		case anim.T < ta:
			u := tween(anim.T, 0, ta)
			*position = components.Position(geom.Lerp(anim.InitPos, anim.StartPos, u))
		case anim.Kind == navmesh.LinkPlain:
			u := tween(anim.T, ta, tb)
			*position = components.Position(geom.Lerp(anim.StartPos, anim.EndPos, u))
		default:
			u := flightFraction(anim, anim.T-ta, tb-ta)
			*position = components.Position(navmesh.LinkPath(anim.Kind, anim.StartPos, anim.EndPos, anim.ArcHeight, u))
		}
		velocity.Actual = geom.Vec3{}
		velocity.Desired = geom.Vec3{}
	}
}

// timeAutoLink sets the kind, arc and timing of anim for the automatic link
// whose UserID is userID, and leaves a plain connection's C++ timing.
func timeAutoLink(anim *components.OffMeshAnimation, userID uint32, maxSpeed float32) {
	kind, arc := navmesh.ParseAutoLinkUserID(userID)
	if kind == navmesh.LinkPlain || !(maxSpeed > 0) {
		return
	}
	anim.Kind, anim.ArcHeight = kind, arc
	// A tiny approach rather than 0, which would mean the C++ share.
	anim.Approach = max(geom.Dist2D(anim.InitPos, anim.StartPos)/maxSpeed, 1e-3)
	start, end := anim.StartPos, anim.EndPos
	var flight float32
	switch kind {
	case navmesh.LinkDrop:
		flight = geom.Dist2D(start, end)/maxSpeed + fallTime(start[1]-end[1])
	case navmesh.LinkJump:
		apex := max(start[1], end[1]) + arc
		flight = fallTime(apex-start[1]) + fallTime(apex-end[1])
		// Never faster across than twice the walking speed.
		flight = max(flight, geom.Dist2D(start, end)/(2*maxSpeed))
	}
	anim.TMax = anim.Approach + max(flight, 1e-3)
}

// fallTime is the time a free fall from height takes [Units: s].
func fallTime(height float32) float32 {
	return geom.Sqrt(2 * max(height, 0) / LinkGravity)
}

// flightFraction maps the time t into a flight of length duration to the
// fraction along navmesh.LinkPath: for a drop the walk at a steady speed
// takes the first half of the path and the fall, speeding up, the second;
// a jump moves at a steady horizontal speed, which is the path's own
// parametrisation.
func flightFraction(anim *components.OffMeshAnimation, t, duration float32) float32 {
	if anim.Kind != navmesh.LinkDrop {
		return tween(t, 0, duration)
	}
	height := anim.StartPos[1] - anim.EndPos[1]
	walk := duration - fallTime(height)
	if t < walk {
		return 0.5 * tween(t, 0, walk)
	}
	if !(height > 0) {
		return 1
	}
	fall := t - walk
	fallen := 0.5 * LinkGravity * fall * fall
	return 0.5 + float32(0.5*geom.Clamp(fallen/height, 0, 1))
}

// tween maps t from [t0, t1] to [0, 1], clamped.
func tween(t, t0, t1 float32) float32 {
	return geom.Clamp((t-t0)/(t1-t0), 0, 1)
}
