package navdraw_test

import (
	"fmt"
	"log"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Draw a tile cache's obstacles by status, and the build stages of the
// layers one of them carves.
func ExampleTileCacheObstacles() {
	file, err := os.ReadFile("../tilecache/testdata/tc48_dungeon.tset")
	if err != nil {
		log.Fatal(err)
	}
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := cache.Update(tilecache.Budget{}); err != nil {
		log.Fatal(err)
	}
	crate := tilecache.Box(mgl32.Vec3{46, 9.5, -5}, mgl32.Vec3{48, 11, -3})
	if _, err := cache.AddObstacle(crate); err != nil {
		log.Fatal(err)
	}
	style := navdraw.DefaultStyle()
	var scene debugdraw.Recorder
	obstacles := cache.Obstacles(nil)
	navdraw.TileCacheObstacles(&scene, obstacles, style)
	fmt.Printf("%s: %d triangles, %d lines\n", obstacles[0].Status, scene.Count(debugdraw.KindTriangle), scene.Count(debugdraw.KindLine))

	if _, err := cache.Update(tilecache.Budget{}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(cache.Obstacles(obstacles[:0])[0].Status)
	params := cache.Params()
	for _, layer := range cache.Layers(nil) {
		stages, err := cache.LayerStages(layer.Ref)
		if err != nil {
			log.Fatal(err)
		}
		navdraw.TileCacheLayerRegions(&scene, stages, params.CellSize, params.CellHeight)
		navdraw.TileCacheContours(&scene, stages, params.CellSize, params.CellHeight, style)
		navdraw.TileCachePolyMesh(&scene, stages, params.CellSize, params.CellHeight, style)
	}
	fmt.Println(scene.Len() > 10000)
	// Output:
	// pending: 10 triangles, 12 lines
	// up to date
	// true
}
