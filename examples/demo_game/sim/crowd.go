package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/archenav/archenav/plugin/crowddraw"
)

// Sizes of the demo's own scratch buffers.
const (
	queryNodes   = 2048 // the demo's query: random points, picks, drawn paths
	maxDrawnPath = 64   // corners drawn per agent path
	maxSamples   = 512  // avoidance samples recorded for the selected agent
)

// Sim is the demo crowd: an arche world with archenav's crowd plugin
// installed, and one entity per agent.
type Sim struct {
	config    Config
	world     ecs.World
	crowd     *plugin.Plugin
	params    components.AgentParams
	agents    []ecs.Entity // spawn order: an agent's index is its hue
	index     map[ecs.Entity]int
	mode      Mode
	target    geom.Vec3 // the common target in Gather mode
	behaviour Behaviour
	avoidance crowd.AvoidanceMethod
	stats     Stats

	query  *query.Query
	filter *query.Filter
	// spawns draws spawn points and targets on the mesh's largest
	// connected part, so no agent starts on an island it cannot leave,
	// such as the top of a wall.
	spawns   *query.ComponentSampler
	random   *rand.Rand
	drawPath [maxDrawnPath]query.StraightPathPoint
	retarget []ecs.Entity // agents to give a new target after a tick

	positions  generic.Map[components.Position]
	velocities generic.Map[components.Velocity]
	targets    generic.Map[components.MoveTarget]
	corridors  generic.Map[components.Corridor]
	corners    generic.Map[components.Corners]
	neighbours generic.Map[components.Neighbours]
	boundaries generic.Map[components.Boundary]
	paramsMap  generic.Map[components.AgentParams]

	drawing *crowddraw.Crowd
	samples *crowd.AvoidanceDebug

	// obstacles are the crates and the door; doorIndex is the door's index
	// (-1 without one); elapsed is the simulated time and scriptStep how
	// far the obstacle script has got.
	obstacles      []obstacle
	doorIndex      int
	doorHalfLength float32
	doorClosed     bool
	elapsed        float64
	scriptStep     int
}

