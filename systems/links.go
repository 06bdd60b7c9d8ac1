package systems

import (
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// LinkSync is the stage after ObstacleSync: it keeps the runtime links of
// the navmeshes in step with the link entities (those with
// components.Link and LinkState). A link entity whose Link differs from
// what its LinkState says was added is added again (to the navmesh of
// every agent type it is for); one that was removed, or lost a
// component, leaves the navmeshes. A link a navmesh refuses raises
// EventLinkRefused and is tried again when its Link changes. Then it
// raises the events of the plugin's link calls made since the last tick
// and forgets the rides (LinkTraffic) that ended: their agent is gone,
// or no longer on the link it was crossing (the crossing ended, the agent
// was teleported), or its link entity is gone while it queued.
//
// Every stage after it sees the links of one snapshot per navmesh.
//
// Resources: LinkTraffic; optional Navigation, AgentTypes, Events.
type LinkSync struct {
	filter     *generic.Filter2[components.Link, components.LinkState]
	trafficRes generic.Resource[components.LinkTraffic]
	navRes     generic.Resource[components.Navigation]
	typesRes   generic.Resource[components.AgentTypes]
	eventsRes  generic.Resource[components.Events]
	stateID    ecs.ID

	// entries are the link entities known to the stage with their ids;
	// slots maps an entity ID to 1 + its entry's index.
	entries []linkEntry
	slots   []int32
	tick    uint64
	meshes  []*navmesh.Mesh
}

type linkEntry struct {
	entity ecs.Entity
	ids    [components.MaxAgentTypes]navmesh.LinkID
	seen   uint64
}

// Initialize prepares the stage for world.
func (s *LinkSync) Initialize(world *ecs.World) {
	s.filter = generic.NewFilter2[components.Link, components.LinkState]()
	s.trafficRes = generic.NewResource[components.LinkTraffic](world)
	s.navRes = generic.NewResource[components.Navigation](world)
	s.typesRes = generic.NewResource[components.AgentTypes](world)
	s.eventsRes = generic.NewResource[components.Events](world)
	s.stateID = ecs.ComponentID[components.AgentState](world)
}

// Finalize does nothing.
func (s *LinkSync) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *LinkSync) Update(world *ecs.World) {
	s.tick++
	s.meshes = LinkMeshes(s.navRes, s.typesRes, s.meshes[:0])
	var events *components.Events
	if s.eventsRes.Has() {
		events = s.eventsRes.Get()
	}
	q := s.filter.Query(world)
	for q.Next() {
		link, state := q.Get()
		e := q.Entity()
		entry := s.entry(e)
		if *link != state.Added || (!state.Refused && state.IDs == [components.MaxAgentTypes]navmesh.LinkID{}) {
			RemoveLinkFromMeshes(s.meshes, &state.IDs)
			state.Added = *link
			state.Refused = AddLinkToMeshes(s.meshes, link, &state.IDs) != nil
			if state.Refused && events != nil {
				events.Add(components.Event{Kind: components.EventLinkRefused, Entity: e, Position: link.Start})
			}
		}
		entry.ids, entry.seen = state.IDs, s.tick
	}
	s.forgetRemoved()
	if !s.trafficRes.Has() {
		return
	}
	traffic := s.trafficRes.Get()
	if events != nil {
		for _, ev := range traffic.Pending {
			events.Add(ev)
		}
	}
	traffic.Pending = traffic.Pending[:0]
	s.endRides(world, traffic)
}

// entry returns the stage's entry of link entity e, making one for an
// entity it meets first.
func (s *LinkSync) entry(e ecs.Entity) *linkEntry {
	id := int(e.ID())
	if id < len(s.slots) {
		if k := s.slots[id]; k > 0 && s.entries[k-1].entity == e {
			return &s.entries[k-1]
		}
	} else {
		s.slots = append(s.slots, make([]int32, id+1-len(s.slots))...)
	}
	s.entries = append(s.entries, linkEntry{entity: e})
	s.slots[id] = int32(len(s.entries))
	return &s.entries[len(s.entries)-1]
}

