// Package crowd holds the building blocks of the agent crowd that do not
// depend on an ECS: the path corridor, the local boundary, the proximity grid,
// obstacle avoidance and the path queue (DetourCrowd's dtPathCorridor,
// dtLocalBoundary, dtProximityGrid, dtObstacleAvoidanceQuery and
// dtPathQueue). Beside DetourCrowd's velocity sampling (ObstacleAvoidance)
// it offers optimal reciprocal collision avoidance (ReciprocalAvoidance,
// ORCA); an AvoidanceParams preset says which one an agent uses.
//
// # Start here
//
// Most games use these parts through the plugin package, which runs them as a
// crowd; use them directly to build a crowd of your own: Corridor follows a
// path, LocalBoundary and ProximityGrid gather walls and neighbours, the
// avoidance methods pick velocities, PathQueue spreads path searches over
// ticks.
//
// Every type is built once with its capacities fixed and then allocates
// nothing per tick. None of them is safe for concurrent mutation: give each
// goroutine its own instances (read-only methods such as
// ProximityGrid.QueryItems may be shared once writing has stopped).
//
// The types work on a navmesh.Mesh through a query.Query, which each
// goroutine owns. Positions and distances are in world units (y up),
// velocities in world units per second, times in seconds.
//
// Errors wrap the package's sentinels (ErrInvalidParam, ErrCapacity,
// ErrNotInCorridor, ErrUnknownRequest, ErrRequestPending) or those of the
// query and navmesh packages, for errors.Is; bad input gives an error, not a
// panic.
//
// Floating-point work follows the reference step by step in float32, so the
// results are bit-identical to the C++ build on amd64, except where a
// documented fault of the reference is fixed. The PathQueue shares its
// budget over its searches by default, which changes when a path arrives;
// PathQueueConfig.ReferenceSchedule schedules as dtPathQueue does. ORCA,
// which DetourCrowd does not have, is deterministic too: the same inputs in
// the same order give the same bits.
package crowd
