package plugin

import (
	"fmt"
	"math"
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
)

// AgentSpec describes one agent for SpawnBatch.
type AgentSpec struct {
	// Position is where to place the agent; it goes to the nearest navmesh
	// point [Units: world units]
	Position geom.Vec3
	// Params configure the agent.
	Params components.AgentParams
}

// checkWorld reports whether the plugin is installed in world; mutating
// calls also need the world unlocked.
func (p *Plugin) checkWorld(world *ecs.World, what string, mutating bool) error {
	if p.world == nil || world != p.world {
		return fmt.Errorf("plugin: %s: %w", what, ErrNotInstalled)
	}
	if mutating && world.IsLocked() {
		return fmt.Errorf("plugin: %s: %w", what, ErrWorldLocked)
	}
	return nil
}

// checkAgent reports whether e is a live agent of this crowd.
func (p *Plugin) checkAgent(world *ecs.World, e ecs.Entity, what string) error {
	if e.IsZero() || !world.Alive(e) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotAgent)
	}
	if mask := world.Mask(e); !mask.Contains(&p.agentMask) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotAgent)
	}
	return nil
}

// checkParams validates agent parameters against the crowd's limits.
func (p *Plugin) checkParams(params *components.AgentParams, what string) error {
	if err := params.Validate(); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrInvalidInput, err)
	}
	if params.Radius > p.config.MaxAgentRadius {
		return fmt.Errorf("plugin: %s: radius %v above the crowd's maximum %v (raise Config.MaxAgentRadius): %w",
			what, params.Radius, p.config.MaxAgentRadius, ErrInvalidInput)
	}
	if int(params.Type) >= len(p.config.AgentTypes) {
		return fmt.Errorf("plugin: %s: agent type %d, the crowd has %d (%v): %w",
			what, params.Type, len(p.config.AgentTypes), p.AgentTypeNames(), ErrInvalidInput)
	}
	return nil
}

// searchBox is a box searched for the polygon nearest a point: its half
// extents and the setting that sizes it, for the error.
type searchBox struct {
	halfExtents geom.Vec3
	setting     string
}

// placementBox is the box of Spawn and Teleport.
func (p *Plugin) placementBox() searchBox {
	return searchBox{p.settings.Get().PlacementHalfExtents, "Settings.PlacementHalfExtents (2, 1.5, 2 × Config.MaxAgentRadius)"}
}

// targetBox is the box of RequestMoveTarget.
func (p *Plugin) targetBox() searchBox {
	return searchBox{p.settings.Get().TargetHalfExtents, "Config.TargetHalfExtents (or Settings.TargetHalfExtents)"}
}

// place finds the point nearest pos within box on the navmesh of the
// type of an agent with params. When there is none, the error says how far
// the nearest polygon is and which setting to widen.
func (p *Plugin) place(pos geom.Vec3, params *components.AgentParams, box searchBox, what string) (navmesh.Ref, geom.Vec3, error) {
	if !geom.IsFinite(pos) {
		return 0, geom.Vec3{}, fmt.Errorf("plugin: %s: position %v: %w", what, pos, ErrInvalidInput)
	}
	t := p.typeOf(params)
	filter := &t.filters.List[int(params.Filter)%components.MaxFilters]
	nearest, err := t.query.FindNearestPoly(pos, box.halfExtents, filter)
	if err != nil {
		return 0, geom.Vec3{}, fmt.Errorf("plugin: %s: position %v: %w: %w", what, pos, ErrInvalidInput, err)
	}
	if nearest.Ref == 0 {
		extents := box.halfExtents
		if distance, found := p.nearestPolyDistance(t, pos, extents, filter); found {
			return 0, geom.Vec3{}, fmt.Errorf("plugin: %s: position %v: %w: no polygon within ±(%.3g, %.3g, %.3g) of it, "+
				"the nearest is %.3g away; widen %s to snap from there",
				what, pos, ErrOffMesh, extents[0], extents[1], extents[2], distance, box.setting)
		}
		if bmin, bmax, passes := meshBoundsWherePasses(t.mesh.Snapshot(), filter); passes {
			// Polygons pass, but the search could not measure its way to
			// them: float32 distances from pos overflow.
			return 0, geom.Vec3{}, fmt.Errorf("plugin: %s: position %v: %w: it lies %.3g world units from the navmesh of agent type %s (%v..%v), too far to search for a polygon; place it on the level",
				what, pos, ErrOffMesh, boxDistance(pos, bmin, bmax), t.name, bmin, bmax)
		}
		return 0, geom.Vec3{}, fmt.Errorf("plugin: %s: position %v: %w: no polygon the agent's filter %d passes on the whole navmesh of agent type %s",
			what, pos, ErrOffMesh, params.Filter, t.name)
	}
	return nearest.Ref, nearest.Point, nil
}

