package sim

// Stand-in crowd until navcore/crowd and the arche plugin are on main: each
// agent follows its polygon path with string pulling, steers to the next
// corner, keeps apart from its neighbours and slides along the surface. It
// has no local boundary, obstacle avoidance or topology optimization; the
// Behaviour flags other than Separation and AnticipateTurns do nothing here.
// This file goes when the demo spawns its agents through the plugin.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

const (
	maxCorridor   = 256
	maxCorners    = 4
	maxDrawnPath  = 32
	maxVisited    = 16
	queryNodes    = 2048
	separationGap = 2.5 // neighbour range in radii
)

type walker struct {
	position, velocity geom.Vec3
	ref                navmesh.Ref
	corridor           []navmesh.Ref
	target             geom.Vec3 // requested target
	pathEnd            geom.Vec3 // target clamped to the corridor's last polygon
	hasTarget          bool
	corners            [maxCorners]query.StraightPathPoint
	cornerCount        int
	neighbours         []int
	hue                int
}

// Sim is the demo crowd.
type Sim struct {
	config Config
	mesh   *navmesh.Mesh
	query  *query.Query
	filter *query.Filter
	// regionFilter passes the main region only: spawn points and targets.
	regionFilter *query.Filter
	random       *rand.Rand
	walkers      []walker
	mode         Mode
	behaviour    Behaviour
	stats        Stats
	visited      [maxVisited]navmesh.Ref
	drawPath     [maxDrawnPath]query.StraightPathPoint
	walls        [32]query.WallSegment
}

// New spawns config.Agents agents at random points of mesh, each with its
// own random target.
func New(mesh *navmesh.Mesh, config Config) (*Sim, error) {
	if err := config.validate(); err != nil {
		return nil, err
	}
	q, err := query.New(mesh, queryNodes)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s := &Sim{
		config:       config,
		mesh:         mesh,
		query:        q,
		filter:       query.NewFilter(),
		regionFilter: newRegionFilter(mesh),
		random:       newRandom(config.Seed),
		behaviour:    DefaultBehaviour,
		stats:        Stats{Stages: make([]StageTime, 3)},
	}
	for i := 0; i < config.Agents; i++ {
		point, err := randomPoint(s.query, s.regionFilter, s.random.Float32)
		if err != nil {
			return nil, fmt.Errorf("sim: spawn agent %d: %w", i, err)
		}
		s.add(point.Pos, point.Ref)
	}
	for i := range s.walkers {
		s.wanderTarget(&s.walkers[i])
	}
	return s, nil
}

func (s *Sim) add(pos geom.Vec3, ref navmesh.Ref) *walker {
	s.walkers = append(s.walkers, walker{
		position: pos,
		ref:      ref,
		corridor: make([]navmesh.Ref, 0, maxCorridor),
		hue:      len(s.walkers),
	})
	return &s.walkers[len(s.walkers)-1]
}

// Spawn adds an agent at the navmesh point nearest pos; in Gather mode it
// heads for the common target, otherwise for a random one.
func (s *Sim) Spawn(pos geom.Vec3) error {
	if len(s.walkers) >= s.config.MaxAgents {
		return fmt.Errorf("sim: spawn: the crowd is full (%d agents)", s.config.MaxAgents)
	}
	nearest, err := s.query.FindNearestPoly(pos, nearestExtents, s.filter)
	if err != nil {
		return fmt.Errorf("sim: spawn: %w", err)
	}
	if nearest.Ref == 0 {
		return fmt.Errorf("sim: spawn: no navmesh near %v", pos)
	}
	w := s.add(nearest.Point, nearest.Ref)
	if s.mode == Gather && len(s.walkers) > 1 {
		s.setTarget(w, s.walkers[0].target)
	} else {
		s.wanderTarget(w)
	}
	return nil
}

// SetTarget sends every agent to the navmesh point nearest pos (Gather).
func (s *Sim) SetTarget(pos geom.Vec3) error {
	nearest, err := s.query.FindNearestPoly(pos, nearestExtents, s.filter)
	if err != nil {
		return fmt.Errorf("sim: set target: %w", err)
	}
	if nearest.Ref == 0 {
		return fmt.Errorf("sim: set target: no navmesh near %v", pos)
	}
	s.mode = Gather
	for i := range s.walkers {
		s.setTarget(&s.walkers[i], nearest.Point)
	}
	return nil
}

// Wander gives every agent its own random target again.
func (s *Sim) Wander() {
	s.mode = Wander
	for i := range s.walkers {
		s.wanderTarget(&s.walkers[i])
	}
}

// SetBehaviour changes the steering options.
func (s *Sim) SetBehaviour(b Behaviour) { s.behaviour = b }

// Behaviour returns the steering options.
func (s *Sim) Behaviour() Behaviour { return s.behaviour }

// Stats returns the figures so far.
func (s *Sim) Stats() Stats {
	st := s.stats
	st.Agents = len(s.walkers)
	st.Stages = append([]StageTime(nil), s.stats.Stages...)
	return st
}

