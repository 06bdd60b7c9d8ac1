package hierarchy_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Build a hierarchy for a filter, plan a path with it, and keep it up to
// date when a tile is rebuilt.
func Example() {
	level, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	settings := bake.DefaultSettings()
	settings.TileSize = 32
	baked, err := bake.Tiled(context.Background(), level, settings, bake.TiledOptions{})
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := baked.NavMesh()
	if err != nil {
		log.Fatal(err)
	}

	// One hierarchy per cost model; any number of goroutines may share it.
	filter := query.NewFilter()
	h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
	if err != nil {
		log.Fatal(err)
	}

	// A Searcher per goroutine, falling back on its Query for other filters.
	q, err := query.New(mesh, 2048)
	if err != nil {
		log.Fatal(err)
	}
	searcher, err := hierarchy.NewSearcher(q, h)
	if err != nil {
		log.Fatal(err)
	}
	extents := geom.Vec3{2, 4, 2}
	start, _ := q.FindNearestPoly(geom.Vec3{-9.174, 10.197, -20.340}, extents, filter)
	goal, _ := q.FindNearestPoly(geom.Vec3{23.730, 15.099, -73.566}, extents, filter)
	path := make([]navmesh.Ref, 512)
	result, err := searcher.FindPath(start.Ref, goal.Ref, start.Point, goal.Point, filter, path)
	if err != nil {
		log.Fatal(err)
	}
	corners := make([]query.StraightPathPoint, 64)
	n, _, _ := q.FindStraightPath(start.Point, goal.Point, path[:result.Count], corners, 0)
	fmt.Printf("corridor of %d polygons, partial %v, fallback %v, %d corners\n",
		result.Count, result.Status.Partial(), result.Fallback, n)

	// Rebuild a tile; the hierarchy recomputes that tile's part only.
	tile, err := baked.Baker.BuildTile(context.Background(), 3, 4)
	if err != nil {
		log.Fatal(err)
	}
	if ref := mesh.Snapshot().TileRefAt(3, 4, 0); ref != 0 {
		if _, err := mesh.RemoveTile(ref); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := mesh.AddTile(tile.Data, 0); err != nil {
		log.Fatal(err)
	}
	stats := h.Update()
	fmt.Printf("update: %d tile graphs and %d cluster graphs rebuilt\n", stats.TilesBuilt, stats.ClustersBuilt)
	// Output:
	// corridor of 27 polygons, partial false, fallback none, 8 corners
	// update: 3 tile graphs and 2 cluster graphs rebuilt
}
