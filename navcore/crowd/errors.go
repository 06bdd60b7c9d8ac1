package crowd

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/query"
)

// Sentinel errors, for errors.Is. Errors returned by this package wrap one of
// them with context.
var (
	// ErrCapacity is returned when a fixed-size pool, buffer or queue is full.
	ErrCapacity = errors.New("crowd: capacity exceeded")
	// ErrInvalidParam is returned for an argument or parameter outside its
	// documented limits (negative sizes, NaN coordinates, ...).
	ErrInvalidParam = errors.New("crowd: invalid parameter")
	// ErrMoveAway is returned by Corridor.MovePositionNoFarther for a move
	// that would end farther from its goal than it starts, or go further
	// than its goal.
	ErrMoveAway = errors.New("crowd: move would end farther from its goal")
)

// checkQuery returns an ErrInvalidParam error for a nil query.
func checkQuery(what string, q *query.Query) error {
	if q == nil {
		return fmt.Errorf("crowd: %s: nil query: %w", what, ErrInvalidParam)
	}
	return nil
}

// checkQueryAndFilter returns an ErrInvalidParam error for a nil query or
// filter.
func checkQueryAndFilter(what string, q *query.Query, filter *query.Filter) error {
	if err := checkQuery(what, q); err != nil {
		return err
	}
	if filter == nil {
		return fmt.Errorf("crowd: %s: nil filter: %w", what, ErrInvalidParam)
	}
	return nil
}
