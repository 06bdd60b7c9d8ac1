package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// collisionResolveFactor is the share of the overlap each push removes
// (COLLISION_RESOLVE_FACTOR).
const collisionResolveFactor = float32(0.7)

// CollisionResolve is the seventh stage (the collision loop of
// dtCrowd::update): Settings.CollisionIterations times (4 in the reference),
// every walking agent computes the average push away from the neighbours it
// overlaps, then all pushes are applied at once (Jacobi style, so the result
// does not depend on agent order or the number of workers). Agents exactly
// on top of each other part sideways to their desired velocity, in opposite
// directions by their order.
//
// With Settings.WallSafeCollisions, a push never takes an agent across a
// wall of its local boundary: the pushed position is kept on the walkable
// side of every boundary segment the agent is near, so the push goes to the
// neighbour instead of into the wall, where the reference would leave the
// agents overlapping (recastnavigation #305, #387).
//
// Resources: Queries, Filters; optional Settings, Workers.
type CollisionResolve struct {
	stage
	displaceJob, applyJob func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *CollisionResolve) Initialize(world *ecs.World) {
	s.init(world)
	s.displaceJob = s.displace
	s.applyJob = s.apply
}

// Finalize does nothing.
func (s *CollisionResolve) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *CollisionResolve) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	for iter := 0; iter < max(1, s.settings.CollisionIterations); iter++ {
		s.parallel(s.displaceJob)
		s.parallel(s.applyJob)
	}
}

// displace computes the push of agents[begin:end].
func (s *CollisionResolve) displace(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if !walking(a) {
			continue
		}
		pos := a.position
		var disp geom.Vec3
		var w float32
		for _, nb := range a.neighbours.Slice() {
			j := s.table.lookup(nb.Entity)
			if j < 0 {
				continue
			}
			other := &s.agents[j]
			diff := geom.Vec3{pos[0] - other.position[0], 0, pos[2] - other.position[2]}
			dist := geom.LenSqr(diff)
			radii := a.params.Radius + other.params.Radius
			if dist > radii*radii {
				continue
			}
			dist = geom.Sqrt(dist)
			penetration := radii - dist
			if dist < 0.0001 {
				// On top of each other: part sideways, each its own way.
				desired := a.velocity.Desired
				if i > j {
					diff = geom.Vec3{-desired[2], 0, desired[0]}
				} else {
					diff = geom.Vec3{desired[2], 0, -desired[0]}
				}
				penetration = 0.01
			} else {
				penetration = (1.0 / dist) * (penetration * 0.5) * collisionResolveFactor
			}
			disp = geom.Mad(disp, diff, penetration)
			w += 1.0
		}
		if w > 0.0001 {
			disp = geom.Scale(disp, 1.0/w)
		}
		a.state.Displacement = disp
	}
}

// apply moves agents[begin:end] by their push.
func (s *CollisionResolve) apply(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if !walking(a) {
			continue
		}
		*a.position = components.Position(geom.Add(a.position.Vec3(), a.state.Displacement))
	}
}
