// Package navquery answers the questions game code asks of a navmesh in
// one call, without an ECS and without buffers of its own: the nearest
// point on the navmesh (Unity's NavMesh.SamplePosition), whether a point is
// on it, a path with its length and cost (NavMesh.CalculatePath), the
// length and cost of a corridor, and which of several goals is nearest by
// path ("which exit is closest"), in one search.
//
// # Start here
//
// New(mesh, Config{}) once per navmesh, then from any goroutine
// Navigator.SamplePosition, IsOnMesh, CalculatePath and NearestGoal (the
// Examples show each). For a crowd's agents ask plugin.Plugin.Status
// instead; for many queries in a tight loop on one goroutine, a
// query.Query of your own spares the pool.
//
// # Goroutines and results
//
// A Navigator is safe for use by any number of goroutines: it keeps a pool
// of query.Query objects (each with its search memory) and lends one to
// each call. Each call reads the navmesh as it is; when tiles change while
// a call runs, the call may fail with query.ErrInvalidRef (ask again).
// Results are the caller's: returned slices are new and never reused.
//
// Conventions (docs/conventions.md): y is up, distances are in world
// units, costs in the filter's units (by default the distance walked times
// each area's cost).
package navquery
