package components

import (
	"github.com/archenav/archenav/navcore/geom"
)

// Position is where the agent stands (dtCrowdAgent::npos). While the agent
// walks it lies on the navmesh surface, inside the first polygon of its
// corridor; during an off-mesh animation it follows the connection. The
// crowd owns it: move an agent with plugin.Teleport, not by writing here.
// [Units: world units]
type Position geom.Vec3

// Vec3 returns the position as a vector.
func (p Position) Vec3() geom.Vec3 { return geom.Vec3(p) }

// Velocity holds the agent's velocities [Units: world units / s].
type Velocity struct {
	// Desired is where steering wants to go (dvel). Written by the Steering
	// stage; a user system between Steering and VelocitySampling may
	// change it.
	Desired geom.Vec3
	// Planned is the velocity chosen by obstacle avoidance, or Desired when
	// avoidance is off (nvel). Written by VelocitySampling.
	Planned geom.Vec3
	// Actual is the velocity the agent moves with, Planned reached within
	// the acceleration limit (vel). Written by Integrate.
	Actual geom.Vec3
	// DesiredSpeed is the speed steering asked for (desiredSpeed), the
	// sampling radius of obstacle avoidance.
	DesiredSpeed float32
}

// AgentMode is what the agent is doing (dtCrowdAgentState).
type AgentMode uint8

// Agent modes.
const (
	// AgentWalking: on the navmesh, moved by the crowd.
	AgentWalking AgentMode = iota
	// AgentOffMesh: crossing an off-mesh connection, animated by the
	// OffMeshAnimation stage.
	AgentOffMesh
	// AgentInvalid: the agent's polygon went away (its tile was removed)
	// and no polygon was found near it; it is not moved. Unless
	// Settings.RecoverInvalidAgents is off, it walks again (or returns) as
	// soon as a polygon is back within reach (EventAgentRecovered).
	AgentInvalid
	// AgentReturning: the ground under the agent was cut away (an obstacle
	// carved it, a door closed on it, its tile changed): it walks to the
	// nearest free point of the navmesh, which its corridor starts at, under
	// its own speed and acceleration limits, and walks on from there
	// (EventGroundLost, then EventGroundRegained). Only with
	// Settings.WalkBackToMesh; without, it is put there at once, as in the
	// reference.
	AgentReturning
)

// String returns the mode's name.
func (m AgentMode) String() string {
	switch m {
	case AgentWalking:
		return "walking"
	case AgentOffMesh:
		return "off-mesh"
	case AgentInvalid:
		return "invalid"
	case AgentReturning:
		return "returning"
	}
	return "unknown"
}

// AgentState is the crowd's bookkeeping for one agent.
type AgentState struct {
	// Mode is what the agent is doing (state).
	Mode AgentMode
	// Partial reports that the corridor does not reach the target: the
	// target is unreachable or the search ran out of nodes (partial).
	Partial bool
	// TopologyOptimizationTime is the time since the corridor's topology
	// was last optimized (topologyOptTime) [Units: s]
	TopologyOptimizationTime float32
	// Displacement is the collision push of the current resolve iteration
	// (disp); scratch of the CollisionResolve stage [Units: world units]
	Displacement geom.Vec3
	// Progress feeds the deadlock breaker of the Steering stage.
	Progress Progress
	// Stopped pauses the agent (plugin.Stop, plugin.Resume): it keeps its
	// corridor and target, plans no velocity of its own and brakes to a
	// standstill, but stays in the crowd as a body others avoid and push
	// aside (Unity's NavMeshAgent.isStopped).
	Stopped bool
}

// Progress tracks whether a walking agent with a path gets anywhere, so
// that agents stuck against each other or against a wall are noticed and
// nudged (see systems.Steering).
type Progress struct {
	// Trail holds where the agent stood at the last ProgressSamples
	// samples, newest first [Units: world units]
	Trail [ProgressSamples]geom.Vec3
	// TrailCount is the number of samples in Trail.
	TrailCount uint8
	// Elapsed is the time since the last sample [Units: s]
	Elapsed float32
	// Detours counts the detours since the agent last made progress.
	Detours uint8
	// Side is the side of the current detour: +1 right, -1 left of the
	// desired direction.
	Side float32
	// DetourTime is how long the current detour still lasts, 0 when none
	// [Units: s]
	DetourTime float32
}

// ProgressSamples is the length of Progress.Trail.
const ProgressSamples = 3
