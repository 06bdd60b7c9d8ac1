package query_test

import (
	"fmt"
	"log"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Which of three exits costs least to reach from a guard's post: one
// Dijkstra search, not one FindPath per exit.
func ExampleQuery_FindNearestGoal() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	q, err := query.New(mesh, 2048)
	if err != nil {
		log.Fatal(err)
	}
	filter := query.NewFilter()
	extents := geom.Vec3{2, 4, 2}
	snap := func(p geom.Vec3) query.Goal {
		nearest, err := q.FindNearestPoly(p, extents, filter)
		if err != nil || nearest.Ref == 0 {
			log.Fatalf("%v: not on the navmesh (%v)", p, err)
		}
		return query.Goal{Ref: nearest.Ref, Pos: nearest.Point}
	}
	post := snap(geom.Vec3{20, 10.2, 5})
	exits := []query.Goal{
		snap(geom.Vec3{-9.17, 10.2, -20.34}),
		snap(geom.Vec3{11.2, 10.2, -0.93}),
		snap(geom.Vec3{42.17, 10.2, 1.09}),
	}
	corridor := make([]navmesh.Ref, 256)
	nearest, err := q.FindNearestGoal(post.Ref, post.Pos, exits, filter, corridor)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("exit %d, cost %.1f, %d polygons\n", nearest.Index, nearest.Cost, nearest.PathCount)
	// Output:
	// exit 1, cost 13.5, 3 polygons
}