// nearestPolyDistance returns the straight-line distance from pos to the
// nearest polygon filter passes, searching boxes that double from extents
// until one holds the whole navmesh; found is false when no polygon
// passes. It runs only for an error message.
func (p *Plugin) nearestPolyDistance(t *agentType, pos, extents geom.Vec3, filter *query.Filter) (distance float32, found bool) {
	snap := t.mesh.Snapshot()
	first := true
	var bmin, bmax geom.Vec3
	for i := 0; i < snap.MaxTiles(); i++ {
		if tile := snap.Tile(i); tile != nil && tile.Data != nil {
			if first {
				bmin, bmax, first = tile.Data.Header.BMin, tile.Data.Header.BMax, false
			}
			bmin, bmax = geom.Min(bmin, tile.Data.Header.BMin), geom.Max(bmax, tile.Data.Header.BMax)
		}
	}
	if first {
		return 0, false
	}
	// The half extents that reach every corner of the mesh from pos.
	var reach geom.Vec3
	for a := range 3 {
		reach[a] = max(bmax[a]-pos[a], pos[a]-bmin[a], extents[a])
	}
	for range 64 { // doubling reaches any float32 box long before
		nearest, err := t.query.FindNearestPoly(pos, extents, filter)
		if err != nil {
			return 0, false
		}
		if nearest.Ref != 0 {
			distance, found = geom.Dist(pos, nearest.Point), true
			break
		}
		if extents[0] >= reach[0] && extents[1] >= reach[1] && extents[2] >= reach[2] {
			return 0, false
		}
		extents = geom.Min(geom.Scale(extents, 2), reach)
	}
	if !found {
		return 0, false
	}
	// The box found a polygon, not necessarily the nearest: every polygon
	// nearer lies in the cube of that distance.
	cube := max(distance, 1e-3)
	_ = t.query.QueryPolygonsFunc(pos, geom.Vec3{cube, cube, cube}, filter, func(tile *navmesh.Tile, refs []navmesh.Ref) {
		for _, ref := range refs {
			if closest, _ := tile.ClosestPointOnPoly(&tile.Polys[ref.PolyIndex()], pos); geom.Dist(pos, closest) < distance {
				distance = geom.Dist(pos, closest)
			}
		}
	})
	return distance, true
}

// agentCount returns the number of agents in the world.
func (p *Plugin) agentCount(world *ecs.World) int {
	q := p.filter.Query(world)
	n := q.Count()
	q.Close()
	return n
}

// newCorridor returns a corridor from the pool of removed agents' ones, or a
// new one.
func (p *Plugin) newCorridor(ref navmesh.Ref, pos geom.Vec3) (*crowd.Corridor, error) {
	var c *crowd.Corridor
	if n := len(p.corridors); n > 0 {
		c = p.corridors[n-1]
		p.corridors[n-1] = nil
		p.corridors = p.corridors[:n-1]
	} else {
		var err error
		if c, err = crowd.NewCorridor(p.config.MaxPath); err != nil {
			return nil, err
		}
		p.madeCorridors = append(p.madeCorridors, c)
	}
	c.Reset(ref, pos)
	return c, nil
}

