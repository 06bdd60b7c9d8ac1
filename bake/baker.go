package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Baker bakes levels one after another and keeps the working memory of
// every stage from one bake to the next: the heightfield's columns and span
// pool, the compact heightfield, the erosion, distance, region and contour
// buffers, the poly mesh and detail mesh scratch. Baking again (a level
// after an edit, tiles of a streaming world) then allocates little more
// than the products it returns. The zero Baker is ready to use; it holds on
// to the memory of its largest bake until it is dropped. Each worker of a
// tiled bake bakes its tiles on a Baker of its own.
//
// A Baker is not safe for concurrent use: give each goroutine its own.
type Baker struct {
	heightfield Heightfield
	// triangleAreas holds the area of each triangle to rasterize: every
	// triangle of a solo bake, the gathered triangles of a tile.
	triangleAreas []uint8
	// tileChunks and tileTriangles hold the chunks a tile overlaps and the
	// triangles it gathered from them.
	tileChunks    []int32
	tileTriangles [][3]int32
	compact       CompactHeightfield
	erosion       []uint8
	distances     distanceBuffers
	regions       regionBuffers
	contourWork   contourBuffers
	contours      ContourSet
	polyMesh      polyMeshBuffers
	detail        detailBuilder
	layers        layerBuilder
	// dedupe is the memory of the search for repeated triangles.
	dedupe dedupeScratch
	// share, set during a bake of several agent types, connects this bake
	// to the stages it shares with the other types' bakes.
	share *stageShare
}

// handOverIntermediates gives the caller the compact heightfield and the
// contour set of the last bake: the Baker forgets them (and the distance
// field the compact heightfield holds) and builds new ones next time.
func (b *Baker) handOverIntermediates() (*CompactHeightfield, *ContourSet) {
	chf, cset := b.compact, b.contours
	b.compact, b.contours = CompactHeightfield{}, ContourSet{}
	b.distances.blurred = nil
	return &chf, &cset
}

// rasterize marks the walkable triangles of g and rasterizes them into the
// Baker's heightfield, emptied and sized for cfg.
func (b *Baker) rasterize(g *Geometry, cfg *Config) error {
	var err error
	b.triangleAreas, err = rasterizeGeometry(&b.heightfield, b.triangleAreas, g, cfg)
	return err
}

// rasterizeGeometry resets hf for cfg's grid, marks the walkable triangles
// of g (keeping its own areas when it has them) in areas, resized, and
// rasterizes the triangles into hf. It returns areas.
func rasterizeGeometry(hf *Heightfield, areas []uint8, g *Geometry, cfg *Config) ([]uint8, error) {
	if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
		return areas, err
	}
	areas = resize(areas, len(g.Triangles))
	if err := markTriangleAreas(areas, g, cfg.WalkableSlopeAngle); err != nil {
		return areas, err
	}
	return areas, hf.RasterizeTriangles(g.Vertices, g.Triangles, areas, cfg.WalkableClimb)
}

// markTriangleAreas sets areas (one per triangle of g) as a bake
// rasterizes them: WalkableArea for the triangles flat enough to walk on
// and NullArea for the others when g has no areas of its own, else g's
// areas with the too steep triangles cleared.
func markTriangleAreas(areas []uint8, g *Geometry, walkableSlopeAngle float32) error {
	if g.Areas == nil {
		clear(areas)
		return MarkWalkableTriangles(walkableSlopeAngle, g.Vertices, g.Triangles, areas)
	}
	copy(areas, g.Areas)
	return ClearUnwalkableTriangles(walkableSlopeAngle, g.Vertices, g.Triangles, areas)
}

// buildContours runs the stages from the span filters to the contours on
// the Baker's rasterized heightfield: the filters cfg selects, the compact
// heightfield, erosion and g's area volumes, the partition and the
// contours. It fills in bc's counts and passes the warnings of the field and
// of the contours on to bc. The field and the contours are the Baker's.
func (b *Baker) buildContours(bc *BuildContext, g *Geometry, cfg *Config) (*CompactHeightfield, *ContourSet, error) {
	cset, counts := &b.contours, bc.Counts()
	chf, err := b.buildCompactField(bc, g, cfg)
	if err != nil {
		return nil, nil, err
	}
	if err := partition(bc, chf, cfg, &b.distances, &b.regions); err != nil {
		return nil, nil, err
	}
	counts.Regions = int(chf.MaxRegions)

	if err := bc.Run(StageContours, func() error {
		return b.contourWork.build(chf, cfg.MaxSimplificationError, cfg.MaxEdgeLen, TessellateWallEdges, cset)
	}); err != nil {
		return nil, nil, err
	}
	counts.Contours = len(cset.Contours)
	for _, w := range chf.Warnings {
		bc.Warnf("%s", w)
	}
	for _, w := range cset.Warnings {
		bc.Warnf("%s", w)
	}
	return chf, cset, nil
}

