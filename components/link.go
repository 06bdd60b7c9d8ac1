package components

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
)

// ErrInvalidLink reports a Link outside its limits.
var ErrInvalidLink = errors.New("components: invalid link")

// LinkTraversal says who moves an agent across a runtime link.
type LinkTraversal uint8

// Link traversals.
const (
	// LinkAuto, the zero value: the crowd moves the agent across, as
	// across a baked off-mesh connection (EventOffMeshStarted, then
	// EventOffMeshFinished), in a straight line at half its maximum speed.
	LinkAuto LinkTraversal = iota
	// LinkManual: the agent stops at the link's start and waits
	// (EventLinkReached); the game moves it as it likes (an elevator
	// ride, a ladder climb, a cut-scene) and calls plugin.CompleteLink,
	// and the agent goes on along its corridor (EventLinkCompleted).
	LinkManual
)

// String returns the traversal's name.
func (t LinkTraversal) String() string {
	switch t {
	case LinkAuto:
		return "auto"
	case LinkManual:
		return "manual"
	}
	return "unknown"
}

// Link describes a runtime link entity (plugin.SpawnLink): a connection
// between two points of the navmesh, however far apart, added to the
// meshes of the agent types it is for while the entity lives (see
// navmesh.LinkDesc for how its ends land), and how agents cross it.
// Writing a changed Link into the component moves the link at the next
// tick.
type Link struct {
	// Start and End are its ends [Units: world units]
	Start, End geom.Vec3
	// Radius is how far from an end (xz) the polygon it lands on may lie
	// [Limit: >= 0] [Units: world units]
	Radius float32
	// Width makes a wide link, crossed anywhere along a segment of this
	// length at each end (a doorway, a ledge); 0 is a link between two
	// points [Limit: >= 0] [Units: world units]
	Width float32
	// Bidirectional links can be crossed both ways, others only from
	// Start to End.
	Bidirectional bool
	// Area is the link's area id, whose cost the agents' filters apply
	// [Limit: 0..navmesh.MaxAreas-1]
	Area uint8
	// Flags are the link's polygon flags, which filters include or
	// exclude; 0 takes 1, the flag of walkable ground.
	Flags uint16
	// Cost, when positive, is the cost of crossing per unit of length,
	// replacing the area's (see navmesh.LinkDesc.Cost) [Limit: >= 0]
	Cost float32
	// UserID is the caller's id for the link.
	UserID uint32
	// Traversal says who moves the agents across (LinkAuto or
	// LinkManual); an agent's AgentLinkTraversal overrides it.
	Traversal LinkTraversal
	// Capacity is the most agents on the link at once; the others queue
	// at its start (EventLinkQueued) and go in the order they came.
	// 0 is no limit.
	Capacity uint16
	// AgentTypes is the set of agent types whose navmesh gets the link:
	// bit i for type i (AgentParams.Type); 0 is every type.
	AgentTypes uint16
}