// initAgent sets the components of a new agent at pos.
func initAgent(corridor *crowd.Corridor, pos geom.Vec3, params components.AgentParams,
	pParams *components.AgentParams, pPos *components.Position, vel *components.Velocity,
	state *components.AgentState, corr *components.Corridor, target *components.MoveTarget,
	boundary *components.Boundary, neighbours *components.Neighbours, corners *components.Corners,
	anim *components.OffMeshAnimation,
) {
	*pParams = params
	*pPos = components.Position(pos)
	*vel = components.Velocity{}
	*state = components.AgentState{Mode: components.AgentWalking}
	*corr = components.Corridor{Corridor: corridor}
	*target = components.MoveTarget{}
	boundary.LocalBoundary = crowd.NewLocalBoundary()
	*neighbours = components.Neighbours{}
	*corners = components.Corners{}
	*anim = components.OffMeshAnimation{}
}

// Spawn adds an agent at the navmesh point nearest pos (searched within
// Settings.PlacementHalfExtents, with the agent's filter) and returns its
// entity. The agent stands still until it gets a move request.
func (p *Plugin) Spawn(world *ecs.World, pos geom.Vec3, params components.AgentParams) (ecs.Entity, error) {
	const what = "spawn"
	if err := p.checkWorld(world, what, true); err != nil {
		return ecs.Entity{}, err
	}
	if err := p.checkParams(&params, what); err != nil {
		return ecs.Entity{}, err
	}
	if n := p.agentCount(world); n >= p.config.MaxAgents {
		return ecs.Entity{}, fmt.Errorf("plugin: %s: %d agents: %w", what, n, ErrTooManyAgents)
	}
	ref, nearest, err := p.place(pos, &params, p.placementBox(), what)
	if err != nil {
		return ecs.Entity{}, err
	}
	corridor, err := p.newCorridor(ref, nearest)
	if err != nil {
		return ecs.Entity{}, fmt.Errorf("plugin: %s: %w", what, err)
	}
	e := p.agents.New()
	pParams, pPos, vel, state, corr, target, boundary, neighbours, corners, anim := p.agents.Get(e)
	initAgent(corridor, nearest, params, pParams, pPos, vel, state, corr, target, boundary, neighbours, corners, anim)
	return e, nil
}

