package systems

import (
	"github.com/archenav/archenav/internal/detmath"
	"slices"

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
// With Settings.WallSafeCollisions (recastnavigation #305, #387, #483) a
// wall takes its part: an agent pressed against a wall by a neighbour does
// not move, so the neighbour takes the whole push (the reference splits it
// and the wall then cancels half, so the pair stays overlapped, and agents
// pressed into the same corner end up stacked); no push carries an agent
// across a wall of its local boundary; an agent with nowhere to go (arrived,
// idle, or at the end of a path that cannot reach its target) steps aside
// for one walking its path, taking 90% of their push; and agents exactly on
// top of each other part at full strength in a direction given by their
// order (the reference pushes them 1 cm along their desired velocities,
// which does nothing when these are zero).
//
// With Settings.PileFraction > 0, slow agents (under half their
// maximum speed) piled closer than that share of the sum of their radii
// are pushed apart even when they are not among each other's nearest
// neighbours: the reference only ever looks at the six nearest, so in a
// pile of more agents the pushes cancel out and the pile stays. Agents
// that flow past each other are left alone, so dense crowds keep moving.
//
// An agent is pushed out of the obstacle bodies near it (ObstacleBodies:
// obstacles that do not carve, or whose hole is not in the navmesh yet),
// taking the whole push, by at most as far as it or the body moves in a
// tick, so that a body that appears on an agent lets it walk out instead of
// throwing it. Of two walking agents of different AvoidancePriority the
// lower takes the whole push. With Settings.PushSpeedLimit, no agent
// moves further in a tick, its walk and the pushes together, than that
// many times its walking step.
//
// Resources: Queries, Filters; optional ObstacleBodies, Settings, Workers.
type CollisionResolve struct {
	stage

	// Per Update, indexed like the agent table: positions before and after
	// the current pass, radii, neighbours as table indices (-1: none) and
	// the walls near each agent; origins are the positions at the start of
	// the tick (before Integrate moved them), pushLimits how far the
	// tick's walk and pushes may take each agent from there
	// (Settings.PushSpeedLimit, 0 for no bound).
	positions, next []geom.Vec3
	origins         []geom.Vec3
	pushLimits      []float32
	radii           []float32
	neighbours      [][maxContacts]int32
	walls           []nearWalls
	waits           []bool
	// afoot says which agents the passes move (onFoot), displacements
	// each one's push of the last pass (components.AgentState's
	// Displacement, written with the positions), so that the passes read
	// and write dense arrays only.
	afoot         []bool
	displacements []geom.Vec3

	// The obstacle bodies each agent may be pushed out of, and how far
	// they may still push it this tick.
	bodyContacts [][maxBodyContacts]int32
	bodyBudget   []float32
	bodyScratch  []bodyScratch

	// With Settings.PileFraction: a grid of the positions of the walking
	// agents that can be part of a pile (piling), at the start of the stage.
	pileBreaking bool
	grid         pointGrid
	piling       []bool
	heights      []float32
	maxRadius    float32

	// contactSet is the set of wall contacts (see nearWalls) that holds
	// those of the current pass's positions.
	contactSet int

	copyJob, prepareJob, displaceJob, writeJob func(worker, begin, end int)
}

// Initialize prepares the stage for world.
func (s *CollisionResolve) Initialize(world *ecs.World) {
	s.init(world)
	s.copyJob = s.copyAgents
	s.prepareJob = s.prepare
	s.displaceJob = s.displace
	s.writeJob = s.writePositions
}

// Finalize does nothing.
func (s *CollisionResolve) Finalize(world *ecs.World) {}

// Reserve grows the stage's per-agent buffers for a crowd of n agents, so
// that its first Update after a mass spawn does not allocate them (see
// Reserver). The buffers keep half as much again as room to grow.
func (s *CollisionResolve) Reserve(n int) {
	s.reserveAgents(n)
	s.grid.reserve(n)
}

// reserveAgents grows the per-agent buffers for n agents.
func (s *CollisionResolve) reserveAgents(n int) {
	if cap(s.positions) < n {
		s.positions = make([]geom.Vec3, n, n+n/2)
		s.next = make([]geom.Vec3, n, n+n/2)
		s.radii = make([]float32, n, n+n/2)
		s.neighbours = make([][maxContacts]int32, n, n+n/2)
		s.walls = make([]nearWalls, n, n+n/2)
		s.waits = make([]bool, n, n+n/2)
		s.piling = make([]bool, n, n+n/2)
		s.heights = make([]float32, n, n+n/2)
		s.bodyContacts = make([][maxBodyContacts]int32, n, n+n/2)
		s.bodyBudget = make([]float32, n, n+n/2)
		s.origins = make([]geom.Vec3, n, n+n/2)
		s.pushLimits = make([]float32, n, n+n/2)
		s.afoot = make([]bool, n, n+n/2)
		s.displacements = make([]geom.Vec3, n, n+n/2)
	}
}

// Update runs the stage.
func (s *CollisionResolve) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	n := len(s.agents)
	s.reserveAgents(n)
	s.afoot, s.displacements = s.afoot[:n], s.displacements[:n]
	s.origins, s.pushLimits = s.origins[:n], s.pushLimits[:n]
	if w := s.workerCount(); len(s.bodyScratch) < w {
		s.bodyScratch = make([]bodyScratch, w)
	}
	s.bodyContacts, s.bodyBudget = s.bodyContacts[:n], s.bodyBudget[:n]
	s.piling, s.heights = s.piling[:n], s.heights[:n]
	s.positions, s.next = s.positions[:n], s.next[:n]
	s.radii, s.neighbours, s.walls, s.waits = s.radii[:n], s.neighbours[:n], s.walls[:n], s.waits[:n]

	s.parallel(s.copyJob)
	s.pileBreaking = s.settings.PileFraction > 0 && s.buildGrid()
	s.parallel(s.prepareJob)
	for iter := 0; iter < max(1, s.settings.CollisionIterations); iter++ {
		s.contactSet = iter % 2
		s.parallel(s.displaceJob)
		s.positions, s.next = s.next, s.positions
	}
	s.parallel(s.writeJob)
}

