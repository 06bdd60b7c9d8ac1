package bake

import (
	"context"
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
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
	bc      *BuildContext
	scratch *tileScratch
	config  *Config
	result  *TileResult
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
		bc:      NewBuildContext(ctx),
		scratch: scratch,
		config:  cfg,
		result:  &TileResult{X: tx, Y: ty, BMin: tileMin, BMax: tileMax},
	}
	err = t.run()
	t.result.Stats = t.bc.Stats()
	if err != nil {
		return nil, err
	}
	return t.result, nil
}

// run builds the tile up to its contours and, when it has any, on to its
// tile data (the empty tiles stop early, as in RecastDemo).
func (t *tileBuild) run() error {
	if !t.gatherTriangles() {
		return nil // no geometry near the tile
	}
	chf, err := t.buildCompact()
	if err != nil {
		return err
	}
	if err := partition(t.bc, chf, t.config); err != nil {
		return err
	}
	counts := t.bc.Counts()
	counts.Regions = int(chf.MaxRegions)

	cfg := t.config
	var cset *ContourSet
	if err := t.bc.Run(StageContours, func() (err error) {
		cset, err = BuildContours(chf, cfg.MaxSimplificationError, cfg.MaxEdgeLen, TessellateWallEdges)
		return err
	}); err != nil {
		return err
	}
	counts.Contours = len(cset.Contours)
	for _, w := range chf.Warnings {
		t.bc.Warnf("%s", w)
	}
	for _, w := range cset.Warnings {
		t.bc.Warnf("%s", w)
	}
	if len(cset.Contours) == 0 {
		return nil
	}
	return t.buildMeshes(chf, cset)
}

// gatherTriangles collects, chunk by chunk in tree order, the triangles of
// every chunk whose box overlaps the tile with its border, with their areas,
// and reports whether there are any such chunks.
func (t *tileBuild) gatherTriangles() bool {
	s, cfg, chunks := t.scratch, t.config, t.baker.chunks
	s.chunks = chunks.overlappingChunks(cfg.BMin[0], cfg.BMin[2], cfg.BMax[0], cfg.BMax[2], s.chunks[:0])
	s.triangles = s.triangles[:0]
	s.areas = s.areas[:0]
	triangles, areas, boxes := t.baker.geometry.Triangles, t.baker.areas, t.baker.boxes
	for _, chunk := range s.chunks {
		ids := chunks.chunkTriangles(chunk)
		t.result.Triangles += len(ids)
		for _, ti := range ids {
			// The rasterizer skips the triangles whose box misses the
			// field; skipping them here already keeps the order of the
			// others and spares the rasterizer most of a big chunk.
			if box := &boxes[ti]; overlapBoxes(box[0], box[1], cfg.BMin, cfg.BMax) {
				s.triangles = append(s.triangles, triangles[ti])
				s.areas = append(s.areas, areas[ti])
			}
		}
	}
	return len(s.chunks) > 0
}

// buildCompact rasterizes the gathered triangles, filters the spans, builds
// the compact heightfield, erodes it and marks the area volumes.
func (t *tileBuild) buildCompact() (*CompactHeightfield, error) {
	s, cfg, g, bc := t.scratch, t.config, t.baker.geometry, t.bc
	counts := bc.Counts()
	hf := &s.field
	if err := bc.Run(StageRasterize, func() error {
		resetHeightfield(hf, cfg)
		return hf.RasterizeTriangles(g.Vertices, s.triangles, s.areas, cfg.WalkableClimb)
	}); err != nil {
		return nil, err
	}
	counts.HeightfieldSpans = hf.SpanCount()

	if err := bc.Run(StageFilters, func() error {
		filterHeightfield(hf, cfg)
		return nil
	}); err != nil {
		return nil, err
	}

	var chf *CompactHeightfield
	if err := bc.Run(StageCompact, func() (err error) {
		chf, err = BuildCompactHeightfield(hf, cfg.WalkableHeight, cfg.WalkableClimb)
		return err
	}); err != nil {
		return nil, err
	}
	counts.CompactSpans = len(chf.Spans)

	if err := bc.Run(StageErode, func() error {
		if err := chf.ErodeWalkableArea(cfg.WalkableRadius); err != nil {
			return err
		}
		counts.WalkableSpans = walkableSpanCount(chf)
		return chf.MarkAreaVolumes(g)
	}); err != nil {
		return nil, err
	}
	return chf, nil
}

// buildMeshes builds the poly mesh, the detail mesh and the tile data of a
// tile with contours.
func (t *tileBuild) buildMeshes(chf *CompactHeightfield, cset *ContourSet) error {
	cfg, bc, r := t.config, t.bc, t.result
	counts := bc.Counts()
	var mesh *PolyMesh
	if err := bc.Run(StagePolyMesh, func() (err error) {
		mesh, err = buildPolyMesh(cset, cfg.MaxVertsPerPoly, &bc.log)
		return err
	}); err != nil {
		return err
	}
	counts.PolyVerts, counts.Polys = len(mesh.Verts), mesh.PolyCount
	r.Fingerprints.PolyMesh = PolyMeshFingerprint(mesh)

	var detail *PolyMeshDetail
	if err := bc.Run(StageDetailMesh, func() (err error) {
		detail, err = buildPolyMeshDetail(mesh, chf, cfg.DetailSampleDist, cfg.DetailSampleMaxError, &bc.log)
		return err
	}); err != nil {
		return err
	}
	counts.DetailVerts, counts.DetailTris = len(detail.Verts), len(detail.Tris)
	r.Fingerprints.DetailMesh = DetailMeshFingerprint(detail)

	if mesh.PolyCount == 0 {
		// Detour makes no tile without polygons; the tile stays empty.
		bc.Warnf("contours gave no polygons: no tile data")
		return nil
	}
	var data *navmesh.TileData
	if err := bc.Run(StageTileData, func() (err error) {
		data, err = buildTileData(mesh, detail, t.baker.geometry, &t.baker.settings, cfg, t.baker.areaFlags)
		if err != nil {
			return fmt.Errorf("tile data: %w", err)
		}
		// The shared tile builder makes tile (0, 0); the location only
		// fills these two header fields.
		data.Header.X, data.Header.Y = int32(r.X), int32(r.Y)
		return nil
	}); err != nil {
		return err
	}
	counts.TileBytes = navmesh.DNAVSize(data)
	fingerprint, err := navmesh.TileDataFingerprint(data)
	if err != nil {
		return fmt.Errorf("tile fingerprint: %w", err)
	}
	r.Fingerprints.TileData = fingerprint
	r.Data = data
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
