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

// ErrLinksNotSaved is wrapped when Snapshot, Save, Restore or Load is asked
// of a world with runtime link entities (components.Link): the links in
// the navmeshes, the agents riding them (LinkTraffic) and the link
// stages' state are not in a snapshot yet, and a restore that left them
// out would not go on as the saved run. Off-mesh links baked into the
// navmesh are saved.
var ErrLinksNotSaved = errors.New("plugin: runtime links are not saved")

// ErrSnapshotMismatch is wrapped when a Snapshot, or a saved file, does
// not fit the plugin it is restored into: taken from another plugin, with
// other agent types, meshes, tile caches or path queue sizes, or empty.
var ErrSnapshotMismatch = errors.New("plugin: snapshot does not fit the crowd")

// Snapshot is the navigation state of a world between two ticks: every
// agent's and obstacle's components with what the crowd keeps inside them
// (corridors, boundaries, corner and ray memories), each agent type's
// navmesh (tiles with their salts, so saved polygon refs stay valid), tile
// cache (obstacles, their carve timers, queued rebuilds) and path queue
// (requests in progress with their searches), the settings, filters,
// avoidance presets and tick counter, and what the stages remember between
// ticks. Restored, the crowd goes on to the bit as it would have from
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
	types     []typeState

	settings          components.Settings
	timeStep          components.TimeStep
	presets           components.AvoidancePresets
	stats             components.Stats
	requestsSinceTick int

	obstacleSync    systems.ObstacleSyncState
	hasObstacleSync bool
	pathRequest     systems.PathRequestState
	hasPathRequest  bool

	// remap is what Restore returns; index is scratch of Snapshot.
	remap EntityMap
	index map[ecs.Entity]uint32
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
	return nil
}

// reset empties the columns, keeping their memory.
func (a *agentColumns) reset() {
	a.entities, a.params, a.positions, a.velocities = a.entities[:0], a.params[:0], a.positions[:0], a.velocities[:0]
	a.states, a.corridors, a.paths, a.targets = a.states[:0], a.corridors[:0], a.paths[:0], a.targets[:0]
	a.boundaries, a.neighbours, a.corners, a.animations = a.boundaries[:0], a.neighbours[:0], a.corners[:0], a.animations[:0]
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

// pathRequestStage returns the schedule's own PathRequest stage, nil when
// a user system replaced it.
func (p *Plugin) pathRequestStage() *systems.PathRequest {
	if st := p.schedule.find(StagePathRequest); st != nil && !st.replaced {
		request, _ := st.system.(*systems.PathRequest)
		return request
	}
	return nil
}

// EntityMap tells which entity each agent and obstacle of a restored or
// loaded snapshot has in the world: the same one when Restore kept the
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
// its obstacles.
func (m *EntityMap) Len() int { return len(m.old) }

// At returns the snapshot's entity i (in the order of Len) and the
// world's entity for it.
func (m *EntityMap) At(i int) (old, new ecs.Entity) { return m.old[i], m.new[i] }

// Entity returns the world's entity for the snapshot's entity old; ok is
// false when old was not an agent or obstacle of the snapshot.
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
// the ColliderSync stage keeps their state), and ErrLinksNotSaved when it
// holds runtime link entities.
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
	q = world.Query(&p.linkAPI.mask)
	n = q.Count()
	q.Close()
	if n > 0 {
		return fmt.Errorf("plugin: %s: the world holds %d runtime link entities: %w", what, n, ErrLinksNotSaved)
	}
	return nil
}

// restore is Restore after the checks.
func (p *Plugin) restore(world *ecs.World, s *Snapshot) {
	agentFilter, obstacleFilter := p.snapshotFilters()
	m := &s.remap
	m.reset(len(s.agents.entities) + len(s.obstacles.entities))
	agentsKept := p.sameEntities(world, agentFilter.Filter(world), s.agents.entities)
	obstaclesKept := p.sameEntities(world, obstacleFilter.Filter(world), s.obstacles.entities)
	if !agentsKept {
		p.removeAll(world, agentFilter.Filter(world))
	}
	if !obstaclesKept {
		p.removeAll(world, obstacleFilter.Filter(world))
	}
	m.old = append(m.old, s.agents.entities...)
	m.old = append(m.old, s.obstacles.entities...)
	if agentsKept {
		m.new = append(m.new, s.agents.entities...)
	} else {
		m.changed = true
		if n := len(s.agents.entities); n > 0 {
			q := p.agents.NewBatchQ(n)
			for q.Next() {
				m.new = append(m.new, q.Entity())
			}
		}
	}
	if obstaclesKept {
		m.new = append(m.new, s.obstacles.entities...)
	} else {
		m.changed = true
		if n := len(s.obstacles.entities); n > 0 {
			q := p.obstacles.NewBatchQ(n)
			for q.Next() {
				m.new = append(m.new, q.Entity())
			}
		}
	}
	agentAt := func(old ecs.Entity) ecs.Entity {
		if !m.changed {
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

	a := &s.agents
	offset := 0
	q := agentFilter.Query(world)
	for i := 0; q.Next(); i++ {
		params, position, velocity, state, corridor, target, boundary, neighbours, corners, animation := q.Get()
		*params, *position, *velocity, *state = a.params[i], a.positions[i], a.velocities[i], a.states[i]
		*target, *boundary, *corners, *animation = a.targets[i], a.boundaries[i], a.corners[i], a.animations[i]
		*neighbours = a.neighbours[i]
		if m.changed {
			for k := range neighbours.Count {
				neighbours.List[k].Entity = agentAt(neighbours.List[k].Entity)
			}
		}
		if corridor.Corridor == nil {
			c, err := p.newCorridor(0, position.Vec3())
			if err != nil {
				continue // MaxPath was checked by New
			}
			corridor.Corridor = c
		}
		n := a.corridors[i].PathCount()
		_ = corridor.RestoreState(&a.corridors[i], a.paths[offset:offset+n])
		offset += n
	}
	o := &s.obstacles
	oq := obstacleFilter.Query(world)
	for i := 0; oq.Next(); i++ {
		shape, pose, state := oq.Get()
		*shape, *pose, *state = o.shapes[i], o.poses[i], o.states[i]
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
			if int(i) >= len(o.entities) {
				return ecs.Entity{}, false
			}
			return m.new[obstacleBase+int(i)], true
		})
	}
	if request := p.pathRequestStage(); request != nil && s.hasPathRequest {
		request.RestoreState(&s.pathRequest, p.meshes())
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
