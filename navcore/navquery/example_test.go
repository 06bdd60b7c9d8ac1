package navquery_test

import (
	"fmt"
	"log"
	"sync"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/navquery"
)

// dungeon loads RecastDemo's dungeon level, baked as one tile.
func dungeon() *navquery.Navigator {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	n, err := navquery.New(mesh, navquery.Config{})
	if err != nil {
		log.Fatal(err)
	}
	return n
}

// A clicked point 1.5 m above the floor snaps to the floor below it.
func ExampleNavigator_SamplePosition() {
	n := dungeon()
	clicked := geom.Vec3{40.75, 11.7, 0.29}
	sample, found, err := n.SamplePosition(clicked, 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("found %v, %.2f m away, at height %.2f\n", found, sample.Distance, sample.Point[1])
	_, found, _ = n.SamplePosition(clicked, 1, nil)
	fmt.Println("within 1 m:", found)
	// Output:
	// found true, 1.50 m away, at height 10.20
	// within 1 m: false
}

// A point on the floor is on the navmesh; one in a wall, or high above
// the floor, is not.
func ExampleNavigator_IsOnMesh() {
	n := dungeon()
	floor := geom.Vec3{40.75225, 10.197294, 0.29230645}
	fmt.Println(n.IsOnMesh(floor, 0.1))
	fmt.Println(n.IsOnMesh(geom.Add(floor, geom.Vec3{0, 3, 0}), 0.1))
	fmt.Println(n.IsOnMesh(geom.Add(floor, geom.Vec3{9, 0, 0}), 0.1))
	// Output:
	// true
	// false
	// false
}

func ExampleNavigator_CalculatePath() {
	n := dungeon()
	path, err := n.CalculatePath(geom.Vec3{40.75, 10.2, 0.29}, geom.Vec3{-9.17, 10.2, -20.34}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%v: %d corners through %d polygons, %.1f m, cost %.1f\n",
		path.Status, len(path.Points), len(path.Polygons), path.Length, path.Cost)
	// Output:
	// complete: 6 corners through 17 polygons, 57.7 m, cost 57.7
}

// Which of three exits is nearest by path, with one search.
func ExampleNavigator_NearestGoal() {
	n := dungeon()
	exits := []geom.Vec3{{-9.17, 10.2, -20.34}, {11.2, 10.2, -0.93}, {42.17, 10.2, 1.09}}
	nearest, err := n.NearestGoal(geom.Vec3{20, 10.2, 5}, exits, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("exit %d, %.1f m away by path\n", nearest.Index, nearest.Path.Length)
	// Output:
	// exit 1, 10.2 m away by path
}

// The length and cost of a corridor, such as an agent's.
func ExampleNavigator_PathLength() {
	n := dungeon()
	start, end := geom.Vec3{40.75, 10.2, 0.29}, geom.Vec3{-9.17, 10.2, -20.34}
	path, err := n.CalculatePath(start, end, nil)
	if err != nil {
		log.Fatal(err)
	}
	length, err := n.PathLength(path.Polygons, path.Points[0], end)
	if err != nil {
		log.Fatal(err)
	}
	cost, err := n.PathCost(path.Polygons, path.Points[0], end, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.1f m, cost %.1f\n", length, cost)
	// Output:
	// 57.7 m, cost 57.7
}

// One Navigator answers many goroutines at once: here four workers each
// plan a path to the same room from their own spot. It needs no locking and
// no buffers of the caller's.
func ExampleNew() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	n, err := navquery.New(mesh, navquery.Config{})
	if err != nil {
		log.Fatal(err)
	}
	starts := []geom.Vec3{{40.75, 10.2, 0.29}, {11.2, 10.2, -0.93}, {42.17, 10.2, 1.09}, {20, 10.2, 5}}
	lengths := make([]float32, len(starts))
	var wg sync.WaitGroup
	for i, start := range starts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path, err := n.CalculatePath(start, geom.Vec3{-9.17, 10.2, -20.34}, navquery.DefaultFilter())
			if err != nil {
				log.Fatal(err)
			}
			lengths[i] = path.Length
		}()
	}
	wg.Wait()
	fmt.Printf("%.1f m\n", lengths)
	// Output:
	// [57.7 28.3 59.2 38.5] m
}

// A path's cost weighs each piece by its area's cost: with every area
// costing 2 the same corridor costs twice its length.
func ExampleNavigator_PathCost() {
	n := dungeon()
	start, end := geom.Vec3{40.75, 10.2, 0.29}, geom.Vec3{-9.17, 10.2, -20.34}
	path, err := n.CalculatePath(start, end, nil)
	if err != nil {
		log.Fatal(err)
	}
	double := navquery.DefaultFilter()
	for i := range double.AreaCost {
		double.AreaCost[i] = 2
	}
	cost, err := n.PathCost(path.Polygons, path.Points[0], end, double)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.1f m, cost %.1f\n", path.Length, cost)
	// Output:
	// 57.7 m, cost 115.4
}