// writePositions gives agents[begin:end] on foot their pushed positions.
func (s *CollisionResolve) writePositions(worker, begin, end int) {
	for i := begin; i < end; i++ {
		if s.afoot[i] {
			a := &s.agents[i]
			a.state.Displacement = s.displacements[i]
			*a.position = components.Position(s.positions[i])
		}
	}
}

// copyAgents copies the position, radius, height and whether it can pile
// of agents[begin:end], which the parallel passes then read for any agent.
func (s *CollisionResolve) copyAgents(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		s.positions[i] = a.position.Vec3()
		s.pushLimits[i] = 0
		if limit := s.settings.PushSpeedLimit; limit > 0 {
			// Where the tick started: Integrate moved it by its velocity.
			s.origins[i] = geom.Mad(s.positions[i], a.velocity.Actual, -s.dt)
			s.pushLimits[i] = limit * max(a.params.MaxSpeed, minPushSpeed) * s.dt
		}
		s.radii[i] = a.params.Radius
		s.heights[i] = a.params.Height
		s.piling[i] = walking(a) && slowForPile(a)
	}
}

// prepare resolves the neighbours of agents[begin:end] to table indices
// and finds their contacts and walls.
func (s *CollisionResolve) prepare(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		s.waits[i] = waiting(a)
		s.afoot[i] = onFoot(a)
		list := &s.neighbours[i]
		count := 0
		if s.afoot[i] {
			for _, nb := range a.neighbours.Slice() {
				if j := s.table.lookup(nb.Entity); j >= 0 {
					list[count] = int32(j)
					count++
				}
			}
			if s.pileBreaking && s.piling[i] {
				count = s.addPiledContacts(worker, i, list, count)
			}
		}
		for k := count; k < len(list); k++ {
			list[k] = -1
		}
		w := &s.walls[i]
		w.count, w.contacts = 0, [2]int{}
		if s.settings.WallSafeCollisions && walking(a) {
			pos := &s.positions[i]
			w.gather(*pos, a.boundary.Segments())
			if w.count > 0 {
				w.touch(pos[0], pos[2], 0)
			}
		}
		s.bodyBudget[i] = 0
		if s.bodies != nil && onFoot(a) {
			contacts := &s.bodyContacts[i]
			s.bodyContactList(a, s.positions[i], contacts, &s.bodyScratch[worker])
			s.bodyBudget[i] = s.bodyPushBudget(a, contacts[:])
		}
	}
}

