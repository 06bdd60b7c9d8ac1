package plugin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/plugin"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
)

// A ladder up to a platform that agents climb under the game's control:
// the agent stops at the ladder's foot (EventLinkReached), the game moves
// it up as it likes and lets it off at the top with CompleteLink, and the
// agent walks on to its target.
func ExamplePlugin_SpawnLink() {
	// A floor and, 4 m higher, a platform with nothing between them.
	level := &bake.Geometry{}
	for _, f := range [][3]float32{{0, 10, 0}, {14, 24, 4}} {
		base := int32(len(level.Vertices))
		level.Vertices = append(level.Vertices, mgl32.Vec3{f[0], f[2], 0}, mgl32.Vec3{f[0], f[2], 10}, mgl32.Vec3{f[1], f[2], 10}, mgl32.Vec3{f[1], f[2], 0})
		level.Triangles = append(level.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	baked, err := bake.Solo(context.Background(), level, bake.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := baked.NavMesh()
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, ArrivalDistance: 0.5})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}

	_, err = crowd.SpawnLink(&world, components.Link{
		Start: geom.Vec3{9, 0, 5}, End: geom.Vec3{15, 4, 5}, Radius: 0.5, Bidirectional: true,
		Traversal: components.LinkManual, Capacity: 1,
	})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := crowd.Spawn(&world, geom.Vec3{2, 0, 5}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(&world, agent, geom.Vec3{22, 4, 5}); err != nil {
		log.Fatal(err)
	}

	var climb float32 // how far up the ladder the agent is, 0..1
	for range 1200 {
		if err := crowd.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
		for _, ev := range crowd.Events(&world) {
			switch ev.Kind {
			case components.EventLinkReached, components.EventLinkCompleted, components.EventTargetReached:
				fmt.Println(ev.Kind)
			}
		}
		if ride, ok, _ := crowd.AgentLink(&world, agent); ok && ride.Phase == components.LinkHeld {
			climb += 1.0 / 120 // two seconds up
			if climb >= 1 {
				_ = crowd.CompleteLink(&world, agent)
			} else {
				_ = crowd.MoveOnLink(&world, agent, geom.Lerp(ride.Start, ride.End, climb))
			}
		}
		if info, _ := crowd.State(&world, agent); info.Arrived {
			break
		}
	}
	// Output:
	// link reached
	// link completed
	// target reached
}
