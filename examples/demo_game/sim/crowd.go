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
	// maxSearchPath bounds the polygons of a reachability search: the
	// crowd plugin's path length (plugin.DefaultMaxPath).
	maxSearchPath = plugin.DefaultMaxPath
)

// Sim is the demo crowd: an arche world with archenav's crowd plugin
// installed, one entity per agent, and one or several agent types, each
// walking its own navmesh.
type Sim struct {
	config    Config
	world     ecs.World
	crowd     *plugin.Plugin
	types     []crowdType
	agents    []ecs.Entity // spawn order: an agent's index is its hue
	index     map[ecs.Entity]int
	mode      Mode
	behaviour Behaviour
	avoidance crowd.AvoidanceMethod
	stats     Stats

	filter   *query.Filter
	random   *rand.Rand
	drawPath [maxDrawnPath]query.StraightPathPoint
	// searchPath holds the polygons of reachable's searches.
	searchPath [maxSearchPath]navmesh.Ref
	retarget   []ecs.Entity // agents to give a new target after a tick

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
	// ramp is the crate DropRamp dropped last, whose top the agents are
	// sent to once the navmesh has it (0 once they were).
	ramp ecs.Entity
}

// New installs the crowd plugin on a new world over mesh and spawns
// config.Agents agents of one type (config's size and speed, on mesh and
// config.TileCache) at random points, each with its own random target.
func New(mesh *navmesh.Mesh, config Config) (*Sim, error) {
	return NewTypes([]AgentType{config.firstType(plugin.DefaultAgentTypeName, mesh, 1)}, config)
}

// NewTypes installs the crowd plugin on a new world with an agent type per
// entry of types, each on its own navmesh (and tile cache), and spawns
// config.Agents agents at random points of their own type's mesh, the
// types given out by Share in spawn order, each agent with its own random
// target. config's Radius, Height, MaxSpeed, MaxAcceleration and TileCache
// are not used: the types say.
func NewTypes(types []AgentType, config Config) (*Sim, error) {
	if err := config.validate(); err != nil {
		return nil, err
	}
	if err := validateTypes(types); err != nil {
		return nil, err
	}
	filter := query.NewFilter()
	pluginTypes := make([]plugin.AgentTypeConfig, len(types))
	maxRadius := float32(0)
	for i, t := range types {
		pluginTypes[i] = plugin.AgentTypeConfig{Name: t.Name, Mesh: t.Mesh, TileCache: t.TileCache}
		maxRadius = max(maxRadius, t.Radius)
	}
	if config.DynamicMesh != nil {
		pluginTypes[0].DynamicMesh = config.DynamicMesh
	}
	p, err := plugin.New(plugin.Config{
		AgentTypes:      pluginTypes,
		MaxAgents:       config.MaxAgents,
		MaxAgentRadius:  maxRadius,
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
		filter:    filter,
		random:    newRandom(config.Seed),
		doorIndex: -1,
	}
	for i, t := range types {
		ct := crowdType{AgentType: t}
		if ct.query, err = query.New(t.Mesh, queryNodes); err != nil {
			return nil, fmt.Errorf("sim: agent type %q: %w", t.Name, err)
		}
		if ct.spawns, err = query.LargestComponentSampler(t.Mesh.Snapshot(), filter); err != nil {
			return nil, fmt.Errorf("sim: agent type %q: spawn points: %w", t.Name, err)
		}
		ct.params = components.AgentParamsForRadius(t.Radius) // the look-ahead ranges scale with it
		ct.params.Height = t.Height
		ct.params.MaxSpeed, ct.params.MaxAcceleration = t.MaxSpeed, t.MaxAcceleration
		ct.params.UpdateFlags = s.behaviour.flags()
		ct.params.Type = uint8(i)
		s.types = append(s.types, ct)
	}
	if err := p.Install(&s.world); err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}

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
		t := &s.types[s.typeOf(i)]
		point, err := t.spawns.RandomPoint(s.random.Float32)
		if err != nil {
			return nil, fmt.Errorf("sim: spawn agent %d: %w", i, err)
		}
		specs[i] = plugin.AgentSpec{Position: point.Pos, Params: t.params}
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
	s.types[s.paramsMap.Get(e).Type].agents++
}

// typeOfAgent returns agent e's type.
func (s *Sim) typeOfAgent(e ecs.Entity) *crowdType {
	return &s.types[s.paramsMap.Get(e).Type]
}

// wanderTries is how many random points wanderTarget draws looking for
// one the agent can reach.
const wanderTries = 8

// wanderTarget sends agent e to a random point of its type's navmesh that
// it can reach as the mesh is now (not behind a closed door or past a
// crate too big for it to pass); the last point drawn when none of
// wanderTries is.
func (s *Sim) wanderTarget(e ecs.Entity) error {
	t := s.typeOfAgent(e)
	var target geom.Vec3
	for try := 0; try < wanderTries; try++ {
		point, err := t.spawns.RandomPoint(s.random.Float32)
		if err != nil {
			return fmt.Errorf("sim: random target: %w", err)
		}
		target = point.Pos
		if s.reachable(e, t, target) {
			break
		}
	}
	if err := s.crowd.RequestMoveTarget(&s.world, e, target); err != nil {
		return fmt.Errorf("sim: random target: %w", err)
	}
	return nil
}