// forgetRemoved takes the links of the entities not seen this tick out of
// the navmeshes.
func (s *LinkSync) forgetRemoved() {
	kept := s.entries[:0]
	for _, entry := range s.entries {
		if entry.seen == s.tick {
			kept = append(kept, entry)
			continue
		}
		RemoveLinkFromMeshes(s.meshes, &entry.ids)
		if id := int(entry.entity.ID()); id < len(s.slots) {
			s.slots[id] = 0
		}
	}
	clear(s.entries[len(kept):])
	s.entries = kept
	for k, entry := range s.entries {
		s.slots[entry.entity.ID()] = int32(k + 1)
	}
}

// endRides forgets the rides that ended.
func (s *LinkSync) endRides(world *ecs.World, traffic *components.LinkTraffic) {
	for i := 0; i < len(traffic.Rides); {
		r := &traffic.Rides[i]
		ended := !world.Alive(r.Agent) || !world.Has(r.Agent, s.stateID)
		if !ended {
			mode := (*components.AgentState)(world.Get(r.Agent, s.stateID)).Mode
			switch r.Phase {
			case components.LinkQueued:
				ended = !r.Link.IsZero() && !world.Alive(r.Link)
			default:
				ended = mode != components.AgentOffMesh
			}
		}
		if ended {
			traffic.Drop(i)
			continue
		}
		i++
	}
}

// LinkMeshes appends to dst the navmesh of each agent type: those of the
// AgentTypes resource, or Navigation's alone without it.
func LinkMeshes(nav generic.Resource[components.Navigation], types generic.Resource[components.AgentTypes], dst []*navmesh.Mesh) []*navmesh.Mesh {
	if types.Has() && len(types.Get().List) > 0 {
		for i, t := range types.Get().List {
			if i == components.MaxAgentTypes {
				break
			}
			dst = append(dst, t.Mesh)
		}
		return dst
	}
	if nav.Has() {
		dst = append(dst, nav.Get().Mesh)
	}
	return dst
}

// AddLinkToMeshes adds link to each mesh of an agent type it is for and
// records the ids. On error it removes those it added, leaves ids zero and
// returns the error.
func AddLinkToMeshes(meshes []*navmesh.Mesh, link *components.Link, ids *[components.MaxAgentTypes]navmesh.LinkID) error {
	desc := link.Desc()
	for t, mesh := range meshes {
		if mesh == nil || !link.ForType(t) {
			continue
		}
		id, err := mesh.AddLink(desc)
		if err != nil {
			RemoveLinkFromMeshes(meshes, ids)
			return err
		}
		ids[t] = id
	}
	return nil
}

// RemoveLinkFromMeshes removes the links ids names from the meshes and
// zeroes ids. A link already gone is no error.
func RemoveLinkFromMeshes(meshes []*navmesh.Mesh, ids *[components.MaxAgentTypes]navmesh.LinkID) {
	for t, id := range ids {
		if id != 0 && t < len(meshes) && meshes[t] != nil {
			_ = meshes[t].RemoveLink(id)
		}
		ids[t] = 0
	}
}

// LinkTraversal is the stage after Steering: it lets the walking agents
// onto the runtime links their corridors take. An agent whose next corner
// is a runtime link's start (a straight-path corner flagged
// StraightPathOffMeshConnection on a link polygon), within 2.25 radii of
// it, joins the link's queue (LinkTraffic); in the order they came, the
// queued agents go on while the link has room (Link.Capacity, 0 for
// none), the others stand still (EventLinkQueued once). An agent that
// goes on crosses as the link's Traversal says, or its own
// AgentLinkTraversal: LinkAuto as across a baked connection, in a
// straight line in half the time its maximum speed takes
// (EventOffMeshStarted, then the OffMeshAnimation stage's
// EventOffMeshFinished); LinkManual stands where it is, held
// (AgentOffMesh, not animated), until the game calls
// plugin.CompleteLink (EventLinkReached). A link added to a navmesh
// directly, without an entity, is crossed LinkAuto without a capacity.
// An agent that no longer heads for the link it queued at leaves the
// queue. The Steering stage leaves runtime links to this stage.
//
// It does nothing while no navmesh has a runtime link and no agent is at
// one.
//
// Resources: Queries, Filters, LinkTraffic; optional AgentTypes,
// Navigation, Settings, TimeStep, Events, Workers.
type LinkTraversal struct {
	stage
	trafficRes generic.Resource[components.LinkTraffic]
	navRes     generic.Resource[components.Navigation]
	linkFilter *generic.Filter2[components.Link, components.LinkState]
	overrideID ecs.ID
	meshes     []*navmesh.Mesh
	// links maps a link in a navmesh to its entity, rebuilt each Update.
	links map[linkKey]linkPolicy
	// fresh marks the rides queued this Update and kept the queued rides
	// whose agents still head for their link (by index).
	fresh, kept []bool
}

