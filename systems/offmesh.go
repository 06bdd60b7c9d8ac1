package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// OffMeshAnimation is the last stage (the off-mesh loop of dtCrowd::update):
// an agent crossing an off-mesh connection moves from where it started to
// the connection's start during the first 15% of the crossing time, then
// along the connection, with zero velocity; when the time is up it walks
// again and raises EventOffMeshFinished.
//
// Resources: optional TimeStep (1/60 s without), Events.
type OffMeshAnimation struct {
	agentFilter *generic.Filter5[components.OffMeshAnimation, components.AgentState,
		components.Position, components.Velocity, components.MoveTarget]
	timeStep generic.Resource[components.TimeStep]
	events   generic.Resource[components.Events]
}

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
		tb := anim.TMax
		if anim.T < ta {
			u := tween(anim.T, 0, ta)
			*position = components.Position(geom.Lerp(anim.InitPos, anim.StartPos, u))
		} else {
			u := tween(anim.T, ta, tb)
			*position = components.Position(geom.Lerp(anim.StartPos, anim.EndPos, u))
		}
		velocity.Actual = geom.Vec3{}
		velocity.Desired = geom.Vec3{}
	}
}

// tween maps t from [t0, t1] to [0, 1], clamped.
func tween(t, t0, t1 float32) float32 {
	return geom.Clamp((t-t0)/(t1-t0), 0, 1)
}
