package bakedraw_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/bakedraw"
	"github.com/archenav/archenav/navcore/debugdraw"
)

// Keep a bake's stages and draw its regions and contours over the level.
func Example() {
	level, err := bake.LoadOBJ("../../testdata/nav_test.obj")
	if err != nil {
		log.Fatal(err)
	}
	settings := bake.DefaultSettings()
	result, err := bake.Solo(context.Background(), level, settings, bake.WithIntermediates())
	if err != nil {
		log.Fatal(err)
	}
	var scene debugdraw.Recorder // or any Drawer: raster, svg, your renderer
	bakedraw.Geometry(&scene, level, settings.AgentMaxSlope)
	bakedraw.CompactHeightfield(&scene, result.CompactHeightfield, bakedraw.CompactRegions)
	bakedraw.Contours(&scene, result.Contours, bakedraw.SimplifiedContours)
	bakedraw.PolyMesh(&scene, result.PolyMesh)
	fmt.Printf("%d input triangles, %d compact spans, %d contours, %d polygons: %d triangles, %d lines, %d points drawn\n",
		len(level.Triangles), len(result.CompactHeightfield.Spans), len(result.Contours.Contours), result.PolyMesh.PolyCount,
		scene.Count(debugdraw.KindTriangle), scene.Count(debugdraw.KindLine), scene.Count(debugdraw.KindPoint))
	// Output: 1612 input triangles, 56795 compact spans, 47 contours, 155 polygons: 115547 triangles, 941 lines, 788 points drawn
}
