// Package bake turns level geometry into navigation mesh tiles: the Recast
// pipeline of voxel rasterization, filtering, region partitioning, contour
// tracing, polygon meshing and height-detail meshing, ending in
// [navmesh.TileData]. With the same settings the output is bit-identical to
// recastnavigation 1.6.0 on amd64.
//
// # Baking a level
//
// Load the level with [LoadOBJ] or [ReadOBJ], or fill a [Geometry] (a
// triangle soup with optional per-triangle areas, area volumes and
// off-mesh connections), then bake it as one tile:
//
//	result, err := bake.Solo(ctx, g, bake.DefaultSettings())
//
// result.TileData goes to navmesh.Mesh.AddTile. [Settings] holds the
// settings in world units (RecastDemo's defaults come from
// [DefaultSettings]); [Settings.Config] derives the cell-unit [Config] a
// bake runs with. Options ([SoloOption]) map polygon areas to flags
// ([WithAreaFlags], [RecastDemoAreaFlags] by default) and keep the compact
// heightfield and contours for debugging ([WithIntermediates]).
//
// A [Baker] runs the same bake and keeps the working memory of every stage
// for the next one, so that baking again (after an edit, or tile after tile
// of a streaming world) allocates little more than the products; [Solo]
// draws its Bakers from a pool, so its later calls gain the same until the
// garbage collector reclaims the pool. A tiled
// bake ([Tiled], or [TileBaker] to rebuild single tiles) runs the same
// stages tile by tile on a grid over the level, each worker goroutine on a
// Baker of its own.
//
// # Stages
//
// Each stage is a function of its own that can be run alone. [Solo] runs
// them in this order, timing each under its [Stage] name:
//
//  1. Rasterize: [MarkWalkableTriangles] (or [ClearUnwalkableTriangles]
//     when the geometry has its own areas) marks the triangles flat enough
//     to walk on, then [Heightfield.RasterizeTriangles] voxelizes every
//     triangle into the solid spans of a [Heightfield] ([NewHeightfield],
//     or [Heightfield.Reset] to reuse one).
//  2. Filters: [Heightfield.FilterLowHangingWalkableObstacles],
//     [Heightfield.FilterLedgeSpans] and
//     [Heightfield.FilterWalkableLowHeightSpans], as [Filters] selects.
//  3. Compact: [BuildCompactHeightfield] keeps the open space above the
//     walkable spans as a [CompactHeightfield] and links each span to its
//     reachable neighbours.
//  4. Erode: [CompactHeightfield.ErodeWalkableArea] shrinks the walkable
//     area by the agent radius, then [CompactHeightfield.MarkAreaVolumes]
//     paints the geometry's area volumes ([CompactHeightfield.MarkConvexPolyArea],
//     [CompactHeightfield.MarkBoxArea], [CompactHeightfield.MarkCylinderArea]).
//     [BuildCompact] runs stages 1 to 4 on one field.
//  5. Distance field: [BuildDistanceField], for the watershed partition.
//  6. Regions: [BuildRegions] (watershed, the default),
//     [BuildRegionsMonotone] or [BuildLayerRegions], as [PartitionType]
//     selects.
//  7. Contours: [BuildContours] traces and simplifies each region's
//     outline into a [ContourSet].
//  8. Poly mesh: [BuildPolyMesh] triangulates the contours and merges the
//     triangles into the convex polygons of a [PolyMesh]
//     ([MergePolyMeshes] joins several, [CopyPolyMesh] copies one).
//  9. Detail mesh: [BuildPolyMeshDetail] adds a [PolyMeshDetail] that
//     follows the height of the surface under each polygon
//     ([MergePolyMeshDetails] joins several).
//  10. Tile data: the polygons' areas become tile areas and flags, and
//     navmesh.BuildTileData builds the tile with its BV tree and the
//     geometry's off-mesh connections.
//
// # Results
//
// A [SoloResult] holds the products, the [BuildStats] of the bake (time per
// stage, sizes, warnings) and [Fingerprints] that identify the products bit
// for bit ([PolyMeshFingerprint], [DetailMeshFingerprint] and
// navmesh.TileDataFingerprint), to compare with the C++ build. Bad input
// gives an error naming the stage that refused it ("bake: build contours:
// ..."); a bake stops between stages once its context is done
// ([BuildContext]).
//
// # Limits
//
// Memory follows the settings, never past what the caller allows: before a
// bake allocates its grid it estimates what the grid needs
// ([Config.EstimatedMemory], 42 bytes per cell; a tiled bake, one tile's
// grid on each worker) and fails with [ErrMemoryLimit], naming the
// estimate, above [Settings.MaxMemory] (4 GiB by default). A tiled bake
// bakes only the tiles with a triangle's box within their border (two
// floors 100 km apart cost the few tiles under them, not the 10^8 of the
// grid) and fails with [ErrTooManyTiles] past [Settings.MaxTiles] such
// tiles (2^20 by default). Geometry more than [MaxSpanHeight] cells above
// the level's bottom is flattened onto that height, as in Recast, with a
// warning ([Heightfield.ClampWarning]).
package bake
