package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// stage is what every system shares: the agent table and the resources,
// fetched afresh at the start of each Update so that a user may swap them
// between ticks.
type stage struct {
	// table lists the agents of this Update: the StageRun's while a run is
	// open, otherwise own.
	table *agentTable
	own   agentTable

	queriesRes  generic.Resource[components.Queries]
	filtersRes  generic.Resource[components.Filters]
	settingsRes generic.Resource[components.Settings]
	timeStepRes generic.Resource[components.TimeStep]
	eventsRes   generic.Resource[components.Events]
	statsRes    generic.Resource[components.Stats]
	workersRes  generic.Resource[Workers]
	bodiesRes   generic.Resource[components.ObstacleBodies]
	typesRes    generic.Resource[components.AgentTypes]
	runRes      generic.Resource[StageRun]

	// Valid during an Update.
	queries []*query.Query
	filters *components.Filters
	// types are the agent types: types[0] is queries and filters, the
	// others come from the AgentTypes resource.
	types    []stageType
	settings components.Settings
	dt       float32
	events   *components.Events
	stats    *components.Stats
	workers  *Workers
	agents   []agent
	// bodies are this tick's obstacle bodies, nil when there are none.
	bodies *components.ObstacleBodies
}

func (s *stage) init(world *ecs.World) {
	s.own.init()
	s.table = &s.own
	s.queriesRes = generic.NewResource[components.Queries](world)
	s.filtersRes = generic.NewResource[components.Filters](world)
	s.settingsRes = generic.NewResource[components.Settings](world)
	s.timeStepRes = generic.NewResource[components.TimeStep](world)
	s.eventsRes = generic.NewResource[components.Events](world)
	s.statsRes = generic.NewResource[components.Stats](world)
	s.workersRes = generic.NewResource[Workers](world)
	s.bodiesRes = generic.NewResource[components.ObstacleBodies](world)
	s.typesRes = generic.NewResource[components.AgentTypes](world)
	s.runRes = generic.NewResource[StageRun](world)
}

// stageType is what a stage uses of one agent type.
type stageType struct {
	queries []*query.Query
	filters *components.Filters
}

// begin fetches the resources and lists the agents. It reports false, and
// the stage does nothing, when a resource every stage needs (Queries with at
// least one query, Filters) is missing. Settings default to
// components.DefaultSettings(0.6) and the time step to 1/60 s.
func (s *stage) begin(world *ecs.World) bool {
	if !s.beginResources() {
		return false
	}
	s.listAgents(world)
	return true
}

// listAgents lists the agents of world into s.agents, taking an open
// StageRun's list when there is one.
func (s *stage) listAgents(world *ecs.World) {
	s.table = &s.own
	if s.runRes.Has() {
		if shared := s.runRes.Get().agents(world); shared != nil {
			s.table = shared
		}
	}
	if s.table == &s.own {
		s.own.collect(world)
	}
	s.agents = s.table.agents
}

// beginResources is begin without listing the agents.
func (s *stage) beginResources() bool {
	s.queries, s.filters = nil, nil
	if !s.queriesRes.Has() || !s.filtersRes.Has() {
		return false
	}
	s.queries = s.queriesRes.Get().PerWorker
	if len(s.queries) == 0 || s.queries[0] == nil {
		return false
	}
	s.filters = s.filtersRes.Get()
	s.types = append(s.types[:0], stageType{s.queries, s.filters})
	if s.typesRes.Has() {
		list := s.typesRes.Get().List
		for i := 1; i < len(list) && i < components.MaxAgentTypes; i++ {
			t := &list[i]
			if len(t.Queries) == 0 || t.Queries[0] == nil || t.Filters == nil {
				// A broken type: its agents use the first type's.
				s.types = append(s.types, s.types[0])
				continue
			}
			s.types = append(s.types, stageType{t.Queries, t.Filters})
		}
	}
	if s.settingsRes.Has() {
		s.settings = *s.settingsRes.Get()
	} else {
		s.settings = components.DefaultSettings(0.6)
	}
	s.beginStepAndWorkers()
	s.events, s.stats = nil, nil
	if s.eventsRes.Has() {
		s.events = s.eventsRes.Get()
	}
	if s.statsRes.Has() {
		s.stats = s.statsRes.Get()
	}
	s.bodies = nil
	if s.bodiesRes.Has() {
		if b := s.bodiesRes.Get(); len(b.List) > 0 {
			s.bodies = b
		}
	}
	return true
}

