package tilecache

import (
	"errors"
	"fmt"
)

// Limits of Params.
const (
	// MaxCacheTiles is the largest Params.MaxTiles: a layer ref keeps its
	// slot in the low bits of 32 and at least 10 bits of salt above, as the
	// C++ does.
	MaxCacheTiles = 1 << 22
	// MaxCacheObstacles is the largest Params.MaxObstacles.
	MaxCacheObstacles = 1 << 24
)

// ErrInvalidParams is wrapped for Params outside their limits.
var ErrInvalidParams = errors.New("tilecache: invalid parameters")

// checkParams checks p against the limits in its documentation.
func checkParams(p Params) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("tilecache: %s: %w", fmt.Sprintf(format, args...), ErrInvalidParams)
	}
	for i := range 3 {
		if !finite(p.Origin[i]) {
			return fail("origin %v not finite", p.Origin)
		}
	}
	switch {
	case !(p.CellSize > 0) || !finite(p.CellSize) || !finite(1/p.CellSize):
		return fail("cell size %v not a positive number", p.CellSize)
	case !(p.CellHeight > 0) || !finite(p.CellHeight) || !finite(1/p.CellHeight):
		return fail("cell height %v not a positive number", p.CellHeight)
	case p.Width < 1 || p.Width > MaxLayerSide || p.Height < 1 || p.Height > MaxLayerSide:
		return fail("tile size %d×%d cells, want 1..%d each", p.Width, p.Height, MaxLayerSide)
	case !finite(p.WalkableHeight) || p.WalkableHeight < 0 || !finite(p.WalkableRadius) || p.WalkableRadius < 0 ||
		!finite(p.WalkableClimb) || p.WalkableClimb < 0:
		return fail("walkable height %v, radius %v, climb %v must be finite and >= 0", p.WalkableHeight, p.WalkableRadius, p.WalkableClimb)
	case !finite(p.MaxSimplificationError) || p.MaxSimplificationError < 0:
		return fail("max simplification error %v must be finite and >= 0", p.MaxSimplificationError)
	case p.MaxTiles < 1 || p.MaxTiles > MaxCacheTiles:
		return fail("MaxTiles %d outside 1..%d", p.MaxTiles, MaxCacheTiles)
	case p.MaxObstacles < 1 || p.MaxObstacles > MaxCacheObstacles:
		return fail("MaxObstacles %d outside 1..%d", p.MaxObstacles, MaxCacheObstacles)
	}
	return nil
}

// walkableClimbCells is the climb in cells the layer build uses, truncated
// as (int)(walkableClimb / ch) in the C++.
func (p *Params) walkableClimbCells() int {
	return int(p.WalkableClimb / p.CellHeight)
}
