package bake

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/archenav/archenav/navcore/tilecache"
)

// Tile cache bake limits, as RecastDemo's Sample_TempObstacles sets them.
const (
	// MaxTileLayers is the most layers a tile cache bake keeps per tile
	// (MAX_LAYERS); a tile with more keeps its first MaxTileLayers and
	// reports the others in a warning and TileLayers.DroppedLayers.
	MaxTileLayers = 32
	// ExpectedLayersPerTile sizes the tile cache and the navmesh of a tile
	// cache bake: room for this many layers per tile of the grid
	// (EXPECTED_LAYERS_PER_TILE).
	ExpectedLayersPerTile = 4
	// TileCacheMaxObstacles is the obstacle capacity TileBaker.TileCacheParams
	// gives the cache: the reference figures' (RecastDemo's sample has 128).
	TileCacheMaxObstacles = 1024
)

// TileCacheOptions tune a tile cache bake.
type TileCacheOptions struct {
	// TileSize is the side of a tile without its border; 0 keeps
	// Settings.TileSize. RecastDemo's tile cache sample uses 48
	// [Limit: 0..MaxLayerSide] [Units: cells]
	TileSize int
	// Workers is the number of goroutines baking tiles (and indexing the
	// triangles); 0 or less means runtime.GOMAXPROCS(0). The result does
	// not depend on it.
	Workers int
	// Progress, when set, is called after each tile with the number of
	// tiles done so far and the total, one call at a time from the
	// goroutine that runs the bake; calls stop once the bake is cancelled
	// or a tile failed.
	Progress func(done, total int)
	// WorkEstimated, when set, is called with the bake's work estimate
	// once it passed Settings.MaxWork, before any tile is baked (to show
	// how long the bake will take: WorkEstimate.Time).
	WorkEstimated func(WorkEstimate)
	// Tiles, when set, limits the bake to a range of the level's tile
	// grid; nil bakes every tile.
	Tiles *TileRange
	// Compressor, when set, encodes each tile's layers on the worker that
	// baked them (tilecache.EncodeLayer, as the C++ sample compresses each
	// layer in rasterizeTileLayers) into TileLayers.Encoded;
	// tilecache.FastLZ{} writes the C++ bytes. Nil leaves the layers
	// unencoded.
	Compressor tilecache.Compressor
}

// TileLayers are the heightfield layers of one tile of a tile cache bake.
type TileLayers struct {
	// X and Y locate the tile in the grid.
	X, Y int
	// Layers holds the tile's layers, at most MaxTileLayers, with headers
	// as Sample_TempObstacles fills them (TLayer is the index here).
	Layers []tilecache.Layer
	// Encoded holds Layers encoded by TileCacheOptions.Compressor, nil
	// without one.
	Encoded [][]byte
	// DroppedLayers counts the layers beyond MaxTileLayers the tile had.
	DroppedLayers int
	// Triangles counts the input triangles the tile looked at: those of
	// the chunks that overlap the tile and its border.
	Triangles int
	// Stats holds the tile's time per stage, span counts and warnings.
	Stats BuildStats
}

// TileCacheStats sum up a tile cache bake.
type TileCacheStats struct {
	// TilesX and TilesY are the size of the tile grid.
	TilesX, TilesY int
	// Range is the part of the grid that was baked.
	Range TileRange
	// TilesWithLayers counts the tiles that have at least one layer.
	TilesWithLayers int
	// Layers counts the layers kept; MaxLayersInTile is the most in one
	// tile; DroppedLayers counts those beyond MaxTileLayers.
	Layers, MaxLayersInTile, DroppedLayers int
	// LayerRawBytes is the size of the layers' grids, three bytes per cell
	// (heights, areas, connections), before compression.
	LayerRawBytes int
	// LayerCompressedBytes is the size of the encoded layers, headers
	// included; 0 without a Compressor.
	LayerCompressedBytes int
	// Triangles sums, over the tiles, the input triangles each looked at.
	Triangles int
	// Counts sums the tiles' span counts (HeightfieldSpans, CompactSpans,
	// WalkableSpans; the later stages do not run).
	Counts BuildCounts
	// StageTimes sums the tiles' stage times, indexed by Stage, over all
	// workers.
	StageTimes [NumStages]time.Duration
	// Wall is the time the bake took (with TileCache, the chunk tree's
	// build included).
	Wall time.Duration
	// Workers is the number of goroutines that baked.
	Workers int
	// Warnings are the tiles' warnings prefixed with the tile, at most
	// maxTiledWarnings of them; DroppedWarnings counts the others.
	Warnings        []string
	DroppedWarnings int
}

