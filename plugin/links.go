package plugin

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/ecs/event"
	"github.com/mlange-42/arche/generic"
	"github.com/mlange-42/arche/listener"
)

// Errors of the link calls.
var (
	// ErrNotLink: the entity is dead, zero, or not a link entity.
	ErrNotLink = errors.New("plugin: not a live link")
	// ErrNotOnLink: the agent is not held on a LinkManual link.
	ErrNotOnLink = errors.New("plugin: agent not held on a link")
	// ErrLinkRefused: a navmesh would not take the link (see
	// navmesh.Mesh.AddLink).
	ErrLinkRefused = errors.New("plugin: link refused by a navmesh")
)

// linkAPI is what the link calls use.
type linkAPI struct {
	links      generic.Map2[components.Link, components.LinkState]
	mask       ecs.Mask
	traffic    generic.Resource[components.LinkTraffic]
	overrides  generic.Map1[components.AgentLinkTraversal]
	overrideID ecs.ID
	listener   linkListener
}

// installLinks adds the LinkTraffic resource, prepares the link calls and
// adds the listener that takes a removed link entity's links out of the
// navmeshes to the world's Dispatch.
func (p *Plugin) installLinks(world *ecs.World, d *listener.Dispatch) {
	ecs.AddResource(world, &components.LinkTraffic{})
	stateID := ecs.ComponentID[components.LinkState](world)
	p.linkAPI = linkAPI{
		links:      generic.NewMap2[components.Link, components.LinkState](world),
		traffic:    generic.NewResource[components.LinkTraffic](world),
		overrides:  generic.NewMap1[components.AgentLinkTraversal](world),
		overrideID: ecs.ComponentID[components.AgentLinkTraversal](world),
		mask:       ecs.All(ecs.ComponentID[components.Link](world), stateID),
		listener:   linkListener{plugin: p, state: stateID, mask: ecs.All(stateID)},
	}
	d.AddListener(&p.linkAPI.listener)
}

// linkListener takes the links of a link entity removed from the world
// out of the navmeshes, however it was removed.
type linkListener struct {
	plugin *Plugin
	state  ecs.ID
	mask   ecs.Mask
}

// Notify handles an entity removal.
func (l *linkListener) Notify(world *ecs.World, evt ecs.EntityEvent) {
	if !evt.Contains(event.EntityRemoved) || !world.Has(evt.Entity, l.state) {
		return
	}
	state := (*components.LinkState)(world.Get(evt.Entity, l.state))
	systems.RemoveLinkFromMeshes(l.plugin.linkMeshes(), &state.IDs)
}

// Subscriptions returns the event types the listener wants.
func (l *linkListener) Subscriptions() event.Subscription { return event.EntityRemoved }

// Components returns the components the listener is restricted to.
func (l *linkListener) Components() *ecs.Mask { return &l.mask }

// linkMeshes returns the navmesh of each agent type.
func (p *Plugin) linkMeshes() []*navmesh.Mesh {
	meshes := make([]*navmesh.Mesh, len(p.types))
	for i := range p.types {
		meshes[i] = p.types[i].mesh
	}
	return meshes
}

// checkLink checks a Link's numbers and the agent types it names.
func (p *Plugin) checkLink(link *components.Link, what string) error {
	if err := link.Validate(); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrInvalidInput, err)
	}
	if link.AgentTypes != 0 && link.AgentTypes>>len(p.types) != 0 {
		return fmt.Errorf("plugin: %s: agent types %#x, the crowd has %d: %w", what, link.AgentTypes, len(p.types), ErrInvalidInput)
	}
	return nil
}

// checkLinkEntity reports whether e is a live link entity.
func (p *Plugin) checkLinkEntity(world *ecs.World, e ecs.Entity, what string) error {
	if e.IsZero() || !world.Alive(e) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotLink)
	}
	if mask := world.Mask(e); !mask.Contains(&p.linkAPI.mask) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotLink)
	}
	return nil
}

