package bake

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// TiledOptions tune a tiled bake.
type TiledOptions struct {
	// TileSize is the side of a tile without its border; 0 keeps
	// Settings.TileSize [Limit: >= 0] [Units: cells]
	TileSize int
	// Workers is the number of goroutines baking tiles (and, given to
	// NewTileBaker, indexing the triangles); 0 or less means
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
	// Wall is the time the bake took (with Tiled, the chunk tree's build
	// included).
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
// returns ctx's error; a nil ctx never stops it. A failing tile stops the
// bake and its error is returned (the first in grid order when several
// fail before the others stop).
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
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	total := b.tilesX * b.tilesY
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(min(workers, total), 1)

	var summary tiledSummary
	if err := b.buildTiles(ctx, workers, total, opts.Progress, &summary); err != nil {
		return nil, err
	}

	result := &TiledResult{Baker: b}
	stats := &result.Stats
	stats.TilesX, stats.TilesY, stats.Workers = b.tilesX, b.tilesY, workers
	stats.Triangles = summary.triangles
	stats.Counts = summary.counts
	stats.StageTimes = summary.stageTimes
	stats.DroppedWarnings = summary.droppedWarnings
	byIndex := func(a, b finishedTile) int { return a.index - b.index }
	slices.SortFunc(summary.withData, byIndex)
	for _, f := range summary.withData {
		result.Tiles = append(result.Tiles, f.tile)
	}
	stats.TilesWithData = len(result.Tiles)
	if b.settings.Links.Enabled() {
		elapsed, err := b.placeTiledLinks(ctx, workers, result, summary.solids)
		if err != nil {
			return nil, err
		}
		// On top of the tiles' copies of their solid spans, summed already.
		stats.StageTimes[StageLinks] += elapsed
		stats.Counts.TileBytes, stats.Counts.DropLinks, stats.Counts.JumpLinks = 0, 0, 0
		for _, tile := range result.Tiles {
			stats.Counts.TileBytes += tile.Stats.Counts.TileBytes
			stats.Counts.DropLinks += tile.Stats.Counts.DropLinks
			stats.Counts.JumpLinks += tile.Stats.Counts.JumpLinks
		}
	}
	slices.SortFunc(summary.withWarnings, byIndex)
	for _, f := range summary.withWarnings {
		for _, w := range f.tile.Stats.Warnings {
			if len(stats.Warnings) >= maxTiledWarnings {
				stats.DroppedWarnings++
				continue
			}
			stats.Warnings = append(stats.Warnings, fmt.Sprintf("tile (%d, %d): %s", f.tile.X, f.tile.Y, w))
		}
	}
	stats.Wall = time.Since(start)
	return result, nil
}

// finishedTile is a tile a worker built, with its index in the grid
// (x + y·tilesX).
type finishedTile struct {
	index int
	tile  *TileResult
}

// tiledSummary collects the tiles as they finish, in any order: the sums,
// and only the tiles that have data or warnings, so that a large level's
// empty tiles are not kept.
type tiledSummary struct {
	triangles       int
	counts          BuildCounts
	stageTimes      [NumStages]time.Duration
	droppedWarnings int
	withData        []finishedTile
	withWarnings    []finishedTile
	// solids holds, by grid index, the solid spans of the tiles' cores
	// when the bake places links.
	solids map[int]*solidColumns
}

func (s *tiledSummary) add(f finishedTile) {
	tile := f.tile
	s.triangles += tile.Triangles
	addCounts(&s.counts, &tile.Stats.Counts)
	for stage, d := range tile.Stats.StageTimes {
		s.stageTimes[stage] += d
	}
	s.droppedWarnings += tile.Stats.DroppedWarnings
	if tile.Data != nil {
		s.withData = append(s.withData, f)
	}
	if len(tile.Stats.Warnings) > 0 {
		s.withWarnings = append(s.withWarnings, f)
	}
	if tile.solid != nil {
		if s.solids == nil {
			s.solids = map[int]*solidColumns{}
		}
		s.solids[f.index] = tile.solid
		tile.solid = nil
	}
}

// tileFailure is the error of the tile at grid index index.
type tileFailure struct {
	index int
	err   error
}

// buildTiles bakes tiles 0..total-1 (x + y·tilesX) on workers goroutines
// that each take the next tile when they become free, and adds each
// finished tile to summary from this goroutine. The workers hand their
// tiles over through a queue that never makes them wait for this goroutine,
// which may get a processor only when one of them stops.
func (b *TileBaker) buildTiles(ctx context.Context, workers, total int, progress func(done, total int), summary *tiledSummary) error {
	workCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	var next atomic.Int64
	var failuresMu sync.Mutex
	var failures []tileFailure
	finished := newFinishedQueue()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			baker := b.getBaker()
			defer b.bakers.Put(baker)
			for {
				i := int(next.Add(1) - 1)
				if i >= total || workCtx.Err() != nil {
					return
				}
				tile, err := b.buildTile(workCtx, i%b.tilesX, i/b.tilesX, baker)
				if err != nil {
					failuresMu.Lock()
					failures = append(failures, tileFailure{i, err})
					failuresMu.Unlock()
					cancel()
					return
				}
				finished.push(finishedTile{i, tile})
			}
		}()
	}
	workersDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(workersDone)
	}()
	done := 0
	var batch []finishedTile
	for stop := false; !stop; {
		select {
		case <-finished.ready:
		case <-workersDone:
			stop = true // every tile is queued: this batch is the last
		}
		batch = finished.take(batch)
		for _, f := range batch {
			summary.add(f)
			done++
			// No progress once the bake is being stopped.
			if progress != nil && workCtx.Err() == nil {
				progress(done, total)
			}
		}
	}

	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bake: tiled build: %w", err)
	}
	if len(failures) == 0 {
		return nil
	}
	// Report the failed tile first in grid order, preferring a real
	// failure over a tile stopped because another one failed.
	slices.SortFunc(failures, func(a, b tileFailure) int {
		aStopped, bStopped := errors.Is(a.err, context.Canceled), errors.Is(b.err, context.Canceled)
		if aStopped != bStopped {
			if aStopped {
				return 1
			}
			return -1
		}
		return a.index - b.index
	})
	first := failures[0]
	return fmt.Errorf("bake: build tile (%d, %d): %w", first.index%b.tilesX, first.index/b.tilesX, first.err)
}

// finishedQueue passes finished tiles from the workers to the goroutine
// that sums them up: a push never waits for that goroutine.
type finishedQueue struct {
	mu    sync.Mutex
	tiles []finishedTile
	// ready holds a signal once tiles were pushed since the last take.
	ready chan struct{}
}

func newFinishedQueue() *finishedQueue {
	return &finishedQueue{ready: make(chan struct{}, 1)}
}

// push queues f and signals ready.
func (q *finishedQueue) push(f finishedTile) {
	q.mu.Lock()
	q.tiles = append(q.tiles, f)
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default: // a signal is pending already
	}
}

// take returns the queued tiles, in the order they were pushed, and leaves
// the queue empty with spare's memory (a batch the caller is done with).
func (q *finishedQueue) take(spare []finishedTile) []finishedTile {
	q.mu.Lock()
	defer q.mu.Unlock()
	tiles := q.tiles
	q.tiles = spare[:0]
	return tiles
}
