// Package navmesh is the tiled navigation mesh of the Detour runtime: tiles
// of convex polygons in a hash grid keyed by (x, y, layer), 64-bit polygon
// references, links between polygons inside a tile and across tile borders,
// off-mesh connections, the tile-data builder and the file formats.
//
// A Mesh is safe for any number of concurrent readers while tiles are added
// and removed: readers work on an immutable snapshot of the tile set, and a
// reference to a removed tile fails validation instead of reaching new data.
package navmesh
