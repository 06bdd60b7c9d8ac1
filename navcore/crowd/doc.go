// Package crowd holds the building blocks of the agent crowd that do not
// depend on an ECS: the path corridor, the local boundary, the proximity grid,
// obstacle avoidance and the path queue (DetourCrowd's dtPathCorridor,
// dtLocalBoundary, dtProximityGrid, dtObstacleAvoidanceQuery and
// dtPathQueue).
//
// Every type is built once with its capacities fixed and then allocates
// nothing per tick. None of them is safe for concurrent mutation: give each
// goroutine its own instances (read-only methods such as
// ProximityGrid.QueryItems may be shared once writing has stopped).
//
// Floating-point work follows the reference step by step in float32, so the
// results are bit-identical to the C++ build on amd64, except where a
// documented fault of the reference is fixed.
package crowd
