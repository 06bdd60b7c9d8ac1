// Package navmesh is the tiled navigation mesh of the Detour runtime: tiles
// of convex polygons in a hash grid keyed by (x, y, layer), 64-bit polygon
// references (Ref), links between polygons inside a tile and across tile
// borders, off-mesh connections, the tile-data builder (BuildTileData) and
// the file formats (LoadFile reads the C++ tile blob DNAV, RecastDemo's tile
// set MSET and this package's own file, which Save writes; SaveSet and
// LoadSet keep a MeshSet, one named mesh per agent type, in one own file).
//
// # Start here
//
// Get a Mesh from a bake (bake.SoloResult.NavMesh) or a file (LoadFile, which
// reads the archenav, DNAV and MSET formats), then hand it to query.New or the
// crowd plugin; Save writes it. Readers work on Snapshots, so tiles may be
// added and removed while queries run. docs/file-formats.md lists the formats.
//
// A Mesh is safe for any number of concurrent readers while tiles are added
// and removed: readers take a Snapshot, an immutable view of the tile set,
// and a reference to a removed tile fails validation (ErrInvalidRef) instead
// of reaching new data. Tiles and their slices are shared by the snapshots
// that hold them: treat them as read-only.
//
// Runtime links (Mesh.AddLink, RemoveLink) join any two points of the
// mesh, however far apart, while it runs: ladders, doors, elevators,
// teleporters. Each is a tile of its own in a slot above the grid's
// (Tile.IsLink), whose off-mesh polygons are linked to the polygons its
// ends land on in whatever tiles hold them, so the queries, the
// connectivity labels and the hierarchy take them as they take baked
// off-mesh connections. A link lands again by itself when a tile where its
// ends lie is added, removed or swapped for a new version, and Save keeps
// the links with their ids.
//
// Memory follows the tiles, not Params.MaxTiles: the slot table is a trie
// as deep as the highest slot in use needs and the position lookup grows
// with the tile count, so an empty mesh with 2^28 slots costs a few hundred
// bytes, adding or removing a tile copies O(log tiles) table nodes, and
// Snapshot.NextTile and Snapshot.Tiles walk the tiles without visiting
// empty slots. The loaders build a mesh in one edit: loading a file
// allocates at most about 12 bytes per byte of file, however its tiles are
// spread over the slots (TestLoadersBoundMemory checks this against a set
// of hostile files), and at most 30 per byte of its runtime links (each a
// tile of its own; TestLinksFileBoundsMemory).
//
// Positions and sizes are in world units, y up. The geometric queries
// (Tile.ClosestPointOnPoly, Tile.PolyHeight, Tile.FindNearestPoly) do Detour's
// float32 operations in its order, so their results match the C++ library
// bit for bit; package query builds the path and spatial queries on them.
//
// Errors wrap the package's sentinels (ErrInvalidRef, ErrInvalidParams,
// ErrTileExists, ErrOutOfTiles, ErrInvalidData and those of the builder and
// file readers) for errors.Is; no function panics on bad input.
package navmesh