// SpawnLink adds a runtime link entity (components.Link and LinkState)
// and its link to the navmesh of every agent type it is for, at once:
// paths planned from now on may take it. Agents cross it as its Traversal
// says, at most Capacity at once. Change it with SetLink (or by writing
// its Link component: the next tick's LinkSync stage moves it), remove it
// with RemoveLink or world.RemoveEntity. A Link outside its limits fails
// with ErrInvalidInput; one a navmesh refuses (an end whose radius spans
// too many tiles, no slot left) with ErrLinkRefused. On error nothing is
// added.
func (p *Plugin) SpawnLink(world *ecs.World, link components.Link) (ecs.Entity, error) {
	const what = "spawn link"
	if err := p.checkWorld(world, what, true); err != nil {
		return ecs.Entity{}, err
	}
	if err := p.checkLink(&link, what); err != nil {
		return ecs.Entity{}, err
	}
	var state components.LinkState
	if err := systems.AddLinkToMeshes(p.linkMeshes(), &link, &state.IDs); err != nil {
		return ecs.Entity{}, fmt.Errorf("plugin: %s: %w: %w", what, ErrLinkRefused, err)
	}
	state.Added = link
	e := p.linkAPI.links.New()
	pLink, pState := p.linkAPI.links.Get(e)
	*pLink, *pState = link, state
	return e, nil
}

// SetLink changes link entity e to link, moving it in the navmeshes at
// once; agents on it finish their crossing. On error (as SpawnLink's)
// nothing changes.
func (p *Plugin) SetLink(world *ecs.World, e ecs.Entity, link components.Link) error {
	const what = "set link"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkLinkEntity(world, e, what); err != nil {
		return err
	}
	if err := p.checkLink(&link, what); err != nil {
		return err
	}
	meshes := p.linkMeshes()
	var ids [components.MaxAgentTypes]navmesh.LinkID
	if err := systems.AddLinkToMeshes(meshes, &link, &ids); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrLinkRefused, err)
	}
	pLink, state := p.linkAPI.links.Get(e)
	systems.RemoveLinkFromMeshes(meshes, &state.IDs)
	*pLink = link
	*state = components.LinkState{IDs: ids, Added: link}
	return nil
}

// RemoveLink removes link entity e and its link from the navmeshes
// (world.RemoveEntity does too). Corridors through it are planned again;
// agents held on it stay held until CompleteLink or CancelLink.
func (p *Plugin) RemoveLink(world *ecs.World, e ecs.Entity) error {
	const what = "remove link"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkLinkEntity(world, e, what); err != nil {
		return err
	}
	world.RemoveEntity(e) // the removal listener takes it out of the navmeshes
	return nil
}

// LinkInfo is a read-out of one link entity.
type LinkInfo struct {
	// Link is its description and policy.
	Link components.Link
	// State is the crowd's bookkeeping: its ids per agent type's navmesh.
	State components.LinkState
	// Occupants counts the agents on it (crossing or held), Queued those
	// waiting at its start.
	Occupants, Queued int
	// Attached reports that, in the navmesh of every agent type it is for,
	// both ends of at least one lane landed on a polygon: it can be
	// crossed.
	Attached bool
}

// Link returns a read-out of link entity e. Read-outs work while queries
// lock the world.
func (p *Plugin) Link(world *ecs.World, e ecs.Entity) (LinkInfo, error) {
	const what = "link"
	if err := p.checkWorld(world, what, false); err != nil {
		return LinkInfo{}, err
	}
	if err := p.checkLinkEntity(world, e, what); err != nil {
		return LinkInfo{}, err
	}
	link, state := p.linkAPI.links.Get(e)
	info := LinkInfo{Link: *link, State: *state, Attached: !state.Refused}
	for t, id := range state.IDs {
		if !link.ForType(t) || t >= len(p.types) {
			continue
		}
		starts, ends, ok := p.types[t].mesh.Snapshot().LinkAttached(id)
		info.Attached = info.Attached && ok && starts > 0 && ends > 0
	}
	for _, r := range p.linkAPI.traffic.Get().Rides {
		if r.Link != e {
			continue
		}
		if r.Phase == components.LinkQueued {
			info.Queued++
		} else {
			info.Occupants++
		}
	}
	return info, nil
}

