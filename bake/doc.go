// Package bake turns level geometry into navigation mesh tiles: the Recast
// pipeline of voxel rasterization, filtering, region partitioning, contour
// tracing, polygon meshing and height-detail meshing, ending in
// [navmesh.TileData]. With the same settings the output is bit-identical to
// recastnavigation 1.6.0 on amd64.
//
// # Start here
//
// Load a level with LoadOBJ (or fill a Geometry), take DefaultSettings
// (RecastDemo's, in world units), change the agent's size if you need to, and
// call Solo (one tile) or Tiled (a grid of tiles on every core); the result's
// NavMesh method gives the navmesh for queries and the crowd. docs/baking.md
// is the guide; navtool studio shows what every setting does.
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
// Baker of its own. A tiled bake may cover a range of the grid only
// ([TiledOptions].Tiles, a [TileRange]); [MergeNavMeshes] joins the meshes
// of range bakes into the whole level's, byte for byte, so a big level can
// be baked on several machines.
//
// # Tile cache layers
//
// [TileCache] (or [TileBaker.BuildAllLayers], [TileBaker.BuildTileLayers])
// bakes a level for navcore/tilecache the way RecastDemo's
// Sample_TempObstacles does: per tile, stages 1 to 4 below, then
// [BuildHeightfieldLayers] splits the compact heightfield into layers that
// do not overlap, at most [MaxTileLayers] per tile, each a tilecache.Layer
// with its header, encoded when [TileCacheOptions].Compressor is set.
// [TileCacheResult] gives the layers in build order, the tile cache and
// navmesh parameters the sample uses, the layerHash ([LayerHash]) to
// compare with the C++, and a filled tilecache.Cache
// ([TileCacheResult.Cache]) whose files are the C++ sample's.
// [MergeTileCaches] joins range bakes of tile caches as [MergeNavMeshes]
// joins navmeshes.
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
//  11. Links (only when [Settings.Links] enables drops or jumps): the
//     automatic links are placed (below) and the tile is built again with
//     them after the geometry's own connections.
//
// # Automatic drop and jump links
//
// With [Settings.Links] on ([DefaultLinkSettings]), the bake places
// off-mesh connections by itself where an agent can drop off a ledge or
// jump a gap. It works on the baked tiles and the solid heightfield:
//
//   - Edges: every edge of a walkable polygon without a neighbour (a wall,
//     or a tile border nothing links to) is sampled once per cell of its
//     length, starting just inside the polygon.
//   - Landings: from each sample it walks out across the edge a cell at a
//     time, from 2·AgentRadius less a cell (the other side's erosion and
//     its own) to the reach of the enabled kinds, and takes the highest
//     walkable polygon within the height window there. A landing more
//     than AgentMaxClimb and at most DropMaxHeight down, within
//     DropMaxOut beyond 2·AgentRadius, is a drop (one-way); else one at
//     most JumpMaxDown down or JumpMaxUp up, within JumpMaxGap beyond
//     2·AgentRadius, is a jump (both ways when the ends lie within
//     JumpMaxUp in height).
//   - Paths: a landing counts only if the agent's body, AgentRadius wide
//     and AgentHeight tall, fits along the link's path (navmesh.LinkPath:
//     a drop goes level out to above the landing, then straight down; a
//     jump flies the ballistic arc JumpHeight above the higher end)
//     through the solid voxels: at steps of at most a cell, no solid
//     voxel whose column centre lies within AgentRadius may reach into the
//     body, from AgentMaxClimb above the feet where the agent stands or
//     walks, 1.5 cell heights in flight, to AgentHeight. The first landing
//     out that passes wins.
//   - Segments: the edges are chained into outlines (across tiles too);
//     neighbouring samples with landings of the same kind, within a climb
//     in height and about as far apart as their starts, on edges turning
//     less than 45°, form a segment. Segments narrower than the agent
//     (2·AgentRadius, at their start or their landing) are dropped; along
//     the others links are placed Spacing apart, centred, none within
//     AgentRadius of a segment's end. Two-way jumps found again from the
//     far side of their gap are kept once.
//
// The links take their own areas and flags (DropArea, DropFlags,
// JumpArea, JumpFlags: by default [DemoAreaDrop], [DemoFlagDrop],
// [DemoAreaJump], [DemoFlagJump]); [LinkSettings.ApplyCosts] puts their
// costs in a query filter (jumps cost 1.5 by default, drops 1: a path
// prefers walking around unless that is about 1.5 times as long).
// Their UserID names the kind and the arc (navmesh.AutoLinkUserID), which
// the crowd reads to move agents along the same path.
//
// A solo bake places them over its one tile. A tiled bake ([Tiled],
// [TileBaker.BuildAll]) bakes every tile first, then searches every tile's
// edges on the mesh of all the tiles and the tiles' solid spans, places
// the links over the whole level (an edge running across tiles is one
// stretch) and builds each tile that got links again: a link is stored in
// the tile its start lies in and lands in any tile; the result does not
// depend on the number of workers. [TileBaker.BuildTile] alone places
// none; [TileBaker.PlaceLinks] places them on any mesh of the level (a
// tile cache's tiles, tiles from a file). For a tile cache, place them on
// its tiles built without links, then give them ([ConnectionParams]) to
// the cache's mesh process (tilecache.RecastDemoProcess) and build the
// cache again: every tile it builds, after obstacles too, stores the
// links that start in it. Results hold the links
// ([SoloResult.Links], [TileResult.Links]) and count them
// ([BuildCounts.DropLinks], [BuildCounts.JumpLinks]).
//
// A tile cache bake runs stages 1 to 4 and then its own:
//
//  11. Layers: [BuildHeightfieldLayers] (timed as StageLayers).
//
// # Agent types
//
// A mesh is baked for one agent size. [SoloTypes], [TiledTypes] and
// [TileCacheTypes] bake one level for several [AgentType]s (a name and the
// settings of its mesh) in one call, in parallel, each type's products
// byte for byte those of its own [Solo], [Tiled] or [TileCache], for any
// number of workers. Types share the stages whose inputs they have in
// common: the rasterization when their grid (in a tiled bake, the tile
// border of WalkableRadius + 3 cells too), cell size and height, slope and
// climb agree; the span filters, the compact heightfield and the erosion's
// distances when their height and filters agree too; from the erosion by
// each type's radius on, each type bakes its own. A tiled bake builds the
// triangle index once for all types. [TypesStats] counts what was shared;
// the results' MeshSet methods give the meshes under the types' names for
// navmesh.SaveSet, one file of all the types.
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
// ([Config.EstimatedMemory], 50 bytes per cell; a tiled bake, one tile's
// grid on each worker) and fails with [ErrMemoryLimit], naming the
// estimate, above [Settings.MaxMemory] (4 GiB by default). A tiled bake
// bakes only the tiles with a triangle's box within their border (two
// floors 100 km apart cost the few tiles under them, not the 10^8 of the
// grid) and fails with [ErrTooManyTiles] past [Settings.MaxTiles] such
// tiles (2^20 by default). Geometry more than [MaxSpanHeight] cells above
// the level's bottom is flattened onto that height, as in Recast, with a
// warning ([Heightfield.ClampWarning]).
//
// Time follows the level and the settings too: before it starts, a bake
// estimates its work ([EstimateWork], [Config.EstimatedWork]: the grids'
// cells, the watershed's passes over them and the cells under the
// triangles) and fails with [ErrWorkLimit], naming the estimate, above
// [Settings.MaxWork] (2^30 work units by default, a few minutes; RecastDemo's levels need
// about a million). Floors stacked over each other cost linear time in
// every stage, and a column may hold 4094 linked spans where Recast links
// 62. Triangles that repeat an earlier one, or have two corners at one
// position, are left out with a warning
// ([Geometry.WithoutRepeatedTriangles]); a level more than [MaxGridSide]
// cells across fails with [ErrLevelTooWide], naming the vertex and its OBJ
// line. docs/limits.md lists every limit.
package bake