// buildCompactField runs the stages from the span filters to the area
// volumes on the Baker's rasterized heightfield: the filters cfg selects,
// the compact heightfield, erosion and g's area volumes. It fills in bc's
// span counts. The field is the Baker's. In a bake of several agent types
// the filters, the compact field and the erosion's distances may come from
// another type's bake (Baker.share).
func (b *Baker) buildCompactField(bc *BuildContext, g *Geometry, cfg *Config) (*CompactHeightfield, error) {
	hf, chf, counts := &b.heightfield, &b.compact, bc.Counts()
	shared, err := b.share.compactFrom(bc.ctx)
	if err != nil {
		return nil, err
	}
	if err := bc.Run(StageFilters, func() error {
		if shared != nil {
			hf.copyFrom(&shared.heightfield)
			return nil
		}
		filterHeightfield(hf, cfg)
		return nil
	}); err != nil {
		return nil, err
	}

	if err := bc.Run(StageCompact, func() error {
		if shared != nil {
			chf.copyFrom(&shared.compact)
			counts.HeightfieldSpans = shared.heightfieldSpans
			return nil
		}
		if err := checkWalkable(cfg.WalkableHeight, cfg.WalkableClimb); err != nil {
			return err
		}
		counts.HeightfieldSpans, _ = chf.fill(hf, cfg.WalkableHeight, cfg.WalkableClimb)
		return nil
	}); err != nil {
		return nil, err
	}
	counts.CompactSpans = len(chf.Spans)
	if warning := unlinkedWarning(chf.unlinkedLayer); warning != "" {
		bc.Warnf("%s", warning)
	}

	if err := bc.Run(StageErode, func() (err error) {
		if err := b.erode(chf, cfg.WalkableRadius, counts.HeightfieldSpans, shared); err != nil {
			return err
		}
		counts.WalkableSpans = walkableSpanCount(chf)
		return chf.MarkAreaVolumes(g)
	}); err != nil {
		return nil, err
	}
	return chf, nil
}

// buildMeshes builds the poly mesh of cset and its detail mesh over chf,
// fills in bc's counts and fingerprints both in fingerprints. The meshes
// are new.
func (b *Baker) buildMeshes(bc *BuildContext, chf *CompactHeightfield, cset *ContourSet, cfg *Config, fingerprints *Fingerprints) (*PolyMesh, *PolyMeshDetail, error) {
	counts := bc.Counts()
	var mesh *PolyMesh
	if err := bc.Run(StagePolyMesh, func() (err error) {
		mesh, err = b.polyMesh.build(cset, cfg.MaxVertsPerPoly, &bc.log)
		return err
	}); err != nil {
		return nil, nil, err
	}
	counts.PolyVerts, counts.Polys = len(mesh.Verts), mesh.PolyCount
	fingerprints.PolyMesh = PolyMeshFingerprint(mesh)

	var detail *PolyMeshDetail
	if err := bc.Run(StageDetailMesh, func() (err error) {
		detail, err = b.detail.build(mesh, chf, cfg.DetailSampleDist, cfg.DetailSampleMaxError, &bc.log)
		b.detail.forget()
		return err
	}); err != nil {
		return nil, nil, err
	}
	counts.DetailVerts, counts.DetailTris = len(detail.Verts), len(detail.Tris)
	fingerprints.DetailMesh = DetailMeshFingerprint(detail)
	return mesh, detail, nil
}

// tileSpec is what the tile data stage needs besides the meshes: where the
// tile lies in the grid, the settings the agent values come from, the
// configuration and the area mapping.
type tileSpec struct {
	x, y      int
	settings  *Settings
	config    *Config
	areaFlags func(area uint8) (uint8, uint16)
}

// buildTileStage runs the tile data stage: the mesh's areas mapped to tile
// areas and flags (in place), the tile built with g's off-mesh connections,
// its size counted in bc and its fingerprint in fingerprints. Its own
// errors start with errPrefix ("bake: solo: tile data: ..."). It returns
// the parameters the tile was built with too, to build it again with more
// off-mesh connections.
func buildTileStage(bc *BuildContext, mesh *PolyMesh, detail *PolyMeshDetail, g *Geometry, spec tileSpec, fingerprints *Fingerprints, errPrefix string) (*navmesh.TileData, *navmesh.BuildParams, error) {
	var tile *navmesh.TileData
	var params *navmesh.BuildParams
	if err := bc.Run(StageTileData, func() (err error) {
		if params, err = tileBuildParams(mesh, detail, g, spec); err != nil {
			return fmt.Errorf("%stile data: %w", errPrefix, err)
		}
		if tile, err = navmesh.BuildTileData(params); err != nil {
			return fmt.Errorf("%stile data: %w", errPrefix, err)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if err := finishTile(bc.Counts(), tile, fingerprints, errPrefix); err != nil {
		return nil, nil, err
	}
	return tile, params, nil
}

// finishTile counts tile's size in counts and puts its fingerprint in
// fingerprints.
func finishTile(counts *BuildCounts, tile *navmesh.TileData, fingerprints *Fingerprints, errPrefix string) error {
	counts.TileBytes = navmesh.DNAVSize(tile)
	var err error
	if fingerprints.TileData, err = navmesh.TileDataFingerprint(tile); err != nil {
		return fmt.Errorf("%stile fingerprint: %w", errPrefix, err)
	}
	return nil
}

// partition splits the walkable surface of chf into regions as
// cfg.Partition selects, on the given buffers; chf.Dist becomes distances'
// memory.
func partition(bc *BuildContext, chf *CompactHeightfield, cfg *Config, distances *distanceBuffers, regions *regionBuffers) error {
	switch cfg.Partition {
	case PartitionWatershed:
		if err := bc.Run(StageDistanceField, func() error { return distances.build(chf) }); err != nil {
			return err
		}
		return bc.Run(StageRegions, func() error {
			return regions.watershed(chf, cfg.BorderSize, cfg.MinRegionArea, cfg.MergeRegionArea)
		})
	case PartitionMonotone:
		return bc.Run(StageRegions, func() error {
			return regions.monotone(chf, cfg.BorderSize, cfg.MinRegionArea, cfg.MergeRegionArea)
		})
	case PartitionLayers:
		return bc.Run(StageRegions, func() error {
			return regions.layers(chf, cfg.BorderSize, cfg.MinRegionArea)
		})
	}
	return fmt.Errorf("bake: partition: unknown partition type %v", cfg.Partition)
}
