// Package query answers spatial and path queries on a navmesh.Mesh: the
// Detour dtNavMeshQuery surface.
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
// The algorithms follow Detour 1.6.0 operation for operation in float32, so
// the answers match the C++ library's to the last bit.
package query
