package bake

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// TiledOptions tune a tiled bake.
type TiledOptions struct {
	// TileSize is the side of a tile without its border; 0 keeps
	// Settings.TileSize [Limit: >= 0] [Units: cells]
	TileSize int
	// Workers is the number of goroutines baking tiles; 0 or less means
	// runtime.GOMAXPROCS(0). The result does not depend on it.
	Workers int
	// AreaFlags maps each polygon's baked area to the area and flags
	// stored in the tile; nil means RecastDemoAreaFlags. It must return
	// areas below navmesh.MaxAreas.
	AreaFlags func(area uint8) (newArea uint8, flags uint16)
	// Progress, when set, is called after each tile with the number of
	// tiles done so far and the total. Calls come one at a time, from the
	// goroutine that called Tiled, and stop once the bake is cancelled or
	// a tile failed.
	Progress func(done, total int)
}

// TiledStats sum up a tiled bake.
type TiledStats struct {
	// TilesX and TilesY are the size of the tile grid.
	TilesX, TilesY int
	// TilesWithData counts the tiles that produced tile data.
	TilesWithData int
	// Triangles sums, over the tiles, the input triangles each looked at.
	Triangles int
	// Counts sums the tiles' counts.
	Counts BuildCounts
	// StageTimes sums the tiles' stage times, indexed by Stage (time spent
	// by all the workers together, so their total exceeds Wall with
	// several workers).
	StageTimes [NumStages]time.Duration
	// Wall is the time the whole bake took, chunk tree included.
	Wall time.Duration
	// Workers is the number of goroutines that baked.
	Workers int
	// Warnings are the tiles' warnings prefixed with the tile, at most
	// maxTiledWarnings of them; DroppedWarnings counts the others.
	Warnings        []string
	DroppedWarnings int
}

// maxTiledWarnings bounds TiledStats.Warnings.
const maxTiledWarnings = 100

// TiledResult is a baked tiled level.
type TiledResult struct {
	// Baker rebuilds single tiles of the same level and settings.
	Baker *TileBaker
	// Tiles holds the tiles that have data, row by row (y, then x).
	Tiles []*TileResult
	// Stats sum up the bake.
	Stats TiledStats
}

// Tiled bakes every tile of the level on several goroutines
// (Sample_TileMesh::buildAllTiles), each with its own scratch buffers. The
// tiles, their order and their bytes do not depend on the number of
// workers. Cancelling ctx stops the workers between two stages of a tile and
// returns ctx's error; a nil ctx never stops it. The first failing tile (in
// grid order) stops the bake and its error is returned.
func Tiled(ctx context.Context, g *Geometry, settings Settings, opts TiledOptions) (*TiledResult, error) {
	start := time.Now()
	baker, err := NewTileBaker(g, settings, opts)
	if err != nil {
		return nil, err
	}
	result, err := baker.BuildAll(ctx, opts)
	if err != nil {
		return nil, err
	}
	result.Stats.Wall = time.Since(start)
	return result, nil
}

// BuildAll bakes every tile of the grid as Tiled does, on opts.Workers
// goroutines, calling opts.Progress after each tile; the other options are
// NewTileBaker's.
func (b *TileBaker) BuildAll(ctx context.Context, opts TiledOptions) (*TiledResult, error) {
	workers, progress := opts.Workers, opts.Progress
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	total := b.tilesX * b.tilesY
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, total), 1)

	tiles, err := b.buildTiles(ctx, workers, total, progress)
	if err != nil {
		return nil, err
	}

	result := &TiledResult{Baker: b}
	stats := &result.Stats
	stats.TilesX, stats.TilesY, stats.Workers = b.tilesX, b.tilesY, workers
	for _, tile := range tiles {
		stats.Triangles += tile.Triangles
		addCounts(&stats.Counts, &tile.Stats.Counts)
		for s, d := range tile.Stats.StageTimes {
			stats.StageTimes[s] += d
		}
		for _, w := range tile.Stats.Warnings {
			if len(stats.Warnings) >= maxTiledWarnings {
				stats.DroppedWarnings++
				continue
			}
			stats.Warnings = append(stats.Warnings, fmt.Sprintf("tile (%d, %d): %s", tile.X, tile.Y, w))
		}
		stats.DroppedWarnings += tile.Stats.DroppedWarnings
		if tile.Data != nil {
			result.Tiles = append(result.Tiles, tile)
		}
	}
	stats.TilesWithData = len(result.Tiles)
	stats.Wall = time.Since(start)
	return result, nil
}

// buildTiles bakes tiles 0..total-1 (row-major) on workers goroutines that
// take the next tile as they become free, and returns the results in grid
// order.
func (b *TileBaker) buildTiles(ctx context.Context, workers, total int, progress func(done, total int)) ([]*TileResult, error) {
	workCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	tiles := make([]*TileResult, total)
	errs := make([]error, total)
	var next atomic.Int64
	finished := make(chan struct{}, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := &tileScratch{}
			for {
				i := int(next.Add(1) - 1)
				if i >= total || workCtx.Err() != nil {
					return
				}
				tile, err := b.buildTile(workCtx, i%b.tilesX, i/b.tilesX, scratch)
				if err != nil {
					errs[i] = err
					cancel()
					return
				}
				tiles[i] = tile
				finished <- struct{}{}
			}
		}()
	}
	go func() {
		wg.Wait()
		close(finished)
	}()
	done := 0
	for range finished {
		done++
		// No progress once the bake is being stopped.
		if progress != nil && workCtx.Err() == nil {
			progress(done, total)
		}
	}

	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("bake: tiled build: %w", err)
	}
	// The first failure in grid order, skipping tiles stopped because
	// another one failed.
	var stopped error
	for i, err := range errs {
		if err == nil {
			continue
		}
		wrapped := fmt.Errorf("bake: build tile (%d, %d): %w", i%b.tilesX, i/b.tilesX, err)
		if !errors.Is(err, context.Canceled) {
			return nil, wrapped
		}
		if stopped == nil {
			stopped = wrapped
		}
	}
	if stopped != nil {
		return nil, stopped
	}
	return tiles, nil
}
