package navdraw_test

import (
	"fmt"
	"log"
	"os"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Draw a navmesh, a path search and its path into a PNG seen from an angle.
func Example() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	q, err := query.New(mesh, 2048)
	if err != nil {
		log.Fatal(err)
	}
	filter, extents := query.NewFilter(), [3]float32{2, 4, 2}
	start, err := q.FindNearestPoly([3]float32{-9.17, 10.2, -20.3}, extents, filter)
	if err != nil {
		log.Fatal(err)
	}
	end, err := q.FindNearestPoly([3]float32{23.7, 15.1, -73.6}, extents, filter)
	if err != nil {
		log.Fatal(err)
	}
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	if err != nil {
		log.Fatal(err)
	}
	corners := make([]query.StraightPathPoint, 32)
	nc, _, err := q.FindStraightPath(start.Point, end.Point, path[:n], corners, 0)
	if err != nil {
		log.Fatal(err)
	}

	// Draw into a Recorder first to frame the picture, then into the image.
	var scene debugdraw.Recorder
	snap := mesh.Snapshot()
	style := navdraw.DefaultStyle()
	navdraw.Mesh(&scene, snap, navdraw.DefaultLayers, style)
	navdraw.Search(&scene, snap, q.SearchNodes(nil), style)
	navdraw.StraightPath(&scene, corners[:nc], style)

	view := scene.FitView(debugdraw.IsoYaw, debugdraw.IsoPitch, 640, 480, 8)
	canvas, err := raster.New(view, raster.Options{Samples: 2})
	if err != nil {
		log.Fatal(err)
	}
	scene.Replay(canvas)
	out, err := os.CreateTemp("", "navmesh-*.png")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(out.Name())
	defer out.Close()
	if err := canvas.EncodePNG(out); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d corners; %d triangles, %d lines, %d points drawn\n",
		nc, scene.Count(debugdraw.KindTriangle), scene.Count(debugdraw.KindLine), scene.Count(debugdraw.KindPoint))
	// Output: 8 corners; 414 triangles, 430 lines, 65 points drawn
}

// Layers read from a flag, as navtool draw's -layers does.
func ExampleParseLayers() {
	layers, err := navdraw.ParseLayers("mesh,bvtree")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(layers)
	// Output: polygons,edges,walls,borders,offmesh,bvtree
}
