package plugin_test

import (
	"fmt"
	"log"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// ExamplePlugin_Status asks an agent what Unity's NavMeshAgent answers
// (remainingDistance, pathPending, hasPath, pathStatus, isStopped), pauses
// it half way with Stop, and lets it walk on with Resume: its path is kept.
func ExamplePlugin_Status() {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 4})
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
	report := func(when string) {
		s, err := crowd.Status(&world, guard)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: pending %v, has path %v (%v), %.0f m to go, stopped %v, arrived %v\n",
			when, s.PathPending, s.HasPath, s.PathStatus, s.RemainingDistance, s.Stopped, s.Arrived)
	}
	step := func(seconds float32) {
		for range int(seconds * 60) {
			if err := crowd.Step(&world, 1.0/60); err != nil {
				log.Fatal(err)
			}
		}
	}
	report("asked")
	step(5)
	report("after 5 s")
	if err := crowd.Stop(&world, guard); err != nil {
		log.Fatal(err)
	}
	step(5)
	report("stopped 5 s")
	if err := crowd.Resume(&world, guard); err != nil {
		log.Fatal(err)
	}
	step(20)
	report("resumed 20 s")
	// Output:
	// asked: pending true, has path false (invalid), +Inf m to go, stopped false, arrived false
	// after 5 s: pending false, has path true (complete), 41 m to go, stopped false, arrived false
	// stopped 5 s: pending false, has path true (complete), 40 m to go, stopped true, arrived false
	// resumed 20 s: pending false, has path true (complete), 0 m to go, stopped false, arrived true
}
