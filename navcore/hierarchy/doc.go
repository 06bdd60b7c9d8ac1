// Package hierarchy plans long paths on large tiled navigation meshes
// quickly: a hierarchical path search (in the manner of HPA* and HNA*) on
// the polygons of a navmesh.Mesh, kept up to date as tiles change. Its
// corridors are ordinary polygon corridors, so query.Query.FindStraightPath,
// crowd.Corridor and the crowd's path queue take them unchanged.
//
// # Start here
//
// For long paths on levels of many tiles: New(mesh, filter, Options{}) once
// per cost model, NewSearcher(query, h) once per goroutine, then
// Searcher.FindPath as you would Query.FindPath. On small levels plain A*
// costs as little. The crowd uses it with plugin.Config.HierarchicalPaths.
//
// # When to use it
//
// On a level of many tiles where agents walk far: open worlds, strategy
// maps, crowds sent across a city. There plain A* (query.Query.FindPath)
// explores most of what lies between start and goal, thousands of
// polygons for a long path, and needs a node pool that large to finish;
// the hierarchy explores a few hundred nodes whatever the distance. On a
// small level, or for paths a few tiles long, plain A* costs as little and
// needs nothing built: keep it. A one-tile mesh gains nothing.
//
// # How it works
//
// Each tile version gets a graph of its ports (runs of the links that
// leave the tile on one border towards one neighbour, from polygons joined
// inside the tile) with the cheapest cost between every two through the
// tile, under the hierarchy's cost model: a query.Filter's area costs and
// include/exclude flags (steps as FindPath takes them: polygon to polygon
// through portal middles, the distance times the area cost). Tiles are
// grouped in clusters (4 × 4 by default): the ports on a cluster's border
// are the nodes of the level above, joined by the cheapest ways through
// the cluster, each with the tiles it crosses. A dozen landmarks (cluster
// nodes with their costs to every other over the cluster level's steps,
// taken either way, so that the costs obey the triangle inequality) give
// the search a lower bound of the cost to the goal (the ALT heuristic),
// two-sided: a node is at least as far from the goal as a landmark's costs
// to the two differ, whether the landmark lies behind the node or behind
// the goal. The level's ways wind: on the generated level the way between
// two far points is 1.4 times the straight line, and the landmarks see
// that where the straight line cannot.
//
// Searcher.FindPath searches inside the start and goal tiles from the
// start and the goal, runs A* over the ports of the start and goal
// clusters and the cluster graphs between them, then turns that route into
// a corridor. When the start and goal clusters are not neighbours, the
// goal cluster is searched whole from the goal first (a Dijkstra over its
// ports): that gives an upper bound of each landmark's cost to the goal,
// which the bound's second side needs, and lets a port of the goal cluster
// entered from outside go straight on to the goal at its cost instead of
// being searched one by one. Each tile edge keeps the polygons of its way (when they fit
// 16 bits: 97 % of them on the generated level) and each cluster edge the
// tile edges and border steps of its own, so the corridor is stitched
// from them without searching the polygons again; a way that was not kept
// is found again by a search inside its tile. When the pieces do not meet,
// the route is refined instead: A* over the polygons of the tiles it
// crosses, one node per portal, which finds the cheapest corridor those
// tiles hold.
//
// Options.RegionSize adds a level above the clusters (squares of clusters
// whose border nodes are joined by the cheapest ways over the cluster
// level inside them): long searches then close a quarter fewer nodes, but
// each costs more (long searches took 66 against 76 µs in one run and 104
// against 76 in the next), the hierarchy takes a tenth more memory (over a
// quarter of the tile arrays on the generated level) and a tile change
// costs twice as much, so it is off by default.
//
// # What it is like
//
// Reachability is that of A* with an unlimited node pool: the goal is
// reached whenever it is reachable (the hierarchy keeps exactly which
// ports reach which). When it is not (another connected component for the
// filter's flag rule, see query.Components), the corridor leads to the
// polygon of the start's component nearest the goal
// (query.Query.FindNearestPolyInComponent), with query.StatusPartial, where
// FindPath's leads to the polygon whose node came nearest; such searches
// cost no more than a path of that length, where A* visits every polygon
// it can reach. Corridors cost (CorridorCost) within 1 % of FindPath's on
// average and within 5 % on 99 % of pairs, and their straight paths are as
// long likewise, on the generated level of benchmarks/bigworld and on the
// RecastDemo levels tiled (TestPathsMatchAStar, 1000 pairs each).
//
// A hierarchy belongs to one cost model: a Searcher plans with the first
// of its hierarchies whose model matches the filter (Hierarchy.Matches) and
// falls back to its query.Query's FindPath for other filters, for a start
// polygon the filter fails and for components with one-way off-mesh
// connections; Result.Fallback says so.
//
// A Hierarchy follows its mesh: each snapshot of the mesh gets a version
// of its own, built on first use (or by Update) from the previous one,
// recomputing only the graphs of the tile versions that changed (tiles
// added, removed or swapped by a tile cache, flags and areas edited), of
// the clusters holding them and the steps between them and their
// neighbours; landmarks follow on a goroutine of the hierarchy (or
// UpdateLandmarks), searches using the straight-line bound meanwhile. A
// search sees one version from start to end. A Hierarchy is safe for any
// number of goroutines; each goroutine uses a Searcher of its own. Searches
// allocate nothing once their working memory has grown to the largest
// search seen. InitSlicedFindPath, UpdateSlicedFindPath and
// FinalizeSlicedFindPath run a search in steps (crowd.PathQueueConfig's
// Hierarchy does so for the crowd).
//
// # What it costs
//
// Measured on the 1 km level of benchmarks/bigworld (2809 tiles of 19.2 m,
// 39,381 polygons, 2000 boxes; benchmarks/hierarchy_bench_test.go and this
// package's bench_test.go; one run on 2 December 2026, 04:15 UTC, on the
// 2-vCPU development machine, the least of 3 runs of each benchmark; raw
// output in benchmarks/results-2026-12-02-session21.txt):
//
//   - Build: 47 ms on 2 workers, landmarks and the connected components
//     included.
//   - Memory: about 2.5 MB, 30.5 % of what Detour holds for the same
//     tiles (TestMemoryUnderAThirdOfTheTileData).
//   - A tile change (a tile swapped for a new version of itself): 0.29 ms
//     to update, 4 tile graphs and 2 cluster graphs rebuilt (a flag edit
//     0.18 ms); the landmarks then follow on the hierarchy's goroutine.
//   - Searches (BenchmarkFindPath, CPU per search): for pairs more than
//     500 m apart 76 µs against 939 µs for FindPath with a node pool that
//     finishes them, 12 times less (270 nodes closed, joins of stitched
//     corridors included, instead of about 4100); 100 to 500 m apart 6.8
//     times less (49 against 335 µs); random pairs as they come (most out
//     of reach of each other, roofs being islands) 23 times less (58
//     against 1320 µs); under 100 m about the same (15 against 12 µs in
//     that run, 9 against 12 in one a quarter of an hour earlier: this
//     machine's figures move by a fifth from minute to minute). Corridors
//     cost what A*'s do (0.2 % less on average: a node per portal).
//   - The crowd (benchmarks' BenchmarkCrowdHierarchy, 1000 agents sent
//     over 300 m): with a budget of 2000 iterations a tick every agent has
//     its path after 67 ticks on average, against 54 % of them after 600
//     ticks with A*, for a third of the path-queue time a tick (0.46
//     against 1.37 ms); with the reference's budget of 100, 25 % against
//     2 % after 600 ticks.
//
// # Use
//
//	h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
//	// per goroutine:
//	q, err := query.New(mesh, 2048)
//	searcher, err := hierarchy.NewSearcher(q, h)
//	result, err := searcher.FindPath(startRef, endRef, startPos, endPos, filter, path)
//	n, _, err := q.FindStraightPath(startPos, endPos, path[:result.Count], corners, 0)
//
// The crowd: set plugin.Config.HierarchicalPaths (a hierarchy for the first
// filter; components.Settings.HierarchicalPaths switches it between ticks;
// off with Reference), or give crowd.PathQueueConfig a Hierarchy.
package hierarchy
