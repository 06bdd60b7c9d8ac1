// Package tilecache is the runtime tile cache (DetourTileCache): compressed
// 2D heightfield layers kept per tile location (x, y, layer), temporary
// obstacles that carve holes into them or mark areas, and incremental
// rebuilds of the navmesh tiles they touch, published to a navmesh.Mesh in
// one snapshot swap so that readers never see half an update.
//
// Package bake writes the layers (bake imports tilecache); this package
// turns a layer into a navmesh tile with its own region, contour and
// polygon code, as DetourTileCacheBuilder.cpp does, not with bake's
// watershed pipeline.
package tilecache
