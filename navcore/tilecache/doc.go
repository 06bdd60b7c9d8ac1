// Package tilecache is the runtime tile cache (DetourTileCache): compressed
// 2D heightfield layers kept per tile location (x, y, layer), temporary
// obstacles that carve holes into them or mark areas, and incremental
// rebuilds of the navmesh tiles they touch, published to a navmesh.Mesh in
// one snapshot swap so that readers never see half an update.
//
// # Start here
//
// Bake the level's layers with bake.TileCache (or load a file with Load), call
// Update until it reports up to date, then AddObstacle, MoveObstacle and
// RemoveObstacle while the game runs and call Update once a frame with a
// Budget; the Mesh it builds is an ordinary navmesh for queries and the crowd.
// docs/obstacles.md is the guide; with the crowd plugin, obstacles are
// entities (plugin.Plugin.SpawnObstacle).
//
// # Layers
//
// A Layer is one heightfield layer of a tile (heights, areas, connections);
// EncodeLayer writes it as dtBuildTileCacheLayer does (a 56-byte header and
// the compressed grids) and DecodeLayer reads it back, checking everything.
// FastLZ is the default Compressor and writes the very bytes RecastDemo's
// fastlz.c writes, so layers and TSET files equal the C++ ones. Package bake
// writes the layers (bake imports tilecache).
//
// # The cache
//
// A Cache holds the layers (AddLayer, RemoveLayer) and the obstacles
// (AddObstacle, MoveObstacle, RemoveObstacle by ObstacleRef). Changes are
// queued; Update resolves them, rebuilds the touched layers on worker
// goroutines with the tile cache's own region, contour and polygon code (as
// DetourTileCacheBuilder.cpp, not bake's watershed pipeline), runs the
// MeshProcess (RecastDemoProcess by default: areas to flags) and publishes
// every rebuilt tile with one navmesh.Mesh.Apply. A Budget bounds the tiles
// or the time of one call. The tiles come out byte for byte as the C++
// builds them, for any number of workers.
//
// Unlike the C++, nothing is lost: any number of layers may wait for a
// rebuild (the C++ drops them past 64), an obstacle marks every layer it
// touches (the C++ at most 8), an obstacle outside every layer is refused
// (ErrOutsideLayers; the C++ leaks it), a removed obstacle's handle goes
// stale at once, and moving an obstacle is one change.
//
// Obstacles are cylinders, boxes, boxes turned about y (marked as the C++
// marks them) and convex prisms; with an Area other than NullArea they mark
// that area instead of carving (a runtime modifier volume), and the mesh
// process gives it flags, e.g. a door a filter can shut.
//
// Obstacles lists the obstacles with how far the navmesh shows each
// (ObstacleStatus: pending, building, up to date, removing), and
// LayerStages rebuilds one layer with its obstacles and returns every
// stage (the marked layer, regions, contours, poly mesh), for drawing
// (package navdraw) or inspection.
//
// # Files
//
// ReadTSET and WriteTSET read and write RecastDemo's tile cache file;
// Cache.Save writes this package's own file, which keeps the refs of layers
// and obstacles and the obstacles themselves, with a CRC-32; Load reads
// either. SaveSet and LoadSet keep one named cache per agent type in one
// own file. Readers check every length before use and build nothing from a
// file with an error.
//
// A Cache is safe for concurrent use; steady-state obstacle changes and the
// layer builds allocate nothing, Update allocates only the tiles it
// publishes.
package tilecache
