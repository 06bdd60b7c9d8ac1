package plugin

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navquery"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
)

// AgentStatus is what game code asks of an agent at once, the answers of
// Unity's NavMeshAgent and Godot's NavigationAgent3D (docs/agents.md gives
// the names side by side). Status fills it.
type AgentStatus struct {
	// Position is where the agent stands [Units: world units]
	Position geom.Vec3
	// Destination is the move target (Unity destination, Godot
	// target_position); zero without one [Units: world units]
	Destination geom.Vec3
	// PathEnd is where the corridor ends: Destination, or for a partial
	// path the reachable point nearest it [Units: world units]
	PathEnd geom.Vec3
	// RemainingDistance is the length of the straight path from Position
	// through the corridor to PathEnd (Unity remainingDistance, Godot
	// distance_to_target along the path): 0 without a target or with a
	// velocity request, +Inf while the first path is pending or after a
	// failed search [Units: world units]
	RemainingDistance float32
	// PathPending reports that a path is being planned (Unity
	// pathPending); HasPath that the agent follows a corridor to its
	// destination, possibly while a new one is planned (Unity hasPath).
	PathPending, HasPath bool
	// PathStatus says whether the corridor reaches the destination (Unity
	// pathStatus; Godot is_target_reachable is navquery.PathComplete):
	// navquery.PathInvalid while the agent follows no corridor.
	PathStatus navquery.PathStatus
	// SteeringTarget is the next corner of the path (Unity steeringTarget,
	// Godot get_next_path_position), Position when there is none
	// [Units: world units]
	SteeringTarget geom.Vec3
	// Stopped reports that the agent is paused (Stop; Unity isStopped).
	Stopped bool
	// Arrived reports that EventTargetReached fired for the destination
	// (Godot is_target_reached); ArrivedNear that it fired short of it
	// (see components.MoveTarget.ArrivedNear).
	Arrived, ArrivedNear bool
	// OnOffMeshLink reports that the agent is crossing an off-mesh
	// connection (Unity isOnOffMeshLink).
	OnOffMeshLink bool
	// Velocity is the agent's velocity, DesiredVelocity the one steering
	// asks for (Unity velocity and desiredVelocity)
	// [Units: world units / s]
	Velocity, DesiredVelocity geom.Vec3
}

// Status returns agent e's status. RemainingDistance pulls the straight
// path through the corridor, so Status costs about a corner search of the
// whole corridor; it reuses a buffer of the plugin's, allocated by the
// first call.
func (p *Plugin) Status(world *ecs.World, e ecs.Entity) (AgentStatus, error) {
	const what = "status"
	if err := p.checkWorld(world, what, false); err != nil {
		return AgentStatus{}, err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return AgentStatus{}, err
	}
	params, position, vel, state, corridor, target, _, _, corners, _ := p.agents.Get(e)
	s := AgentStatus{
		Position:        position.Vec3(),
		Stopped:         state.Stopped,
		Arrived:         target.Arrived,
		ArrivedNear:     target.ArrivedNear,
		OnOffMeshLink:   state.Mode == components.AgentOffMesh,
		Velocity:        vel.Actual,
		DesiredVelocity: vel.Desired,
		SteeringTarget:  position.Vec3(),
	}
	switch target.State {
	case components.TargetRequesting, components.TargetWaitingForQueue, components.TargetWaitingForPath:
		s.PathPending = true
		s.HasPath = target.Replan
	case components.TargetValid:
		s.HasPath = true
	}
	if target.State == components.TargetNone || target.State == components.TargetVelocity {
		return s, nil
	}
	s.Destination = target.Position
	if !s.HasPath || corridor.Corridor == nil {
		s.RemainingDistance = float32(math.Inf(1))
		return s, nil
	}
	s.PathStatus = navquery.PathComplete
	if state.Partial {
		s.PathStatus = navquery.PathPartial
	}
	s.PathEnd = corridor.Target()
	if corners.Count > 0 {
		s.SteeringTarget = corners.Points[0].Pos
	}
	distance, err := p.pathLength(params, position.Vec3(), corridor)
	if err != nil {
		return AgentStatus{}, fmt.Errorf("plugin: %s: entity %v: %w", what, e, err)
	}
	s.RemainingDistance = distance
	return s, nil
}

// pathLength returns the length of the straight path from pos through the
// agent's corridor to its end.
func (p *Plugin) pathLength(params *components.AgentParams, pos geom.Vec3, corridor *components.Corridor) (float32, error) {
	path := corridor.Path()
	if len(path) == 0 {
		return geom.Dist(pos, corridor.Target()), nil
	}
	if need := len(path) + 2; len(p.statusPoints) < need {
		p.statusPoints = make([]query.StraightPathPoint, max(need, p.config.MaxPath+2))
	}
	n, _, err := p.typeOf(params).query.FindStraightPath(pos, corridor.Target(), path, p.statusPoints, 0)
	if err != nil {
		return 0, err
	}
	var length float32
	for i := 1; i < n; i++ {
		length += geom.Dist(p.statusPoints[i-1].Pos, p.statusPoints[i].Pos)
	}
	return length, nil
}

// Stop pauses agent e (Unity's isStopped = true): it keeps its corridor and
// target, plans no velocity and brakes to a standstill within its
// acceleration limit, triggers no off-mesh connection and skips the
// corridor optimizations; others still see it as a neighbour to avoid, and
// the collisions push it aside like an idle agent. A path search in
// flight finishes; EventTargetReached may still fire if it stands at its
// target. Resume undoes it. Stopping a stopped agent does nothing.
func (p *Plugin) Stop(world *ecs.World, e ecs.Entity) error {
	return p.setStopped(world, e, true, "stop")
}

// Resume lets agent e, paused by Stop, walk on along its corridor (Unity's
// isStopped = false). Resuming an agent that is not stopped does nothing.
func (p *Plugin) Resume(world *ecs.World, e ecs.Entity) error {
	return p.setStopped(world, e, false, "resume")
}

func (p *Plugin) setStopped(world *ecs.World, e ecs.Entity, stopped bool, what string) error {
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkAgent(world, e, what); err != nil {
		return err
	}
	_, _, _, state, _, _, _, _, _, _ := p.agents.Get(e)
	state.Stopped = stopped
	return nil
}
