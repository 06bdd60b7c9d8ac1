package plugin

import (
	"reflect"

	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/ecs/event"
	"github.com/mlange-42/arche/generic"
	"github.com/mlange-42/arche/listener"
)

// agentMap creates and reads the components of an agent.
type agentMap = generic.Map10[
	components.AgentParams, components.Position, components.Velocity,
	components.AgentState, components.Corridor, components.MoveTarget,
	components.Boundary, components.Neighbours, components.Corners,
	components.OffMeshAnimation,
]

// Plugin is a crowd for one arche world. Create it with New, add it to a
// world with Install, then spawn agents and run its Schedule. A Plugin is
// used from the goroutine that runs the world.
type Plugin struct {
	config   Config
	world    *ecs.World
	schedule *Schedule

	// Installed resources and accessors.
	query     *query.Query // for the agent API
	pathQueue *crowd.PathQueue
	// types are the agent types, types[0] holding query and pathQueue.
	types     []agentType
	paramsID  ecs.ID
	workers   *systems.Workers
	agents    agentMap
	filter    *generic.Filter0
	agentMask ecs.Mask
	filters   generic.Resource[components.Filters]
	settings  generic.Resource[components.Settings]
	stats     generic.Resource[components.Stats]
	timeStep  generic.Resource[components.TimeStep]
	events    generic.Resource[components.Events]
	presets   generic.Resource[components.AvoidancePresets]
	corridors []*crowd.Corridor // corridors of removed agents, for reuse
	// madeCorridors holds every corridor the plugin made, in use or in the
	// pool, so that each stays reachable by the garbage collector through
	// the plugin itself. arche copies component memory as bytes (removing
	// an entity moves the last one of its archetype into its slot), which
	// the collector's write barriers do not see: a corridor reachable only
	// through a Corridor component could be freed during a collection
	// while an agent still walks with it ("found pointer to free object").
	madeCorridors []*crowd.Corridor
	// obstacles creates and reads obstacle entities.
	obstacles    generic.Map3[components.Obstacle, components.ObstaclePose, components.ObstacleState]
	obstacleMask ecs.Mask
	// colliders creates and reads collider entities.
	colliders colliderEntities
	listener  removalListener
	// linkAPI serves the link calls (links.go).
	linkAPI linkAPI

	// requestsSinceTick counts move requests since the last PathRequest
	// stage, for Config.MaxPendingRequests.
	requestsSinceTick int
	// statusPoints is Status's straight path buffer.
	statusPoints []query.StraightPathPoint

	// agentQuery, obstacleQuery and linkQuery list the agents, obstacles
	// and link entities for Snapshot and Restore, made on first use.
	agentQuery    *agentQueryFilter
	obstacleQuery *obstacleQueryFilter
	linkQuery     *linkQueryFilter
	// saveScratch is the snapshot Save encodes; typeMeshes the agent
	// types' meshes in type order.
	saveScratch Snapshot
	typeMeshes  []*navmesh.Mesh
}

// New checks config and returns a plugin ready to Install. Zero Config
// fields take their defaults (see Config).
func New(config Config) (*Plugin, error) {
	c, err := config.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Plugin{config: c}
	p.schedule = NewSchedule()
	p.schedule.onEvent = c.OnEvent
	p.schedule.plugin = p
	return p, nil
}

// Config returns the plugin's configuration, defaults filled in.
func (p *Plugin) Config() Config { return p.config }

// Schedule returns the crowd's stages, to add user systems to or to hand to
// a scheduler.
func (p *Plugin) Schedule() *Schedule { return p.schedule }