func (s *Sim) wanderTarget(w *walker) {
	point, err := randomPoint(s.query, s.regionFilter, s.random.Float32)
	if err != nil {
		w.hasTarget = false
		return
	}
	s.setTarget(w, point.Pos)
}

func (s *Sim) setTarget(w *walker, target geom.Vec3) {
	w.target, w.hasTarget = target, true
	s.plan(w)
}

// plan finds the corridor from the agent's polygon to its target.
func (s *Sim) plan(w *walker) {
	w.corridor = w.corridor[:0]
	w.cornerCount = 0
	nearest, err := s.query.FindNearestPoly(w.target, nearestExtents, s.filter)
	if err != nil || nearest.Ref == 0 {
		w.hasTarget = false
		return
	}
	n, _, err := s.query.FindPath(w.ref, nearest.Ref, w.position, nearest.Point, s.filter, w.corridor[:maxCorridor])
	if err != nil || n == 0 {
		w.hasTarget = false
		return
	}
	w.corridor = w.corridor[:n]
	w.pathEnd = nearest.Point
	if last := w.corridor[n-1]; last != nearest.Ref {
		if end, _, err := s.query.ClosestPointOnPoly(last, w.target); err == nil {
			w.pathEnd = end // partial path: head for the closest reachable point
		}
	}
}

// Step advances the crowd by dt seconds.
func (s *Sim) Step(dt float32) error {
	if !(dt > 0) || dt > 1 {
		return fmt.Errorf("sim: step: time step %v outside (0, 1] s", dt)
	}
	start := time.Now()
	for i := range s.walkers {
		w := &s.walkers[i]
		if w.hasTarget && len(w.corridor) == 0 {
			s.plan(w)
		}
		s.findCorners(w)
	}
	planned := time.Now()
	s.findNeighbours()
	for i := range s.walkers {
		s.steer(&s.walkers[i], dt)
	}
	steered := time.Now()
	for i := range s.walkers {
		s.move(&s.walkers[i], dt)
	}
	moved := time.Now()
	s.stats.Stages[0] = StageTime{"path", planned.Sub(start)}
	s.stats.Stages[1] = StageTime{"steer", steered.Sub(planned)}
	s.stats.Stages[2] = StageTime{"move", moved.Sub(steered)}
	s.stats.Ticks++
	s.stats.StepTime += moved.Sub(start)
	return nil
}

func (s *Sim) findCorners(w *walker) {
	w.cornerCount = 0
	if !w.hasTarget || len(w.corridor) == 0 {
		return
	}
	n, _, err := s.query.FindStraightPath(w.position, w.pathEnd, w.corridor, w.corners[:], 0)
	if err != nil {
		w.corridor = w.corridor[:0]
		return
	}
	// Skip the start point and corners the agent is already on.
	skip := 0
	for skip < n-1 && geom.Dist2D(w.position, w.corners[skip].Pos) < 0.01 {
		skip++
	}
	copy(w.corners[:], w.corners[skip:n])
	w.cornerCount = n - skip
}

func (s *Sim) findNeighbours() {
	reach := s.config.Radius * separationGap * 2
	for i := range s.walkers {
		s.walkers[i].neighbours = s.walkers[i].neighbours[:0]
	}
	for i := range s.walkers {
		a := &s.walkers[i]
		for j := i + 1; j < len(s.walkers); j++ {
			b := &s.walkers[j]
			if geom.Abs(a.position[1]-b.position[1]) < s.config.Height && geom.Dist2D(a.position, b.position) < reach {
				a.neighbours = append(a.neighbours, j)
				b.neighbours = append(b.neighbours, i)
			}
		}
	}
}

// steer sets the velocity: towards the next corner (the one after, blended,
// when anticipating turns), slowing near the end, pushed away from
// neighbours, within the acceleration limit.
func (s *Sim) steer(w *walker, dt float32) {
	var desired geom.Vec3
	if w.cornerCount > 0 {
		aim := w.corners[0].Pos
		if s.behaviour.AnticipateTurns && w.cornerCount > 1 {
			near := geom.Dist2D(w.position, aim)
			if near < s.config.Radius*2 {
				aim = geom.Lerp(w.corners[1].Pos, aim, near/(s.config.Radius*2))
			}
		}
		direction := geom.Vec3{aim[0] - w.position[0], 0, aim[2] - w.position[2]}
		if length := geom.Len(direction); length > 1e-4 {
			speed := s.config.MaxSpeed
			if w.corners[w.cornerCount-1].Flags&query.StraightPathEnd != 0 {
				remaining := geom.Dist2D(w.position, w.pathEnd)
				speed *= min(1, remaining/(s.config.Radius*2))
			}
			desired = geom.Scale(direction, speed/length)
		}
	}
	if s.behaviour.Separation && len(w.neighbours) > 0 {
		var push geom.Vec3
		reach := s.config.Radius * separationGap * 2
		for _, j := range w.neighbours {
			other := &s.walkers[j]
			dx, dz := w.position[0]-other.position[0], w.position[2]-other.position[2]
			distance := float32(math.Hypot(float64(dx), float64(dz)))
			if distance < 1e-4 {
				dx, dz, distance = float32(j%3)-1, float32(j%2)*2-1, 1
			}
			weight := (1 - distance/reach) / distance
			push[0] += dx * weight
			push[2] += dz * weight
		}
		desired = geom.Mad(desired, push, s.config.MaxSpeed)
		if speed := geom.Len(desired); speed > s.config.MaxSpeed {
			desired = geom.Scale(desired, s.config.MaxSpeed/speed)
		}
	}
	change := geom.Sub(desired, w.velocity)
	if length, limit := geom.Len(change), s.config.MaxAcceleration*dt; length > limit {
		change = geom.Scale(change, limit/length)
	}
	w.velocity = geom.Add(w.velocity, change)
}

