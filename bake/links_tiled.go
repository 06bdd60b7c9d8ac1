package bake

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
)

// placeTiledLinks places the automatic links of a tiled bake once all its
// tiles are built: it searches the boundary edges of every tile on the mesh
// of all the tiles (for the landings, wherever they lie) and the tiles'
// solid spans (for the paths), on workers goroutines, places the links
// over the whole level, so that an edge running across tiles makes one
// stretch of links, and builds each tile that got links again with them.
// A link is stored in the tile its start lies in, which is the tile of its
// edge; its end lands in any tile, linked by the mesh like any off-mesh
// connection. Each tile's share of the work is added to its StageLinks
// time; the time of all the work (summed over the workers) is returned.
func (b *TileBaker) placeTiledLinks(ctx context.Context, workers int, result *TiledResult, solids map[int]*solidColumns) (time.Duration, error) {
	start := time.Now()
	defer func() {
		for _, tile := range result.Tiles {
			tile.linkParams = nil
		}
	}()
	mesh, err := result.NavMesh()
	if err != nil {
		return 0, fmt.Errorf("bake: links: %w", err)
	}
	solid := &tiledSolid{tileSize: b.settings.TileSize, tilesX: b.tilesX, tilesY: b.tilesY, tiles: solids}
	finder := newLinkFinder(&b.settings, mesh, solid, b.bmin)
	finders := make([]*linkFinder, workers)
	for i := range finders {
		finders[i] = finder.clone()
	}
	edges := make([][]linkEdge, len(result.Tiles))
	elapsed := time.Since(start)
	var perTile atomic.Int64 // nanoseconds
	if err := forEachParallel(ctx, workers, len(result.Tiles), func(worker, i int) error {
		begin := time.Now()
		tile := result.Tiles[i]
		edges[i] = finders[worker].sampleTile(mesh.TileAt(tile.X, tile.Y, 0), nil)
		d := time.Since(begin)
		tile.Stats.StageTimes[StageLinks] += d
		perTile.Add(int64(d))
		return nil
	}); err != nil {
		return 0, err
	}

	begin := time.Now()
	placed := newLinkGrouper(&b.settings, b.bmin).place(edges)
	for _, p := range placed {
		tile := result.Tiles[p.source]
		if startsInTile(tile.linkParams, p.connection.Start) {
			tile.Links = append(tile.Links, p.connection)
		}
	}
	elapsed += time.Since(begin)

	err = forEachParallel(ctx, workers, len(result.Tiles), func(_, i int) error {
		tile := result.Tiles[i]
		if len(tile.Links) == 0 {
			// The link-sampling mesh linked these polygons in place; the
			// tile's own array lets the result's mesh do so too.
			tile.Data = tile.Data.WithOwnPolys()
			return nil
		}
		begin := time.Now()
		params := *tile.linkParams
		params.OffMeshConnections = appendOffMeshParams(append([]navmesh.OffMeshConnectionParams(nil), params.OffMeshConnections...), tile.Links)
		data, err := navmesh.BuildTileData(&params)
		if err != nil {
			return fmt.Errorf("bake: links: tile (%d, %d): %w", tile.X, tile.Y, err)
		}
		tile.Data = data
		if err := finishTile(&tile.Stats.Counts, data, &tile.Fingerprints, fmt.Sprintf("bake: links: tile (%d, %d): ", tile.X, tile.Y)); err != nil {
			return err
		}
		countLinks(&tile.Stats.Counts, tile.Links)
		d := time.Since(begin)
		tile.Stats.StageTimes[StageLinks] += d
		perTile.Add(int64(d))
		return nil
	})
	return elapsed + time.Duration(perTile.Load()), err
}