// Install adds the crowd to world: the resources of package components
// (Navigation, Queries, PathQueue, ProximityGrid, Filters, AgentTypes,
// AvoidancePresets, TimeStep, Settings, Events, Stats, ObstacleBodies,
// LinkTraffic, and TileCache when Config.TileCache is set; the first agent type's mesh,
// queries, queue, filters and cache are those of Navigation, Queries,
// PathQueue, Filters and TileCache), a systems.StageRun (through which the
// schedule's stages share their list of agents) and, with more than one
// worker, a systems.Workers pool. The plugin's listener joins the
// world's shared listener.Dispatch resource; when there is none, Install
// adds one and makes it the world's listener (a listener set on the world
// without a Dispatch resource is replaced, so share a Dispatch). A plugin is
// installed once, in one world; on error nothing is added.
func (p *Plugin) Install(world *ecs.World) error {
	if world == nil {
		return fmt.Errorf("%w: nil world", ErrInvalidInput)
	}
	if p.world != nil {
		return fmt.Errorf("plugin: install: %w", ErrAlreadyInstalled)
	}
	if world.IsLocked() {
		return fmt.Errorf("plugin: install: %w", ErrWorldLocked)
	}
	if navigation := generic.NewResource[components.Navigation](world); navigation.Has() {
		return fmt.Errorf("plugin: install: the world already has a crowd: %w", ErrAlreadyInstalled)
	}
	c := &p.config

	// Build everything first, so that an error adds nothing.
	types := make([]agentType, len(c.AgentTypes))
	typeList := make([]components.AgentType, len(c.AgentTypes))
	for t := range c.AgentTypes {
		tc := &c.AgentTypes[t]
		queries := make([]*query.Query, c.Workers)
		for i := range queries {
			q, err := query.New(tc.Mesh, c.QueryNodes)
			if err != nil {
				return fmt.Errorf("plugin: install: agent type %s: %w", tc.Name, err)
			}
			queries[i] = q
		}
		apiQuery, err := query.New(tc.Mesh, c.QueryNodes)
		if err != nil {
			return fmt.Errorf("plugin: install: agent type %s: %w", tc.Name, err)
		}
		pathQueue, err := newPathQueue(c, tc)
		if err != nil {
			return fmt.Errorf("plugin: install: agent type %s: %w", tc.Name, err)
		}
		filters := components.NewFilters()
		copy(filters.List[:], tc.Filters)
		// Budgets equal to the first type's follow the Settings resource,
		// as the first type's do.
		iterations, requests := tc.PathQueueIterations, tc.RequestsPerTick
		if iterations == c.PathQueueIterations {
			iterations = 0
		}
		if requests == c.RequestsPerTick {
			requests = 0
		}
		types[t] = agentType{index: t, name: tc.Name, mesh: tc.Mesh, query: apiQuery, pathQueue: pathQueue, filters: &filters}
		typeList[t] = components.AgentType{
			Name: tc.Name, Mesh: tc.Mesh, Queries: queries, Filters: &filters, PathQueue: pathQueue,
			PathQueueIterations: iterations, RequestsPerTick: requests,
			TileCache: tc.TileCache, CarveInflation: max(0, tc.CarveInflation),
		}
	}
	grid, err := crowd.NewProximityGrid(c.MaxAgents*4, c.MaxAgentRadius*3)
	if err != nil {
		return fmt.Errorf("plugin: install: %w", err)
	}
	queries, apiQuery, pathQueue, filters := typeList[0].Queries, types[0].query, types[0].pathQueue, typeList[0].Filters
	presets := components.NewAvoidancePresets()
	copy(presets.List[:], c.AvoidancePresets)
	var workers *systems.Workers
	if c.Workers > 1 {
		if workers, err = systems.NewWorkers(c.Workers); err != nil {
			return fmt.Errorf("plugin: install: %w", err)
		}
	}

	settings := c.settings()
	ecs.AddResource(world, &components.Navigation{Mesh: c.Mesh})
	ecs.AddResource(world, &components.Queries{PerWorker: queries})
	ecs.AddResource(world, &components.PathQueue{Queue: pathQueue})
	ecs.AddResource(world, &components.ProximityGrid{Grid: grid})
	ecs.AddResource(world, filters)
	ecs.AddResource(world, &components.AgentTypes{List: typeList})
	ecs.AddResource(world, &presets)
	ecs.AddResource(world, &components.TimeStep{Dt: c.TimeStep})
	ecs.AddResource(world, &settings)
	ecs.AddResource(world, &components.Events{})
	ecs.AddResource(world, &components.Stats{})
	ecs.AddResource(world, &components.ObstacleBodies{})
	ecs.AddResource(world, &systems.StageRun{})
	if c.TileCache != nil {
		ecs.AddResource(world, &components.TileCache{Cache: c.TileCache})
	}
	if c.DynamicMesh != nil {
		geometry := &components.DynamicGeometry{Mesh: c.DynamicMesh}
		for _, t := range c.AgentTypes[1:] {
			geometry.Others = append(geometry.Others, t.DynamicMesh)
		}
		ecs.AddResource(world, geometry)
	}
	if workers != nil {
		ecs.AddResource(world, workers)
	}

	p.world = world
	p.query = apiQuery
	p.pathQueue = pathQueue
	p.types = types
	p.paramsID = ecs.ComponentID[components.AgentParams](world)
	p.workers = workers
	p.agents = generic.NewMap10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	](world)
	agentComps := generic.T10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	]()
	p.filter = generic.NewFilter0().With(agentComps...)
	ids := make([]ecs.ID, len(agentComps))
	for i, c := range agentComps {
		ids[i] = ecs.TypeID(world, reflect.Type(c))
	}
	p.agentMask = ecs.All(ids...)
	p.filters = generic.NewResource[components.Filters](world)
	p.settings = generic.NewResource[components.Settings](world)
	p.stats = generic.NewResource[components.Stats](world)
	p.timeStep = generic.NewResource[components.TimeStep](world)
	p.events = generic.NewResource[components.Events](world)
	p.obstacles = generic.NewMap3[components.Obstacle, components.ObstaclePose, components.ObstacleState](world)
	obstacleIDs := []ecs.ID{
		ecs.ComponentID[components.Obstacle](world),
		ecs.ComponentID[components.ObstaclePose](world),
		ecs.ComponentID[components.ObstacleState](world),
	}
	p.obstacleMask = ecs.All(obstacleIDs...)
	p.colliders = newColliderEntities(world)
	p.presets = generic.NewResource[components.AvoidancePresets](world)

	p.listener = removalListener{
		plugin: p,
		target: ecs.ComponentID[components.MoveTarget](world),
		path:   ecs.ComponentID[components.Corridor](world),
	}
	p.listener.mask = ecs.All(p.listener.target)
	dispatch := generic.NewResource[listener.Dispatch](world)
	if !dispatch.Has() {
		d := listener.NewDispatch()
		dispatch.Add(&d)
	}
	d := dispatch.Get()
	d.AddListener(&p.listener)
	p.installLinks(world, d)
	world.SetListener(d)
	return nil
}

