package query_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// A path request on the dungeon tile: the polygons under the two points, the
// corridor between them, and the corners to walk through with the length of
// that straight path.
func Example() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	q, err := query.New(mesh, 2048) // one Query per goroutine
	if err != nil {
		fmt.Println(err)
		return
	}
	filter := query.NewFilter()
	extents := geom.Vec3{2, 4, 2}
	startPos := geom.Vec3{-9.17410278, 10.1972942, -20.340023}
	endPos := geom.Vec3{23.7297325, 15.0986919, -73.5664291}

	start, _ := q.FindNearestPoly(startPos, extents, filter)
	end, _ := q.FindNearestPoly(endPos, extents, filter)
	path := make([]navmesh.Ref, 256)
	n, status, err := q.FindPath(start.Ref, end.Ref, startPos, endPos, filter, path)
	if err != nil {
		fmt.Println(err)
		return
	}
	corners := make([]query.StraightPathPoint, 32)
	m, _, err := q.FindStraightPath(startPos, endPos, path[:n], corners, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	var length float32
	for i := 1; i < m; i++ {
		length += geom.Dist(corners[i-1].Pos, corners[i].Pos)
	}
	fmt.Printf("%d polygons (%s), %d corners, %.2f units long\n", n, status, m, length)
	for _, c := range corners[:m] {
		fmt.Printf("%.2f %.2f %.2f\n", c.Pos[0], c.Pos[1], c.Pos[2])
	}
	// Output:
	// 22 polygons (complete), 8 corners, 65.65 units long
	// -9.17 10.20 -20.34
	// -4.62 10.20 -24.04
	// 3.48 10.20 -34.24
	// 16.08 10.20 -45.34
	// 17.28 10.20 -48.04
	// 22.08 15.00 -70.54
	// 22.38 15.00 -71.74
	// 23.73 15.10 -73.57
}

// Random spawn points and targets on the largest connected part of the
// dungeon: unlike FindRandomPoint, the sampler never lands on an island
// such as the top of a wall, so every target is within reach.
func ExampleLargestComponentSampler() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		fmt.Println(err)
		return
	}
	filter := query.NewFilter()
	snap := mesh.Snapshot()
	sampler, err := query.LargestComponentSampler(snap, filter)
	if err != nil {
		fmt.Println(err)
		return
	}
	components, err := query.Components(snap, filter)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d components; the largest has %d of %d polygons, %.0f m²\n",
		components.ComponentCount(), sampler.Polys(), components.PolyCount(), sampler.Area())

	rng := rand.New(rand.NewPCG(1, 2))
	q, err := query.New(mesh, 2048)
	if err != nil {
		fmt.Println(err)
		return
	}
	outOfReach, outOfReachAnywhere := 0, 0
	for range 100 {
		start, err := sampler.RandomPoint(rng.Float32)
		if err != nil {
			fmt.Println(err)
			return
		}
		target, err := sampler.RandomPoint(rng.Float32)
		if err != nil {
			fmt.Println(err)
			return
		}
		if q.OutOfReach(start.Ref, target.Ref, filter) {
			outOfReach++
		}
		// The same with points anywhere on the mesh.
		anyStart, _ := q.FindRandomPoint(filter, rng.Float32)
		anyTarget, _ := q.FindRandomPoint(filter, rng.Float32)
		if q.OutOfReach(anyStart.Ref, anyTarget.Ref, filter) {
			outOfReachAnywhere++
		}
	}
	fmt.Println("targets out of reach:", outOfReach, "of 100; with FindRandomPoint:", outOfReachAnywhere)
	// Output:
	// 4 components; the largest has 105 of 118 polygons, 1432 m²
	// targets out of reach: 0 of 100; with FindRandomPoint: 10
}