// Validate reports the first field outside its limits, wrapping
// ErrInvalidLink.
func (l *Link) Validate() error {
	finite := func(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
	switch {
	case !geom.IsFinite(l.Start) || !geom.IsFinite(l.End):
		return fmt.Errorf("%w: ends %v and %v must be finite", ErrInvalidLink, l.Start, l.End)
	case !finite(l.Radius) || l.Radius < 0:
		return fmt.Errorf("%w: radius %v is not a number >= 0", ErrInvalidLink, l.Radius)
	case !finite(l.Width) || l.Width < 0:
		return fmt.Errorf("%w: width %v is not a number >= 0", ErrInvalidLink, l.Width)
	case int(l.Area) >= navmesh.MaxAreas:
		return fmt.Errorf("%w: area %d outside 0..%d", ErrInvalidLink, l.Area, navmesh.MaxAreas-1)
	case !finite(l.Cost) || l.Cost < 0:
		return fmt.Errorf("%w: cost %v is not a number >= 0", ErrInvalidLink, l.Cost)
	case l.Traversal > LinkManual:
		return fmt.Errorf("%w: traversal %d", ErrInvalidLink, l.Traversal)
	}
	return nil
}

// Desc returns the navmesh description of the link.
func (l *Link) Desc() navmesh.LinkDesc {
	flags := l.Flags
	if flags == 0 {
		flags = 1
	}
	return navmesh.LinkDesc{
		Start: l.Start, End: l.End, Radius: l.Radius, Width: l.Width,
		Bidirectional: l.Bidirectional, Area: l.Area, Flags: flags, Cost: l.Cost, UserID: l.UserID,
	}
}

// ForType reports whether the link is for agent type t.
func (l *Link) ForType(t int) bool {
	return l.AgentTypes == 0 || (t < 16 && l.AgentTypes&(1<<t) != 0)
}

// LinkState is the crowd's bookkeeping of a link entity.
type LinkState struct {
	// IDs are the link's ids in each agent type's navmesh (the Mesh of
	// AgentTypes.List[i]), 0 for a type it is not for.
	IDs [MaxAgentTypes]navmesh.LinkID
	// Added is the Link as it is in the navmeshes: the LinkSync stage
	// adds the link again when the component differs.
	Added Link
	// Refused is set when a navmesh would not take the link as it is now
	// (EventLinkRefused); it is tried again when the Link changes.
	Refused bool
}

// AgentLinkTraversal, on an agent entity, overrides the Traversal of every
// link it crosses (plugin.SetAgentLinkTraversal).
type AgentLinkTraversal struct {
	// Traversal is how the agent crosses links.
	Traversal LinkTraversal
}

// LinkPhase is where an agent stands with a runtime link.
type LinkPhase uint8

// Link phases.
const (
	// LinkQueued: the agent came to the link's start and waits for room
	// on it (the link is at its Capacity).
	LinkQueued LinkPhase = iota + 1
	// LinkCrossing: the crowd moves the agent across (LinkAuto).
	LinkCrossing
	// LinkHeld: the agent is on a LinkManual link; the game moves it
	// until plugin.CompleteLink or plugin.CancelLink.
	LinkHeld
)

// String returns the phase's name.
func (p LinkPhase) String() string {
	switch p {
	case LinkQueued:
		return "queued"
	case LinkCrossing:
		return "crossing"
	case LinkHeld:
		return "held"
	}
	return "unknown"
}

// LinkRide is one agent at a runtime link: queued at its start, crossing
// it or held on it.
type LinkRide struct {
	// Agent is the agent.
	Agent ecs.Entity
	// Link is the link entity, the zero entity for a link added to the
	// navmesh directly (navmesh.Mesh.AddLink), which is crossed LinkAuto
	// without a capacity.
	Link ecs.Entity
	// ID is the link in the agent's navmesh; Type the agent's type.
	ID   navmesh.LinkID
	Type uint8
	// Phase is where the agent stands with the link.
	Phase LinkPhase
	// Poly is the link's lane polygon the agent crosses.
	Poly navmesh.Ref
	// Start and End are the lane's ends in the direction the agent
	// crosses, known once it is on the link [Units: world units]
	Start, End geom.Vec3
	// Before is the polygon the agent stood on before the link (where
	// plugin.CancelLink puts it back).
	Before navmesh.Ref
}

// LinkTraffic is the resource of the agents at runtime links, in the
// order they came: the queue of each link is its LinkQueued rides in
// this order. The LinkSync and LinkTraversal stages and the plugin's
// link calls keep it.
type LinkTraffic struct {
	// Rides are the agents at links, in the order they came.
	Rides []LinkRide
	// Pending are events of plugin calls made between ticks
	// (EventLinkCompleted), raised by the next LinkSync stage.
	Pending []Event
}

// Find returns the index of agent's ride, -1 when it has none.
func (t *LinkTraffic) Find(agent ecs.Entity) int {
	for i := range t.Rides {
		if t.Rides[i].Agent == agent {
			return i
		}
	}
	return -1
}

// OnLink counts the agents crossing or held on link (entity) of type
// typ with id: those taking room on it.
func (t *LinkTraffic) OnLink(link ecs.Entity, typ uint8, id navmesh.LinkID) int {
	n := 0
	for i := range t.Rides {
		r := &t.Rides[i]
		if r.Phase != LinkQueued && r.Link == link && (!link.IsZero() || r.ID == id && r.Type == typ) {
			n++
		}
	}
	return n
}

// Drop removes ride i, keeping the order of the others.
func (t *LinkTraffic) Drop(i int) {
	t.Rides = append(t.Rides[:i], t.Rides[i+1:]...)
}
