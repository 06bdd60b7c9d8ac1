package bake

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// TiledTypesResult holds the tiled bakes of several agent types.
type TiledTypesResult struct {
	// Types are the types baked, in the order given.
	Types []AgentType
	// Results holds each type's bake, Results[i] that of Types[i]: what
	// Tiled with Types[i].Settings and the same options gives, byte for
	// byte (its Stats.Wall is the time of the whole bake of the types).
	Results []*TiledResult
	// Stats tell what the bakes shared, counted per tile.
	Stats TypesStats
}

// TiledTypes bakes every tile of the level (or of opts.Tiles) for each
// agent type, as Tiled does with each type's settings and opts, and gives
// the same tiles byte for byte. Types share work tile by tile where their
// settings allow, as in SoloTypes; in a tiled bake a tile's field reaches
// WalkableRadius + 3 cells past the tile, so only types whose radius is the
// same number of cells share a rasterization (types of one radius and
// another height or climb, say). The chunk tree over the level's triangles
// is built once for all types. Tiles of all types bake on opts.Workers
// goroutines, the types that share a tile's rasterization one after the
// other on one of them; opts.Progress counts the bakes of a tile for a type
// (the total is the tiles times the types). The tiles, their order and
// their bytes do not depend on the number of workers.
//
// opts.TileSize and opts.AreaFlags apply to every type. The names and
// settings of every type are checked before anything is baked; a failing
// tile stops the bake and its error is returned, naming the type;
// cancelling ctx stops it between two stages and returns ctx's error.
func TiledTypes(ctx context.Context, g *Geometry, types []AgentType, opts TiledOptions) (*TiledTypesResult, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	bakers, areas, err := typeTileBakers(g, types, TiledOptions{TileSize: opts.TileSize, Workers: opts.Workers, AreaFlags: opts.AreaFlags}, opts.Tiles, nil)
	if err != nil {
		return nil, err
	}
	summaries := make([]tiledSummary, len(types))
	stats, baked, err := bakeTypeTiles(ctx, types, bakers, areas, opts.Workers, opts.Progress, "tiled build", typeTileJob[*TileResult]{
		build: func(t int, ctx context.Context, tx, ty int, baker *Baker) (*TileResult, error) {
			return bakers[t].buildTile(ctx, tx, ty, baker)
		},
		collect: func(t, index int, tile *TileResult) { summaries[t].add(finishedTile{index, tile}) },
	})
	if err != nil {
		return nil, err
	}
	result := &TiledTypesResult{Types: slices.Clone(types), Results: make([]*TiledResult, len(types)), Stats: stats}
	for t, b := range bakers {
		tiled, err := b.tiledResult(ctx, stats.Workers, areas[t], baked[t], &summaries[t])
		if err != nil {
			return nil, typeError(types[t], err)
		}
		result.Results[t] = tiled
	}
	result.Stats.Wall = time.Since(start)
	for _, tiled := range result.Results {
		tiled.Stats.Wall = result.Stats.Wall
	}
	return result, nil
}

// MeshSet returns a navigation mesh per type, each holding its type's
// tiles (TiledResult.NavMesh), under the type's name, for navmesh.SaveSet
// and the crowd.
func (r *TiledTypesResult) MeshSet() (navmesh.MeshSet, error) {
	set := make(navmesh.MeshSet, len(r.Results))
	for i, tiled := range r.Results {
		m, err := tiled.NavMesh()
		if err != nil {
			return nil, typeError(r.Types[i], err)
		}
		set[i] = navmesh.NamedMesh{Name: r.Types[i].Name, Mesh: m}
	}
	return set, nil
}

// TileCacheTypesResult holds the tile cache bakes of several agent types.
type TileCacheTypesResult struct {
	// Types are the types baked, in the order given.
	Types []AgentType
	// Results holds each type's bake, Results[i] that of Types[i]: what
	// TileCache with Types[i].Settings and the same options gives, byte
	// for byte (its Stats.Wall is the time of the whole bake of the
	// types).
	Results []*TileCacheResult
	// Stats tell what the bakes shared, counted per tile.
	Stats TypesStats
}

