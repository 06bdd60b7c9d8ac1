// Package dynamic is a tiled navmesh whose walkable geometry changes at
// runtime: colliders that add ground (a bridge, a ramp, a crate others
// climb on) or cut it away (a pit, a breach), rebuilt from voxels tile by
// tile (DotRecast's DtDynamicNavMesh, Unity's runtime NavMeshSurface
// rebakes).
//
// # Start here
//
// New(ctx, level, bake.DefaultSettings(), Options{}) bakes the level (as
// bake.Tiled does) and keeps its voxels; AddCollider, MoveCollider,
// SetCollider and RemoveCollider change the colliders (shapes of package
// collider), and Update rebuilds the touched tiles within a
// tilecache.Budget and publishes them to NavMesh(), an ordinary
// *navmesh.Mesh that queries and crowds read. In a crowd, give the mesh to
// plugin.Config.DynamicMesh and spawn collider entities instead
// (plugin.Plugin.SpawnCollider). docs/dynamic-geometry.md is the guide;
// ExampleMesh_AddCollider (bake/dynamic/example_test.go) digs a pit and
// bridges it.
//
//	mesh, err := dynamic.New(ctx, level, bake.DefaultSettings(), dynamic.Options{})
//	ref, err := mesh.AddCollider(collider.NewBox(geom.Vec3{1.5, 1, 6}).Carving(), collider.Pose{Position: p})
//	upToDate, err := mesh.Update(tilecache.Budget{MaxTiles: 8}) // once a frame
//
// # How it works
//
// New bakes a level tiled, as bake.Tiled does with the same settings, and
// keeps each tile's solid heightfield, the level's triangles rasterized
// once, compressed (bake.HeightfieldCodec: about a byte a column, 94 KB
// for the 56 tiles of RecastDemo's dungeon; Stats reports it per tile). A
// collider (package collider: box, oriented box, sphere, capsule,
// cylinder, convex hull, triangle mesh; solid or carving; with an area id)
// is added, moved, changed and removed by its collider.Ref; every change
// marks the tiles whose field (the tile and its border of WalkableRadius +
// 3 cells) it touches. Update rebuilds the marked tiles from the voxels:
// the tile's level field decoded, then every collider over it in the
// order they were added, a solid one rasterized into it (triangle meshes
// and hulls as their triangles, the primitives analytically with
// collider.Placed.ColumnRange), a carving one cut out of it (so a pit dug
// and then bridged has its bridge, a crate placed in a dug pit stays),
// then bake's pipeline from the span
// filters to the tile data (bake.TileBaker.BuildTileFrom). The rebuilt
// tiles are published to the navmesh.Mesh in one Mesh.Apply, so readers
// never see half an update; a tilecache.Budget bounds the tiles or the
// time of one call, and the builds run on the mesh's workers or a
// tilecache.Runner's (the tile cache's scheduler, tilecache.Scheduler).
//
// # What is exact
//
//   - Before any collider, and again once every collider is removed, the
//     tiles are bake.Tiled's byte for byte (with TiledOptions.Headroom set
//     to the mesh's headroom, which only raises the tiles' upper bound).
//   - A triangle mesh or convex hull collider adds its triangles as the
//     bake adds the level's: a tile under it equals, byte for byte, the
//     tile bake.Tiled makes of the level with the collider's triangles
//     added, wherever that bake rasterizes them after the level's (and in
//     practice everywhere: Recast's span merge depends on the order only
//     where spans of different areas end within a climb of each other).
//   - A solid primitive fills each column from its lowest to its highest
//     point over the cell, as DotRecast's filled-volume rasterization
//     does, and its top takes the collider's area where the surface there
//     is flat enough (the slope test of bake.MarkWalkableTriangles, on the
//     exact surface normal); the tests check it against its triangulation
//     (within a voxel) and against a brute-force point-in-shape search.
//   - A carving collider removes, in each column, the cells from its
//     lowest to its highest point; the span it cuts from above keeps its
//     lower part, whose new top (the carve's floor) takes the collider's
//     area where that floor is flat enough. Carving hulls and meshes cut
//     from their lowest to their highest triangle in each column.
//
// # Limits
//
// A collider outside the tile grid is refused (ErrOutsideGrid), and so is
// one past Options.MaxColliders (ErrTooManyColliders) or reaching more
// tiles than Options.MaxColliderTiles (ErrColliderTooLarge). A tile that rebuilds with more polygons
// than the mesh's MaxPolys keeps its old tile and Update returns the error
// (ErrTileTooComplex). Geometry above the level's top plus the headroom
// (Options.Headroom, DefaultHeadroom by default) is flattened onto it, as
// Recast does past its span height. The memory of the voxels is reported
// by Stats (bytes per tile).
//
// A Mesh is safe for concurrent use; its navmesh.Mesh may be read
// concurrently with anything.
package dynamic