// TileCacheResult is a level baked into heightfield layers for a tile
// cache.
type TileCacheResult struct {
	// Baker rebuilds single tiles of the same level and settings.
	Baker *TileBaker
	// Tiles holds the tiles that have layers, row by row (y, then x).
	Tiles []*TileLayers
	// Stats sum up the bake.
	Stats TileCacheStats
}

// TileCache bakes the heightfield layers of every tile of the level (or of
// opts.Tiles) for a tile cache, as RecastDemo's Sample_TempObstacles does:
// per tile, the triangles of the chunks overlapping the tile and its
// border are rasterized, filtered, compacted and eroded, the geometry's
// area volumes marked, and the field split into layers
// (BuildHeightfieldLayers) whose headers locate them in the grid. Tiles bake
// on opts.Workers goroutines; the layers, their order and their bytes do not
// depend on the number of workers. Cancelling ctx stops the workers between
// two stages and returns ctx's error; a failing tile stops the bake and its
// error is returned.
func TileCache(ctx context.Context, g *Geometry, settings Settings, opts TileCacheOptions) (*TileCacheResult, error) {
	start := time.Now()
	baker, err := NewTileBaker(g, settings, TiledOptions{TileSize: opts.TileSize, Workers: opts.Workers})
	if err != nil {
		return nil, err
	}
	result, err := baker.BuildAllLayers(ctx, opts)
	if err != nil {
		return nil, err
	}
	result.Stats.Wall = time.Since(start)
	return result, nil
}

// ErrLinksInLayers is returned by the tile cache bakes when the settings
// place links: heightfield layers and the tile cache files hold no
// off-mesh connections. Bake the layers without links, place them with
// TileBaker.PlaceLinks on the mesh the cache builds and give them to the
// cache's mesh process (tilecache.RecastDemoProcess.OffMeshConnections,
// through ConnectionParams); every tile the cache builds, after obstacles
// too, then stores the links that start in it.
var ErrLinksInLayers = errors.New("tile cache layers hold no links: place them with TileBaker.PlaceLinks and give them to the cache's mesh process")

// checkNoLayerLinks refuses a layer bake whose settings place links.
func (b *TileBaker) checkNoLayerLinks() error {
	if b.settings.Links.Enabled() {
		return fmt.Errorf("bake: tile cache: %w", ErrLinksInLayers)
	}
	return nil
}