// move integrates the velocity, pushes overlapping agents apart, slides the
// result along the surface and trims the corridor to the polygon reached.
func (s *Sim) move(w *walker, dt float32) {
	next := geom.Mad(w.position, w.velocity, dt)
	for _, j := range w.neighbours {
		other := &s.walkers[j]
		dx, dz := w.position[0]-other.position[0], w.position[2]-other.position[2]
		distance := float32(math.Hypot(float64(dx), float64(dz)))
		if overlap := 2*s.config.Radius - distance; overlap > 0 && distance > 1e-4 {
			next[0] += dx / distance * overlap * 0.5
			next[2] += dz / distance * overlap * 0.5
		}
	}
	result, n, _, err := s.query.MoveAlongSurface(w.ref, w.position, next, s.filter, s.visited[:])
	if err != nil || n == 0 {
		w.velocity = geom.Vec3{}
		return
	}
	reached := s.visited[n-1]
	if height, err := s.query.PolyHeight(reached, result); err == nil {
		result[1] = height
	}
	w.position, w.ref = result, reached
	s.trimCorridor(w)
	if w.hasTarget && geom.Dist2D(w.position, w.pathEnd) < s.config.ArrivalDistance && geom.Abs(w.position[1]-w.pathEnd[1]) < s.config.Height {
		s.stats.Arrivals++
		if s.mode == Wander {
			s.wanderTarget(w)
		} else {
			w.hasTarget, w.corridor, w.cornerCount = false, w.corridor[:0], 0
		}
	}
}

// trimCorridor drops the corridor's polygons before the agent's, or asks
// for a new path when the agent left its corridor.
func (s *Sim) trimCorridor(w *walker) {
	for k, ref := range w.corridor {
		if ref == w.ref {
			w.corridor = w.corridor[:copy(w.corridor, w.corridor[k:])]
			return
		}
	}
	if w.hasTarget {
		s.plan(w)
	}
}

// Agents appends what the scene draws of every agent to dst[:0].
func (s *Sim) Agents(dst []scene.Agent) []scene.Agent {
	dst = dst[:0]
	for i := range s.walkers {
		w := &s.walkers[i]
		a := scene.Agent{Position: w.position, Velocity: w.velocity, Radius: s.config.Radius, Target: w.target, HasTarget: w.hasTarget, Hue: w.hue}
		if w.hasTarget && len(w.corridor) > 0 {
			if n, _, err := s.query.FindStraightPath(w.position, w.pathEnd, w.corridor, s.drawPath[:], 0); err == nil {
				for _, p := range s.drawPath[1:n] {
					a.Path = append(a.Path, p.Pos)
				}
			}
		}
		dst = append(dst, a)
	}
	return dst
}

// Debug appends every agent's crowd state for the overlays to dst[:0]:
// only the selected agent's (an index), or every agent's when selected is
// -1. The stand-in has no avoidance samples.
func (s *Sim) Debug(dst []scene.AgentDebug, selected int) []scene.AgentDebug {
	dst = dst[:0]
	for i := range s.walkers {
		w := &s.walkers[i]
		if selected >= 0 && i != selected {
			dst = append(dst, scene.AgentDebug{})
			continue
		}
		d := scene.AgentDebug{
			Corridor:   append([]navmesh.Ref(nil), w.corridor...),
			Neighbours: append([]int(nil), w.neighbours...),
		}
		for _, c := range w.corners[:w.cornerCount] {
			d.Corners = append(d.Corners, c.Pos)
		}
		if n, _, err := s.query.PolyWallSegments(w.ref, s.filter, false, s.walls[:]); err == nil {
			for _, seg := range s.walls[:n] {
				d.Boundary = append(d.Boundary, [2]geom.Vec3{seg.Start, seg.End})
			}
		}
		dst = append(dst, d)
	}
	return dst
}

// Nearest returns the index of the agent nearest world x, z within reach,
// -1 for none [Units: world units].
func (s *Sim) Nearest(x, z, reach float32) int {
	best, bestDistance := -1, reach*reach
	for i := range s.walkers {
		p := s.walkers[i].position
		dx, dz := p[0]-x, p[2]-z
		if d := dx*dx + dz*dz; d < bestDistance {
			best, bestDistance = i, d
		}
	}
	return best
}