// SpawnBatch adds one agent per spec, like Spawn but creating the entities
// in one batch, and appends their entities to dst in spec order. Every spec
// is checked first: on error no agent is added.
//
// The entities are created in spatial order (along a Hilbert curve over
// the agents' positions), whatever the order of specs, except with
// Config.Reference (then in spec order, as dtCrowd numbers its agents).
// The world stores an archetype's components in creation order, and the
// crowd's stages visit the agents in that order: neighbours that are near
// in memory too, and agents on the same tiles one after another, make a
// large crowd's ticks much cheaper (a fifth less CPU and wall time for
// 10,000 agents spread over a square kilometre than the same agents
// spawned one by one in a scattered order: benchmarks'
// BenchmarkCrowdSpawnOrder) than a scattered spawn order would. Each
// agent's entity is still dst[len(dst)+i] for specs[i]; what depends on
// the creation order is which entity ID each agent gets and the order the
// crowd visits agents in (which agent's path request is served first, the
// order of events of one stage).
func (p *Plugin) SpawnBatch(world *ecs.World, specs []AgentSpec, dst []ecs.Entity) ([]ecs.Entity, error) {
	const what = "spawn batch"
	if err := p.checkWorld(world, what, true); err != nil {
		return dst, err
	}
	if len(specs) == 0 {
		return dst, nil
	}
	if n := p.agentCount(world); n+len(specs) > p.config.MaxAgents {
		return dst, fmt.Errorf("plugin: %s: %d agents + %d: %w", what, n, len(specs), ErrTooManyAgents)
	}
	type placed struct {
		ref navmesh.Ref
		pos geom.Vec3
	}
	places := make([]placed, len(specs))
	// bounds of the places on the xz-plane: min x, min z, max x, max z.
	inf := float32(math.Inf(1))
	bounds := [4]float32{inf, inf, -inf, -inf}
	for i := range specs {
		if err := p.checkParams(&specs[i].Params, what); err != nil {
			return dst, fmt.Errorf("%w (spec %d)", err, i)
		}
		ref, pos, err := p.place(specs[i].Position, &specs[i].Params, p.placementBox(), what)
		if err != nil {
			return dst, fmt.Errorf("%w (spec %d)", err, i)
		}
		places[i] = placed{ref, pos}
		bounds = [4]float32{min(bounds[0], pos[0]), min(bounds[1], pos[2]), max(bounds[2], pos[0]), max(bounds[3], pos[2])}
	}
	// The creation order; new corridors are allocated in it too, so that
	// they lie in memory as their agents do.
	var order []int
	if p.config.Reference {
		order = make([]int, len(specs))
		for i := range order {
			order[i] = i
		}
	} else {
		positions := make([]geom.Vec3, len(specs))
		for i := range places {
			positions[i] = places[i].pos
		}
		order = spatialOrder(positions)
	}
	corridors := make([]*crowd.Corridor, len(specs))
	for k, i := range order {
		c, err := p.newCorridor(places[i].ref, places[i].pos)
		if err != nil {
			for _, j := range order[:k] {
				p.corridors = append(p.corridors, corridors[j])
			}
			return dst, fmt.Errorf("plugin: %s: %w", what, err)
		}
		corridors[i] = c
	}
	start := len(dst)
	dst = slices.Grow(dst, len(specs))[:start+len(specs)]
	q := p.agents.NewBatchQ(len(specs))
	for k := 0; q.Next(); k++ {
		i := order[k]
		pParams, pPos, vel, state, corr, target, boundary, neighbours, corners, anim := q.Get()
		initAgent(corridors[i], places[i].pos, specs[i].Params, pParams, pPos, vel, state, corr, target, boundary, neighbours, corners, anim)
		dst[start+i] = q.Entity()
	}
	p.reserve(world, dst[start:], bounds)
	return dst, nil
}

// reserve sizes the crowd's per-agent buffers for the agents the world
// holds after a SpawnBatch that created spawned, within bounds (min x,
// min z, max x, max z): the stage run's agent list, the buffers of the
// stages that are systems.Reserver, the proximity grid's index and the
// event list (room for one event per agent). The
// first tick after a mass spawn then does the work of any other tick
// instead of also allocating and zeroing megabytes of buffers (issue 23).
// Nothing it sizes changes a result.
func (p *Plugin) reserve(world *ecs.World, spawned []ecs.Entity, bounds [4]float32) {
	agents := p.agentCount(world)
	entityIDs := 0
	for _, e := range spawned {
		entityIDs = max(entityIDs, int(e.ID())+1)
	}
	resources := world.Resources()
	if id := ecs.ResourceID[systems.StageRun](world); resources.Has(id) {
		resources.Get(id).(*systems.StageRun).Reserve(agents, entityIDs)
	}
	for _, st := range p.schedule.stages {
		if r, ok := st.system.(systems.Reserver); ok {
			r.Reserve(agents)
		}
	}
	if id := ecs.ResourceID[components.Events](world); resources.Has(id) {
		resources.Get(id).(*components.Events).Reserve(agents)
	}
	if id := ecs.ResourceID[components.ProximityGrid](world); resources.Has(id) {
		if grid := resources.Get(id).(*components.ProximityGrid).Grid; grid != nil {
			r := p.config.MaxAgentRadius
			grid.ReserveIndex(bounds[0]-r, bounds[1]-r, bounds[2]+r, bounds[3]+r)
		}
	}
}

// Remove removes agent e from the world (world.RemoveEntity works too).
func (p *Plugin) Remove(world *ecs.World, e ecs.Entity) error {
	const what = "remove"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	world.RemoveEntity(e)
	return nil
}

