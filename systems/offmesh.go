package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// OffMeshAnimation is the last stage (the off-mesh loop of dtCrowd::update):
// an agent crossing an off-mesh connection moves from where it started to
// the connection's start during the first 15% of the crossing time, then
// along the connection, with zero velocity; when the time is up it walks
// again and raises EventOffMeshFinished.
//
// Resources: Queries, Filters; optional TimeStep, Events.
type OffMeshAnimation struct {
	stage
}

// Initialize prepares the stage for world.
func (s *OffMeshAnimation) Initialize(world *ecs.World) { s.init(world) }

// Finalize does nothing.
func (s *OffMeshAnimation) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *OffMeshAnimation) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	for i := range s.agents {
		a := &s.agents[i]
		anim := a.animation
		if !anim.Active {
			continue
		}
		anim.T += s.dt
		if anim.T > anim.TMax {
			anim.Active = false
			a.state.Mode = components.AgentWalking
			s.emit(components.EventOffMeshFinished, a)
			continue
		}
		ta := anim.TMax * 0.15
		tb := anim.TMax
		if anim.T < ta {
			u := tween(anim.T, 0, ta)
			*a.position = components.Position(geom.Lerp(anim.InitPos, anim.StartPos, u))
		} else {
			u := tween(anim.T, ta, tb)
			*a.position = components.Position(geom.Lerp(anim.StartPos, anim.EndPos, u))
		}
		a.velocity.Actual = geom.Vec3{}
		a.velocity.Desired = geom.Vec3{}
	}
}

// tween maps t from [t0, t1] to [0, 1], clamped.
func tween(t, t0, t1 float32) float32 {
	return geom.Clamp((t-t0)/(t1-t0), 0, 1)
}
