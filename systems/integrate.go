package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// Integrate is the sixth stage (dtCrowd's integrate): each walking (or
// returning) agent's velocity moves towards the planned one by at most
// MaxAcceleration·dt, and its position moves by velocity·dt; a velocity
// slower than 0.0001 becomes zero. Agents are independent here, so the
// stage runs on the workers.
//
// Resources: optional TimeStep (1/60 s without), optional Workers.
type Integrate struct {
	stage
	job func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *Integrate) Initialize(world *ecs.World) {
	s.init(world)
	s.job = s.integrateAgents
}

// Finalize does nothing.
func (s *Integrate) Finalize(world *ecs.World) {}

// Update runs the stage. Unlike the other stages it needs no query and no
// filter, so it runs without the Queries and Filters resources.
func (s *Integrate) Update(world *ecs.World) {
	s.beginStepAndWorkers()
	s.listAgents(world)
	s.workers.run(s.workers.Count(), len(s.agents), s.job)
}

// integrateAgents integrates agents[begin:end].
func (s *Integrate) integrateAgents(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if mode := a.state.Mode; mode == components.AgentWalking || mode == components.AgentReturning {
			integrate(a.params, a.velocity, a.position, s.dt)
		}
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
