package plugin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// ExamplePlugin_SpawnDoor puts a closed door across the corridor between
// two rooms: the agent sent through goes as near as it can; the door opens
// and it walks on.
func ExamplePlugin_SpawnDoor() {
	// Two 12 m rooms joined by a 6 m corridor 3 m wide, baked as a tile
	// cache (a door changes the navmesh).
	quad := func(x0, z0, x1, z1 float32) []geom.Vec3 {
		return []geom.Vec3{{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}}
	}
	g := &bake.Geometry{}
	for _, q := range [][]geom.Vec3{quad(0, 0, 12, 12), quad(12, 5, 18, 8), quad(18, 0, 30, 12)} {
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices, q...)
		g.Triangles = append(g.Triangles, [3]int32{base, base + 2, base + 1}, [3]int32{base, base + 3, base + 2})
	}
	result, err := bake.TileCache(context.Background(), g, bake.DefaultSettings(), bake.TileCacheOptions{TileSize: 48})
	if err != nil {
		log.Fatal(err)
	}
	cache, _, err := result.Cache(tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	for done := false; !done; { // build every tile before spawning
		if done, err = cache.Update(tilecache.Budget{}); err != nil {
			log.Fatal(err)
		}
	}
	crowd, err := plugin.New(plugin.Config{TileCache: cache, MaxAgents: 4})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}

	// The door spans the corridor from jamb to jamb, 0.3 m thick each side.
	pose, door := components.DoorBetween(geom.Vec3{15, 0, 5}, geom.Vec3{15, 0, 8}, 0.3, 2, false)
	doorEntity, err := crowd.SpawnObstacle(&world, pose, door)
	if err != nil {
		log.Fatal(err)
	}
	agent, err := crowd.Spawn(&world, geom.Vec3{3, 0, 6}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	run := func(ticks int) {
		for range ticks {
			if err := crowd.Step(&world, 1.0/60); err != nil {
				log.Fatal(err)
			}
			for _, ev := range crowd.Events(&world) {
				fmt.Println(ev.Kind)
			}
		}
		info, _ := crowd.State(&world, agent)
		fmt.Printf("past the door: %v\n", info.Position[0] > 15)
	}
	run(2) // the door carves
	if err := crowd.RequestMoveTarget(&world, agent, geom.Vec3{27, 0, 6}); err != nil {
		log.Fatal(err)
	}
	run(600)
	if err := crowd.SetDoorOpen(&world, doorEntity, true); err != nil {
		log.Fatal(err)
	}
	run(600)
	// Output:
	// obstacle landed
	// past the door: false
	// partial path
	// past the door: false
	// obstacle landed
	// target reached
	// past the door: true
}
