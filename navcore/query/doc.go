// Package query answers spatial and path queries on a navmesh.Mesh: the
// Detour dtNavMeshQuery surface.
//
// # Start here
//
// Make one Query per goroutine with New(mesh, 2048) and a Filter with
// NewFilter; FindNearestPoly puts points on the mesh, FindPath and
// FindStraightPath plan a route, Raycast checks a straight walk. Pass buffers
// and reuse them: steady-state queries allocate nothing. docs/queries.md is
// the guide.
//
// A Query holds the working memory of one searcher (node pools and the open
// list), so each goroutine uses its own Query; any number of Queries may
// share one Mesh. Every public call works on one navmesh.Snapshot, so tiles
// may be added and removed while queries run: a query sees either the old or
// the new tile set, never a mix, and a reference to a removed tile gives
// ErrInvalidRef.
//
// Results go into buffers the caller passes in; in steady state no query
// allocates. Outcomes that Detour reports as status details (a partial path,
// running out of search nodes, a result buffer that filled up) are a normal
// Status on the result, not an error. Errors are reserved for bad input and
// are one of the sentinels ErrInvalidParam, ErrInvalidRef, ErrBufferTooSmall,
// ErrNotFound and ErrNoSlicedQuery, usable with errors.Is.
//
// Beyond Detour: Components gives the connected parts of the mesh a search
// with a filter cannot leave, OutOfReach and FindNearestPolyInComponent
// answer from them in O(1) or near it, and LargestComponentSampler draws
// random points, evenly by area, on the largest part (where to spawn agents
// and pick their targets, so that none starts on an island such as the top
// of a wall).
//
// Positions, extents, radii and lengths are in world units, y up; a
// position must be finite. Costs are filter costs: for the default filter,
// the distance travelled times the area cost. Area costs must be finite and
// >= 0 (Filter.Validate, Filter.SetAreaCost) and a Custom rule's costs >= 0:
// the queries that charge costs refuse others with ErrInvalidParam. Every
// search ends: an A* search makes at most 64 iterations per node of its pool
// (it reports StatusOutOfNodes when that cuts it short), and the walks
// along its parents stop at the pool's size.
//
// The algorithms follow Detour 1.6.0 operation for operation in float32, so
// the answers match the C++ library's to the last bit, quirks included:
//   - Raycast stops when its path buffer is full, so an empty buffer tests
//     the start polygon only; the any-angle search's line-of-sight checks
//     run that way, as in Detour.
//   - A box query reaching the minimum corner of a tile whose BV tree has
//     unused (zeroed) nodes at its end lists polygon 0 twice.
//   - A polygon reached from one polygon across two tile sides is searched
//     as two nodes by FindPath (one per side), not by the sliced search.
//
// Where Detour would read or write out of bounds or crash (an empty corridor,
// a zero-sized buffer, a stale reference in a sliced search) this package
// returns an error or stops at the buffer's end instead. Zero or negative
// box extents, which Detour accepts, are ErrInvalidParam.
package query