// cancelRequest drops the agent's path queue request, if any
// (crowd.PathQueue.Abandon: in Reference mode it runs on and expires, as in
// dtCrowd).
func (p *Plugin) cancelRequest(params *components.AgentParams, target *components.MoveTarget) {
	if target.Request != 0 {
		p.typeOf(params).pathQueue.Abandon(target.Request)
		target.Request = 0
	}
}

// RequestMoveTarget sends agent e to the navmesh point nearest pos, found
// within Settings.TargetHalfExtents of it (Config.TargetHalfExtents: by
// default ±2 across and ±4 up and down), so a target off the navmesh, such
// as a point on a wall, snaps to the floor next to it; one with no polygon
// in that box fails with ErrOffMesh, the error giving the distance to the
// nearest polygon. The path is planned by the next ticks;
// EventTargetReached, EventPathFailed or EventPartialPath tell how it went.
// It fails with ErrPathQueueFull when Config.MaxPendingRequests agents
// already wait for a path.
func (p *Plugin) RequestMoveTarget(world *ecs.World, e ecs.Entity, pos geom.Vec3) error {
	const what = "request move target"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	params, _, _, _, _, target, _, _, _, _ := p.agents.Get(e)
	ref, nearest, err := p.place(pos, params, p.targetBox(), what)
	if err != nil {
		return err
	}
	if limit := p.config.MaxPendingRequests; limit > 0 {
		pending := p.requestsSinceTick
		if p.stats.Has() {
			pending += p.stats.Get().WaitingForQueue
		}
		if pending >= limit {
			return fmt.Errorf("plugin: %s: %d requests pending: %w", what, pending, ErrPathQueueFull)
		}
	}
	p.requestsSinceTick++
	p.cancelRequest(params, target)
	target.State = components.TargetRequesting
	target.Ref = ref
	target.Position = nearest
	target.Requested, target.Displaced = nearest, false
	target.Replan = false
	target.Arrived, target.ArrivedNear, target.Approach = false, false, components.Approach{}
	target.PartialReported = false
	target.PartialEnd, target.ReplanDelay = 0, 0
	target.PathWait, target.PathFound = 0, false
	return nil
}

// RequestMoveVelocity makes agent e walk with velocity vel (its y is
// ignored by the steering) until another request [Units: world units / s].
func (p *Plugin) RequestMoveVelocity(world *ecs.World, e ecs.Entity, vel geom.Vec3) error {
	const what = "request move velocity"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	if !geom.IsFinite(vel) {
		return fmt.Errorf("plugin: %s: velocity %v: %w", what, vel, ErrInvalidInput)
	}
	params, _, _, _, _, target, _, _, _, _ := p.agents.Get(e)
	p.cancelRequest(params, target)
	*target = components.MoveTarget{State: components.TargetVelocity, Velocity: vel, ReplanTime: target.ReplanTime}
	return nil
}

// ResetMoveTarget cancels agent e's move request: it stops.
func (p *Plugin) ResetMoveTarget(world *ecs.World, e ecs.Entity) error {
	const what = "reset move target"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	params, _, vel, _, _, target, _, _, _, _ := p.agents.Get(e)
	p.cancelRequest(params, target)
	*target = components.MoveTarget{State: components.TargetNone, ReplanTime: target.ReplanTime}
	vel.Desired = geom.Vec3{}
	return nil
}

// Teleport puts agent e at the navmesh point nearest pos, standing still
// and walking; a move target it had is planned again from there.
func (p *Plugin) Teleport(world *ecs.World, e ecs.Entity, pos geom.Vec3) error {
	const what = "teleport"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	params, position, vel, state, corridor, target, boundary, neighbours, corners, anim := p.agents.Get(e)
	ref, nearest, err := p.place(pos, params, p.placementBox(), what)
	if err != nil {
		return err
	}
	return p.reset(params, params, ref, nearest, position, vel, state, corridor, target, boundary, neighbours, corners, anim, what)
}

