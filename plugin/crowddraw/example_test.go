package crowddraw_test

import (
	"fmt"
	"log"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
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
