package crowd_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
)

// ExampleProximityGrid fills a grid with three agents' bounds, indexes it
// once, and asks for the agents within a query range of the first: itself
// and its neighbour (in the grid's cell order), not the far one.
func ExampleProximityGrid() {
	const radius = 0.6
	grid, err := crowd.NewProximityGrid(4*3, 3*radius) // 4 cells per agent, cells 3 radii wide
	if err != nil {
		panic(err)
	}
	agents := [][2]float32{{0, 0}, {1, 0.5}, {20, 20}} // x, z
	for id, p := range agents {
		if err := grid.Add(uint32(id), p[0]-radius, p[1]-radius, p[0]+radius, p[1]+radius); err != nil {
			panic(err)
		}
	}
	grid.Index() // the adds are done: sort them for the queries

	ids := make([]uint32, 8)
	const queryRange = 12 * radius
	n := grid.QueryItems(-queryRange, -queryRange, queryRange, queryRange, ids)
	fmt.Println(ids[:n])
	// Output: [0 1]
}