// displace computes the pushed positions of agents[begin:end] from the
// positions of the pass before.
func (s *CollisionResolve) displace(worker, begin, end int) {
	for i := begin; i < end; i++ {
		pos := s.positions[i]
		if !s.afoot[i] {
			s.next[i] = pos
			continue
		}
		radius := s.radii[i]
		wallSafe := s.settings.WallSafeCollisions
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
			switch {
			case dist < 0.0001 && wallSafe:
				// On top of each other: part at full strength, in directions
				// set by the pair's order.
				diff = partingDirection(i, int(j))
				penetration = penetration * 0.5 * collisionResolveFactor
			case dist < 0.0001:
				// On top of each other: part sideways, each its own way.
				desired := s.agents[i].velocity.Desired
				if i > int(j) {
					diff = geom.Vec3{-desired[2], 0, desired[0]}
				} else {
					diff = geom.Vec3{desired[2], 0, -desired[0]}
				}
				penetration = 0.01
			default:
				share := float32(0.5)
				if wallSafe {
					share = s.share(i, int(j), diff)
				}
				penetration = (1.0 / dist) * (penetration * share) * collisionResolveFactor
			}
			disp = geom.Mad(disp, diff, penetration)
			w += 1.0
		}
		if w > 0.0001 {
			disp = geom.Scale(disp, 1.0/w)
		}
		next := geom.Add(pos, disp)
		if s.bodyBudget[i] > 0 {
			var walls *nearWalls
			if wallSafe {
				walls = &s.walls[i]
			}
			next[0], next[2], s.bodyBudget[i] = s.pushOutOfBodies(next[0], next[2], radius, s.bodyContacts[i][:], s.bodyBudget[i], walls, s.contactSet)
			disp = geom.Sub(next, pos)
		}
		if limit := s.pushLimits[i]; limit > 0 {
			next = limitPush(s.origins[i], next, limit)
			disp = geom.Sub(next, pos)
		}
		if w := &s.walls[i]; wallSafe {
			next[0], next[2] = w.keepInside(next[0], next[2])
			disp = geom.Sub(next, pos)
			// The contacts of the next pass, which reads them once every
			// agent has moved.
			if w.count > 0 {
				w.touch(next[0], next[2], 1-s.contactSet)
			}
		}
		s.displacements[i] = disp
		s.next[i] = next
	}
}

// share returns the part of the overlap between agents i and j that i
// moves by (0.5 in the reference): all of it when j stands against a wall
// it would be pushed into, or when j waits (arrived, or without a move
// request, or at the end of a path that cannot reach its target) while i
// walks its path, so that idle agents step aside for moving ones; none of
// it in the opposite cases.
func (s *CollisionResolve) share(i, j int, diff geom.Vec3) float32 {
	set := s.contactSet
	iBlocked := s.walls[i].blocks(diff[0], diff[2], set)
	jBlocked := s.walls[j].blocks(-diff[0], -diff[2], set)
	switch {
	case jBlocked && !iBlocked:
		return 1
	case iBlocked && !jBlocked:
		return 0
	}
	// The lower priority gives way.
	if pi, pj := s.agents[i].params.AvoidancePriority, s.agents[j].params.AvoidancePriority; pi != pj && walking(&s.agents[j]) && walking(&s.agents[i]) {
		if pi < pj {
			return 1
		}
		return 0
	}
	iWaits, jWaits := s.waits[i], s.waits[j]
	switch {
	case jWaits && !iWaits:
		return 1 - yieldingShare
	case iWaits && !jWaits:
		return yieldingShare
	}
	return 0.5
}

// waiting reports whether an agent has nowhere to go: it arrived, has no
// move request or a failed one, or stands at the end of its corridor (the
// nearest reachable point to an unreachable target).
func waiting(a *agent) bool {
	target := a.target
	switch {
	case target.Arrived, target.State == components.TargetNone, target.State == components.TargetFailed:
		return true
	case target.State != components.TargetValid || a.corridor.Corridor == nil:
		return false
	}
	return a.state.Partial && geom.Dist2DSqr(a.position.Vec3(), a.corridor.Target()) <= a.params.Radius*a.params.Radius
}

