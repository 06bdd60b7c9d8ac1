package systems

import (
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// maxNeighbourCandidates is how many agents the proximity grid returns per
// agent before the nearest MaxNeighbours are kept (MAX_NEIS).
const maxNeighbourCandidates = 32

// BoundaryUpdate is the third stage (the middle of dtCrowd::update): it puts
// every agent into the proximity grid, then, for each walking agent,
// gathers the wall segments within its collision query range again when it
// has moved a quarter of that range or the walls' polygons changed, and
// lists its nearest neighbours: other agents within the range whose
// vertical extents overlap.
//
// A returning agent (components.AgentReturning) gets its neighbours but no
// walls: it stands off the navmesh.
//
// Resources: Queries, Filters, ProximityGrid; optional Workers.
type BoundaryUpdate struct {
	stage
	gridRes generic.Resource[components.ProximityGrid]

	grid    *crowd.ProximityGrid
	scratch [][maxNeighbourCandidates]uint32
	// bodies holds each agent's position and height, indexed like the
	// agent table, for the neighbour checks.
	bodies []body

	bodyJob, wallJob, neighbourJob func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *BoundaryUpdate) Initialize(world *ecs.World) {
	s.init(world)
	s.gridRes = generic.NewResource[components.ProximityGrid](world)
	s.bodyJob = s.fillBodies
	s.wallJob = s.updateWalls
	s.neighbourJob = s.updateNeighbours
}

// Finalize does nothing.
func (s *BoundaryUpdate) Finalize(world *ecs.World) {}

// Reserve grows the stage's per-agent buffers for a crowd of n agents, so
// that its first Update after a mass spawn does not allocate them (see
// Reserver).
func (s *BoundaryUpdate) Reserve(n int) {
	if cap(s.bodies) < n {
		s.bodies = slices.Grow(s.bodies[:0], n)
	}
}

// Update runs the stage.
func (s *BoundaryUpdate) Update(world *ecs.World) {
	if !s.begin(world) || !s.gridRes.Has() || s.gridRes.Get().Grid == nil {
		return
	}
	s.grid = s.gridRes.Get().Grid
	if n := s.workerCount(); len(s.scratch) < n {
		s.scratch = make([][maxNeighbourCandidates]uint32, n)
	}
	s.bodies = slices.Grow(s.bodies[:0], len(s.agents))[:len(s.agents)]
	s.parallel(s.bodyJob)
	// The walls do not need the grid: the caller fills it while the other
	// workers start on them.
	s.workers.runBeside(s.fillGrid, s.workerCount(), len(s.agents), s.wallJob)
	s.parallel(s.neighbourJob)
}

// fillBodies copies the bodies of agents[begin:end].
func (s *BoundaryUpdate) fillBodies(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		s.bodies[i] = body{position: a.position.Vec3(), height: a.params.Height, radius: a.params.Radius, entity: a.entity}
	}
}

// fillGrid puts every body into the proximity grid and indexes it.
func (s *BoundaryUpdate) fillGrid() {
	s.grid.Clear()
	for i := range s.bodies {
		b := &s.bodies[i]
		p, r := &b.position, b.radius
		// An agent that does not fit (more agents than the grid was sized
		// for, or a radius above the crowd's maximum) is not found as a
		// neighbour.
		_ = s.grid.Add(uint32(i), p[0]-r, p[2]-r, p[0]+r, p[2]+r)
	}
	// Sorted by cell, the grid answers the queries below several times
	// faster, with the same results.
	s.grid.Index()
}

// updateWalls gathers the wall segments of agents[begin:end] again where
// they are stale.
func (s *BoundaryUpdate) updateWalls(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if !walking(a) {
			continue // a returning agent stands off the navmesh: no walls
		}
		if a.target.State == components.TargetRequesting {
			// Its quick search was put off to a later tick
			// (Settings.QuickSearchesPerTick): it waits for its corridor,
			// and its walls with it, so that a crowd sent off at once
			// does not gather every agent's walls in one tick.
			continue
		}
		q := s.query(worker, a.params)
		filter := s.filter(a.params)
		pos := a.position.Vec3()
		queryRange := a.params.CollisionQueryRange
		updateThreshold := queryRange * 0.25
		if geom.Dist2DSqr(pos, a.boundary.Center()) > updateThreshold*updateThreshold ||
			!a.boundary.IsValid(q, filter) {
			_ = a.boundary.Update(a.corridor.FirstPoly(), pos, queryRange, q, filter)
		}
	}
}

// updateNeighbours lists the nearest neighbours of agents[begin:end].
func (s *BoundaryUpdate) updateNeighbours(worker, begin, end int) {
	ids := s.scratch[worker][:]
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		if !onFoot(a) {
			continue
		}
		pos := a.position.Vec3()
		queryRange := a.params.CollisionQueryRange
		height := a.params.Height
		n := s.grid.QueryItems(pos[0]-queryRange, pos[2]-queryRange, pos[0]+queryRange, pos[2]+queryRange, ids)
		a.neighbours.Count = 0
		for _, id := range ids[:n] {
			if int(id) == i {
				continue
			}
			other := &s.bodies[id]
			dy := pos[1] - other.position[1]
			if dy < 0 {
				dy = -dy
			}
			if dy >= (height+other.height)/2 {
				continue
			}
			dx, dz := pos[0]-other.position[0], pos[2]-other.position[2]
			distSqr := float32(dx*dx) + float32(dz*dz)
			if distSqr > queryRange*queryRange {
				continue
			}
			if nb := a.neighbours; nb.Count == components.MaxNeighbours && distSqr >= nb.List[components.MaxNeighbours-1].DistanceSqr {
				continue // addNeighbour would drop it
			}
			addNeighbour(a.neighbours, other.entity, distSqr)
		}
	}
}

// addNeighbour inserts a neighbour, keeping the list sorted by distance and
// at most MaxNeighbours long (the reference's addNeighbour, ties included).
func addNeighbour(n *components.Neighbours, e ecs.Entity, distSqr float32) {
	list := &n.List
	count := n.Count
	var at int
	switch {
	case count == 0:
		at = 0
	case distSqr >= list[count-1].DistanceSqr:
		if count >= components.MaxNeighbours {
			return
		}
		at = count
	default:
		for at = 0; at < count; at++ {
			if distSqr <= list[at].DistanceSqr {
				break
			}
		}
		moved := min(count-at, components.MaxNeighbours-(at+1))
		if moved > 0 {
			copy(list[at+1:at+1+moved], list[at:at+moved])
		}
	}
	list[at] = components.Neighbour{Entity: e, DistanceSqr: distSqr}
	n.Count = min(count+1, components.MaxNeighbours)
}

// body is what the neighbour search needs of an agent.
type body struct {
	position       geom.Vec3
	height, radius float32
	entity         ecs.Entity
}