// reset puts an agent, now with params, at point nearest of polygon ref,
// standing still and walking, its move target planned again from there;
// old are its params before (the type whose queue may hold its request).
func (p *Plugin) reset(old, params *components.AgentParams, ref navmesh.Ref, nearest geom.Vec3,
	position *components.Position, vel *components.Velocity, state *components.AgentState,
	corridor *components.Corridor, target *components.MoveTarget, boundary *components.Boundary,
	neighbours *components.Neighbours, corners *components.Corners, anim *components.OffMeshAnimation, what string,
) error {
	if corridor.Corridor == nil {
		c, err := p.newCorridor(ref, nearest)
		if err != nil {
			return fmt.Errorf("plugin: %s: %w", what, err)
		}
		corridor.Corridor = c
	}
	p.cancelRequest(old, target)
	*old = *params
	corridor.Reset(ref, nearest)
	*position = components.Position(nearest)
	*vel = components.Velocity{}
	*state = components.AgentState{Mode: components.AgentWalking, Stopped: state.Stopped}
	boundary.Reset()
	*neighbours = components.Neighbours{}
	*corners = components.Corners{}
	*anim = components.OffMeshAnimation{}
	if target.State.HasPath() && target.Ref != 0 {
		target.State = components.TargetRequesting
		target.Replan = false
		target.Arrived, target.ArrivedNear, target.Approach = false, false, components.Approach{}
		target.PartialReported = false
		target.PathWait, target.PathFound = 0, false
	}
	return nil
}

// UpdateParams replaces agent e's parameters. A new Type moves the agent
// onto the other type's navmesh: to its point nearest the agent's position
// within Settings.PlacementHalfExtents (with the new filter), standing
// still, a move target it had found again on that navmesh (within
// Settings.TargetHalfExtents) and planned from there. When the new navmesh
// has no polygon that near the agent (ErrOffMesh) or none near its target,
// UpdateParams fails and changes nothing.
func (p *Plugin) UpdateParams(world *ecs.World, e ecs.Entity, params components.AgentParams) error {
	const what = "update params"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	if err := p.checkParams(&params, what); err != nil {
		return err
	}
	pParams, position, vel, state, corridor, target, boundary, neighbours, corners, anim := p.agents.Get(e)
	if params.Type == pParams.Type {
		*pParams = params
		return nil
	}
	// A new type: find the agent, and its target, on the new navmesh first.
	ref, nearest, err := p.place(position.Vec3(), &params, p.placementBox(), what)
	if err != nil {
		return fmt.Errorf("%w (moving to agent type %s)", err, p.types[params.Type].name)
	}
	retarget := target.State.HasPath() && target.State != components.TargetVelocity
	var targetRef navmesh.Ref
	var targetPos geom.Vec3
	if retarget {
		requested := target.Requested
		if requested == (geom.Vec3{}) {
			requested = target.Position
		}
		if targetRef, targetPos, err = p.place(requested, &params, p.targetBox(), what); err != nil {
			return fmt.Errorf("%w (the move target, moving to agent type %s)", err, p.types[params.Type].name)
		}
	}
	old := *pParams
	if err := p.reset(pParams, &params, ref, nearest, position, vel, state, corridor, target, boundary, neighbours, corners, anim, what); err != nil {
		*pParams = old
		return err
	}
	if retarget {
		target.Ref, target.Position, target.Displaced = targetRef, targetPos, false
		target.State = components.TargetRequesting
		target.Replan, target.Arrived, target.PartialReported = false, false, false
		target.ArrivedNear, target.Approach = false, components.Approach{}
		target.PartialEnd, target.ReplanDelay = 0, 0
		target.PathWait, target.PathFound = 0, false
	}
	return nil
}

