// Command quickstart is the README's program: bake a level, add a crowd to
// an arche world, send one agent across it. Run it from the repository's
// root: go run ./examples/quickstart
package main

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

func main() {
	level, err := bake.LoadOBJ("testdata/dungeon.obj")
	check(err)
	baked, err := bake.Solo(context.Background(), level, bake.DefaultSettings())
	check(err)
	mesh, err := baked.NavMesh() // or navmesh.LoadFile("level.navmesh")
	check(err)

	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 500, Workers: 2})
	check(err)
	world := ecs.NewWorld()
	check(crowd.Install(&world))            // the crowd's resources and listener
	defer crowd.Schedule().Finalize(&world) // stops the worker goroutines

	agent, err := crowd.Spawn(&world, geom.Vec3{-9.17, 10.2, -20.34}, components.DefaultAgentParams())
	check(err)
	check(crowd.RequestMoveTarget(&world, agent, geom.Vec3{11.22, 10.2, -0.93}))

	for tick := 1; tick <= 600; tick++ { // 10 s at 60 ticks a second
		check(crowd.Step(&world, 1.0/60))
		for _, ev := range crowd.Events(&world) { // this tick's events
			if ev.Kind == components.EventTargetReached && ev.Entity == agent {
				fmt.Printf("arrived after %.1f s\n", float32(tick)/60)
			}
		}
	}
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