// beginStepAndWorkers fetches the time step (1/60 s without a TimeStep
// resource) and the Workers pool (nil without one).
func (s *stage) beginStepAndWorkers() {
	s.dt = 1.0 / 60
	if s.timeStepRes.Has() {
		s.dt = s.timeStepRes.Get().Dt
	}
	s.workers = nil
	if s.workersRes.Has() {
		s.workers = s.workersRes.Get()
	}
}

// workerCount is the number of goroutines the parallel passes use: one per
// query, at most the pool's size.
func (s *stage) workerCount() int {
	n := min(len(s.queries), s.workers.Count())
	for i := 1; i < len(s.types); i++ {
		n = min(n, len(s.types[i].queries))
	}
	return n
}

// parallel runs job over every agent of the Update, spread over the
// workers. job(worker, begin, end) handles agents[begin:end] with the
// worker's query and scratch.
func (s *stage) parallel(job func(worker, begin, end int)) {
	s.workers.run(s.workerCount(), len(s.agents), job)
}

// agentType returns the type an agent with params p walks as: its Type,
// or the first type when the crowd has no such type.
func (s *stage) agentType(p *components.AgentParams) *stageType {
	if t := int(p.Type); t < len(s.types) {
		return &s.types[t]
	}
	return &s.types[0]
}

// query returns the query worker runs for an agent with params p: one on
// its type's navmesh.
func (s *stage) query(worker int, p *components.AgentParams) *query.Query {
	return s.agentType(p).queries[worker]
}

// typeIndex returns the index of the type an agent with params p walks as.
func (s *stage) typeIndex(p *components.AgentParams) int {
	if t := int(p.Type); t < len(s.types) {
		return t
	}
	return 0
}

// filter returns the query filter an agent uses, from its type's filters.
func (s *stage) filter(p *components.AgentParams) *query.Filter {
	return &s.agentType(p).filters.List[int(p.Filter)%components.MaxFilters]
}

// emit adds an event for agent a, when there is an Events resource.
func (s *stage) emit(kind components.EventKind, a *agent) {
	if s.events == nil {
		return
	}
	ev := components.Event{
		Kind:     kind,
		Entity:   a.entity,
		Position: a.position.Vec3(),
		Target:   a.target.Position,
		Type:     a.params.Type,
	}
	if kind == components.EventOffMeshStarted || kind == components.EventOffMeshFinished {
		ev.Poly = a.animation.Poly
	}
	s.events.Add(ev)
}

// emitPending emits, in table order, the events the agents raised in a
// parallel pass, and clears them.
func (s *stage) emitPending() {
	for i := range s.agents {
		a := &s.agents[i]
		if a.event != 0 {
			s.emit(a.event, a)
			a.event = 0
		}
		if a.event2 != 0 {
			s.emitPoly(a.event2, a, a.eventPoly)
			a.event2, a.eventPoly = 0, 0
		}
	}
}

// emitPoly adds an event for agent a naming polygon poly.
func (s *stage) emitPoly(kind components.EventKind, a *agent, poly navmesh.Ref) {
	if s.events == nil {
		return
	}
	s.events.Add(components.Event{Kind: kind, Entity: a.entity, Position: a.position.Vec3(), Target: a.target.Position, Poly: poly, Type: a.params.Type})
}

// raiseGround records one of the ground events (lost, regained, invalid,
// recovered) for emitPending, which emits it after the agent's other event
// of the pass; poly is the polygon the event names.
func (a *agent) raiseGround(kind components.EventKind, poly navmesh.Ref) {
	a.event2, a.eventPoly = kind, poly
}

// walking reports whether the agent is moved by the crowd this tick.
func walking(a *agent) bool { return a.state.Mode == components.AgentWalking }

// onFoot reports whether the agent moves under its own speed this tick:
// walking, or returning to the navmesh (components.AgentReturning).
func onFoot(a *agent) bool {
	return a.state.Mode == components.AgentWalking || a.state.Mode == components.AgentReturning
}

// returning reports whether the agent walks back to the navmesh.
func returning(a *agent) bool { return a.state.Mode == components.AgentReturning }

// arrivalDistance is how near (xz) its target an agent must come to have
// arrived: its stopping distance plus Settings.ArrivalDistance.
func arrivalDistance(a *agent, settings *components.Settings) float32 {
	if a.params.StoppingDistance > 0 {
		return a.params.StoppingDistance + settings.ArrivalDistance
	}
	return settings.ArrivalDistance
}
