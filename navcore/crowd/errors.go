package crowd

import "errors"

// Sentinel errors, for errors.Is. Errors returned by this package wrap one of
// them with context.
var (
	// ErrCapacity is returned when a fixed-size pool, buffer or queue is full.
	ErrCapacity = errors.New("crowd: capacity exceeded")
	// ErrInvalidParam is returned for an argument or parameter outside its
	// documented limits (negative sizes, NaN coordinates, ...).
	ErrInvalidParam = errors.New("crowd: invalid parameter")
)
