package crowddraw_test

import (
	"fmt"
	"log"
	"os"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/archenav/archenav/plugin/crowddraw"
)

// Draw the agents of a crowd world after a tick: bodies, velocities,
// targets and the corridors they follow.
func Example() {
	mesh, _, err := navmesh.LoadFile("../../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 8})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	agent, err := crowd.Spawn(&world, [3]float32{-9.17, 10.2, -20.3}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(&world, agent, [3]float32{23.7, 15.1, -73.6}); err != nil {
		log.Fatal(err)
	}
	if err := crowd.Step(&world, 1.0/30); err != nil {
		log.Fatal(err)
	}

	drawing, err := crowddraw.New(&world) // once per world
	if err != nil {
		log.Fatal(err)
	}
	var scene debugdraw.Recorder // or raster, svg, your renderer
	drawing.Draw(&scene, crowddraw.DefaultLayers|crowddraw.Corridors, navdraw.DefaultStyle())
	fmt.Printf("%d triangles, %d lines\n", scene.Count(debugdraw.KindTriangle), scene.Count(debugdraw.KindLine))
	// Output: 66 triangles, 77 lines
}

// Draw the obstacle entities of a crowd on a tile cache: a crate that has
// carved its hole and a cart the agents steer around.
func ExampleCrowd_DrawObstacles() {
	file, err := os.ReadFile("../../navcore/tilecache/testdata/tc48_dungeon.tset")
	if err != nil {
		log.Fatal(err)
	}
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{TileCache: cache, MaxAgents: 8})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	ground := [3]float32{47.24, 9.69, -3.66}
	crate := components.BoxObstacle(0.75, 0.75, 1.2).Carving()
	if _, err := crowd.SpawnObstacle(&world, components.ObstaclePose{Position: ground}, crate); err != nil {
		log.Fatal(err)
	}
	cart := components.CylinderObstacle(0.6, 1)
	if _, err := crowd.SpawnObstacle(&world, components.ObstaclePose{Position: [3]float32{ground[0] - 5, ground[1], ground[2]}}, cart); err != nil {
		log.Fatal(err)
	}
	for range 60 { // the crate stands still for half a second, then carves
		if err := crowd.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
	}

	drawing, err := crowddraw.New(&world)
	if err != nil {
		log.Fatal(err)
	}
	var scene debugdraw.Recorder
	drawing.DrawObstacles(&scene, navdraw.DefaultStyle())
	fmt.Printf("%d triangles, %d lines\n", scene.Count(debugdraw.KindTriangle), scene.Count(debugdraw.KindLine))
	// Output: 106 triangles, 80 lines
}
