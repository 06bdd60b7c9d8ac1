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
// Resources: Queries, Filters; optional Settings, Workers.
type CollisionResolve struct {
	stage

	// Per Update, indexed like the agent table: positions before and after
	// the current pass, radii, and neighbours as table indices (-1: none).
	positions, next []geom.Vec3
	radii           []float32
	neighbours      [][components.MaxNeighbours]int32

	prepareJob, displaceJob func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *CollisionResolve) Initialize(world *ecs.World) {
	s.init(world)
	s.prepareJob = s.prepare
	s.displaceJob = s.displace
}

// Finalize does nothing.
func (s *CollisionResolve) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *CollisionResolve) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	n := len(s.agents)
	if cap(s.positions) < n {
		s.positions = make([]geom.Vec3, n, n+n/2)
		s.next = make([]geom.Vec3, n, n+n/2)
		s.radii = make([]float32, n, n+n/2)
		s.neighbours = make([][components.MaxNeighbours]int32, n, n+n/2)
	}
	s.positions, s.next = s.positions[:n], s.next[:n]
	s.radii, s.neighbours = s.radii[:n], s.neighbours[:n]

	s.parallel(s.prepareJob)
	for iter := 0; iter < max(1, s.settings.CollisionIterations); iter++ {
		s.parallel(s.displaceJob)
		s.positions, s.next = s.next, s.positions
	}
	for i := range s.agents {
		if a := &s.agents[i]; walking(a) {
			*a.position = components.Position(s.positions[i])
		}
	}
}

// prepare copies the positions and radii of agents[begin:end] and resolves
// their neighbours to table indices.
func (s *CollisionResolve) prepare(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		s.positions[i] = a.position.Vec3()
		s.radii[i] = a.params.Radius
		list := &s.neighbours[i]
		count := 0
		if walking(a) {
			for _, nb := range a.neighbours.Slice() {
				if j := s.table.lookup(nb.Entity); j >= 0 {
					list[count] = int32(j)
					count++
				}
			}
		}
		for k := count; k < len(list); k++ {
			list[k] = -1
		}
	}
}

// displace computes the pushed positions of agents[begin:end] from the
// positions of the pass before.
func (s *CollisionResolve) displace(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		pos := s.positions[i]
		if !walking(a) {
			s.next[i] = pos
			continue
		}
		radius := s.radii[i]
		var disp geom.Vec3
		var w float32
		for _, j := range s.neighbours[i] {
			if j < 0 {
				break
			}
			other := &s.positions[j]
			diff := geom.Vec3{pos[0] - other[0], 0, pos[2] - other[2]}
			dist := geom.LenSqr(diff)
			radii := radius + s.radii[j]
			if dist > radii*radii {
				continue
			}
			dist = geom.Sqrt(dist)
			penetration := radii - dist
			if dist < 0.0001 {
				// On top of each other: part sideways, each its own way.
				desired := a.velocity.Desired
				if i > int(j) {
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
		s.next[i] = geom.Add(pos, disp)
	}
}
