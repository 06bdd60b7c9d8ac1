package bake

import (
	"context"
	"fmt"
)

// BuildTile bakes tile (tx, ty) of the grid (Sample_TileMesh::buildTileMesh),
// for example to rebuild it after the level changed there. It is safe to
// call from several goroutines at once. It places no automatic links
// (Settings.Links), which need the neighbouring tiles: BuildAll does. A tile with nothing walkable gives a
// result with nil Data and no error. ctx stops the build between stages; a
// nil ctx never stops it.
func (b *TileBaker) BuildTile(ctx context.Context, tx, ty int) (*TileResult, error) {
	if tx < 0 || ty < 0 || tx >= b.tilesX || ty >= b.tilesY {
		return nil, fmt.Errorf("bake: build tile (%d, %d): %w of %d×%d tiles", tx, ty, errTileOutOfGrid, b.tilesX, b.tilesY)
	}
	baker := b.getBaker()
	defer b.bakers.Put(baker)
	result, err := b.buildTile(ctx, tx, ty, baker)
	if err != nil {
		return nil, fmt.Errorf("bake: build tile (%d, %d): %w", tx, ty, err)
	}
	result.solid, result.linkParams = nil, nil // no links for a tile alone
	return result, nil
}

// getBaker returns a Baker from the pool, or a new one.
func (b *TileBaker) getBaker() *Baker {
	if baker, ok := b.bakers.Get().(*Baker); ok {
		return baker
	}
	return &Baker{}
}

// buildTile bakes tile (tx, ty) on baker's memory.
func (b *TileBaker) buildTile(ctx context.Context, tx, ty int, baker *Baker) (*TileResult, error) {
	tileMin, tileMax := b.TileBounds(tx, ty)
	cfg, err := b.settings.TileConfig(tileMin, tileMax)
	if err != nil {
		return nil, err
	}
	bc := NewBuildContext(ctx)
	result := &TileResult{X: tx, Y: ty, BMin: tileMin, BMax: tileMax}
	err = b.bakeTile(bc, cfg, baker, result)
	result.Stats = bc.Stats()
	if err != nil {
		return nil, err
	}
	return result, nil
}

// bakeTile runs the pipeline of the tile of result, configured by cfg: up
// to its contours and, when it has any, on to its tile data (the empty
// tiles stop early, as in RecastDemo).
func (b *TileBaker) bakeTile(bc *BuildContext, cfg *Config, baker *Baker, result *TileResult) error {
	var ok bool
	if result.Triangles, ok = b.gatherTriangles(baker, cfg); !ok {
		return nil // no geometry near the tile
	}
	if err := b.rasterizeTile(bc, cfg, baker); err != nil {
		return err
	}
	return b.bakeRasterizedTile(bc, cfg, baker, result)
}

// bakeRasterizedTile runs the pipeline of the tile of result from its
// solid spans, in baker's heightfield, on: the filters, up to its contours
// and, when it has any, on to its tile data.
func (b *TileBaker) bakeRasterizedTile(bc *BuildContext, cfg *Config, baker *Baker, result *TileResult) error {
	g := b.geometry
	links := b.settings.Links.Enabled()
	if links {
		// The filters only change areas: the solid spans are final. Kept
		// for the links, timed with them.
		if err := bc.Run(StageLinks, func() error {
			result.solid = copySolidColumns(&baker.heightfield, cfg.BorderSize, cfg.BorderSize, cfg.TileSize, cfg.TileSize)
			return nil
		}); err != nil {
			return err
		}
	}
	if warning := baker.heightfield.ClampWarning(); warning != "" {
		bc.Warnf("%s", warning)
	}
	chf, cset, err := baker.buildContours(bc, g, cfg)
	if err != nil || len(cset.Contours) == 0 {
		return err
	}
	mesh, detail, err := baker.buildMeshes(bc, chf, cset, cfg, &result.Fingerprints)
	if err != nil {
		return err
	}
	if mesh.PolyCount == 0 {
		// Detour makes no tile without polygons; the tile stays empty.
		bc.Warnf("contours gave no polygons: no tile data")
		return nil
	}
	spec := tileSpec{x: result.X, y: result.Y, settings: &b.settings, config: cfg, areaFlags: b.areaFlags}
	result.Data, result.linkParams, err = buildTileStage(bc, mesh, detail, g, spec, &result.Fingerprints, "")
	if !links {
		result.linkParams = nil
	}
	return err
}

// rasterizeTile rasterizes the triangles gatherTriangles collected in
// baker into its heightfield, emptied and sized for cfg (or copies the
// field of another agent type's bake that shares it, Baker.share).
func (b *TileBaker) rasterizeTile(bc *BuildContext, cfg *Config, baker *Baker) error {
	return baker.rasterizeShared(bc, func() error {
		hf := &baker.heightfield
		if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
			return err
		}
		hf.maxWalk = b.settings.maxWork()
		return hf.RasterizeTriangles(b.geometry.Vertices, baker.tileTriangles, baker.triangleAreas, cfg.WalkableClimb)
	})
}

// gatherTriangles collects in baker, chunk by chunk in tree order, the
// triangles of every chunk whose box overlaps the tile of cfg with its
// border, with their areas. It returns the number of triangles of those
// chunks and whether there are any such chunks.
func (b *TileBaker) gatherTriangles(baker *Baker, cfg *Config) (triangleCount int, ok bool) {
	chunks := b.chunks
	baker.tileChunks = chunks.overlappingChunks(cfg.BMin[0], cfg.BMin[2], cfg.BMax[0], cfg.BMax[2], baker.tileChunks[:0])
	gathered, areas := baker.tileTriangles[:0], baker.triangleAreas[:0]
	triangles, triangleAreas, boxes := b.geometry.Triangles, b.areas, b.boxes
	for _, chunk := range baker.tileChunks {
		ids := chunks.chunkTriangles(chunk)
		triangleCount += len(ids)
		for _, ti := range ids {
			// The rasterizer skips the triangles whose box misses the
			// field; skipping them here already keeps the order of the
			// others and spares the rasterizer most of a big chunk.
			if box := &boxes[ti]; overlapBoxes(box[0], box[1], cfg.BMin, cfg.BMax) {
				gathered = append(gathered, triangles[ti])
				areas = append(areas, triangleAreas[ti])
			}
		}
	}
	baker.tileTriangles, baker.triangleAreas = gathered, areas
	return triangleCount, len(baker.tileChunks) > 0
}
