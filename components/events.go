package components

import (
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
)

// EventKind tells what happened to an agent.
type EventKind uint8

// Event kinds.
const (
	// EventTargetReached: the agent came within Settings.ArrivalDistance
	// (xz) of its target with a complete corridor. Fires once per target.
	EventTargetReached EventKind = iota + 1
	// EventPathFailed: no path could be planned; the target state became
	// TargetFailed.
	EventPathFailed
	// EventPartialPath: the path found does not reach the target (it is
	// unreachable or the search ran out of nodes); the agent goes as near
	// as it can.
	EventPartialPath
	// EventOffMeshStarted: the agent began crossing an off-mesh connection.
	EventOffMeshStarted
	// EventOffMeshFinished: the agent finished crossing and walks again.
	EventOffMeshFinished
	// EventGroundLost: the polygon under the agent went away and the agent
	// now walks back to the nearest free point (AgentReturning); Position
	// is where it stands, Poly the polygon it walks to.
	EventGroundLost
	// EventGroundRegained: a returning agent is back on the navmesh and
	// walks on.
	EventGroundRegained
	// EventAgentInvalid: the polygon under the agent went away and no
	// polygon was found near it (AgentInvalid).
	EventAgentInvalid
	// EventAgentRecovered: an invalid agent found a polygon again; Poly is
	// that polygon.
	EventAgentRecovered
	// EventObstacleLanded: an obstacle's carve or area is in the navmesh
	// (its tiles were rebuilt); Entity is the obstacle, Position its pose.
	EventObstacleLanded
	// EventObstacleRefused: the tile cache could not take an obstacle (no
	// tile cache, outside every layer, no free slot); it is avoided
	// instead. Entity is the obstacle, Position its pose.
	EventObstacleRefused
	// EventColliderLanded: the navmesh shows a collider entity where it
	// stands (its tiles were rebuilt since it last moved); Entity is the
	// collider, Position its pose.
	EventColliderLanded
	// EventColliderRefused: the dynamic navmesh could not take a collider
	// (no DynamicGeometry, outside the mesh, too many, a bad shape); it is
	// tried again once it moves or changes. Entity is the collider,
	// Position its pose.
	EventColliderRefused
	// EventLinkQueued: the agent came to a runtime link that is at its
	// Capacity and waits at its start; Link is the link entity.
	EventLinkQueued
	// EventLinkReached: the agent is on a LinkManual link, standing at its
	// start, until the game calls plugin.CompleteLink (or CancelLink);
	// Link is the link, Poly its lane polygon.
	EventLinkReached
	// EventLinkCompleted: plugin.CompleteLink let the agent off a link;
	// it walks on (raised at the start of the next tick).
	EventLinkCompleted
	// EventLinkCancelled: plugin.CancelLink put the agent back where it
	// stood before the link (raised at the start of the next tick).
	EventLinkCancelled
	// EventLinkRefused: a navmesh would not take a link entity (an end
	// beyond the mesh's grid, no slot left); Entity is the link.
	EventLinkRefused
)

// String returns the kind's name.
func (k EventKind) String() string {
	switch k {
	case EventTargetReached:
		return "target reached"
	case EventPathFailed:
		return "path failed"
	case EventPartialPath:
		return "partial path"
	case EventOffMeshStarted:
		return "off-mesh started"
	case EventOffMeshFinished:
		return "off-mesh finished"
	case EventGroundLost:
		return "ground lost"
	case EventGroundRegained:
		return "ground regained"
	case EventAgentInvalid:
		return "agent invalid"
	case EventAgentRecovered:
		return "agent recovered"
	case EventObstacleLanded:
		return "obstacle landed"
	case EventObstacleRefused:
		return "obstacle refused"
	case EventColliderLanded:
		return "collider landed"
	case EventColliderRefused:
		return "collider refused"
	case EventLinkQueued:
		return "link queued"
	case EventLinkReached:
		return "link reached"
	case EventLinkCompleted:
		return "link completed"
	case EventLinkCancelled:
		return "link cancelled"
	case EventLinkRefused:
		return "link refused"
	}
	return "unknown"
}

// Event is something that happened to one agent during a tick.
type Event struct {
	// Kind says what happened.
	Kind EventKind
	// Entity is the agent, or the obstacle for the obstacle events.
	Entity ecs.Entity
	// Position is the agent's position when it happened [Units: world units]
	Position geom.Vec3
	// Target is the agent's move target [Units: world units]
	Target geom.Vec3
	// Poly is the off-mesh connection for the off-mesh and link events,
	// the polygon walked to for EventGroundLost and EventAgentRecovered, 0
	// otherwise.
	Poly navmesh.Ref
	// Link is the runtime link entity of the link events, and of
	// EventOffMeshStarted when the connection is a link entity's; the zero
	// entity otherwise.
	Link ecs.Entity
	// Type is the agent's type (AgentParams.Type; AgentTypes names it), 0
	// for the obstacle events.
	Type uint8
}

// Events is the resource collecting the events of the current tick, in the
// order the stages produced them (entity order within a stage). The
// schedule clears it at the start of each tick; read it after the tick.
// Appending reuses the buffer, so a steady crowd does not allocate.
type Events struct {
	list []Event
}

// All returns this tick's events. The slice is reused by the next tick.
func (e *Events) All() []Event { return e.list }

// Add appends an event.
func (e *Events) Add(ev Event) { e.list = append(e.list, ev) }

// Reserve grows the buffer to hold n events without allocating, so that a
// tick in which many agents raise one (the first tick after a mass spawn)
// does not grow it event by event.
func (e *Events) Reserve(n int) {
	if cap(e.list) < n {
		e.list = slices.Grow(e.list, n-len(e.list))
	}
}

// Clear forgets the events, keeping the buffer.
func (e *Events) Clear() { e.list = e.list[:0] }