// BuildAllLayers bakes the layers of every tile of the grid (or of
// opts.Tiles) as TileCache does, on opts.Workers goroutines, calling
// opts.Progress after each tile; opts.TileSize must be 0 or the baker's. A
// range outside the grid gives an error wrapping ErrTileRange.
func (b *TileBaker) BuildAllLayers(ctx context.Context, opts TileCacheOptions) (*TileCacheResult, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := b.checkLayerTileSize(opts.TileSize); err != nil {
		return nil, err
	}
	if err := b.checkNoLayerLinks(); err != nil {
		return nil, err
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
	if err := b.settings.checkMemory("tile cache build", b.tileConfig, workers); err != nil {
		return nil, err
	}
	work := b.tilesWork(tiles, b.settings.maxWork())
	if err := b.settings.checkWork("tile cache build", work); err != nil {
		return nil, err
	}
	if opts.WorkEstimated != nil {
		opts.WorkEstimated(work)
	}

	summary := layersSummary{result: &TileCacheResult{Baker: b}}
	err = runTileJobs(ctx, b, tileJobs[*TileLayers]{
		tiles:    tiles,
		workers:  workers,
		progress: opts.Progress,
		build: func(ctx context.Context, tx, ty int, baker *Baker) (*TileLayers, error) {
			return b.buildEncodedLayers(ctx, tx, ty, baker, opts.Compressor)
		},
		collect: summary.add,
	})
	if err != nil {
		return nil, err
	}
	result := summary.finish(area, workers)
	result.Stats.Wall = time.Since(start)
	return result, nil
}

// buildEncodedLayers bakes the layers of tile (tx, ty) on baker's memory
// and encodes them with compressor, when it is set.
func (b *TileBaker) buildEncodedLayers(ctx context.Context, tx, ty int, baker *Baker, compressor tilecache.Compressor) (*TileLayers, error) {
	tile, err := b.buildTileLayers(ctx, tx, ty, baker)
	if err == nil && compressor != nil {
		err = tile.Encode(compressor)
	}
	return tile, err
}

// layersSummary collects the tiles of a tile cache bake as they finish,
// in any order, into result: the sums, and only the tiles that have layers
// or warnings.
type layersSummary struct {
	result       *TileCacheResult
	withWarnings []finishedJob[*TileLayers]
	withLayers   []finishedJob[*TileLayers]
}

// add adds the tile of grid index index.
func (s *layersSummary) add(index int, tile *TileLayers) {
	stats := &s.result.Stats
	stats.Triangles += tile.Triangles
	addCounts(&stats.Counts, &tile.Stats.Counts)
	for stage, d := range tile.Stats.StageTimes {
		stats.StageTimes[stage] += d
	}
	stats.DroppedWarnings += tile.Stats.DroppedWarnings
	if len(tile.Layers) > 0 {
		s.withLayers = append(s.withLayers, finishedJob[*TileLayers]{index, tile})
	}
	if len(tile.Stats.Warnings) > 0 {
		s.withWarnings = append(s.withWarnings, finishedJob[*TileLayers]{index, tile})
	}
}

// finish returns the result of a bake of the tiles of area on workers
// goroutines: the tiles with layers in grid order and the stats.
func (s *layersSummary) finish(area TileRange, workers int) *TileCacheResult {
	result, b := s.result, s.result.Baker
	stats := &result.Stats
	stats.TilesX, stats.TilesY, stats.Range, stats.Workers = b.tilesX, b.tilesY, area, workers
	byIndex := func(a, b finishedJob[*TileLayers]) int { return a.index - b.index }
	slices.SortFunc(s.withLayers, byIndex)
	for _, f := range s.withLayers {
		tile := f.tile
		result.Tiles = append(result.Tiles, tile)
		stats.Layers += len(tile.Layers)
		stats.MaxLayersInTile = max(stats.MaxLayersInTile, len(tile.Layers))
		stats.DroppedLayers += tile.DroppedLayers
		for _, l := range tile.Layers {
			stats.LayerRawBytes += 3 * len(l.Heights)
		}
		for _, e := range tile.Encoded {
			stats.LayerCompressedBytes += len(e)
		}
	}
	stats.TilesWithLayers = len(result.Tiles)
	if warning := repeatWarning(result.Baker.skippedTriangles); warning != "" {
		stats.Warnings = append(stats.Warnings, warning)
	}
	slices.SortFunc(s.withWarnings, byIndex)
	for _, f := range s.withWarnings {
		for _, w := range f.tile.Stats.Warnings {
			if len(stats.Warnings) >= maxTiledWarnings {
				stats.DroppedWarnings++
				continue
			}
			stats.Warnings = append(stats.Warnings, fmt.Sprintf("tile (%d, %d): %s", f.tile.X, f.tile.Y, w))
		}
	}
	return result
}

// BuildTileLayers bakes the layers of tile (tx, ty) of the grid, for
// example to rebuild them after the level changed there (remove the
// tile's old layers from the cache and add these). It is safe to call from
// several goroutines at once. A tile with nothing walkable gives a result
// without layers and no error; TileLayers.Encode encodes the layers. ctx
// stops the build between stages; a nil ctx never stops it.
func (b *TileBaker) BuildTileLayers(ctx context.Context, tx, ty int) (*TileLayers, error) {
	if tx < 0 || ty < 0 || tx >= b.tilesX || ty >= b.tilesY {
		return nil, fmt.Errorf("bake: build tile layers (%d, %d): %w of %d×%d tiles", tx, ty, errTileOutOfGrid, b.tilesX, b.tilesY)
	}
	if err := b.checkLayerTileSize(0); err != nil {
		return nil, err
	}
	if err := b.checkNoLayerLinks(); err != nil {
		return nil, err
	}
	baker := b.getBaker()
	defer b.bakers.Put(baker)
	result, err := b.buildTileLayers(ctx, tx, ty, baker)
	if err != nil {
		return nil, fmt.Errorf("bake: build tile layers (%d, %d): %w", tx, ty, err)
	}
	return result, nil
}

// Encode sets t.Encoded to t.Layers encoded by compressor
// (tilecache.EncodeLayer; tilecache.FastLZ{} writes the C++ bytes). On
// error t.Encoded is nil.
func (t *TileLayers) Encode(compressor tilecache.Compressor) error {
	encoded := make([][]byte, len(t.Layers))
	for i := range t.Layers {
		var err error
		if encoded[i], err = tilecache.EncodeLayer(&t.Layers[i], compressor); err != nil {
			t.Encoded = nil
			return fmt.Errorf("bake: encode layers of tile (%d, %d): %w", t.X, t.Y, err)
		}
	}
	t.Encoded = encoded
	return nil
}

// checkLayerTileSize checks that the baker's tiles fit a layer and that
// tileSize, when set, is the baker's.
func (b *TileBaker) checkLayerTileSize(tileSize int) error {
	if tileSize != 0 && tileSize != b.settings.TileSize {
		return fmt.Errorf("bake: tile cache build: TileSize %d differs from the baker's %d", tileSize, b.settings.TileSize)
	}
	if b.settings.TileSize > MaxLayerSide {
		return fmt.Errorf("bake: tile cache build: TileSize %d is more than a layer's %d cells", b.settings.TileSize, MaxLayerSide)
	}
	return nil
}

// buildTileLayers bakes the layers of tile (tx, ty) on baker's memory.
func (b *TileBaker) buildTileLayers(ctx context.Context, tx, ty int, baker *Baker) (*TileLayers, error) {
	tileMin, tileMax := b.TileBounds(tx, ty)
	cfg, err := b.settings.TileConfig(tileMin, tileMax)
	if err != nil {
		return nil, err
	}
	bc := NewBuildContext(ctx)
	result := &TileLayers{X: tx, Y: ty}
	err = b.bakeTileLayers(bc, cfg, baker, result)
	result.Stats = bc.Stats()
	if err != nil {
		return nil, err
	}
	return result, nil
}

// bakeTileLayers runs the tile cache pipeline of the tile of result,
// configured by cfg (Sample_TempObstacles::rasterizeTileLayers).
func (b *TileBaker) bakeTileLayers(bc *BuildContext, cfg *Config, baker *Baker, result *TileLayers) error {
	var ok bool
	if result.Triangles, ok = b.gatherTriangles(baker, cfg); !ok {
		return nil // no geometry near the tile
	}
	if err := b.rasterizeTile(bc, cfg, baker); err != nil {
		return err
	}
	chf, err := baker.buildCompactField(bc, b.geometry, cfg)
	if err != nil {
		return err
	}
	for _, w := range chf.Warnings {
		bc.Warnf("%s", w)
	}
	var layers []HeightfieldLayer
	if err := bc.Run(StageLayers, func() (err error) {
		layers, err = baker.layers.build(chf, cfg.BorderSize, cfg.WalkableHeight)
		return err
	}); err != nil {
		return err
	}
	if len(layers) > MaxTileLayers {
		result.DroppedLayers = len(layers) - MaxTileLayers
		bc.Warnf("%d layers: kept the first %d", len(layers), MaxTileLayers)
		layers = layers[:MaxTileLayers]
	}
	if len(layers) > 0 {
		result.Layers = make([]tilecache.Layer, len(layers))
	}
	for i := range layers {
		result.Layers[i] = layers[i].tileCacheLayer(result.X, result.Y, i)
	}
	return nil
}

// tileCacheLayer returns the layer with the header Sample_TempObstacles
// gives it as layer tlayer of tile (tx, ty); the grids are shared.
func (l *HeightfieldLayer) tileCacheLayer(tx, ty, tlayer int) tilecache.Layer {
	return tilecache.Layer{
		Header: tilecache.LayerHeader{
			TX: int32(tx), TY: int32(ty), TLayer: int32(tlayer),
			BMin: l.BMin, BMax: l.BMax,
			HMin: uint16(l.HMin), HMax: uint16(l.HMax),
			Width: uint8(l.Width), Height: uint8(l.Height),
			MinX: uint8(l.MinX), MaxX: uint8(l.MaxX), MinY: uint8(l.MinY), MaxY: uint8(l.MaxY),
		},
		Heights: l.Heights,
		Areas:   l.Areas,
		Cons:    l.Cons,
	}
}
