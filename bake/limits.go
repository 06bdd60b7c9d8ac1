package bake

import (
	"errors"
	"fmt"
	"unsafe"
)

// Limits that keep a bake's memory bounded by its settings: a bake that
// would pass one fails with an error that names the figure, before it
// allocates anything for it.
var (
	// ErrMemoryLimit: the bake's estimated memory (Config.EstimatedMemory)
	// is above Settings.MaxMemory.
	ErrMemoryLimit = errors.New("bake: estimated memory over the limit")
	// ErrTooManyTiles: a tiled bake has more tiles with geometry than
	// Settings.MaxTiles.
	ErrTooManyTiles = errors.New("bake: too many tiles")
)

const (
	// DefaultMaxMemory is the memory limit of a bake whose
	// Settings.MaxMemory is 0: 4 GiB [Units: bytes]
	DefaultMaxMemory = 4 << 30
	// DefaultMaxTiles is the tile limit of a tiled bake whose
	// Settings.MaxTiles is 0: 2^20 tiles with geometry.
	DefaultMaxTiles = 1 << 20
)

// bytesPerGridCell is what a bake needs per cell of its grid with one span
// per column: the heightfield's column index and insertion hint, the span
// the heightfield reserves per column, the compact heightfield's cell (32
// bytes every grid costs), then the compact span, its area, its raw and
// blurred distances, its erosion distance and its region and region
// distance.
const bytesPerGridCell = int64(2*unsafe.Sizeof(int32(0))+unsafe.Sizeof(Span{})+unsafe.Sizeof(CompactCell{})+unsafe.Sizeof(CompactSpan{})) +
	1 + 2 + 2 + 1 + 2 + 2

// EstimatedMemory returns the bytes the bake of c's grid needs, before any
// of it is allocated: Width × Height × 50 bytes, the heightfield's columns
// and insertion hints with one reserved span each and the compact
// heightfield's cells (32 bytes per cell, which every bake of the grid
// allocates) and one compact span per cell with its per-span buffers (18
// more). Levels with many empty columns need a little less, levels with
// floors over each other more, and the products (meshes, tile data) come on
// top: solo bakes of RecastDemo's dungeon (248 × 330 cells, estimate
// 4.1 MB), nav_test and undulating allocate from 0.9 to 3 times the
// estimate (TestEstimatedMemoryBoundsTheBake).
// [Units: bytes]
func (c *Config) EstimatedMemory() int64 {
	return int64(c.Width) * int64(c.Height) * bytesPerGridCell
}

// maxMemory returns the memory limit of s.
func (s *Settings) maxMemory() int64 {
	if s.MaxMemory == 0 {
		return DefaultMaxMemory
	}
	return s.MaxMemory
}

// maxTiles returns the tile limit of s.
func (s *Settings) maxTiles() int {
	if s.MaxTiles == 0 {
		return DefaultMaxTiles
	}
	return s.MaxTiles
}

// checkMemory refuses a bake of workers grids like cfg's at once whose
// estimate is above the settings' limit; what names the bake in the error.
func (s *Settings) checkMemory(what string, cfg *Config, workers int) error {
	estimate := cfg.EstimatedMemory() * int64(max(workers, 1))
	limit := s.maxMemory()
	if estimate <= limit {
		return nil
	}
	grids := ""
	if workers > 1 {
		grids = fmt.Sprintf(" on %d workers", workers)
	}
	return fmt.Errorf("bake: %s: a %d×%d cell grid%s needs at least %s (%d bytes per cell), over the limit of %s (Settings.MaxMemory): %w",
		what, cfg.Width, cfg.Height, grids, formatBytes(estimate), bytesPerGridCell, formatBytes(limit), ErrMemoryLimit)
}

// formatBytes prints n bytes in the largest binary unit that keeps it at
// 1 or more.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	value, suffix := float64(n), "B"
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if value < unit {
			break
		}
		value, suffix = value/unit, s
	}
	return fmt.Sprintf("%.1f %s", value, suffix)
}