// TileCacheTypes bakes the heightfield layers of every tile of the level
// (or of opts.Tiles) for each agent type, as TileCache does with each
// type's settings and opts, and gives the same layers byte for byte,
// sharing work tile by tile as TiledTypes does. Each type gets a tile cache
// of its own: an obstacle is inflated by its type's WalkableRadius, so it
// must be added to every type's cache. opts.TileSize and opts.Compressor
// apply to every type; opts.Progress counts the bakes of a tile for a
// type. The names and settings of every type are checked before anything
// is baked.
func TileCacheTypes(ctx context.Context, g *Geometry, types []AgentType, opts TileCacheOptions) (*TileCacheTypesResult, error) {
	start := time.Now()
	if ctx == nil {
		ctx = context.Background()
	}
	bakers, areas, err := typeTileBakers(g, types, TiledOptions{TileSize: opts.TileSize, Workers: opts.Workers}, opts.Tiles,
		func(b *TileBaker) error {
			if err := b.checkLayerTileSize(0); err != nil {
				return err
			}
			return b.checkNoLayerLinks()
		})
	if err != nil {
		return nil, err
	}
	summaries := make([]layersSummary, len(types))
	for t, b := range bakers {
		summaries[t].result = &TileCacheResult{Baker: b}
	}
	stats, _, err := bakeTypeTiles(ctx, types, bakers, areas, opts.Workers, opts.Progress, "tile cache build", typeTileJob[*TileLayers]{
		build: func(t int, ctx context.Context, tx, ty int, baker *Baker) (*TileLayers, error) {
			return bakers[t].buildEncodedLayers(ctx, tx, ty, baker, opts.Compressor)
		},
		collect: func(t, index int, tile *TileLayers) { summaries[t].add(index, tile) },
	})
	if err != nil {
		return nil, err
	}
	result := &TileCacheTypesResult{Types: slices.Clone(types), Results: make([]*TileCacheResult, len(types)), Stats: stats}
	for t := range bakers {
		result.Results[t] = summaries[t].finish(areas[t], stats.Workers)
	}
	result.Stats.Wall = time.Since(start)
	for _, layers := range result.Results {
		layers.Stats.Wall = result.Stats.Wall
	}
	return result, nil
}

// Caches returns a tile cache and its navmesh per type, as
// TileCacheResult.Cache makes them (every layer's tile queued: run each
// cache's Update to build them), the meshes under the types' names.
func (r *TileCacheTypesResult) Caches(options tilecache.Options) ([]*tilecache.Cache, navmesh.MeshSet, error) {
	caches := make([]*tilecache.Cache, len(r.Results))
	set := make(navmesh.MeshSet, len(r.Results))
	for i, layers := range r.Results {
		cache, m, err := layers.Cache(options)
		if err != nil {
			return nil, nil, typeError(r.Types[i], err)
		}
		caches[i], set[i] = cache, navmesh.NamedMesh{Name: r.Types[i].Name, Mesh: m}
	}
	return caches, set, nil
}

