package query_test

import (
	"fmt"
	"os"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// A path request: the polygons under the two points, the corridor between
// them, and the corners to walk through.
func Example() {
	blob, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		panic(err)
	}
	data, err := navmesh.ReadDNAV(blob)
	if err != nil {
		panic(err)
	}
	h := data.Header
	mesh, err := navmesh.New(navmesh.Params{Origin: h.BMin, TileWidth: h.BMax[0] - h.BMin[0],
		TileHeight: h.BMax[2] - h.BMin[2], MaxTiles: 1, MaxPolys: int(h.PolyCount)})
	if err != nil {
		panic(err)
	}
	if _, err := mesh.AddTile(data, 0); err != nil {
		panic(err)
	}

	q, err := query.New(mesh, 2048) // one Query per goroutine
	if err != nil {
		panic(err)
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
		panic(err)
	}
	corners := make([]query.StraightPathPoint, 32)
	m, _, err := q.FindStraightPath(startPos, endPos, path[:n], corners, 0)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d polygons (%s), %d corners\n", n, status, m)
	for _, c := range corners[:m] {
		fmt.Printf("%.2f %.2f %.2f\n", c.Pos[0], c.Pos[1], c.Pos[2])
	}
	// Output:
	// 22 polygons (complete), 8 corners
	// -9.17 10.20 -20.34
	// -4.62 10.20 -24.04
	// 3.48 10.20 -34.24
	// 16.08 10.20 -45.34
	// 17.28 10.20 -48.04
	// 22.08 15.00 -70.54
	// 22.38 15.00 -71.74
	// 23.73 15.10 -73.57
}
