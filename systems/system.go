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
)
