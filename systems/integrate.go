package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Integrate is the sixth stage (dtCrowd's integrate): each walking (or
// returning) agent's
// velocity moves towards the planned one by at most MaxAcceleration·dt, and
// its position moves by velocity·dt; a velocity slower than 0.0001 becomes
// zero.
//
// Resources: optional TimeStep (1/60 s without).
type Integrate struct {
	filter   *generic.Filter4[components.AgentParams, components.AgentState, components.Velocity, components.Position]
	timeStep generic.Resource[components.TimeStep]
}

// Initialize prepares the stage for world.
func (s *Integrate) Initialize(world *ecs.World) {
	s.filter = generic.NewFilter4[components.AgentParams, components.AgentState, components.Velocity, components.Position]()
	s.timeStep = generic.NewResource[components.TimeStep](world)
}

// Finalize does nothing.
func (s *Integrate) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *Integrate) Update(world *ecs.World) {
	dt := float32(1.0 / 60)
	if s.timeStep.Has() {
		dt = s.timeStep.Get().Dt
	}
	q := s.filter.Query(world)
	for q.Next() {
		params, state, velocity, position := q.Get()
		if state.Mode != components.AgentWalking && state.Mode != components.AgentReturning {
			continue
		}
		integrate(params, velocity, position, dt)
	}
}

func integrate(params *components.AgentParams, velocity *components.Velocity, position *components.Position, dt float32) {
	maxDelta := params.MaxAcceleration * dt
	dv := geom.Sub(velocity.Planned, velocity.Actual)
	ds := geom.Len(dv)
	if ds > maxDelta {
		dv = geom.Scale(dv, maxDelta/ds)
	}
	velocity.Actual = geom.Add(velocity.Actual, dv)
	if geom.Len(velocity.Actual) > 0.0001 {
		*position = components.Position(geom.Mad(position.Vec3(), velocity.Actual, dt))
	} else {
		velocity.Actual = geom.Vec3{}
	}
}
