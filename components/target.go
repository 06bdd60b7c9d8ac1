package components

import (
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TargetState is where the agent's move request stands
// (MoveRequestState).
type TargetState uint8

// Move request states, in the reference's order.
const (
	// TargetNone: no move request; the agent stands still.
	TargetNone TargetState = iota
	// TargetFailed: the path search failed; the agent stands still.
	TargetFailed
	// TargetValid: the corridor leads to the target (or as near as it can,
	// see AgentState.Partial).
	TargetValid
	// TargetRequesting: a new target waits for the next PathRequest stage.
	TargetRequesting
	// TargetWaitingForQueue: the target is too far for the quick search and
	// waits for a free path queue slot.
	TargetWaitingForQueue
	// TargetWaitingForPath: the path queue is searching.
	TargetWaitingForPath
	// TargetVelocity: the agent is steered by a velocity, not a target.
	TargetVelocity
)

// String returns the state's name.
func (s TargetState) String() string {
	switch s {
	case TargetNone:
		return "none"
	case TargetFailed:
		return "failed"
	case TargetValid:
		return "valid"
	case TargetRequesting:
		return "requesting"
	case TargetWaitingForQueue:
		return "waiting for queue"
	case TargetWaitingForPath:
		return "waiting for path"
	case TargetVelocity:
		return "velocity"
	}
	return "unknown"
}

// HasPath reports whether the agent follows a corridor towards a target:
// any state but none and velocity.
func (s TargetState) HasPath() bool { return s != TargetNone && s != TargetVelocity }

// MoveTarget is the agent's move request (the dtCrowdAgent target fields).
type MoveTarget struct {
	// State is where the request stands (targetState).
	State TargetState
	// Ref is the polygon of the target (targetRef), 0 for none.
	Ref navmesh.Ref
	// Position is the target point on the navmesh (targetPos)
	// [Units: world units]
	Position geom.Vec3
	// Velocity is the requested velocity in state TargetVelocity
	// [Units: world units / s]
	Velocity geom.Vec3
	// Request is the path queue request in flight (targetPathqRef), 0 for
	// none.
	Request crowd.PathRequestID
	// Replan reports that the request replans an existing path
	// (targetReplan): the quick search then keeps the corridor it can.
	Replan bool
	// ReplanTime is the time since the path was last planned
	// (targetReplanTime) [Units: s]
	ReplanTime float32
	// Arrived is set when the TargetReached event has fired for this
	// target, so that it fires once.
	Arrived bool
	// ArrivedNear reports that the TargetReached event fired before the
	// agent came within its arrival distance: it got no nearer for
	// Settings.ArrivalStallTime with the target straight ahead, within
	// Settings.ArrivalTolerance of it or pressed against idle agents that
	// stand nearer it (the target is occupied), and stands at the nearest
	// free point it could reach.
	ArrivedNear bool
	// Approach tracks how the agent closes in on the target, for
	// Settings.ArrivalStallTime.
	Approach Approach
	// PartialReported is set when the PartialPath event has fired for this
	// target, so that the replans of a partial corridor (every second, to
	// see whether the target became reachable) do not repeat it.
	PartialReported bool
	// PartialEnd is the last polygon of the last partial path found, 0
	// after a complete one.
	PartialEnd navmesh.Ref
	// ReplanDelay is how long a partial corridor waits before it is planned
	// again, when Settings.PartialReplanBackoff has lengthened it; 0 means
	// the reference's 1 s [Units: s]
	ReplanDelay float32
	// Requested is the target point as requested (on the navmesh then);
	// Position may move away from it when the navmesh changes under it.
	// [Units: world units]
	Requested geom.Vec3
	// PathWait is how long the agent has waited for a first path to this
	// target, from the move request until PathFound [Units: s]
	PathWait float32
	// PathFound is set once a corridor towards this target was planned,
	// complete or partial (the wait is then recorded in Stats.PathWaits).
	PathFound bool
	// Displaced reports that the navmesh under Requested went away (an
	// obstacle carved it, a door closed on it) and Position is the nearest
	// point left; with Settings.WalkBackToMesh the target moves back when
	// the navmesh changes again.
	Displaced bool
}

// Approach tracks an agent closing in on its target in a straight line
// (the target is its next corner): the nearest it came and for how long it
// came no nearer. The Steering stage keeps it; RequestMoveTarget clears
// it.
type Approach struct {
	// Tracking reports that Nearest and Stalled hold values.
	Tracking bool
	// Nearest is the least xz distance to the stopping point (the target
	// less AgentParams.StoppingDistance) seen since the agent last came a
	// centimetre nearer [Units: world units]
	Nearest float32
	// Stalled is the time since the agent last came a centimetre nearer
	// [Units: s]
	Stalled float32
	// Pressed reports that another agent's body touched the agent's within
	// three quarters of its braking distance of its stopping point since
	// it last came nearer: it is jostled, and
	// must then close in by a share of the distance left to count as
	// coming nearer (see Settings.ArrivalStallTime).
	Pressed bool
}
