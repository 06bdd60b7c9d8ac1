// Package navdraw draws the Detour runtime's structures through a
// debugdraw.Drawer: the navmesh (polygons by area or by tile, inner edges,
// walls, tile borders and bounds, off-mesh connections, vertices, the BV
// tree), a query's search nodes, polygon corridors and straight paths, and
// the crowd's parts (agents with velocities, targets, corners and
// neighbours, local boundaries, avoidance samples) and the tile cache's
// parts (obstacles in their shapes coloured by status, heightfield layers,
// and a layer's build stages: regions, contours, poly mesh, from
// tilecache.Cache.LayerStages) — what recastnavigation's DetourDebugDraw
// and RecastDemo's crowd tool and TempObstacles sample show.
//
// # Start here
//
// Call Mesh(drawer, mesh.Snapshot(), DefaultLayers, DefaultStyle()) to draw a
// navmesh; Search, Corridor and StraightPath draw a query's work, Agents a
// crowd's. The drawer is any debugdraw.Drawer.
//
// Everything is drawn in world coordinates, so the same calls feed a top
// view, an angled 3D view or a game's own renderer. Colours and widths come
// from a Style; DefaultStyle follows RecastDemo's. Polygons are filled with
// their detail triangles and edges are drawn along the detail mesh, so both
// follow the surface in 3D.
//
// Functions read the structures they are given and nothing else; they take
// a navmesh.Snapshot so that one picture shows one consistent tile set. A nil
// Drawer, snapshot, tile or other structure draws nothing.
package navdraw