// Step runs one tick of length dt on world: the Schedule's Update with
// TimeStep.Dt = dt, initializing the Schedule first if needed.
//
// dt [Limit: > 0, finite] [Units: s]
func (p *Plugin) Step(world *ecs.World, dt float32) error {
	return p.schedule.Step(world, dt)
}

// Events returns the events of the last tick (see components.Events). The
// slice is reused by the next tick.
func (p *Plugin) Events(world *ecs.World) []components.Event {
	if p.world == nil || world != p.world || !p.events.Has() {
		return nil
	}
	return p.events.Get().All()
}

// Stats returns the last tick's statistics.
func (p *Plugin) Stats(world *ecs.World) *components.Stats {
	if p.world == nil || world != p.world || !p.stats.Has() {
		return nil
	}
	return p.stats.Get()
}

// AvoidancePreset returns avoidance preset index
// [Limit: 0..components.MaxAvoidancePresets-1].
func (p *Plugin) AvoidancePreset(world *ecs.World, index int) (crowd.AvoidanceParams, error) {
	const what = "avoidance preset"
	if err := p.checkPreset(world, index, what, false); err != nil {
		return crowd.AvoidanceParams{}, err
	}
	return p.presets.Get().List[index], nil
}

// SetAvoidancePreset replaces avoidance preset index
// [Limit: 0..components.MaxAvoidancePresets-1] after validating params:
// from the next tick on, every agent whose AgentParams.AvoidancePreset is
// index avoids with them (switching its method, say, from adaptive sampling
// to ORCA). On error nothing changes.
func (p *Plugin) SetAvoidancePreset(world *ecs.World, index int, params crowd.AvoidanceParams) error {
	const what = "set avoidance preset"
	if err := p.checkPreset(world, index, what, true); err != nil {
		return err
	}
	if err := params.Validate(); err != nil {
		return fmt.Errorf("plugin: %s %d: %w: %w", what, index, ErrInvalidInput, err)
	}
	p.presets.Get().List[index] = params
	return nil
}

// checkPreset checks the world and a preset index.
func (p *Plugin) checkPreset(world *ecs.World, index int, what string, mutating bool) error {
	if err := p.checkWorld(world, what, mutating); err != nil {
		return err
	}
	if index < 0 || index >= components.MaxAvoidancePresets {
		return fmt.Errorf("plugin: %s: index %d not in 0..%d: %w", what, index, components.MaxAvoidancePresets-1, ErrInvalidInput)
	}
	if !p.presets.Has() {
		return fmt.Errorf("plugin: %s: no AvoidancePresets resource: %w", what, ErrNotInstalled)
	}
	return nil
}

// removalListener releases the path queue request and recycles the corridor
// of an agent removed from the world, however it was removed.
type removalListener struct {
	plugin       *Plugin
	target, path ecs.ID
	mask         ecs.Mask
}

// Notify handles an entity removal.
func (l *removalListener) Notify(world *ecs.World, evt ecs.EntityEvent) {
	if !evt.Contains(event.EntityRemoved) || !world.Has(evt.Entity, l.target) {
		return
	}
	target := (*components.MoveTarget)(world.Get(evt.Entity, l.target))
	if target.Request != 0 {
		queue := l.plugin.pathQueue
		if world.Has(evt.Entity, l.plugin.paramsID) {
			queue = l.plugin.typeOf((*components.AgentParams)(world.Get(evt.Entity, l.plugin.paramsID))).pathQueue
		}
		queue.Abandon(target.Request)
		target.Request = 0
	}
	if world.Has(evt.Entity, l.path) {
		if c := (*components.Corridor)(world.Get(evt.Entity, l.path)); c.Corridor != nil {
			l.plugin.corridors = append(l.plugin.corridors, c.Corridor)
			c.Corridor = nil
		}
	}
}

// Subscriptions returns the event types the listener wants.
func (l *removalListener) Subscriptions() event.Subscription { return event.EntityRemoved }

// Components returns the components the listener is restricted to.
func (l *removalListener) Components() *ecs.Mask { return &l.mask }