// LinkRiders appends to dst the agents on link entity e (crossing it or
// held on it), in the order they came.
func (p *Plugin) LinkRiders(world *ecs.World, e ecs.Entity, dst []ecs.Entity) ([]ecs.Entity, error) {
	return p.linkAgents(world, e, dst, false, "link riders")
}

// LinkQueue appends to dst the agents queued at link entity e's start, in
// the order they came (the order they will go on).
func (p *Plugin) LinkQueue(world *ecs.World, e ecs.Entity, dst []ecs.Entity) ([]ecs.Entity, error) {
	return p.linkAgents(world, e, dst, true, "link queue")
}

func (p *Plugin) linkAgents(world *ecs.World, e ecs.Entity, dst []ecs.Entity, queued bool, what string) ([]ecs.Entity, error) {
	if err := p.checkWorld(world, what, false); err != nil {
		return dst, err
	}
	if err := p.checkLinkEntity(world, e, what); err != nil {
		return dst, err
	}
	for _, r := range p.linkAPI.traffic.Get().Rides {
		if r.Link == e && (r.Phase == components.LinkQueued) == queued {
			dst = append(dst, r.Agent)
		}
	}
	return dst, nil
}

// AgentLink returns agent e's ride at a runtime link: queued at its
// start, crossing it or held on it; ok is false when it is at no link.
func (p *Plugin) AgentLink(world *ecs.World, e ecs.Entity) (ride components.LinkRide, ok bool, err error) {
	const what = "agent link"
	if err := p.checkWorld(world, what, false); err != nil {
		return ride, false, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return ride, false, err
	}
	traffic := p.linkAPI.traffic.Get()
	if k := traffic.Find(e); k >= 0 {
		return traffic.Rides[k], true, nil
	}
	return ride, false, nil
}

// heldRide returns the index of agent e's ride when it is held on a link.
func (p *Plugin) heldRide(world *ecs.World, e ecs.Entity, what string) (int, error) {
	if err := p.checkWorld(world, what, true); err != nil {
		return -1, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return -1, err
	}
	traffic := p.linkAPI.traffic.Get()
	k := traffic.Find(e)
	if k < 0 || traffic.Rides[k].Phase != components.LinkHeld {
		return -1, fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotOnLink)
	}
	return k, nil
}

// MoveOnLink puts agent e, held on a link, at pos: the crowd does not move
// a held agent, the game does (with this call, or by writing its
// Position).
func (p *Plugin) MoveOnLink(world *ecs.World, e ecs.Entity, pos geom.Vec3) error {
	const what = "move on link"
	if _, err := p.heldRide(world, e, what); err != nil {
		return err
	}
	if !geom.IsFinite(pos) {
		return fmt.Errorf("plugin: %s: position %v: %w", what, pos, ErrInvalidInput)
	}
	_, position, _, _, _, _, _, _, _, _ := p.agents.Get(e)
	*position = components.Position(pos)
	return nil
}

// CompleteLink lets agent e, held on a link, off at the link's end: it
// stands there and walks on along its corridor (EventLinkCompleted at the
// next tick), making room on the link for the next agent in its queue.
func (p *Plugin) CompleteLink(world *ecs.World, e ecs.Entity) error {
	const what = "complete link"
	k, err := p.heldRide(world, e, what)
	if err != nil {
		return err
	}
	ride := p.linkAPI.traffic.Get().Rides[k]
	_, position, vel, state, _, target, _, _, _, anim := p.agents.Get(e)
	*position = components.Position(ride.End)
	p.leaveLink(k, e, position, vel, state, target, anim, components.EventLinkCompleted, ride)
	return nil
}