type linkKey struct {
	typ uint8
	id  navmesh.LinkID
}

type linkPolicy struct {
	entity    ecs.Entity
	traversal components.LinkTraversal
	capacity  uint16
}

// Initialize prepares the stage for world.
func (s *LinkTraversal) Initialize(world *ecs.World) {
	s.init(world)
	s.trafficRes = generic.NewResource[components.LinkTraffic](world)
	s.navRes = generic.NewResource[components.Navigation](world)
	s.linkFilter = generic.NewFilter2[components.Link, components.LinkState]()
	s.overrideID = ecs.ComponentID[components.AgentLinkTraversal](world)
	s.links = make(map[linkKey]linkPolicy)
}

// Finalize does nothing.
func (s *LinkTraversal) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *LinkTraversal) Update(world *ecs.World) {
	if !s.trafficRes.Has() {
		return
	}
	traffic := s.trafficRes.Get()
	s.meshes = LinkMeshes(s.navRes, s.typesRes, s.meshes[:0])
	busy := len(traffic.Rides) > 0
	for _, m := range s.meshes {
		if m != nil && m.Snapshot().LinkCount() > 0 {
			busy = true
		}
	}
	if !busy || !s.begin(world) {
		return
	}
	s.collectLinks(world)

	// Queue the agents at a link's start; keep the queued ones that still
	// head for it.
	seen := len(traffic.Rides)
	s.fresh = slices.Grow(s.fresh[:0], seen)[:seen]
	clear(s.fresh)
	s.kept = slices.Grow(s.kept[:0], seen)[:seen]
	clear(s.kept)
	kept := s.kept
	for i := range s.agents {
		a := &s.agents[i]
		poly, key, ok := s.linkAhead(a)
		if !ok {
			continue
		}
		if k := traffic.Find(a.entity); k >= 0 {
			if k < len(kept) && traffic.Rides[k].Phase == components.LinkQueued && traffic.Rides[k].Poly == poly {
				kept[k] = true
			}
			continue
		}
		traffic.Rides = append(traffic.Rides, components.LinkRide{
			Agent: a.entity, Link: s.links[key].entity, ID: key.id, Type: key.typ,
			Phase: components.LinkQueued, Poly: poly,
		})
		s.fresh = append(s.fresh, true)
	}
	for k := seen - 1; k >= 0; k-- {
		if traffic.Rides[k].Phase == components.LinkQueued && !kept[k] {
			traffic.Drop(k)
			s.fresh = append(s.fresh[:k], s.fresh[k+1:]...)
		}
	}

	// Let them on in the order they came, while there is room.
	for k := 0; k < len(traffic.Rides); k++ {
		r := &traffic.Rides[k]
		if r.Phase != components.LinkQueued {
			continue
		}
		a := s.agentOf(r.Agent)
		if a == nil {
			continue
		}
		policy, known := s.links[linkKey{r.Type, r.ID}]
		if policy.capacity > 0 && traffic.OnLink(r.Link, r.Type, r.ID) >= int(policy.capacity) {
			a.velocity.Desired, a.velocity.DesiredSpeed = geom.Vec3{}, 0
			if s.fresh[k] {
				s.emitLink(components.EventLinkQueued, a, r)
			}
			continue
		}
		traversal := policy.traversal
		if !known {
			traversal = components.LinkAuto
		}
		if world.Has(r.Agent, s.overrideID) {
			traversal = (*components.AgentLinkTraversal)(world.Get(r.Agent, s.overrideID)).Traversal
		}
		if !s.board(a, r, traversal) {
			traffic.Drop(k)
			s.fresh = append(s.fresh[:k], s.fresh[k+1:]...)
			k--
		}
	}
}

