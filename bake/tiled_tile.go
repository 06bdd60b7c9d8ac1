package bake

import (
	"context"
	"fmt"
	"time"
)

// tileScratch holds the buffers one goroutine reuses from tile to tile.
type tileScratch struct {
	chunks    []int32
	triangles [][3]int32
	areas     []uint8
	field     Heightfield
}

// tileBuild is the state of one tile going through the pipeline.
type tileBuild struct {
	baker   *TileBaker
	ctx     context.Context
	scratch *tileScratch
	config  *Config
	result  *TileResult
}

// runStage runs one stage when the context is still live and adds its time
// to the tile's stage times.
func (t *tileBuild) runStage(stage tileStage, fn func() error) error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	err := fn()
	t.result.StageTimes[stage] += time.Since(start)
	if err != nil {
		return fmt.Errorf("%s: %w", stage, err)
	}
	return nil
}

// BuildTile bakes tile (tx, ty) of the grid (Sample_TileMesh::buildTileMesh),
// for example to rebuild it after the level changed there. It is safe to
// call from several goroutines at once. A tile with nothing walkable gives a
// result with nil Data and no error. ctx stops the build between stages; a
// nil ctx never stops it.
func (b *TileBaker) BuildTile(ctx context.Context, tx, ty int) (*TileResult, error) {
	if tx < 0 || ty < 0 || tx >= b.tilesX || ty >= b.tilesY {
		return nil, fmt.Errorf("bake: build tile (%d, %d): %w of %d×%d tiles", tx, ty, errTileOutOfGrid, b.tilesX, b.tilesY)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	scratch, _ := b.scratch.Get().(*tileScratch)
	if scratch == nil {
		scratch = &tileScratch{}
	}
	defer b.scratch.Put(scratch)
	result, err := b.buildTile(ctx, tx, ty, scratch)
	if err != nil {
		return nil, fmt.Errorf("bake: build tile (%d, %d): %w", tx, ty, err)
	}
	return result, nil
}

// buildTile runs the pipeline of one tile with the given scratch buffers.
func (b *TileBaker) buildTile(ctx context.Context, tx, ty int, scratch *tileScratch) (*TileResult, error) {
	tileMin, tileMax := b.TileBounds(tx, ty)
	cfg, err := b.settings.TileConfig(tileMin, tileMax)
	if err != nil {
		return nil, err
	}
	t := &tileBuild{
		baker:   b,
		ctx:     ctx,
		scratch: scratch,
		config:  cfg,
		result:  &TileResult{X: tx, Y: ty, BMin: tileMin, BMax: tileMax},
	}
	if err := t.run(); err != nil {
		return nil, err
	}
	return t.result, nil
}

// run builds the tile up to its contours and, when it has any, on to its
// tile data.
func (t *tileBuild) run() error {
	if !t.gatherTriangles() {
		return nil // no geometry near the tile
	}
	chf, err := t.buildCompact()
	if err != nil {
		return err
	}
	if err := t.partition(chf); err != nil {
		return err
	}
	var cset *ContourSet
	err = t.runStage(tileStageContours, func() (err error) {
		cset, err = BuildContours(chf, t.config.MaxSimplificationError, t.config.MaxEdgeLen, TessellateWallEdges)
		return err
	})
	if err != nil {
		return err
	}
	t.result.Counts.Contours = len(cset.Contours)
	t.result.Warnings = append(t.result.Warnings, chf.Warnings...)
	t.result.Warnings = append(t.result.Warnings, cset.Warnings...)
	if len(cset.Contours) == 0 {
		return nil
	}
	return t.finish(chf, cset)
}

// gatherTriangles collects, chunk by chunk in tree order, the triangles of
// every chunk whose box overlaps the tile with its border, with their areas,
// and reports whether there are any.
func (t *tileBuild) gatherTriangles() bool {
	s, cfg, chunks := t.scratch, t.config, t.baker.chunks
	s.chunks = chunks.overlappingChunks(cfg.BMin[0], cfg.BMin[2], cfg.BMax[0], cfg.BMax[2], s.chunks[:0])
	s.triangles = s.triangles[:0]
	s.areas = s.areas[:0]
	triangles, areas := t.baker.geometry.Triangles, t.baker.areas
	for _, chunk := range s.chunks {
		for _, ti := range chunks.chunkTriangles(chunk) {
			s.triangles = append(s.triangles, triangles[ti])
			s.areas = append(s.areas, areas[ti])
		}
	}
	t.result.Triangles = len(s.triangles)
	return len(s.chunks) > 0
}

// buildCompact rasterizes the gathered triangles, filters the spans, builds
// the compact heightfield, erodes it and marks the area volumes.
func (t *tileBuild) buildCompact() (*CompactHeightfield, error) {
	s, cfg, g := t.scratch, t.config, t.baker.geometry
	hf := &s.field
	err := t.runStage(tileStageRasterize, func() error {
		resetHeightfield(hf, cfg)
		return hf.RasterizeTriangles(g.Vertices, s.triangles, s.areas, cfg.WalkableClimb)
	})
	if err != nil {
		return nil, err
	}
	t.result.Counts.HeightfieldSpans = hf.SpanCount()

	_ = t.runStage(tileStageFilters, func() error {
		if cfg.Filters.LowHangingObstacles {
			hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
		}
		if cfg.Filters.LedgeSpans {
			hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
		}
		if cfg.Filters.WalkableLowHeightSpans {
			hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
		}
		return nil
	})

	var chf *CompactHeightfield
	err = t.runStage(tileStageCompact, func() (err error) {
		chf, err = BuildCompactHeightfield(hf, cfg.WalkableHeight, cfg.WalkableClimb)
		return err
	})
	if err != nil {
		return nil, err
	}
	t.result.Counts.CompactSpans = len(chf.Spans)

	err = t.runStage(tileStageErode, func() error {
		if err := chf.ErodeWalkableArea(cfg.WalkableRadius); err != nil {
			return err
		}
		return chf.MarkAreaVolumes(g)
	})
	if err != nil {
		return nil, err
	}
	for _, a := range chf.Areas {
		if a != NullArea {
			t.result.Counts.WalkableSpans++
		}
	}
	return chf, nil
}

// partition splits the walkable surface into regions with the partition
// the settings select; the tile border gets border regions.
func (t *tileBuild) partition(chf *CompactHeightfield) error {
	cfg := t.config
	var err error
	switch cfg.Partition {
	case PartitionWatershed:
		err = t.runStage(tileStageDistanceField, func() error { return BuildDistanceField(chf) })
		if err == nil {
			err = t.runStage(tileStageRegions, func() error {
				return BuildRegions(chf, cfg.BorderSize, cfg.MinRegionArea, cfg.MergeRegionArea)
			})
		}
	case PartitionMonotone:
		err = t.runStage(tileStageRegions, func() error {
			return BuildRegionsMonotone(chf, cfg.BorderSize, cfg.MinRegionArea, cfg.MergeRegionArea)
		})
	case PartitionLayers:
		err = t.runStage(tileStageRegions, func() error {
			return BuildLayerRegions(chf, cfg.BorderSize, cfg.MinRegionArea)
		})
	default:
		err = fmt.Errorf("unknown partition type %d", int(cfg.Partition))
	}
	if err != nil {
		return err
	}
	t.result.Counts.Regions = int(chf.MaxRegions)
	return nil
}

// resetHeightfield empties hf and sizes it for cfg's grid, keeping its
// buffers (rcCreateHeightfield on reused memory).
func resetHeightfield(hf *Heightfield, cfg *Config) {
	cells := cfg.Width * cfg.Height
	hf.Width, hf.Height = cfg.Width, cfg.Height
	hf.BMin, hf.BMax = cfg.BMin, cfg.BMax
	hf.CellSize, hf.CellHeight = cfg.CellSize, cfg.CellHeight
	if cap(hf.Columns) < cells {
		hf.Columns = make([]int32, cells)
	}
	hf.Columns = hf.Columns[:cells]
	for i := range hf.Columns {
		hf.Columns[i] = noSpan
	}
	if hf.Pool == nil {
		hf.Pool = make([]Span, 0, cells)
	}
	hf.Pool = hf.Pool[:0]
	hf.FreeList = noSpan
}
