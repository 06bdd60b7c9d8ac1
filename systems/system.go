package systems

import "github.com/mlange-42/arche/ecs"

// System is the method set of every stage, the same as arche-model's
// System: Initialize once before the first Update, Update once per tick,
// Finalize once at the end.
type System interface {
	Initialize(world *ecs.World)
	Update(world *ecs.World)
	Finalize(world *ecs.World)
}

// Reserver is implemented by the stages that keep per-agent buffers:
// Reserve grows them for a crowd of agents agents, so that the first
// Update after a mass spawn (plugin.Plugin.SpawnBatch calls it) does not
// allocate them inside the tick. A stage that was not reserved grows its
// buffers in its Update instead, with the same results.
type Reserver interface {
	Reserve(agents int)
}

// Interface checks.
var (
	_ System = (*ObstacleSync)(nil)
	_ System = (*PathRequest)(nil)
	_ System = (*TopologyOptimize)(nil)
	_ System = (*BoundaryUpdate)(nil)
	_ System = (*Steering)(nil)
	_ System = (*VelocitySampling)(nil)
	_ System = (*Integrate)(nil)
	_ System = (*CollisionResolve)(nil)
	_ System = (*SurfaceClamp)(nil)
	_ System = (*OffMeshAnimation)(nil)

	_ Reserver = (*BoundaryUpdate)(nil)
	_ Reserver = (*CollisionResolve)(nil)
)
