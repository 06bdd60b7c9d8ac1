package bake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// TileRange selects the tiles MinX..MaxX × MinY..MaxY (inclusive) of a
// level's tile grid, for a bake that covers part of a level: bakes of
// ranges that together cover the grid merge into the bake of the whole
// level, byte for byte. Tile coordinates are those of the whole grid.
type TileRange struct {
	MinX, MinY, MaxX, MaxY int
}

// String returns the range as navtool's -tiles flag spells it: "0:3,2:5".
func (r TileRange) String() string {
	return fmt.Sprintf("%d:%d,%d:%d", r.MinX, r.MaxX, r.MinY, r.MaxY)
}

// Count returns the number of tiles of the range.
func (r TileRange) Count() int { return (r.MaxX - r.MinX + 1) * (r.MaxY - r.MinY + 1) }

// Contains tells whether tile (tx, ty) is in the range.
func (r TileRange) Contains(tx, ty int) bool {
	return tx >= r.MinX && tx <= r.MaxX && ty >= r.MinY && ty <= r.MaxY
}

// ErrTileRange is wrapped by the bakes given a tile range that is empty or
// reaches outside the tile grid.
var ErrTileRange = errors.New("tile range outside the grid")

// GridRange returns the range of every tile of the grid.
func (b *TileBaker) GridRange() TileRange {
	return TileRange{MaxX: b.tilesX - 1, MaxY: b.tilesY - 1}
}

// tileRange returns the range a bake covers: the whole grid for nil, else
// r after checking it lies in the grid.
func (b *TileBaker) tileRange(r *TileRange) (TileRange, error) {
	if r == nil {
		return b.GridRange(), nil
	}
	if r.MinX > r.MaxX || r.MinY > r.MaxY || r.MinX < 0 || r.MinY < 0 || r.MaxX >= b.tilesX || r.MaxY >= b.tilesY {
		return TileRange{}, fmt.Errorf("bake: tiles %v of a %d×%d grid (0:%d,0:%d): %w", *r, b.tilesX, b.tilesY, b.tilesX-1, b.tilesY-1, ErrTileRange)
	}
	return *r, nil
}

// tileFailure is the error of the tile at grid index index.
type tileFailure struct {
	index int
	err   error
}

// tileJobs describes a bake over some tiles: tiles holds their grid
// indices (x + y·tilesX) in the order to take them, build bakes one tile
// on a worker's Baker, collect receives each built tile with its grid index
// on the goroutine that runs the bake.
type tileJobs[T any] struct {
	tiles    []int32
	workers  int
	progress func(done, total int)
	build    func(ctx context.Context, tx, ty int, baker *Baker) (T, error)
	collect  func(index int, tile T)
}

// runTileJobs bakes jobs.tiles, in order, on jobs.workers goroutines that each take the next tile when they become free, and hands
// every finished tile to jobs.collect from this goroutine, calling
// jobs.progress after each. The workers hand their tiles over through a
// queue that never makes them wait for this goroutine, which may get a
// processor only when one of them stops. A failing tile cancels the others
// and its error is returned (the first in grid order when several fail);
// so is ctx's error once it is done.
func runTileJobs[T any](ctx context.Context, b *TileBaker, jobs tileJobs[T]) error {
	workCtx, cancel := context.WithCancel(ctx)
	defer cancel()

	total := len(jobs.tiles)
	var next atomic.Int64
	var failuresMu sync.Mutex
	var failures []tileFailure
	finished := newFinishedQueue[T]()
	var wg sync.WaitGroup
	for range jobs.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			baker := b.getBaker()
			defer b.bakers.Put(baker)
			for {
				job := int(next.Add(1) - 1)
				if job >= total || workCtx.Err() != nil {
					return
				}
				index := int(jobs.tiles[job])
				tile, err := jobs.build(workCtx, index%b.tilesX, index/b.tilesX, baker)
				if err != nil {
					failuresMu.Lock()
					failures = append(failures, tileFailure{index, err})
					failuresMu.Unlock()
					cancel()
					return
				}
				finished.push(finishedJob[T]{index, tile})
			}
		}()
	}
	workersDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(workersDone)
	}()
	done := 0
	var batch []finishedJob[T]
	for stop := false; !stop; {
		select {
		case <-finished.ready:
		case <-workersDone:
			stop = true // every tile is queued: this batch is the last
		}
		batch = finished.take(batch)
		for _, f := range batch {
			jobs.collect(f.index, f.tile)
			done++
			// No progress once the bake is being stopped.
			if jobs.progress != nil && workCtx.Err() == nil {
				jobs.progress(done, total)
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

// finishedJob is a tile a worker built, with its index in the grid.
type finishedJob[T any] struct {
	index int
	tile  T
}

// finishedQueue passes finished tiles from the workers to the goroutine
// that collects them: a push never waits for that goroutine.
type finishedQueue[T any] struct {
	mu    sync.Mutex
	tiles []finishedJob[T]
	// ready holds a signal once tiles were pushed since the last take.
	ready chan struct{}
}

func newFinishedQueue[T any]() *finishedQueue[T] {
	return &finishedQueue[T]{ready: make(chan struct{}, 1)}
}

// push queues f and signals ready.
func (q *finishedQueue[T]) push(f finishedJob[T]) {
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
func (q *finishedQueue[T]) take(spare []finishedJob[T]) []finishedJob[T] {
	q.mu.Lock()
	defer q.mu.Unlock()
	tiles := q.tiles
	q.tiles = spare[:0]
	return tiles
}
