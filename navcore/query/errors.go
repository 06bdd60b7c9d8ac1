package query

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

var (
	// ErrInvalidParam reports an argument a query cannot use: a NaN or
	// infinite position, negative extents or radius, a nil filter...
	ErrInvalidParam = errors.New("query: invalid parameter")
	// ErrInvalidRef reports a polygon reference that is zero, malformed or
	// stale (its tile was removed). It is navmesh.ErrInvalidRef, so one
	// errors.Is test covers both packages.
	ErrInvalidRef = navmesh.ErrInvalidRef
	// ErrBufferTooSmall reports a result buffer with no room at all where a
	// query must write at least one value. It also matches ErrInvalidParam.
	// A buffer that fills up part-way is not an error: the query then
	// returns what fits and sets StatusBufferTooSmall.
	ErrBufferTooSmall = fmt.Errorf("%w: result buffer too small", ErrInvalidParam)
	// ErrNotFound reports that no polygon qualified, for queries that must
	// return one (the random point queries).
	ErrNotFound = errors.New("query: no polygon found")
	// ErrNoSlicedQuery reports a sliced path call without a sliced query in
	// progress, or after the query failed because its start or end polygon
	// went away.
	ErrNoSlicedQuery = errors.New("query: no sliced path query in progress")
)

// errParentCycle reports search nodes whose parents lead round in a
// circle: a broken search, which the package's searches never leave (their
// costs are never negative and a NaN cost never replaces a way), checked so
// that walking the parents always ends.
var errParentCycle = fmt.Errorf("search nodes whose parents form a cycle: %w", ErrInvalidParam)

// Status holds the details of a successful query, the Detour status detail
// bits: a result can be partial, cut short, or still in progress without
// being an error.
type Status uint8

const (
	// StatusPartial: the search did not reach the goal; the result leads to
	// the best place found instead (DT_PARTIAL_RESULT).
	StatusPartial Status = 1 << iota
	// StatusOutOfNodes: the search ran out of nodes in the node pool, so the
	// result may not be the best one (DT_OUT_OF_NODES).
	StatusOutOfNodes
	// StatusBufferTooSmall: the result buffer filled up and the result was
	// truncated (DT_BUFFER_TOO_SMALL).
	StatusBufferTooSmall
	// StatusInProgress: a sliced path query needs more updates
	// (DT_IN_PROGRESS).
	StatusInProgress
)

// Partial reports whether StatusPartial is set.
func (s Status) Partial() bool { return s&StatusPartial != 0 }

// OutOfNodes reports whether StatusOutOfNodes is set.
func (s Status) OutOfNodes() bool { return s&StatusOutOfNodes != 0 }

// BufferTooSmall reports whether StatusBufferTooSmall is set.
func (s Status) BufferTooSmall() bool { return s&StatusBufferTooSmall != 0 }

// InProgress reports whether StatusInProgress is set.
func (s Status) InProgress() bool { return s&StatusInProgress != 0 }

// String lists the set flags, "complete" when none is.
func (s Status) String() string {
	if s == 0 {
		return "complete"
	}
	var out string
	for _, f := range []struct {
		bit  Status
		name string
	}{{StatusPartial, "partial"}, {StatusOutOfNodes, "out of nodes"}, {StatusBufferTooSmall, "buffer too small"}, {StatusInProgress, "in progress"}} {
		if s&f.bit != 0 {
			if out != "" {
				out += ", "
			}
			out += f.name
		}
	}
	return out
}
