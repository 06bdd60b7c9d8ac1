package bake

import "fmt"

// Baker bakes levels one after another and keeps the working memory of
// every stage from one bake to the next: the heightfield's columns and span
// pool, the compact heightfield, the erosion, distance, region and contour
// buffers, the poly mesh and detail mesh scratch. Baking again (a level
// after an edit, tiles of a streaming world) then allocates little more
// than the products it returns. The zero Baker is ready to use; it holds on
// to the memory of its largest bake until it is dropped.
//
// A Baker is not safe for concurrent use: give each goroutine its own.
type Baker struct {
	heightfield   Heightfield
	triangleAreas []uint8
	compact       CompactHeightfield
	erosion       []uint8
	distances     distanceBuffers
	regions       regionBuffers
	contourWork   contourBuffers
	contours      ContourSet
	polyMesh      polyMeshBuffers
	detail        detailBuilder
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
func (b *Baker) rasterize(g *Geometry, cfg *Config) (*Heightfield, error) {
	var err error
	b.triangleAreas, err = rasterizeGeometry(&b.heightfield, b.triangleAreas, g, cfg)
	if err != nil {
		return nil, err
	}
	return &b.heightfield, nil
}

// rasterizeGeometry resets hf for cfg's grid, marks the walkable triangles
// of g (keeping its own areas when it has them) in areas, resized, and
// rasterizes the triangles into hf. It returns areas.
func rasterizeGeometry(hf *Heightfield, areas []uint8, g *Geometry, cfg *Config) ([]uint8, error) {
	if err := hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight); err != nil {
		return areas, err
	}
	areas = resize(areas, len(g.Triangles))
	var err error
	if g.Areas == nil {
		clear(areas)
		err = MarkWalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas)
	} else {
		copy(areas, g.Areas)
		err = ClearUnwalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas)
	}
	if err != nil {
		return areas, err
	}
	return areas, hf.RasterizeTriangles(g.Vertices, g.Triangles, areas, cfg.WalkableClimb)
}

// partition splits the walkable surface of chf into regions as
// cfg.Partition selects, with new buffers.
func partition(bc *BuildContext, chf *CompactHeightfield, cfg *Config) error {
	var distances distanceBuffers
	var regions regionBuffers
	return partitionWith(bc, chf, cfg, &distances, &regions)
}

// partitionWith is partition on the given buffers; chf.Dist becomes
// distances' memory.
func partitionWith(bc *BuildContext, chf *CompactHeightfield, cfg *Config, distances *distanceBuffers, regions *regionBuffers) error {
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
	return fmt.Errorf("bake: solo: unknown partition type %v", cfg.Partition)
}
