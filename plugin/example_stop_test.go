package plugin_test

import (
	"fmt"
	"log"
	"slices"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// ExamplePlugin_Stop pauses a walking agent (Unity's isStopped = true): it
// brakes to a standstill and keeps its path and target while it stands;
// Resume lets it walk on along the same corridor to its target.
func ExamplePlugin_Stop() {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 1})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	guard, err := crowd.Spawn(&world, geom.Vec3{40.75, 10.2, 0.29}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(&world, guard, geom.Vec3{-9.17, 10.2, -20.34}); err != nil {
		log.Fatal(err)
	}
	step := func(seconds float32) {
		for range int(seconds * 60) {
			if err := crowd.Step(&world, 1.0/60); err != nil {
				log.Fatal(err)
			}
			for _, ev := range crowd.Events(&world) {
				fmt.Println(ev.Kind)
			}
		}
	}
	step(3)
	if err := crowd.Stop(&world, guard); err != nil {
		log.Fatal(err)
	}
	step(1) // braking
	before, err := crowd.Corridor(&world, guard, nil)
	if err != nil {
		log.Fatal(err)
	}
	step(10)
	after, err := crowd.Corridor(&world, guard, nil)
	if err != nil {
		log.Fatal(err)
	}
	s, err := crowd.Status(&world, guard)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("stopped %v, speed %.1f m/s, same corridor %v\n", s.Stopped, geom.Len(s.Velocity), slices.Equal(before, after))
	if err := crowd.Resume(&world, guard); err != nil {
		log.Fatal(err)
	}
	step(25)
	// Output:
	// stopped true, speed 0.0 m/s, same corridor true
	// target reached
}