// typeTileBakers checks the types and makes a TileBaker per type with opts,
// checked by check when it is set, and the part of its grid to bake (tiles,
// nil for all); once every type passed, the first indexes the triangles
// for all.
func typeTileBakers(g *Geometry, types []AgentType, opts TiledOptions, tiles *TileRange, check func(*TileBaker) error) ([]*TileBaker, []TileRange, error) {
	if err := validateTypes(types); err != nil {
		return nil, nil, err
	}
	bakers := make([]*TileBaker, len(types))
	areas := make([]TileRange, len(types))
	for t := range types {
		b, err := newTileBaker(g, types[t].Settings, opts)
		if err == nil && check != nil {
			err = check(b)
		}
		if err == nil {
			areas[t], err = b.tileRange(tiles)
		}
		if err != nil {
			return nil, nil, typeError(types[t], err)
		}
		bakers[t] = b
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if err := bakers[0].indexTriangles(workers); err != nil {
		return nil, nil, typeError(types[0], err)
	}
	for t, b := range bakers[1:] {
		if err := b.shareIndex(bakers[0]); err != nil {
			return nil, nil, typeError(types[t+1], err)
		}
	}
	return bakers, areas, nil
}

// typeTileJob is what a bake of several agent types does with one type's
// tile: build bakes tile (tx, ty) for type t on baker, collect receives it
// with its grid index on the goroutine that runs the bake.
type typeTileJob[T any] struct {
	build   func(t int, ctx context.Context, tx, ty int, baker *Baker) (T, error)
	collect func(t, index int, tile T)
}

// bakeTypeTiles bakes the tiles of areas (per type, in its grid) that have
// geometry within their border for every type on workers goroutines. A job
// is one tile of one group of types that share its rasterization (their
// grids and borders are the same): the job bakes the tile for each type of
// the group in type order on one Baker, each type copying the stages it
// shares from the first that baked them. Progress counts the tiles baked
// for a type. It returns the totals of what was shared and the number of
// tiles baked per type; what names the bake in errors.
func bakeTypeTiles[T any](ctx context.Context, types []AgentType, bakers []*TileBaker, areas []TileRange, workers int, progress func(done, total int), what string, job typeTileJob[T]) (TypesStats, []int, error) {
	configs := make([]*Config, len(bakers))
	tiles := make([][]int32, len(bakers))
	baked := make([]int, len(bakers))
	for t, b := range bakers {
		configs[t] = b.tileConfig
		var err error
		if tiles[t], err = b.tilesWithGeometry(areas[t], b.settings.maxTiles()); err != nil {
			return TypesStats{}, nil, typeError(types[t], err)
		}
		baked[t] = len(tiles[t])
	}
	plan := planSharing(configs)
	groups := plan.rasterGroups()
	type tileJob struct {
		group int
		index int32
	}
	var jobs []tileJob
	total := 0
	for g, members := range groups {
		for _, index := range tiles[members[0]] {
			jobs = append(jobs, tileJob{g, index})
		}
		total += len(members) * len(tiles[members[0]])
	}
	workers = tileWorkers(workers, len(jobs))
	for t, b := range bakers {
		if err := b.settings.checkMemory(what, b.tileConfig, workers); err != nil {
			return TypesStats{}, nil, typeError(types[t], err)
		}
		if err := b.settings.checkWork(what, b.tilesWork(tiles[t], b.settings.maxWork())); err != nil {
			return TypesStats{}, nil, typeError(types[t], err)
		}
	}

	// Each worker keeps a Baker and, per group, the shares of its types,
	// whose records keep their memory from one tile to the next.
	workerBakers := make([]*Baker, workers)
	workerShares := make([][][]*stageShare, workers)
	for w := range workers {
		workerBakers[w] = new(Baker)
		workerShares[w] = make([][]*stageShare, len(groups))
		for g, members := range groups {
			workerShares[w][g] = plan.shares(members)
		}
	}
	defer func() {
		for w := range workers {
			for _, shares := range workerShares[w] {
				releaseRecords(shares)
			}
		}
	}()
	built := make([][]T, len(jobs))
	done := 0
	err := runJobs(ctx, workers, len(jobs), func(ctx context.Context, worker, j int) error {
		tj := jobs[j]
		members, shares, baker := groups[tj.group], workerShares[worker][tj.group], workerBakers[worker]
		for _, s := range shares {
			s.reset()
		}
		out := make([]T, len(members))
		for k, t := range members {
			tx, ty := int(tj.index)%bakers[t].tilesX, int(tj.index)/bakers[t].tilesX
			baker.share = shares[k]
			tile, err := job.build(t, ctx, tx, ty, baker)
			baker.share = nil
			shares[k].abandon()
			if err != nil {
				return typeError(types[t], fmt.Errorf("bake: build tile (%d, %d): %w", tx, ty, err))
			}
			out[k] = tile
		}
		built[j] = out
		return nil
	}, func(j int) {
		tj := jobs[j]
		for k, t := range groups[tj.group] {
			job.collect(t, int(tj.index), built[j][k])
		}
		built[j] = nil
		done += len(groups[tj.group])
		if progress != nil {
			progress(done, total)
		}
	})
	if err != nil {
		return TypesStats{}, nil, err
	}
	stats := TypesStats{Workers: workers}
	for w := range workers {
		for _, shares := range workerShares[w] {
			sumCounts(&stats, shares)
		}
	}
	return stats, baked, nil
}
