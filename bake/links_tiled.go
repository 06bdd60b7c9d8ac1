package bake

import (
	"context"
	"fmt"
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
// connection. Each tile's share of the work is timed in its StageLinks
// time; the time of the shared steps is returned.
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
	sequential := time.Since(start)
	if err := forEachParallel(ctx, workers, len(result.Tiles), func(worker, i int) error {
		begin := time.Now()
		tile := result.Tiles[i]
		edges[i] = finders[worker].sampleTile(mesh.TileAt(tile.X, tile.Y, 0), nil)
		tile.Stats.StageTimes[StageLinks] += time.Since(begin)
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
	sequential += time.Since(begin)

	err = forEachParallel(ctx, workers, len(result.Tiles), func(_, i int) error {
		tile := result.Tiles[i]
		if len(tile.Links) == 0 {
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
		tile.Stats.StageTimes[StageLinks] += time.Since(begin)
		return nil
	})
	return sequential, err
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
