package navmesh

import (
	"errors"
	"fmt"
)

// Sentinel errors of the navmesh package; test for them with errors.Is.
var (
	// ErrInvalidRef reports a zero, stale (salt mismatch), out-of-range or
	// otherwise unusable polygon or tile reference.
	ErrInvalidRef = errors.New("navmesh: invalid reference")
	// ErrInvalidParams reports mesh Params outside their limits.
	ErrInvalidParams = errors.New("navmesh: invalid mesh parameters")
	// ErrTileExists reports that the tile location (x, y, layer) or the tile
	// slot asked for is already in use.
	ErrTileExists = errors.New("navmesh: tile already exists")
	// ErrOutOfTiles reports that every tile slot of the mesh is in use.
	ErrOutOfTiles = errors.New("navmesh: out of tile slots")
	// ErrInvalidData reports TileData whose counts or indices are
	// inconsistent.
	ErrInvalidData = errors.New("navmesh: invalid tile data")
)

// Reasons for a failed reference lookup, prepared once so that the lookups
// on hot paths return them without allocating.
var (
	errNullRef        = fmt.Errorf("%w: zero reference", ErrInvalidRef)
	errTileIndexRange = fmt.Errorf("%w: tile index beyond MaxTiles", ErrInvalidRef)
	errEmptySlot      = fmt.Errorf("%w: tile slot is empty", ErrInvalidRef)
	errStaleSalt      = fmt.Errorf("%w: salt mismatch (tile was removed or replaced)", ErrInvalidRef)
	errPolyIndexRange = fmt.Errorf("%w: polygon index beyond the tile's polygon count", ErrInvalidRef)
	errNotOffMesh     = fmt.Errorf("%w: polygon is not an off-mesh connection", ErrInvalidRef)
	errZeroSalt       = fmt.Errorf("%w: tile reference has salt 0", ErrInvalidRef)
)