// CompleteLinkAt lets agent e, held on a link, off at the navmesh point
// nearest pos (searched as Teleport searches), rather than at the link's
// end: at a floor an elevator stopped at, say. A move target it has is
// planned again from there. It fails with ErrOffMesh, changing nothing,
// when no polygon lies near pos.
func (p *Plugin) CompleteLinkAt(world *ecs.World, e ecs.Entity, pos geom.Vec3) error {
	const what = "complete link at"
	k, err := p.heldRide(world, e, what)
	if err != nil {
		return err
	}
	if !geom.IsFinite(pos) {
		return fmt.Errorf("plugin: %s: position %v: %w", what, pos, ErrInvalidInput)
	}
	ride := p.linkAPI.traffic.Get().Rides[k]
	params, position, vel, state, corridor, target, boundary, neighbours, corners, anim := p.agents.Get(e)
	ref, nearest, err := p.place(pos, params, p.placementBox(), what)
	if err != nil {
		return err
	}
	if err := p.reset(params, params, ref, nearest, position, vel, state, corridor, target, boundary, neighbours, corners, anim, what); err != nil {
		return err
	}
	p.leaveLink(k, e, position, vel, state, target, anim, components.EventLinkCompleted, ride)
	return nil
}

// CancelLink takes agent e, held on a link, off it where it got on: at the
// polygon it stood on before the link, nearest its start. A move target
// it has is planned again from there (EventLinkCancelled at the next
// tick): with the link still there, it comes back to the link's queue.
func (p *Plugin) CancelLink(world *ecs.World, e ecs.Entity) error {
	const what = "cancel link"
	k, err := p.heldRide(world, e, what)
	if err != nil {
		return err
	}
	ride := p.linkAPI.traffic.Get().Rides[k]
	params, position, vel, state, corridor, target, boundary, neighbours, corners, anim := p.agents.Get(e)
	ref, nearest, err := p.place(ride.Start, params, p.placementBox(), what)
	if err != nil {
		return err
	}
	if err := p.reset(params, params, ref, nearest, position, vel, state, corridor, target, boundary, neighbours, corners, anim, what); err != nil {
		return err
	}
	p.leaveLink(k, e, position, vel, state, target, anim, components.EventLinkCancelled, ride)
	return nil
}

// leaveLink ends ride k of agent e: the agent walks again, standing, and
// the event is raised at the next tick.
func (p *Plugin) leaveLink(k int, e ecs.Entity, position *components.Position, vel *components.Velocity,
	state *components.AgentState, target *components.MoveTarget, anim *components.OffMeshAnimation,
	kind components.EventKind, ride components.LinkRide,
) {
	*vel = components.Velocity{}
	state.Mode = components.AgentWalking
	*anim = components.OffMeshAnimation{}
	traffic := p.linkAPI.traffic.Get()
	traffic.Drop(k)
	traffic.Pending = append(traffic.Pending, components.Event{
		Kind: kind, Entity: e, Position: position.Vec3(), Target: target.Position, Poly: ride.Poly, Link: ride.Link, Type: ride.Type,
	})
}

// SetAgentLinkTraversal makes agent e cross every link as traversal says,
// whatever the link's own Traversal (a player's character climbing
// ladders itself, say); ClearAgentLinkTraversal undoes it.
func (p *Plugin) SetAgentLinkTraversal(world *ecs.World, e ecs.Entity, traversal components.LinkTraversal) error {
	const what = "set agent link traversal"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	if traversal > components.LinkManual {
		return fmt.Errorf("plugin: %s: traversal %d: %w", what, traversal, ErrInvalidInput)
	}
	if !world.Has(e, p.linkAPI.overrideID) {
		p.linkAPI.overrides.Add(e)
	}
	*p.linkAPI.overrides.Get(e) = components.AgentLinkTraversal{Traversal: traversal}
	return nil
}

// ClearAgentLinkTraversal lets agent e cross links as each link says.
func (p *Plugin) ClearAgentLinkTraversal(world *ecs.World, e ecs.Entity) error {
	const what = "clear agent link traversal"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	if world.Has(e, p.linkAPI.overrideID) {
		p.linkAPI.overrides.Remove(e)
	}
	return nil
}