// New installs the crowd plugin on a new world over mesh and spawns
// config.Agents agents at random points, each with its own random target.
func New(mesh *navmesh.Mesh, config Config) (*Sim, error) {
	if err := config.validate(); err != nil {
		return nil, err
	}
	q, err := query.New(mesh, queryNodes)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	filter := query.NewFilter()
	spawns, err := query.LargestComponentSampler(mesh.Snapshot(), filter)
	if err != nil {
		return nil, fmt.Errorf("sim: spawn points: %w", err)
	}
	p, err := plugin.New(plugin.Config{
		Mesh:            mesh,
		TileCache:       config.TileCache,
		MaxAgents:       config.MaxAgents,
		MaxAgentRadius:  config.Radius,
		Workers:         config.Workers,
		ArrivalDistance: config.ArrivalDistance,
	})
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s := &Sim{
		config:    config,
		world:     ecs.NewWorld(),
		crowd:     p,
		index:     make(map[ecs.Entity]int, config.Agents),
		behaviour: DefaultBehaviour,
		query:     q,
		filter:    filter,
		spawns:    spawns,
		random:    newRandom(config.Seed),
		doorIndex: -1,
	}
	if err := p.Install(&s.world); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	s.params = components.AgentParamsForRadius(config.Radius) // the look-ahead ranges scale with it
	s.params.Height = config.Height
	s.params.MaxSpeed, s.params.MaxAcceleration = config.MaxSpeed, config.MaxAcceleration
	s.params.UpdateFlags = s.behaviour.flags()

	s.positions = generic.NewMap[components.Position](&s.world)
	s.velocities = generic.NewMap[components.Velocity](&s.world)
	s.targets = generic.NewMap[components.MoveTarget](&s.world)
	s.corridors = generic.NewMap[components.Corridor](&s.world)
	s.corners = generic.NewMap[components.Corners](&s.world)
	s.neighbours = generic.NewMap[components.Neighbours](&s.world)
	s.boundaries = generic.NewMap[components.Boundary](&s.world)
	s.paramsMap = generic.NewMap[components.AgentParams](&s.world)
	if s.drawing, err = crowddraw.New(&s.world); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	if s.samples, err = crowd.NewAvoidanceDebug(maxSamples); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}

	specs := make([]plugin.AgentSpec, config.Agents)
	for i := range specs {
		point, err := s.spawns.RandomPoint(s.random.Float32)
		if err != nil {
			return nil, fmt.Errorf("sim: spawn agent %d: %w", i, err)
		}
		specs[i] = plugin.AgentSpec{Position: point.Pos, Params: s.params}
	}
	entities, err := p.SpawnBatch(&s.world, specs, make([]ecs.Entity, 0, len(specs)))
	if err != nil {
		return nil, fmt.Errorf("sim: spawn: %w", err)
	}
	for _, e := range entities {
		s.register(e)
		if err := s.wanderTarget(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (b Behaviour) flags() components.UpdateFlags {
	var f components.UpdateFlags
	if b.AnticipateTurns {
		f |= components.AnticipateTurns
	}
	if b.OptimizeVisibility {
		f |= components.OptimizeVisibility
	}
	if b.OptimizeTopology {
		f |= components.OptimizeTopology
	}
	if b.ObstacleAvoidance {
		f |= components.ObstacleAvoidance
	}
	if b.Separation {
		f |= components.Separation
	}
	return f
}

func (s *Sim) register(e ecs.Entity) {
	s.index[e] = len(s.agents)
	s.agents = append(s.agents, e)
}

// wanderTarget sends agent e to a random navmesh point.
func (s *Sim) wanderTarget(e ecs.Entity) error {
	point, err := s.spawns.RandomPoint(s.random.Float32)
	if err != nil {
		return fmt.Errorf("sim: random target: %w", err)
	}
	if err := s.crowd.RequestMoveTarget(&s.world, e, point.Pos); err != nil {
		return fmt.Errorf("sim: random target: %w", err)
	}
	return nil
}

// Spawn adds an agent at the navmesh point nearest pos; in Gather mode it
// heads for the common target, otherwise for a random one.
func (s *Sim) Spawn(pos geom.Vec3) error {
	if len(s.agents) >= s.config.MaxAgents {
		return fmt.Errorf("sim: spawn: the crowd is full (%d agents)", s.config.MaxAgents)
	}
	e, err := s.crowd.Spawn(&s.world, pos, s.params)
	if err != nil {
		return fmt.Errorf("sim: spawn: %w", err)
	}
	s.register(e)
	if s.mode == Gather {
		err = s.crowd.RequestMoveTarget(&s.world, e, s.target)
	} else {
		err = s.wanderTarget(e)
	}
	return err
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
	s.mode, s.target = Gather, nearest.Point
	var errs []error
	for _, e := range s.agents {
		errs = append(errs, s.crowd.RequestMoveTarget(&s.world, e, s.target))
	}
	return errors.Join(errs...)
}

// Wander gives every agent its own random target again.
func (s *Sim) Wander() {
	s.mode = Wander
	for _, e := range s.agents {
		_ = s.wanderTarget(e)
	}
}

// SetBehaviour changes the steering options of every agent.
func (s *Sim) SetBehaviour(b Behaviour) {
	s.behaviour = b
	s.params.UpdateFlags = b.flags()
	for _, e := range s.agents {
		params := *s.paramsMap.Get(e)
		params.UpdateFlags = s.params.UpdateFlags
		_ = s.crowd.UpdateParams(&s.world, e, params)
	}
}

// Behaviour returns the steering options.
func (s *Sim) Behaviour() Behaviour { return s.behaviour }

// SetAvoidance switches every agent's obstacle avoidance to method, from
// the next tick: the reference's high-quality adaptive sampling (the
// default), its 33×33 grid, or ORCA with its default parameters.
func (s *Sim) SetAvoidance(method crowd.AvoidanceMethod) error {
	preset := crowd.AvoidancePreset(crowd.AvoidanceHigh)
	preset.Method = method
	if method == crowd.AvoidanceORCA {
		preset = crowd.ORCAPreset()
	}
	if err := s.crowd.SetAvoidancePreset(&s.world, int(s.params.AvoidancePreset), preset); err != nil {
		return fmt.Errorf("sim: set avoidance: %w", err)
	}
	s.avoidance = method
	return nil
}

// Avoidance returns the agents' obstacle avoidance method.
func (s *Sim) Avoidance() crowd.AvoidanceMethod { return s.avoidance }

// Stats returns the figures so far, with the last tick's stage times.
func (s *Sim) Stats() Stats {
	st := s.stats
	st.Agents = len(s.agents)
	st.Stages = nil
	if crowdStats := s.crowd.Stats(&s.world); crowdStats != nil {
		for i, name := range crowdStats.StageNames {
			st.Stages = append(st.Stages, StageTime{Name: name, Time: crowdStats.StageDurations[i]})
		}
	}
	return st
}

// Step runs one crowd tick of dt seconds, counts the arrivals and, in
// Wander mode, gives arrived agents (and those whose path failed) a new
// random target.
func (s *Sim) Step(dt float32) error {
	if !(dt > 0) || dt > 1 {
		return fmt.Errorf("sim: step: time step %v outside (0, 1] s", dt)
	}
	if err := s.runScript(s.elapsed); err != nil {
		return fmt.Errorf("sim: step: %w", err)
	}
	s.elapsed += float64(dt)
	start := time.Now()
	if err := s.crowd.Step(&s.world, dt); err != nil {
		return fmt.Errorf("sim: step: %w", err)
	}
	s.stats.StepTime += time.Since(start)
	s.stats.Ticks++
	s.retarget = s.retarget[:0]
	for _, ev := range s.crowd.Events(&s.world) {
		switch ev.Kind {
		case components.EventTargetReached:
			s.stats.Arrivals++
			if s.mode == Wander {
				s.retarget = append(s.retarget, ev.Entity)
			}
		case components.EventPathFailed:
			if s.mode == Wander {
				s.retarget = append(s.retarget, ev.Entity)
			}
		}
	}
	for _, e := range s.retarget {
		if err := s.wanderTarget(e); err != nil {
			return err
		}
	}
	return nil
}

// Agents appends what the scene draws of every agent to dst[:0].
func (s *Sim) Agents(dst []scene.Agent) []scene.Agent {
	dst = dst[:0]
	for i, e := range s.agents {
		position := geom.Vec3(*s.positions.Get(e))
		target := s.targets.Get(e)
		a := scene.Agent{
			Position:  position,
			Velocity:  s.velocities.Get(e).Actual,
			Radius:    s.paramsMap.Get(e).Radius,
			Target:    target.Position,
			HasTarget: target.State.HasPath() && !target.Arrived,
			Hue:       i,
		}
		corridor := s.corridors.Get(e)
		if a.HasTarget && corridor.Corridor != nil && corridor.PathCount() > 0 {
			n, _, err := s.query.FindStraightPath(position, corridor.Target(), corridor.Path(), s.drawPath[:], 0)
			if err == nil {
				for _, p := range s.drawPath[1:n] {
					a.Path = append(a.Path, p.Pos)
				}
			}
		}
		dst = append(dst, a)
	}
	return dst
}

// Debug appends the crowd state the overlays draw to dst[:0], one entry per
// agent: corridor, corners, neighbours and wall segments of the selected
// agent (an index) with the velocities its obstacle avoidance scores, or of
// every agent (without samples) when selected is -1.
func (s *Sim) Debug(dst []scene.AgentDebug, selected int) []scene.AgentDebug {
	dst = dst[:0]
	for i, e := range s.agents {
		var d scene.AgentDebug
		if selected >= 0 && i != selected {
			dst = append(dst, d)
			continue
		}
		if c := s.corridors.Get(e); c.Corridor != nil {
			d.Corridor = append(d.Corridor, c.Path()...)
		}
		d.Corners = append(d.Corners, s.corners.Get(e).Slice()...)
		for _, n := range s.neighbours.Get(e).Slice() {
			if j, ok := s.index[n.Entity]; ok {
				d.Neighbours = append(d.Neighbours, j)
			}
		}
		d.Boundary = append(d.Boundary, s.boundaries.Get(e).Segments()...)
		if i == selected {
			d.Samples = s.avoidanceSamples(e)
		}
		dst = append(dst, d)
	}
	return dst
}

// avoidanceSamples scores agent e's candidate velocities again, as the
// VelocitySampling stage did, for drawing (crowddraw.AvoidanceSamples).
func (s *Sim) avoidanceSamples(e ecs.Entity) []crowd.AvoidanceSample {
	if err := s.drawing.AvoidanceSamples(e, s.samples); err != nil {
		return nil
	}
	return append([]crowd.AvoidanceSample(nil), s.samples.Samples()...)
}

// Nearest returns the index of the agent nearest world x, z within reach,
// -1 for none [Units: world units].
func (s *Sim) Nearest(x, z, reach float32) int {
	best, bestDistance := -1, reach*reach
	for i, e := range s.agents {
		p := s.positions.Get(e)
		dx, dz := p[0]-x, p[2]-z
		if d := dx*dx + dz*dz; d < bestDistance {
			best, bestDistance = i, d
		}
	}
	return best
}
