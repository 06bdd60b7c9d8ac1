package plugin

import (
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// ErrDynamicGeometryNotSaved is wrapped when Snapshot, Save, Restore or
// Load is asked of a crowd with a dynamic navmesh (Config.DynamicMesh) or
// a world with collider entities: the dynamic mesh's colliders, voxels and
// pending tiles and the ColliderSync stage's state are not in a snapshot
// yet, and a restore that left them out would not go on as the saved run.
var ErrDynamicGeometryNotSaved = errors.New("plugin: dynamic geometry (a dynamic navmesh, colliders) is not saved")

// ErrSnapshotMismatch is wrapped when a Snapshot, or a saved file, does
// not fit the plugin it is restored into: taken from another plugin, with
// other agent types, meshes, tile caches or path queue sizes, or empty.
var ErrSnapshotMismatch = errors.New("plugin: snapshot does not fit the crowd")

// Snapshot is the navigation state of a world between two ticks: every
// agent's and obstacle's components with what the crowd keeps inside them
// (corridors, boundaries, corner and ray memories), each agent type's
// navmesh (tiles with their salts, so saved polygon refs stay valid), tile
// cache (obstacles, their carve timers, queued rebuilds) and path queue
// (requests in progress with their searches), the runtime links (link
// entities, the links in the navmeshes with their ids, the agents queued
// at, crossing and held on them, the agents' AgentLinkTraversal), the
// settings, filters, avoidance presets and tick counter, and what the
// stages remember between ticks. Restored, the crowd goes on to the bit as it would have from
// there (see Plugin.Restore).
//
// Take one with Plugin.Snapshot; a Snapshot is reused by every later
// Snapshot into it, so that taking one every tick, for rollback, allocates
// nothing once it has held a crowd of that size. Meshes and layers are
// shared with the world, not copied: a snapshot costs the agents'
// components, their corridors' paths and the obstacles, a few hundred
// bytes per agent. The zero Snapshot is empty.
type Snapshot struct {
	plugin  *Plugin
	taken   bool
	decoded bool // read from a file by Load

	agents    agentColumns
	obstacles obstacleColumns
	links     linkColumns
	types     []typeState
	traffic   components.LinkTraffic

	settings          components.Settings
	timeStep          components.TimeStep
	presets           components.AvoidancePresets
	stats             components.Stats
	requestsSinceTick int

	obstacleSync    systems.ObstacleSyncState
	hasObstacleSync bool
	pathRequest     systems.PathRequestState
	hasPathRequest  bool
	linkSync        systems.LinkSyncState
	hasLinkSync     bool

	// remap is what Restore returns; index and linkIndex are scratch of
	// Snapshot.
	remap     EntityMap
	index     map[ecs.Entity]uint32
	linkIndex map[ecs.Entity]uint32
}

// agentColumns hold the agents' components, one entry per agent in the
// order the crowd visits them.
type agentColumns struct {
	entities   []ecs.Entity
	params     []components.AgentParams
	positions  []components.Position
	velocities []components.Velocity
	states     []components.AgentState
	corridors  []crowd.CorridorState
	paths      []navmesh.Ref // the corridors' paths, one after the other
	targets    []components.MoveTarget
	boundaries []components.Boundary
	neighbours []components.Neighbours
	corners    []components.Corners
	animations []components.OffMeshAnimation
	// overrides are the agents' AgentLinkTraversal: 0 for none, else 1 +
	// its Traversal.
	overrides []uint8
}

// linkColumns hold the link entities' components, in query order.
type linkColumns struct {
	entities []ecs.Entity
	links    []components.Link
	states   []components.LinkState
}

// obstacleColumns hold the obstacles' components, in query order.
type obstacleColumns struct {
	entities []ecs.Entity
	shapes   []components.Obstacle
	poses    []components.ObstaclePose
	states   []components.ObstacleState
}

// typeState is what a Snapshot keeps of one agent type.
type typeState struct {
	mesh     navmesh.MeshState
	cache    tilecache.CacheState
	hasCache bool
	queue    crowd.PathQueueState
	filters  components.Filters
}

// Agents returns the number of agents in the snapshot.
func (s *Snapshot) Agents() int { return len(s.agents.entities) }

// Obstacles returns the number of obstacle entities in the snapshot.
func (s *Snapshot) Obstacles() int { return len(s.obstacles.entities) }

// Links returns the number of runtime link entities in the snapshot.
func (s *Snapshot) Links() int { return len(s.links.entities) }

// Tick returns the tick count of the snapshot (components.TimeStep.Tick):
// the number of ticks run before it was taken.
func (s *Snapshot) Tick() uint64 { return s.timeStep.Tick }

// agentFilter lists the agents with every component; obstacleFilter the
// obstacle entities.
type (
	agentQueryFilter = generic.Filter10[
		components.AgentParams, components.Position, components.Velocity,
		components.AgentState, components.Corridor, components.MoveTarget,
		components.Boundary, components.Neighbours, components.Corners,
		components.OffMeshAnimation,
	]
	obstacleQueryFilter = generic.Filter3[components.Obstacle, components.ObstaclePose, components.ObstacleState]
	linkQueryFilter     = generic.Filter2[components.Link, components.LinkState]
)

// snapshotFilters returns the plugin's queries of agents and obstacles,
// made on first use.
func (p *Plugin) snapshotFilters() (*agentQueryFilter, *obstacleQueryFilter) {
	if p.agentQuery == nil {
		p.agentQuery = generic.NewFilter10[
			components.AgentParams, components.Position, components.Velocity,
			components.AgentState, components.Corridor, components.MoveTarget,
			components.Boundary, components.Neighbours, components.Corners,
			components.OffMeshAnimation,
		]()
		p.obstacleQuery = generic.NewFilter3[components.Obstacle, components.ObstaclePose, components.ObstacleState]()
		p.linkQuery = generic.NewFilter2[components.Link, components.LinkState]()
	}
	return p.agentQuery, p.obstacleQuery
}

// Snapshot stores the navigation state of world in dst (see Snapshot),
// reusing dst's memory. Call it between ticks. It fails when the plugin
// is not installed in world or a query locks the world, and with
// ErrDynamicGeometryNotSaved for a crowd with a dynamic navmesh or a world
// with collider entities.
func (p *Plugin) Snapshot(world *ecs.World, dst *Snapshot) error {
	const what = "snapshot"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkSavable(world, what); err != nil {
		return err
	}
	dst.plugin, dst.taken = p, true
	agentFilter, obstacleFilter := p.snapshotFilters()

	a := &dst.agents
	a.reset()
	q := agentFilter.Query(world)
	a.grow(q.Count())
	for i := 0; q.Next(); i++ {
		params, position, velocity, state, corridor, target, boundary, neighbours, corners, animation := q.Get()
		a.entities[i] = q.Entity()
		a.params[i], a.positions[i], a.velocities[i], a.states[i] = *params, *position, *velocity, *state
		a.targets[i], a.boundaries[i], a.neighbours[i] = *target, *boundary, *neighbours
		a.corners[i], a.animations[i] = *corners, *animation
		if corridor.Corridor != nil {
			a.paths = corridor.CaptureState(&a.corridors[i], a.paths)
		} else {
			a.corridors[i] = crowd.CorridorState{}
		}
		a.overrides[i] = p.overrideOf(world, a.entities[i])
	}

	o := &dst.obstacles
	o.entities, o.shapes, o.poses, o.states = o.entities[:0], o.shapes[:0], o.poses[:0], o.states[:0]
	oq := obstacleFilter.Query(world)
	for oq.Next() {
		shape, pose, state := oq.Get()
		o.entities = append(o.entities, oq.Entity())
		o.shapes = append(o.shapes, *shape)
		o.poses = append(o.poses, *pose)
		o.states = append(o.states, *state)
	}

	l := &dst.links
	l.entities, l.links, l.states = l.entities[:0], l.links[:0], l.states[:0]
	lq := p.linkQuery.Query(world)
	for lq.Next() {
		link, state := lq.Get()
		l.entities = append(l.entities, lq.Entity())
		l.links = append(l.links, *link)
		l.states = append(l.states, *state)
	}
	traffic := p.linkAPI.traffic.Get()
	dst.traffic.Rides = append(dst.traffic.Rides[:0], traffic.Rides...)
	dst.traffic.Pending = append(dst.traffic.Pending[:0], traffic.Pending...)

	if cap(dst.types) < len(p.types) {
		dst.types = make([]typeState, len(p.types))
	}
	dst.types = dst.types[:len(p.types)]
	for t := range p.types {
		ts, pt := &dst.types[t], &p.types[t]
		pt.mesh.CaptureState(&ts.mesh)
		ts.hasCache = false
		if cache := p.config.AgentTypes[t].TileCache; cache != nil {
			cache.CaptureState(&ts.cache)
			ts.hasCache = true
		}
		pt.pathQueue.CaptureState(&ts.queue)
		ts.filters = *pt.filters
	}

	dst.settings = *p.settings.Get()
	dst.timeStep = *p.timeStep.Get()
	dst.presets = *p.presets.Get()
	dst.stats = components.Stats{}
	if p.stats.Has() {
		copyStatCounts(&dst.stats, p.stats.Get())
	}
	dst.requestsSinceTick = p.requestsSinceTick

	dst.hasObstacleSync, dst.hasPathRequest = false, false
	if sync := p.obstacleSyncStage(); sync != nil {
		if dst.index == nil {
			dst.index = map[ecs.Entity]uint32{}
		}
		clear(dst.index)
		for i, e := range o.entities {
			dst.index[e] = uint32(i)
		}
		sync.CaptureState(&dst.obstacleSync, func(e ecs.Entity) (uint32, bool) {
			i, ok := dst.index[e]
			return i, ok
		})
		dst.hasObstacleSync = true
	}
	if request := p.pathRequestStage(); request != nil {
		request.CaptureState(&dst.pathRequest, p.meshes())
		dst.hasPathRequest = true
	}
	dst.hasLinkSync = false
	if sync := p.linkSyncStage(); sync != nil {
		if dst.linkIndex == nil {
			dst.linkIndex = map[ecs.Entity]uint32{}
		}
		clear(dst.linkIndex)
		for i, e := range l.entities {
			dst.linkIndex[e] = uint32(i)
		}
		sync.CaptureState(&dst.linkSync, func(e ecs.Entity) (uint32, bool) {
			i, ok := dst.linkIndex[e]
			return i, ok
		})
		dst.hasLinkSync = true
	}
	return nil
}

// overrideOf returns agent e's AgentLinkTraversal as a snapshot keeps it:
// 0 for none, else 1 + its Traversal.
func (p *Plugin) overrideOf(world *ecs.World, e ecs.Entity) uint8 {
	if !world.Has(e, p.linkAPI.overrideID) {
		return 0
	}
	return 1 + uint8(p.linkAPI.overrides.Get(e).Traversal)
}

// reset empties the columns, keeping their memory.
func (a *agentColumns) reset() {
	a.entities, a.params, a.positions, a.velocities = a.entities[:0], a.params[:0], a.positions[:0], a.velocities[:0]
	a.states, a.corridors, a.paths, a.targets = a.states[:0], a.corridors[:0], a.paths[:0], a.targets[:0]
	a.boundaries, a.neighbours, a.corners, a.animations = a.boundaries[:0], a.neighbours[:0], a.corners[:0], a.animations[:0]
	a.overrides = a.overrides[:0]
}

// grow sets every column to n entries, reusing their memory.
func (a *agentColumns) grow(n int) {
	a.entities = slices.Grow(a.entities, n)[:n]
	a.params = slices.Grow(a.params, n)[:n]
	a.positions = slices.Grow(a.positions, n)[:n]
	a.velocities = slices.Grow(a.velocities, n)[:n]
	a.states = slices.Grow(a.states, n)[:n]
	a.corridors = slices.Grow(a.corridors, n)[:n]
	a.targets = slices.Grow(a.targets, n)[:n]
	a.boundaries = slices.Grow(a.boundaries, n)[:n]
	a.neighbours = slices.Grow(a.neighbours, n)[:n]
	a.corners = slices.Grow(a.corners, n)[:n]
	a.animations = slices.Grow(a.animations, n)[:n]
	a.overrides = slices.Grow(a.overrides, n)[:n]
}

// meshes returns the agent types' navmeshes, in type order.
func (p *Plugin) meshes() []*navmesh.Mesh {
	if len(p.typeMeshes) != len(p.types) {
		p.typeMeshes = make([]*navmesh.Mesh, len(p.types))
		for t := range p.types {
			p.typeMeshes[t] = p.types[t].mesh
		}
	}
	return p.typeMeshes
}

// obstacleSyncStage returns the schedule's own ObstacleSync stage, nil
// when a user system replaced it.
func (p *Plugin) obstacleSyncStage() *systems.ObstacleSync {
	if st := p.schedule.find(StageObstacleSync); st != nil && !st.replaced {
		sync, _ := st.system.(*systems.ObstacleSync)
		return sync
	}
	return nil
}

// linkSyncStage returns the schedule's own LinkSync stage, nil when a
// user system replaced it.
func (p *Plugin) linkSyncStage() *systems.LinkSync {
	if st := p.schedule.find(StageLinkSync); st != nil && !st.replaced {
		sync, _ := st.system.(*systems.LinkSync)
		return sync
	}
	return nil
}

// pathRequestStage returns the schedule's own PathRequest stage, nil when
// a user system replaced it.
func (p *Plugin) pathRequestStage() *systems.PathRequest {
	if st := p.schedule.find(StagePathRequest); st != nil && !st.replaced {
		request, _ := st.system.(*systems.PathRequest)
		return request
	}
	return nil
}

// EntityMap tells which entity each agent, obstacle and runtime link of a
// restored or loaded snapshot has in the world: the same one when Restore kept the
// world's entities, a new one when it made them anew. Use it to carry a
// game's own components over: save them keyed by entity with the
// snapshot, and after Restore or Load put them on the entity the map
// gives (see docs/save-and-restore.md).
type EntityMap struct {
	old, new []ecs.Entity
	changed  bool
	lookup   map[ecs.Entity]ecs.Entity
}

// Changed reports whether any entity changed: false when Restore kept
// the world's agents and obstacles.
func (m *EntityMap) Changed() bool { return m.changed }

// Len returns the number of entities mapped: the snapshot's agents, then
// its obstacles, then its link entities.
func (m *EntityMap) Len() int { return len(m.old) }

// At returns the snapshot's entity i (in the order of Len) and the
// world's entity for it.
func (m *EntityMap) At(i int) (old, new ecs.Entity) { return m.old[i], m.new[i] }

// Entity returns the world's entity for the snapshot's entity old; ok is
// false when old was not an agent, obstacle or link entity of the
// snapshot.
func (m *EntityMap) Entity(old ecs.Entity) (e ecs.Entity, ok bool) {
	if m.lookup == nil {
		m.lookup = make(map[ecs.Entity]ecs.Entity, len(m.old))
		for i, o := range m.old {
			m.lookup[o] = m.new[i]
		}
	}
	e, ok = m.lookup[old]
	return e, ok
}

// reset starts a map of n entities.
func (m *EntityMap) reset(n int) {
	m.old, m.new, m.changed, m.lookup = m.old[:0], m.new[:0], false, nil
	if cap(m.old) < n {
		m.old, m.new = make([]ecs.Entity, 0, n), make([]ecs.Entity, 0, n)
	}
}

// checkFits reports why s cannot be restored into p, before anything
// changes.
func (p *Plugin) checkFits(s *Snapshot, what string) error {
	switch {
	case !s.taken:
		return fmt.Errorf("plugin: %s: empty snapshot: %w", what, ErrSnapshotMismatch)
	case s.plugin != p:
		return fmt.Errorf("plugin: %s: a snapshot of another crowd (Save and Load carry one over): %w", what, ErrSnapshotMismatch)
	case len(s.types) != len(p.types):
		return fmt.Errorf("plugin: %s: %d agent types, the crowd has %d: %w", what, len(s.types), len(p.types), ErrSnapshotMismatch)
	case len(s.agents.entities) > p.config.MaxAgents:
		return fmt.Errorf("plugin: %s: %d agents, Config.MaxAgents is %d: %w", what, len(s.agents.entities), p.config.MaxAgents, ErrSnapshotMismatch)
	}
	for t := range s.types {
		ts, pt := &s.types[t], &p.types[t]
		cache := p.config.AgentTypes[t].TileCache
		switch {
		case ts.mesh.Params() != pt.mesh.Params():
			return fmt.Errorf("plugin: %s: agent type %s: a navmesh of %+v, the crowd's is %+v: %w", what, pt.name, ts.mesh.Params(), pt.mesh.Params(), ErrSnapshotMismatch)
		case ts.hasCache != (cache != nil):
			return fmt.Errorf("plugin: %s: agent type %s: tile cache %v, the crowd's %v: %w", what, pt.name, ts.hasCache, cache != nil, ErrSnapshotMismatch)
		case ts.hasCache && ts.cache.Params() != cache.Params():
			return fmt.Errorf("plugin: %s: agent type %s: a tile cache of %+v, the crowd's is %+v: %w", what, pt.name, ts.cache.Params(), cache.Params(), ErrSnapshotMismatch)
		}
		if err := pt.pathQueue.CheckState(&ts.queue); err != nil {
			return fmt.Errorf("plugin: %s: agent type %s: %w: %w", what, pt.name, err, ErrSnapshotMismatch)
		}
	}
	if !s.decoded {
		return nil // taken from this crowd, where every agent was checked
	}
	for i := range s.agents.params {
		if err := p.checkParams(&s.agents.params[i], what); err != nil {
			return fmt.Errorf("%w (agent %d): %w", err, i, ErrSnapshotMismatch)
		}
		if s.agents.corridors[i].PathCount() > p.config.MaxPath {
			return fmt.Errorf("plugin: %s: agent %d: a corridor of %d polygons, Config.MaxPath is %d: %w",
				what, i, s.agents.corridors[i].PathCount(), p.config.MaxPath, ErrSnapshotMismatch)
		}
	}
	return nil
}

// Restore puts the navigation state of s, taken from this plugin with
// Snapshot, back into world, so that the crowd goes on from there to the
// bit as it did after s was taken: rewind a few ticks, apply a late input,
// simulate again (rollback). Call it between ticks.
//
// When the world's agents and obstacles are still those of s, in the same
// order, Restore keeps their entities and writes their components. When
// they are not (agents were spawned or removed since), it removes the
// crowd's agents and obstacles and makes those of s anew, in s's order,
// with new entities: the returned EntityMap tells which; components of
// the game's own on those entities are lost with them. The map is s's and
// changes with the next Restore of s.
//
// It fails, changing nothing, for a snapshot of another plugin (use Save
// and Load to carry a state into another world), while a query locks
// the world, and with ErrDynamicGeometryNotSaved as Snapshot does.
func (p *Plugin) Restore(world *ecs.World, s *Snapshot) (*EntityMap, error) {
	const what = "restore"
	if err := p.checkWorld(world, what, true); err != nil {
		return nil, err
	}
	if err := p.checkSavable(world, what); err != nil {
		return nil, err
	}
	if err := p.checkFits(s, what); err != nil {
		return nil, err
	}
	p.restore(world, s)
	return &s.remap, nil
}

// checkSavable reports ErrDynamicGeometryNotSaved when the crowd has a
// dynamic navmesh or world holds collider entities (with or without one:
// the ColliderSync stage keeps their state).
func (p *Plugin) checkSavable(world *ecs.World, what string) error {
	if p.config.DynamicMesh != nil {
		return fmt.Errorf("plugin: %s: the crowd has a dynamic navmesh (Config.DynamicMesh): %w", what, ErrDynamicGeometryNotSaved)
	}
	q := world.Query(&p.colliders.mask)
	n := q.Count()
	q.Close()
	if n > 0 {
		return fmt.Errorf("plugin: %s: the world holds %d collider entities: %w", what, n, ErrDynamicGeometryNotSaved)
	}
	return nil
}

// restore is Restore after the checks.
func (p *Plugin) restore(world *ecs.World, s *Snapshot) {
	agentFilter, obstacleFilter := p.snapshotFilters()
	a, o, l := &s.agents, &s.obstacles, &s.links
	m := &s.remap
	m.reset(len(a.entities) + len(o.entities) + len(l.entities))
	agentsKept := p.sameEntities(world, agentFilter.Filter(world), a.entities) && p.sameOverrides(world, a)
	obstaclesKept := p.sameEntities(world, obstacleFilter.Filter(world), o.entities)
	linksKept := p.sameEntities(world, p.linkQuery.Filter(world), l.entities)
	// Removed before the meshes are restored: a link entity's removal takes
	// its links out of the current meshes.
	if !agentsKept {
		p.removeAll(world, agentFilter.Filter(world))
	}
	if !obstaclesKept {
		p.removeAll(world, obstacleFilter.Filter(world))
	}
	if !linksKept {
		p.removeAll(world, p.linkQuery.Filter(world))
	}
	m.old = append(m.old, a.entities...)
	m.old = append(m.old, o.entities...)
	m.old = append(m.old, l.entities...)
	if agentsKept {
		m.new = append(m.new, a.entities...)
	} else {
		m.changed = true
		m.new = p.newAgents(world, a, m.new)
	}
	if obstaclesKept {
		m.new = append(m.new, o.entities...)
	} else {
		m.changed = true
		if n := len(o.entities); n > 0 {
			q := p.obstacles.NewBatchQ(n)
			for q.Next() {
				m.new = append(m.new, q.Entity())
			}
		}
	}
	if linksKept {
		m.new = append(m.new, l.entities...)
	} else {
		m.changed = true
		if n := len(l.entities); n > 0 {
			q := p.linkAPI.links.NewBatchQ(n)
			for q.Next() {
				m.new = append(m.new, q.Entity())
			}
		}
	}
	// entityAt is the world's entity for an entity of the snapshot; the
	// zero entity for one the snapshot does not hold (removed before it was
	// taken) when the entities changed.
	entityAt := func(old ecs.Entity) ecs.Entity {
		if !m.changed || old.IsZero() {
			return old
		}
		e, _ := m.Entity(old)
		return e
	}

	// The meshes first: the path queues' replays search them.
	for t := range s.types {
		ts, pt := &s.types[t], &p.types[t]
		_ = pt.mesh.RestoreState(&ts.mesh)
		if ts.hasCache {
			_ = p.config.AgentTypes[t].TileCache.RestoreState(&ts.cache)
		}
		*pt.filters = ts.filters
	}
	for t := range s.types {
		_ = p.types[t].pathQueue.RestoreState(&s.types[t].queue)
	}

	offset := 0
	i := 0 // the agent write writes
	write := func(params *components.AgentParams, position *components.Position, velocity *components.Velocity,
		state *components.AgentState, corridor *components.Corridor, target *components.MoveTarget, boundary *components.Boundary,
		neighbours *components.Neighbours, corners *components.Corners, animation *components.OffMeshAnimation,
	) {
		*params, *position, *velocity, *state = a.params[i], a.positions[i], a.velocities[i], a.states[i]
		*target, *boundary, *corners, *animation = a.targets[i], a.boundaries[i], a.corners[i], a.animations[i]
		*neighbours = a.neighbours[i]
		if m.changed {
			for k := range neighbours.Count {
				neighbours.List[k].Entity = entityAt(neighbours.List[k].Entity)
			}
		}
		n := a.corridors[i].PathCount()
		if corridor.Corridor == nil {
			c, err := p.newCorridor(0, position.Vec3())
			if err != nil {
				offset += n
				return // MaxPath was checked by New
			}
			corridor.Corridor = c
		}
		_ = corridor.RestoreState(&a.corridors[i], a.paths[offset:offset+n])
		offset += n
		if a.overrides[i] != 0 {
			*p.linkAPI.overrides.Get(m.new[i]) = components.AgentLinkTraversal{Traversal: components.LinkTraversal(a.overrides[i] - 1)}
		}
	}
	if agentsKept {
		q := agentFilter.Query(world)
		for ; q.Next(); i++ {
			write(q.Get())
		}
	} else {
		for ; i < len(a.entities); i++ {
			write(p.agents.Get(m.new[i]))
		}
	}
	if obstaclesKept {
		oq := obstacleFilter.Query(world)
		for i := 0; oq.Next(); i++ {
			shape, pose, state := oq.Get()
			*shape, *pose, *state = o.shapes[i], o.poses[i], o.states[i]
		}
	} else {
		for i, e := range m.new[len(a.entities) : len(a.entities)+len(o.entities)] {
			shape, pose, state := p.obstacles.Get(e)
			*shape, *pose, *state = o.shapes[i], o.poses[i], o.states[i]
		}
	}
	linkBase := len(a.entities) + len(o.entities)
	for i, e := range m.new[linkBase:] {
		link, state := p.linkAPI.links.Get(e)
		*link, *state = l.links[i], l.states[i]
	}
	traffic := p.linkAPI.traffic.Get()
	traffic.Rides = append(traffic.Rides[:0], s.traffic.Rides...)
	traffic.Pending = append(traffic.Pending[:0], s.traffic.Pending...)
	if m.changed {
		for k := range traffic.Rides {
			r := &traffic.Rides[k]
			r.Agent, r.Link = entityAt(r.Agent), entityAt(r.Link)
		}
		for k := range traffic.Pending {
			ev := &traffic.Pending[k]
			ev.Entity, ev.Link = entityAt(ev.Entity), entityAt(ev.Link)
		}
	}

	*p.settings.Get() = s.settings
	*p.timeStep.Get() = s.timeStep
	*p.presets.Get() = s.presets
	if p.stats.Has() {
		copyStatCounts(p.stats.Get(), &s.stats)
	}
	p.requestsSinceTick = s.requestsSinceTick

	obstacleBase := len(a.entities)
	if sync := p.obstacleSyncStage(); sync != nil && s.hasObstacleSync {
		sync.RestoreState(&s.obstacleSync, func(i uint32) (ecs.Entity, bool) {
			if uint64(i) >= uint64(len(o.entities)) { // not int(i): negative on 32-bit CPUs
				return ecs.Entity{}, false
			}
			return m.new[obstacleBase+int(i)], true
		})
	}
	if request := p.pathRequestStage(); request != nil && s.hasPathRequest {
		request.RestoreState(&s.pathRequest, p.meshes())
	}
	if sync := p.linkSyncStage(); sync != nil {
		sync.RestoreState(&s.linkSync, func(i uint32) (ecs.Entity, bool) {
			if uint64(i) >= uint64(len(l.entities)) {
				return ecs.Entity{}, false
			}
			return m.new[linkBase+int(i)], true
		})
	}
}

// sameOverrides reports whether the agents of a, in world, carry an
// AgentLinkTraversal where a's do: Restore then keeps them (adding or
// removing the component would change the order the crowd visits them).
func (p *Plugin) sameOverrides(world *ecs.World, a *agentColumns) bool {
	for i, e := range a.entities {
		if world.Has(e, p.linkAPI.overrideID) != (a.overrides[i] != 0) {
			return false
		}
	}
	return true
}

// newAgents makes the agents of a anew and appends their entities to dst
// in a's order: those without an AgentLinkTraversal first, then those with
// one (the order the crowd visits them in the world a was taken from).
func (p *Plugin) newAgents(world *ecs.World, a *agentColumns, dst []ecs.Entity) []ecs.Entity {
	n, withOverride := len(a.entities), 0
	for _, o := range a.overrides {
		if o != 0 {
			withOverride++
		}
	}
	base := len(dst)
	dst = slices.Grow(dst, n)[:base+n]
	made := make([]ecs.Entity, 0, n)
	if plain := n - withOverride; plain > 0 {
		q := p.agents.NewBatchQ(plain)
		for q.Next() {
			made = append(made, q.Entity())
		}
	}
	if withOverride > 0 {
		q := world.Batch().NewQ(withOverride, append(p.agentIDs(world), p.linkAPI.overrideID)...)
		for q.Next() {
			made = append(made, q.Entity())
		}
	}
	plain, over := 0, n-withOverride
	for i, o := range a.overrides {
		if o == 0 {
			dst[base+i] = made[plain]
			plain++
		} else {
			dst[base+i] = made[over]
			over++
		}
	}
	return dst
}

// agentIDs returns the component IDs of an agent entity.
func (p *Plugin) agentIDs(world *ecs.World) []ecs.ID {
	return []ecs.ID{
		ecs.ComponentID[components.AgentParams](world), ecs.ComponentID[components.Position](world),
		ecs.ComponentID[components.Velocity](world), ecs.ComponentID[components.AgentState](world),
		ecs.ComponentID[components.Corridor](world), ecs.ComponentID[components.MoveTarget](world),
		ecs.ComponentID[components.Boundary](world), ecs.ComponentID[components.Neighbours](world),
		ecs.ComponentID[components.Corners](world), ecs.ComponentID[components.OffMeshAnimation](world),
	}
}

// sameEntities reports whether the entities filter matches in world are
// want, in order.
func (p *Plugin) sameEntities(world *ecs.World, filter ecs.Filter, want []ecs.Entity) bool {
	q := world.Query(filter)
	if q.Count() != len(want) {
		q.Close()
		return false
	}
	for i := 0; q.Next(); i++ {
		if q.Entity() != want[i] {
			q.Close()
			return false
		}
	}
	return true
}

// removeAll removes every entity filter matches in world.
func (p *Plugin) removeAll(world *ecs.World, filter ecs.Filter) {
	var gone []ecs.Entity
	q := world.Query(filter)
	for q.Next() {
		gone = append(gone, q.Entity())
	}
	for _, e := range gone {
		world.RemoveEntity(e)
	}
}

// copyStatCounts copies the counts of the last tick that the crowd reads
// back (see components.Stats.AppendState) from src to dst.
func copyStatCounts(dst, src *components.Stats) {
	dst.Agents, dst.PathQueuePending, dst.WaitingForQueue = src.Agents, src.PathQueuePending, src.WaitingForQueue
	dst.Obstacles, dst.ObstacleBodies, dst.ObstacleTilesPending = src.Obstacles, src.ObstacleBodies, src.ObstacleTilesPending
	dst.PathQueueRequests = src.PathQueueRequests
	dst.Colliders, dst.ColliderTilesPending = src.Colliders, src.ColliderTilesPending
}