// forEachParallel calls fn for 0..n-1 on workers goroutines, each item
// once, with the number of the goroutine (0..workers-1) that runs it. It
// stops handing out items once ctx is done or fn failed, and returns ctx's
// error or the failure of the lowest item.
func forEachParallel(ctx context.Context, workers, n int, fn func(worker, i int) error) error {
	var next atomic.Int64
	errs := make([]error, n)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := range max(1, min(workers, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || failed.Load() || ctx.Err() != nil {
					return
				}
				if errs[i] = fn(w, i); errs[i] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("bake: links: %w", err)
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// PlaceLinks places the automatic links of Settings.Links (which must
// enable a kind) on mesh, a mesh of the baker's level baked with its
// settings elsewhere: a tiled bake without links, a tile cache's tiles,
// tiles loaded from a file. It rasterizes the level tile by tile for the
// solid spans, searches the boundary edges of every tile of mesh, all
// layers, on workers goroutines (0 or less: GOMAXPROCS), and returns the
// links tile by tile (by y, x and layer; within a tile in the order they
// were placed), each starting in the tile of the edge it leaves from. Store each in the tile its start
// lies in (its end may land in any tile), for example through a tile
// cache's mesh process. The result does not depend on workers; on a tiled
// bake's tiles it equals the links BuildAll places.
func (b *TileBaker) PlaceLinks(ctx context.Context, mesh *navmesh.Mesh, workers int) ([]OffMeshConnection, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !b.settings.Links.Enabled() {
		return nil, fmt.Errorf("bake: place links: %w", ErrLinksOff)
	}
	if mesh == nil {
		return nil, errors.New("bake: place links: nil mesh")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	solid, err := b.rasterizeSolid(ctx, workers)
	if err != nil {
		return nil, err
	}
	snap := mesh.Snapshot()
	var tiles []*navmesh.Tile
	for i := range snap.MaxTiles() {
		if tile := snap.Tile(i); tile != nil && tile.Data != nil {
			tiles = append(tiles, tile)
		}
	}
	slices.SortFunc(tiles, func(a, c *navmesh.Tile) int {
		return cmp.Or(cmp.Compare(a.Data.Header.Y, c.Data.Header.Y), cmp.Compare(a.Data.Header.X, c.Data.Header.X), cmp.Compare(a.Data.Header.Layer, c.Data.Header.Layer))
	})
	finder := newLinkFinder(&b.settings, mesh, solid, b.bmin)
	finders := make([]*linkFinder, workers)
	for i := range finders {
		finders[i] = finder.clone()
	}
	edges := make([][]linkEdge, len(tiles))
	if err := forEachParallel(ctx, workers, len(tiles), func(worker, i int) error {
		edges[i] = finders[worker].sampleTile(tiles[i], nil)
		return nil
	}); err != nil {
		return nil, err
	}
	placed := newLinkGrouper(&b.settings, b.bmin).place(edges)
	slices.SortStableFunc(placed, func(a, c placedLink) int { return a.source - c.source })
	var links []OffMeshConnection
	for _, p := range placed {
		h := &tiles[p.source].Data.Header
		if startsInBounds(h.BMin, h.BMax, p.connection.Start) {
			links = append(links, p.connection)
		}
	}
	return links, nil
}

// ErrLinksOff is wrapped by PlaceLinks when Settings.Links enables neither
// drops nor jumps.
var ErrLinksOff = errors.New("links are off")

// rasterizeSolid rasterizes every tile of the grid, on workers goroutines,
// and keeps the solid spans of their cores.
func (b *TileBaker) rasterizeSolid(ctx context.Context, workers int) (*tiledSolid, error) {
	total := b.tilesX * b.tilesY
	columns := make([]*solidColumns, total)
	if err := forEachParallel(ctx, workers, total, func(_, i int) error {
		tx, ty := i%b.tilesX, i/b.tilesX
		tileMin, tileMax := b.TileBounds(tx, ty)
		cfg, err := b.settings.TileConfig(tileMin, tileMax)
		if err != nil {
			return err
		}
		baker := b.getBaker()
		defer b.bakers.Put(baker)
		if _, ok := b.gatherTriangles(baker, cfg); !ok {
			return nil
		}
		hf := &baker.heightfield
		if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
			return err
		}
		if err := hf.RasterizeTriangles(b.geometry.Vertices, baker.tileTriangles, baker.triangleAreas, cfg.WalkableClimb); err != nil {
			return fmt.Errorf("bake: place links: tile (%d, %d): %w", tx, ty, err)
		}
		columns[i] = copySolidColumns(hf, cfg.BorderSize, cfg.BorderSize, cfg.TileSize, cfg.TileSize)
		return nil
	}); err != nil {
		return nil, err
	}
	solid := &tiledSolid{tileSize: b.settings.TileSize, tilesX: b.tilesX, tilesY: b.tilesY, tiles: map[int]*solidColumns{}}
	for i, c := range columns {
		if c != nil {
			solid.tiles[i] = c
		}
	}
	return solid, nil
}