// AgentInfo is a read-out of one agent.
type AgentInfo struct {
	// Mode is what the agent is doing.
	Mode components.AgentMode
	// Target is where its move request stands.
	Target components.TargetState
	// TargetPosition is the target point [Units: world units]
	TargetPosition geom.Vec3
	// Partial reports a corridor that does not reach the target.
	Partial bool
	// Arrived reports that EventTargetReached fired for the target.
	Arrived bool
	// ArrivedNear reports that it fired short of the target: the agent
	// got no nearer, within Settings.ArrivalTolerance or pressed against
	// idle agents nearer the target (see components.MoveTarget).
	ArrivedNear bool
	// Stopped reports that the agent is paused (Stop).
	Stopped bool
	// Position is where the agent is [Units: world units]
	Position geom.Vec3
	// Velocity is its actual velocity [Units: world units / s]
	Velocity geom.Vec3
	// Poly is the polygon it stands on, 0 when invalid; a polygon of its
	// type's navmesh.
	Poly navmesh.Ref
	// Type is its agent type (AgentParams.Type), TypeName that type's name.
	Type     uint8
	TypeName string
}

// State returns a read-out of agent e. Read-outs work while queries lock
// the world.
func (p *Plugin) State(world *ecs.World, e ecs.Entity) (AgentInfo, error) {
	const what = "state"
	if err := p.checkWorld(world, what, false); err != nil {
		return AgentInfo{}, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return AgentInfo{}, err
	}
	params, position, vel, state, corridor, target, _, _, _, _ := p.agents.Get(e)
	info := AgentInfo{
		Type:           params.Type,
		TypeName:       p.typeOf(params).name,
		Mode:           state.Mode,
		Target:         target.State,
		TargetPosition: target.Position,
		Partial:        state.Partial,
		Arrived:        target.Arrived,
		ArrivedNear:    target.ArrivedNear,
		Stopped:        state.Stopped,
		Position:       position.Vec3(),
		Velocity:       vel.Actual,
	}
	if corridor.Corridor != nil {
		info.Poly = corridor.FirstPoly()
	}
	if target.State == components.TargetVelocity {
		info.TargetPosition = geom.Vec3{}
	}
	return info, nil
}

// Corridor appends agent e's remaining corridor, from the polygon it stands
// on to the target's, to dst.
func (p *Plugin) Corridor(world *ecs.World, e ecs.Entity, dst []navmesh.Ref) ([]navmesh.Ref, error) {
	const what = "corridor"
	if err := p.checkWorld(world, what, false); err != nil {
		return dst, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return dst, err
	}
	_, _, _, _, corridor, _, _, _, _, _ := p.agents.Get(e)
	if corridor.Corridor == nil {
		return dst, nil
	}
	return append(dst, corridor.Path()...), nil
}

// Corners returns agent e's next corners, as found by the last Steering
// stage.
func (p *Plugin) Corners(world *ecs.World, e ecs.Entity) (components.Corners, error) {
	const what = "corners"
	if err := p.checkWorld(world, what, false); err != nil {
		return components.Corners{}, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return components.Corners{}, err
	}
	_, _, _, _, _, _, _, _, corners, _ := p.agents.Get(e)
	return *corners, nil
}

// meshBoundsWherePasses returns the bounds of the tiles of snap and
// whether filter passes any of their polygons. It runs only for an error
// message.
func meshBoundsWherePasses(snap *navmesh.Snapshot, filter *query.Filter) (bmin, bmax geom.Vec3, passes bool) {
	first := true
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		if first {
			bmin, bmax, first = tile.Data.Header.BMin, tile.Data.Header.BMax, false
		}
		bmin, bmax = geom.Min(bmin, tile.Data.Header.BMin), geom.Max(bmax, tile.Data.Header.BMax)
		base := tile.PolyRefBase()
		for p := range tile.Polys {
			passes = passes || filter.Passes(base|navmesh.Ref(p), tile, &tile.Polys[p])
		}
	}
	return bmin, bmax, passes
}

// boxDistance returns the distance from pos to the box [bmin, bmax],
// computed in float64 so that it does not overflow.
func boxDistance(pos, bmin, bmax geom.Vec3) float64 {
	var sum float64
	for a := range 3 {
		d := max(float64(bmin[a])-float64(pos[a]), float64(pos[a])-float64(bmax[a]), 0)
		sum += float64(d * d)
	}
	return math.Sqrt(sum)
}
