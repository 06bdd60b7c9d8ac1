package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// ColliderSync is the stage after ObstacleSync: it keeps the dynamic
// navmesh (the DynamicGeometry resource) in step with the collider
// entities (those with components.Collider, ColliderPose and
// ColliderState) and runs its UpdateWith within the tick's budget
// (Settings.ObstacleTilesPerTick and ObstacleTimePerTick, the budget the
// obstacles' tile cache gets; what is left goes on next tick) on the
// crowd's workers. A new collider is added at once; one that moved more
// than its MoveThreshold (turns included) or changed its shape is moved;
// one whose entity is removed (or that lost one of its components) leaves
// the mesh. The mesh is the only writer of the navmesh in the stage, so
// every later stage sees one snapshot; agents on rebuilt tiles replan,
// walk back or recover as after any tile change. A collider the mesh
// refuses (or every one, without DynamicGeometry) raises
// EventColliderRefused and is tried again once it moves or changes;
// EventColliderLanded fires when its tiles are rebuilt. With agent types
// (DynamicGeometry.Others) a collider goes into every type's mesh; one
// mesh refusing it refuses it in all, and it has landed when every mesh
// shows it. It fills the collider counts of Stats.
//
// Resources: optional DynamicGeometry, Settings, Events, Stats, Workers,
// Queries.
type ColliderSync struct {
	filter      *generic.Filter3[components.Collider, components.ColliderPose, components.ColliderState]
	geometryRes generic.Resource[components.DynamicGeometry]
	settingsRes generic.Resource[components.Settings]
	eventsRes   generic.Resource[components.Events]
	statsRes    generic.Resource[components.Stats]
	workersRes  generic.Resource[Workers]
	queriesRes  generic.Resource[components.Queries]

	// entries are the colliders known to the stage, in the order they
	// were first seen; slots maps an entity ID to 1 + its entry's index.
	entries []colliderEntry
	slots   []int32
	tick    uint64

	// Valid during an Update: the dynamic meshes of the agent types, the
	// first type's first.
	meshes []components.ColliderMesh
	events *components.Events
}

// colliderEntry is what the stage keeps of one collider entity.
type colliderEntry struct {
	entity ecs.Entity
	seen   uint64
	state  *components.ColliderState // valid during an Update

	// refs are its colliders in the meshes (ColliderSync.meshes), 0 when
	// it is in none, made from synced at syncedPose; landed is set once
	// their tiles are rebuilt.
	refs       [components.MaxAgentTypes]collider.Ref
	inMesh     bool
	synced     components.Collider
	syncedPose components.ColliderPose
	landed     bool
	// refused is set while the mesh refuses it, as synced at syncedPose.
	refused bool
}

// Initialize prepares the stage for world.
func (s *ColliderSync) Initialize(world *ecs.World) {
	s.filter = generic.NewFilter3[components.Collider, components.ColliderPose, components.ColliderState]()
	s.geometryRes = generic.NewResource[components.DynamicGeometry](world)
	s.settingsRes = generic.NewResource[components.Settings](world)
	s.eventsRes = generic.NewResource[components.Events](world)
	s.statsRes = generic.NewResource[components.Stats](world)
	s.workersRes = generic.NewResource[Workers](world)
	s.queriesRes = generic.NewResource[components.Queries](world)
}

// Finalize does nothing.
func (s *ColliderSync) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *ColliderSync) Update(world *ecs.World) {
	s.meshes = s.meshes[:0]
	if s.geometryRes.Has() {
		geometry := s.geometryRes.Get()
		if geometry.Mesh != nil {
			s.meshes = append(s.meshes, geometry.Mesh)
			for _, m := range geometry.Others {
				if m != nil && len(s.meshes) < components.MaxAgentTypes {
					s.meshes = append(s.meshes, m)
				}
			}
		}
	}
	s.events = nil
	if s.eventsRes.Has() {
		s.events = s.eventsRes.Get()
	}
	s.tick++
	q := s.filter.Query(world)
	for q.Next() {
		c, pose, state := q.Get()
		e := &s.entries[s.entry(q.Entity())]
		e.state = state
		s.sync(e, c, pose)
	}
	s.dropUnseen()

	pending := 0
	if len(s.meshes) > 0 {
		settings := components.DefaultSettings(0.6)
		if s.settingsRes.Has() {
			settings = *s.settingsRes.Get()
		}
		var workers *Workers
		if s.workersRes.Has() {
			workers = s.workersRes.Get()
		}
		count := workers.Count()
		if s.queriesRes.Has() {
			count = min(count, max(1, len(s.queriesRes.Get().PerWorker)))
		}
		budget := tilecache.Budget{MaxTiles: settings.ObstacleTilesPerTick, MaxDuration: settings.ObstacleTimePerTick}
		for _, m := range s.meshes {
			if m.Pending() > 0 {
				// A tile that cannot be built keeps its old data; nothing
				// else to do about it here.
				_, _ = m.UpdateWith(budget, workers, count)
			}
			pending += m.Pending()
		}
	}
	s.noteLanded()
	for i := range s.entries {
		e := &s.entries[i]
		*e.state = components.ColliderState{InMesh: e.inMesh, Landed: e.landed, Refused: e.refused}
		e.state = nil
	}
	if s.statsRes.Has() {
		stats := s.statsRes.Get()
		stats.Colliders, stats.ColliderTilesPending = len(s.entries), pending
	}
	s.meshes, s.events = s.meshes[:0], nil
}

