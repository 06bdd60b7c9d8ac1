package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// topologyOptimizationPeriod is how long an agent waits between topology
// optimizations (OPT_TIME_THR) [Units: s]
const topologyOptimizationPeriod = float32(0.5)

// TopologyOptimize is the second stage (dtCrowd::updateTopologyOptimization):
// of the walking agents with a path and the OptimizeTopology flag (not
// stopped: a stopped agent keeps its corridor), the one
// that waited longest, if it waited at least 0.5 s, replans the start of its
// corridor with a small local search. One agent per tick, as in the
// reference.
//
// Resources: Queries, Filters; optional TimeStep.
type TopologyOptimize struct {
	stage
	agentFilter *generic.Filter4[components.AgentParams, components.AgentState, components.MoveTarget, components.Corridor]
}

// Initialize prepares the stage for world.
func (s *TopologyOptimize) Initialize(world *ecs.World) {
	s.init(world)
	s.agentFilter = generic.NewFilter4[components.AgentParams, components.AgentState, components.MoveTarget, components.Corridor]().
		With(generic.T[components.Position]())
}

// Finalize does nothing.
func (s *TopologyOptimize) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *TopologyOptimize) Update(world *ecs.World) {
	if !s.beginResources() {
		return
	}
	var bestParams *components.AgentParams
	var bestState *components.AgentState
	var bestCorridor *components.Corridor
	q := s.agentFilter.Query(world)
	for q.Next() {
		params, state, target, corridor := q.Get()
		if state.Mode != components.AgentWalking || state.Stopped || !target.State.HasPath() ||
			!params.UpdateFlags.Has(components.OptimizeTopology) {
			continue
		}
		state.TopologyOptimizationTime += s.dt
		t := state.TopologyOptimizationTime
		if t >= topologyOptimizationPeriod && (bestState == nil || t > bestState.TopologyOptimizationTime) {
			bestParams, bestState, bestCorridor = params, state, corridor
		}
	}
	if bestState == nil || bestCorridor.Corridor == nil {
		return
	}
	_, _ = bestCorridor.OptimizePathTopology(s.query(0, bestParams), s.filter(bestParams))
	bestState.TopologyOptimizationTime = 0
}
