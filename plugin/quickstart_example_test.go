package plugin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// The README's quick start (examples/quickstart, whose test keeps the README
// the same as its main.go): bake a level, add a crowd to an arche world,
// send an agent across it and wait for it to arrive.
func Example_quickStart() {
	level, err := bake.LoadOBJ("../testdata/dungeon.obj")
	if err != nil {
		log.Fatal(err)
	}
	baked, err := bake.Solo(context.Background(), level, bake.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := baked.NavMesh() // or navmesh.LoadFile("level.navmesh")
	if err != nil {
		log.Fatal(err)
	}

	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 500, Workers: 2})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil { // resources + listener
		log.Fatal(err)
	}
	defer crowd.Schedule().Finalize(&world) // stops the worker goroutines

	start, goal := geom.Vec3{-9.17, 10.2, -20.34}, geom.Vec3{11.22, 10.2, -0.93}
	agent, err := crowd.Spawn(&world, start, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(&world, agent, goal); err != nil {
		log.Fatal(err)
	}

	for tick := 1; tick <= 600; tick++ { // 10 s at 60 ticks a second
		if err := crowd.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
		for _, ev := range crowd.Events(&world) { // this tick's events
			if ev.Kind == components.EventTargetReached && ev.Entity == agent {
				fmt.Printf("arrived after %.1f s\n", float32(tick)/60)
			}
		}
	}
	// Output:
	// arrived after 8.6 s
}