// entry returns the index of e's entry, adding one for a collider not seen
// before, and marks it seen this tick.
func (s *ColliderSync) entry(e ecs.Entity) int {
	id := int(e.ID())
	if id < len(s.slots) {
		if i := int(s.slots[id]) - 1; i >= 0 && s.entries[i].entity == e {
			s.entries[i].seen = s.tick
			return i
		}
	} else {
		s.slots = append(s.slots, make([]int32, id+1-len(s.slots)+len(s.slots)/2)...)
	}
	s.entries = append(s.entries, colliderEntry{entity: e, seen: s.tick})
	s.slots[id] = int32(len(s.entries))
	return len(s.entries) - 1
}

// sync adds, moves or changes the collider in the meshes as its entity
// asks.
func (s *ColliderSync) sync(e *colliderEntry, c *components.Collider, pose *components.ColliderPose) {
	known := e.inMesh || e.refused
	if known && c.Shape == e.synced.Shape && c.PoseDistance(*pose, e.syncedPose) <= c.Threshold() {
		return // where it is, near enough, or refused there already
	}
	if len(s.meshes) == 0 {
		s.refuse(e, c, pose)
		return
	}
	for k, m := range s.meshes {
		var err error
		if e.refs[k] == 0 {
			e.refs[k], err = m.AddCollider(c.Shape, pose.Pose())
		} else {
			err = m.SetCollider(e.refs[k], c.Shape, pose.Pose())
		}
		if err != nil {
			s.remove(e)
			s.refuse(e, c, pose)
			return
		}
	}
	e.inMesh = true
	e.synced, e.syncedPose, e.landed, e.refused = *c, *pose, false, false
}

// refuse marks the collider refused as c at pose, raising
// EventColliderRefused when it was not.
func (s *ColliderSync) refuse(e *colliderEntry, c *components.Collider, pose *components.ColliderPose) {
	if !e.refused && s.events != nil {
		s.events.Add(components.Event{Kind: components.EventColliderRefused, Entity: e.entity, Position: pose.Position})
	}
	e.refused, e.synced, e.syncedPose = true, *c, *pose
}

// remove takes the collider out of the meshes, if it is in.
func (s *ColliderSync) remove(e *colliderEntry) {
	for k := range e.refs {
		if e.refs[k] != 0 && k < len(s.meshes) {
			_ = s.meshes[k].RemoveCollider(e.refs[k])
		}
		e.refs[k] = 0
	}
	e.inMesh, e.landed = false, false
}

// dropUnseen removes the colliders whose entities are gone, keeping the
// order of the others.
func (s *ColliderSync) dropUnseen() {
	kept := 0
	for i := range s.entries {
		e := &s.entries[i]
		if e.seen != s.tick {
			s.remove(e)
			if id := int(e.entity.ID()); id < len(s.slots) {
				s.slots[id] = 0
			}
			continue
		}
		if kept != i {
			s.entries[kept] = *e
		}
		s.slots[e.entity.ID()] = int32(kept + 1)
		kept++
	}
	clear(s.entries[kept:])
	s.entries = s.entries[:kept]
}

// noteLanded marks the colliders whose tiles every mesh has rebuilt and
// raises EventColliderLanded for them.
func (s *ColliderSync) noteLanded() {
	for i := range s.entries {
		e := &s.entries[i]
		if !e.inMesh || e.landed {
			continue
		}
		up := true
		for k, m := range s.meshes {
			if done, err := m.ColliderUpToDate(e.refs[k]); err != nil || !done {
				up = false
				break
			}
		}
		if up {
			e.landed = true
			if s.events != nil {
				s.events.Add(components.Event{Kind: components.EventColliderLanded, Entity: e.entity, Position: e.syncedPose.Position})
			}
		}
	}
}