// slowForPile reports whether an agent moves slowly enough to be part of a
// pile: slower than pileSpeedShare of its maximum speed. Piles are agents
// that push each other to a standstill; pushing apart agents that flow
// past each other only slows a dense crowd down.
func slowForPile(a *agent) bool {
	v := a.velocity.Actual
	limit := pileSpeedShare * a.params.MaxSpeed
	return float32(v[0]*v[0])+float32(v[2]*v[2]) < limit*limit
}

// pileSpeedShare is the share of its maximum speed below which an agent
// can be part of a pile (see slowForPile).
const pileSpeedShare = float32(0.5)

// minPushSpeed is the least speed Settings.PushSpeedLimit scales, so that
// agents that cannot walk are still pushed apart [Units: world units / s]
const minPushSpeed = float32(1)

// limitPush returns next moved back (xz) towards origin to within limit of
// it.
func limitPush(origin, next geom.Vec3, limit float32) geom.Vec3 {
	dx, dz := next[0]-origin[0], next[2]-origin[2]
	distSqr := float32(dx*dx) + float32(dz*dz)
	if distSqr <= limit*limit {
		return next
	}
	scale := limit / geom.Sqrt(distSqr)
	return geom.Vec3{origin[0] + float32(dx*scale), next[1], origin[2] + float32(dz*scale)}
}

// yieldingShare is the part of an overlap a walking agent moves by when the
// other agent waits.
const yieldingShare = float32(0.1)

// maxContacts bounds the agents one agent is pushed apart from per tick
// with Settings.PileFraction (MaxNeighbours without).
const maxContacts = 16

// buildGrid puts the start positions of the agents that can pile into the
// stage's point grid, with cells as wide as the largest pile distance. It reports
// false when there is no agent with a radius.
func (s *CollisionResolve) buildGrid() bool {
	s.maxRadius = 0
	for _, r := range s.radii {
		s.maxRadius = max(s.maxRadius, r)
	}
	cell := 2 * s.maxRadius * s.settings.PileFraction
	if !(cell > 0) {
		return false
	}
	s.grid.build(s.positions, s.piling, cell)
	return true
}

// addPiledContacts adds to agent i's list (count long) the slow walking
// agents piled on it (closer than Settings.PileFraction of the sum of the
// radii) that are not in it yet, up to maxContacts, and returns the new
// length. Moderate overlaps are left to the nearest neighbours, as in the
// reference, so that dense crowds keep flowing.
func (s *CollisionResolve) addPiledContacts(worker, i int, list *[maxContacts]int32, count int) int {
	pos := s.positions[i]
	height := s.heights[i]
	reach := (s.radii[i] + s.maxRadius) * s.settings.PileFraction
	x0, y0, x1, y1 := s.grid.cellRange(pos, reach)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			items, xs, zs := s.grid.bucketItems(x, y)
			for k, j := range items {
				if count == maxContacts {
					return count
				}
				// Nearness first: most items of a bucket are too far.
				limit := (s.radii[i] + s.radii[j]) * s.settings.PileFraction
				if dx, dz := pos[0]-xs[k], pos[2]-zs[k]; float32(dx*dx)+float32(dz*dz) > limit*limit {
					continue
				}
				if int(j) == i || slices.Contains(list[:count], j) {
					continue
				}
				if geom.Abs(pos[1]-s.positions[j][1]) >= (height+s.heights[j])/2 {
					continue
				}
				list[count] = j
				count++
			}
		}
	}
	return count
}

// partingDirection returns the direction in which agent i leaves agent j
// when they stand on the same spot: an angle set by the pair's indices, and
// the opposite one for j.
func partingDirection(i, j int) geom.Vec3 {
	lo, hi := min(i, j), max(i, j)
	// The golden angle spreads the pairs of a pile of agents around.
	angle := float64(lo*7919+hi) * 2.399963229728653
	dir := geom.Vec3{float32(detmath.Cos(angle)), 0, float32(detmath.Sin(angle))}
	if i > j {
		return geom.Scale(dir, -1)
	}
	return dir
}
