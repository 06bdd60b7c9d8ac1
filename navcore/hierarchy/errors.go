package hierarchy

import "github.com/archenav/archenav/navcore/query"

// Errors, for errors.Is. They are query's sentinels, so one test covers
// both packages.
var (
	// ErrInvalidParam reports an argument the package cannot use.
	ErrInvalidParam = query.ErrInvalidParam
	// ErrInvalidRef reports a polygon reference that is zero, stale or
	// out of range.
	ErrInvalidRef = query.ErrInvalidRef
	// ErrNoSlicedQuery reports a sliced search call without a sliced
	// search in progress.
	ErrNoSlicedQuery = query.ErrNoSlicedQuery
	// ErrBufferTooSmall reports an empty path buffer.
	ErrBufferTooSmall = query.ErrBufferTooSmall
)
