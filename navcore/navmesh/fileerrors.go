package navmesh

import (
	"errors"
	"fmt"
)

// Errors of the tile-data builder and the file formats, for errors.Is.
var (
	// ErrInvalidBuildParams is wrapped by BuildTileData for input it cannot
	// build a tile from.
	ErrInvalidBuildParams = errors.New("invalid tile build parameters")
	// ErrUnknownFormat is wrapped when a file or blob does not start with
	// a magic number this package reads.
	ErrUnknownFormat = errors.New("unknown navmesh file format")
	// ErrUnsupportedVersion is wrapped when the magic is known but the
	// format version is not.
	ErrUnsupportedVersion = errors.New("unsupported navmesh file version")
	// ErrMalformedFile is wrapped for truncated or corrupted input: sizes
	// that do not add up, counts out of range, indices past their arrays,
	// a checksum mismatch.
	ErrMalformedFile = errors.New("malformed navmesh file")
	// ErrInconsistentTileData is wrapped when a TileData to be written does
	// not hold together (header counts that differ from its slices, indices
	// out of range).
	ErrInconsistentTileData = errors.New("inconsistent tile data")
)

// malformed returns an ErrMalformedFile error naming the format, the place
// (a section or field, with a byte offset when known) and what is wrong.
func malformed(format, where, what string, args ...any) error {
	return fmt.Errorf("navmesh: %s: %s: %s: %w", format, where, fmt.Sprintf(what, args...), ErrMalformedFile)
}

// errNilWriter is the error of a write to a nil io.Writer.
func errNilWriter(what string) error {
	return fmt.Errorf("navmesh: %s: nil writer", what)
}