// collectLinks maps each link entity's ids to its policy.
func (s *LinkTraversal) collectLinks(world *ecs.World) {
	clear(s.links)
	q := s.linkFilter.Query(world)
	for q.Next() {
		link, state := q.Get()
		policy := linkPolicy{entity: q.Entity(), traversal: link.Traversal, capacity: link.Capacity}
		for t, id := range state.IDs {
			if id != 0 {
				s.links[linkKey{uint8(t), id}] = policy
			}
		}
	}
}

// linkAhead reports the runtime link polygon a walking agent with a path
// has come near: its last corner's, when that is a link's start within
// 2.25 radii (as a baked connection triggers), with the link's key.
func (s *LinkTraversal) linkAhead(a *agent) (navmesh.Ref, linkKey, bool) {
	if !walking(a) || a.target.State == components.TargetNone || a.target.State == components.TargetVelocity || a.corners.Count == 0 {
		return 0, linkKey{}, false
	}
	last := &a.corners.Points[a.corners.Count-1]
	if last.Flags&query.StraightPathOffMeshConnection == 0 {
		return 0, linkKey{}, false
	}
	typ := s.typeIndex(a.params)
	mesh := s.queryOf(a).Mesh()
	if last.Ref.TileIndex() < uint32(mesh.MaxTiles()) {
		return 0, linkKey{}, false // a baked connection: Steering's
	}
	radius := a.params.Radius * offMeshTriggerRadius
	if geom.Dist2DSqr(a.position.Vec3(), last.Pos) >= float32(radius*radius) {
		return 0, linkKey{}, false
	}
	id, _, ok := mesh.Snapshot().LinkOf(last.Ref)
	if !ok {
		return 0, linkKey{}, false
	}
	return last.Ref, linkKey{uint8(typ), id}, true
}

// queryOf returns the sequential query of a's type.
func (s *LinkTraversal) queryOf(a *agent) *query.Query { return s.query(0, a.params) }

// agentOf returns the agent of entity e in this Update, nil for none.
func (s *LinkTraversal) agentOf(e ecs.Entity) *agent {
	if i := s.table.lookup(e); i >= 0 {
		return &s.agents[i]
	}
	return nil
}

// board moves agent a's corridor past the link of ride r and starts its
// crossing as traversal says; it reports false when the corridor no longer
// holds the link (the ride is then dropped, and the PathRequest stage
// replans).
func (s *LinkTraversal) board(a *agent, r *components.LinkRide, traversal components.LinkTraversal) bool {
	refs, start, end, err := a.corridor.MoveOverOffMeshConnection(r.Poly, s.queryOf(a))
	if err != nil {
		return false
	}
	r.Before, r.Start, r.End = refs[0], start, end
	a.state.Mode = components.AgentOffMesh
	a.corners.Count = 0
	a.neighbours.Count = 0
	if traversal == components.LinkManual {
		r.Phase = components.LinkHeld
		*a.animation = components.OffMeshAnimation{InitPos: a.position.Vec3(), StartPos: start, EndPos: end, Poly: r.Poly}
		*a.velocity = components.Velocity{}
		s.emitLink(components.EventLinkReached, a, r)
		return true
	}
	r.Phase = components.LinkCrossing
	tmax := float32(0.5)
	if a.params.MaxSpeed > 0 {
		tmax = float32(geom.Dist(start, end)/a.params.MaxSpeed) * 0.5
	}
	*a.animation = components.OffMeshAnimation{
		Active: true, InitPos: a.position.Vec3(), StartPos: start, EndPos: end, Poly: r.Poly, TMax: max(tmax, 1e-3),
	}
	s.emitLink(components.EventOffMeshStarted, a, r)
	return true
}

// emitLink adds a link event for agent a at ride r.
func (s *LinkTraversal) emitLink(kind components.EventKind, a *agent, r *components.LinkRide) {
	if s.events == nil {
		return
	}
	s.events.Add(components.Event{
		Kind: kind, Entity: a.entity, Position: a.position.Vec3(), Target: a.target.Position,
		Poly: r.Poly, Link: r.Link, Type: a.params.Type,
	})
}
