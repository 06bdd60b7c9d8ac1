// Package systems runs the archenav crowd as arche systems: one exported
// type per stage of DetourCrowd's dtCrowd::update, and stages of
// archenav's own for obstacles, colliders and runtime links.
//
// # Start here
//
// The plugin package builds these systems into its Schedule; you need this
// package to write a stage of your own (the System interface) or to replace
// one of the crowd's stages, as examples/steering does.
//
// The stages, in the order they run:
//
//	ObstacleSync      obstacle entities into the tile cache, its budgeted
//	                  update, this tick's obstacle bodies
//	ColliderSync      collider entities into the dynamic navmesh, its
//	                  budgeted update
//	LinkSync          link entities into the navmeshes, the link calls' events
//	PathRequest       path validity, move requests, the path queue
//	TopologyOptimize  one corridor replanned locally per tick
//	BoundaryUpdate    proximity grid, neighbours, local walls
//	Steering          corners, visibility shortcuts, off-mesh trigger,
//	                  desired velocity, separation, deadlock breaker
//	LinkTraversal     agents onto the runtime links their corridors take
//	VelocitySampling  obstacle avoidance
//	Integrate         acceleration limit and movement
//	CollisionResolve  push-apart between agents
//	SurfaceClamp      move along the navmesh, snap height, arrival
//	OffMeshAnimation  agents crossing off-mesh connections
//
// Each type has the method set Initialize / Update / Finalize(*ecs.World)
// of arche-model's System, so it drops into an arche-model Model or any
// other scheduler, and each works on its own given the resources of package
// components (package plugin adds them all). A stage whose resources are
// missing does nothing.
//
// With agent types (the AgentTypes resource) every per-agent query runs on
// the navmesh of the agent's type (AgentParams.Type): its queries, filters,
// path queue and changed tiles; the proximity grid, avoidance and
// collisions span all types.
//
// The per-agent work of BoundaryUpdate, Steering, VelocitySampling,
// Integrate, CollisionResolve and SurfaceClamp (and the per-agent parts of
// PathRequest), and the tile rebuilds of ObstacleSync, are spread over the
// goroutines of a Workers resource when there is one. Each agent's work
// reads only what earlier stages, or the agent itself, wrote, and
// everything that depends on order (path queue requests, the topology
// pick, events) runs in one pass in entity order, so the results are
// bit-identical whatever the number of workers.
//
// Each stage lists the world's agents at the start of its Update, checking
// the list it kept from the last one; while a StageRun resource is open
// (plugin.Schedule opens it around each series of its own stages) the
// stages share one list instead.
package systems
