package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/mlange-42/arche/ecs"
)

// topologyOptimizationPeriod is how long an agent waits between topology
// optimizations (OPT_TIME_THR) [Units: s]
const topologyOptimizationPeriod = float32(0.5)

// TopologyOptimize is the second stage (dtCrowd::updateTopologyOptimization):
// of the walking agents with a path and the OptimizeTopology flag, the one
// that waited longest, if it waited at least 0.5 s, replans the start of its
// corridor with a small local search. One agent per tick, as in the
// reference.
//
// Resources: Queries, Filters; optional TimeStep.
type TopologyOptimize struct {
	stage
}

// Initialize prepares the stage for world.
func (s *TopologyOptimize) Initialize(world *ecs.World) { s.init(world) }

// Finalize does nothing.
func (s *TopologyOptimize) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *TopologyOptimize) Update(world *ecs.World) {
	if !s.begin(world) {
		return
	}
	best := -1
	for i := range s.agents {
		a := &s.agents[i]
		if !walking(a) || !a.target.State.HasPath() || !a.params.UpdateFlags.Has(components.OptimizeTopology) {
			continue
		}
		a.state.TopologyOptimizationTime += s.dt
		t := a.state.TopologyOptimizationTime
		if t >= topologyOptimizationPeriod && (best < 0 || t > s.agents[best].state.TopologyOptimizationTime) {
			best = i
		}
	}
	if best < 0 {
		return
	}
	a := &s.agents[best]
	_, _ = a.corridor.OptimizePathTopology(s.queries[0], s.filter(a.params))
	a.state.TopologyOptimizationTime = 0
}
