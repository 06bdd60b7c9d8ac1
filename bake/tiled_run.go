package bake

import (
	"context"
	"fmt"
	"runtime"
	"slices"
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
	// tiles done so far and the total, the tiles with geometry within their
	// border (TiledStats.TilesBaked). Calls come one at a time, from the
	// goroutine that called Tiled, and stop once the bake is cancelled or
	// a tile failed.
	Progress func(done, total int)
	// WorkEstimated, when set, is called with the bake's work estimate
	// once it passed Settings.MaxWork, before any tile is baked (to show
	// how long the bake will take: WorkEstimate.Time).
	WorkEstimated func(WorkEstimate)
	// Tiles, when set, limits the bake to a range of the level's tile
	// grid (the grid stays the whole level's); nil bakes every tile.
	Tiles *TileRange
	// Headroom raises the top of every tile's field above the level's
	// highest vertex, making room for solid geometry added later over the
	// level (bake/dynamic's colliders); it changes no span of the level,
	// only the tiles' upper bounds [Limit: >= 0, finite; 0 = none]
	// [Units: world units]
	Headroom float32
}

// TiledStats sum up a tiled bake.
type TiledStats struct {
	// TilesX and TilesY are the size of the tile grid.
	TilesX, TilesY int
	// Range is the part of the grid that was baked.
	Range TileRange
	// TilesBaked counts the tiles baked: those of Range with the box of a
	// triangle within their border. The other tiles of the grid cannot get
	// spans and are skipped without a look.
	TilesBaked int
	// TilesWithData counts the tiles that produced tile data.
	TilesWithData int
	// Triangles sums, over the tiles baked, the input triangles each looked
	// at.
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

// Tiled bakes every tile of the level (or of opts.Tiles) on several
// goroutines (Sample_TileMesh::buildAllTiles), each with its own scratch
// buffers. The
// tiles, their order and their bytes do not depend on the number of
// workers. Only the tiles with a triangle's box within their border are
// baked (the others cannot hold spans): a grid with a few occupied tiles
// costs those, however large it is. More than Settings.MaxTiles such tiles,
// or an estimated memory (one tile's grid on each worker) above
// Settings.MaxMemory, is an error before anything is baked. Cancelling ctx stops the workers between two stages of a tile and
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

// BuildAll bakes every tile of the grid (or of opts.Tiles) as Tiled does,
// on opts.Workers goroutines, calling opts.Progress after each tile; the
// other options are NewTileBaker's. A range outside the grid gives an
// error wrapping ErrTileRange.
func (b *TileBaker) BuildAll(ctx context.Context, opts TiledOptions) (*TiledResult, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	area, err := b.tileRange(opts.Tiles)
	if err != nil {
		return nil, err
	}
	tiles, err := b.tilesWithGeometry(area, b.settings.maxTiles())
	if err != nil {
		return nil, err
	}
	workers := tileWorkers(opts.Workers, len(tiles))
	if err := b.settings.checkMemory("tiled build", b.tileConfig, workers); err != nil {
		return nil, err
	}
	work := b.tilesWork(tiles, b.settings.maxWork())
	if err := b.settings.checkWork("tiled build", work); err != nil {
		return nil, err
	}
	if opts.WorkEstimated != nil {
		opts.WorkEstimated(work)
	}

	var summary tiledSummary
	if err := b.buildTiles(ctx, workers, tiles, opts.Progress, &summary); err != nil {
		return nil, err
	}
	result, err := b.tiledResult(ctx, workers, area, len(tiles), &summary)
	if err != nil {
		return nil, err
	}
	result.Stats.Wall = time.Since(start)
	return result, nil
}

// tiledResult makes the result of a bake of the baked tiles of area from
// their summary, on workers goroutines: the tiles with data in grid order,
// the links placed when the settings ask for them, the stats.
func (b *TileBaker) tiledResult(ctx context.Context, workers int, area TileRange, baked int, summary *tiledSummary) (*TiledResult, error) {
	result := &TiledResult{Baker: b}
	stats := &result.Stats
	stats.TilesX, stats.TilesY, stats.Range, stats.Workers = b.tilesX, b.tilesY, area, workers
	stats.TilesBaked = baked
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
	if warning := repeatWarning(b.skippedTriangles); warning != "" {
		stats.Warnings = append(stats.Warnings, warning)
	}
	if len(result.Tiles) == 0 {
		stats.Warnings = append(stats.Warnings, fmt.Sprintf("%v: %s", ErrNoPolygons, noPolygonsHint(b.geometry, b.settings)))
	}
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
	return result, nil
}

// tileWorkers returns the number of goroutines that bake tiles tiles:
// workers, or runtime.GOMAXPROCS(0) when it is 0 or less, at most one per
// tile.
func tileWorkers(workers, tiles int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return max(min(workers, tiles), 1)
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

// buildTiles bakes the tiles of grid indices tiles (x + y·tilesX) on
// workers goroutines and adds each finished tile to summary from this
// goroutine (runTileJobs).
func (b *TileBaker) buildTiles(ctx context.Context, workers int, tiles []int32, progress func(done, total int), summary *tiledSummary) error {
	return runTileJobs(ctx, b, tileJobs[*TileResult]{
		tiles:    tiles,
		workers:  workers,
		progress: progress,
		build:    b.buildTile,
		collect:  func(index int, tile *TileResult) { summary.add(finishedTile{index, tile}) },
	})
}