// reachable reports whether agent e finds a complete path on its type's
// mesh to the polygon nearest target; true when it cannot tell (no
// corridor yet, the search ran out of nodes).
func (s *Sim) reachable(e ecs.Entity, t *crowdType, target geom.Vec3) bool {
	corridor := s.corridors.Get(e)
	if corridor.Corridor == nil || corridor.FirstPoly() == 0 {
		return true
	}
	goal, err := t.query.FindNearestPoly(target, nearestExtents, s.filter)
	if err != nil || goal.Ref == 0 {
		return false
	}
	_, status, err := t.query.FindPath(corridor.FirstPoly(), goal.Ref, corridor.Position(), goal.Point, s.filter, s.searchPath[:])
	return err == nil && (!status.Partial() || status.OutOfNodes())
}

// Spawn adds an agent at the navmesh point nearest pos, of the type its
// spawn order gives (see AgentType.Share) or, when that type's mesh has no
// polygon near pos (a large agent in a passage only the small ones fit),
// of the first type; in Gather mode it heads for its type's common target,
// otherwise for a random one.
func (s *Sim) Spawn(pos geom.Vec3) error {
	if len(s.agents) >= s.config.MaxAgents {
		return fmt.Errorf("sim: spawn: the crowd is full (%d agents)", s.config.MaxAgents)
	}
	t := s.typeOf(len(s.agents))
	e, err := s.crowd.Spawn(&s.world, pos, s.types[t].params)
	if err != nil && t != 0 {
		e, err = s.crowd.Spawn(&s.world, pos, s.types[0].params)
	}
	if err != nil {
		return fmt.Errorf("sim: spawn: %w", err)
	}
	s.register(e)
	if s.mode == Gather {
		return s.gatherTarget(e)
	}
	return s.wanderTarget(e)
}

// gatherTarget sends agent e to its type's common target; one whose type's
// mesh has no point near the target stays where it is.
func (s *Sim) gatherTarget(e ecs.Entity) error {
	t := s.typeOfAgent(e)
	if !t.hasTarget {
		return s.crowd.ResetMoveTarget(&s.world, e)
	}
	return s.crowd.RequestMoveTarget(&s.world, e, t.target)
}

// SetTarget sends every agent to the point of its own type's navmesh
// nearest pos (Gather); the agents of a type whose mesh has no polygon
// near pos stop. It fails when no type's mesh has one.
func (s *Sim) SetTarget(pos geom.Vec3) error {
	found := false
	for i := range s.types {
		t := &s.types[i]
		nearest, err := t.query.FindNearestPoly(pos, nearestExtents, s.filter)
		if err != nil {
			return fmt.Errorf("sim: set target: %w", err)
		}
		t.target, t.hasTarget = nearest.Point, nearest.Ref != 0
		found = found || t.hasTarget
	}
	if !found {
		return fmt.Errorf("sim: set target: no navmesh near %v", pos)
	}
	s.mode = Gather
	var errs []error
	for _, e := range s.agents {
		errs = append(errs, s.gatherTarget(e))
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
	for i := range s.types {
		s.types[i].params.UpdateFlags = b.flags()
	}
	for _, e := range s.agents {
		params := *s.paramsMap.Get(e)
		params.UpdateFlags = b.flags()
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
	if err := s.crowd.SetAvoidancePreset(&s.world, int(s.types[0].params.AvoidancePreset), preset); err != nil {
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
	st.Types = make([]TypeStats, len(s.types))
	for i := range s.types {
		t := &s.types[i]
		st.Types[i] = TypeStats{Name: t.Name, Radius: t.Radius, Agents: t.agents, Arrivals: t.arrivals}
	}
	st.Stages = nil
	if crowdStats := s.crowd.Stats(&s.world); crowdStats != nil {
		for i, name := range crowdStats.StageNames {
			st.Stages = append(st.Stages, StageTime{Name: name, Time: crowdStats.StageDurations[i]})
		}
	}
	return st
}

// Step runs one crowd tick of dt seconds, counts the arrivals and, in
// Wander mode, gives a new random target to the agents that arrived, those
// whose path failed and those whose path became partial (their target out
// of reach: behind a closed door, or past a crate whose hole, grown by a
// large agent's radius, shuts the corridor to it).
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
			s.types[ev.Type].arrivals++
			if s.mode == Wander {
				s.retarget = append(s.retarget, ev.Entity)
			}
		case components.EventPathFailed, components.EventPartialPath:
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
	return s.sendUpRamp()
}

// Agents appends what the scene draws of every agent to dst[:0]: with one
// agent type each agent in a hue of its own, with several in its type's
// (scene.TypeHue).
func (s *Sim) Agents(dst []scene.Agent) []scene.Agent {
	dst = dst[:0]
	for i, e := range s.agents {
		position := geom.Vec3(*s.positions.Get(e))
		target := s.targets.Get(e)
		params := s.paramsMap.Get(e)
		a := scene.Agent{
			Position:  position,
			Velocity:  s.velocities.Get(e).Actual,
			Radius:    params.Radius,
			Target:    target.Position,
			HasTarget: target.State.HasPath() && !target.Arrived,
			Hue:       i,
			Type:      int(params.Type),
		}
		if len(s.types) > 1 {
			a.Hue = scene.TypeHue(a.Type)
		}
		corridor := s.corridors.Get(e)
		if a.HasTarget && corridor.Corridor != nil && corridor.PathCount() > 0 {
			n, _, err := s.types[params.Type].query.FindStraightPath(position, corridor.Target(), corridor.Path(), s.drawPath[:], 0)
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
		if d := float32(dx*dx) + float32(dz*dz); d < bestDistance {
			best, bestDistance = i, d
		}
	}
	return best
}
