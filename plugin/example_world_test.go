package plugin_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// ExamplePlugin_SpawnObstacle drops a crate in an agent's way on the tile
// cache of the dungeon level: it carves the navmesh once it has stood
// still for half a second, and the agent walks around it.
func ExamplePlugin_SpawnObstacle() {
	file, err := os.ReadFile("../navcore/tilecache/testdata/tc48_dungeon.tset")
	if err != nil {
		log.Fatal(err)
	}
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	if err != nil {
		log.Fatal(err)
	}
	// The crowd runs the cache's Update every tick (8 tiles a tick by
	// default); build every tile first.
	for done := false; !done; {
		if done, err = cache.Update(tilecache.Budget{}); err != nil {
			log.Fatal(err)
		}
	}
	crowd, err := plugin.New(plugin.Config{TileCache: cache, MaxAgents: 10})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	agent, err := crowd.Spawn(&world, geom.Vec3{0.8, 10.2, -18.8}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(&world, agent, geom.Vec3{-2.0, 10.2, -3.3}); err != nil {
		log.Fatal(err)
	}

	// A 1.6 m crate on the way: its footprint grows by the agent radius
	// (and a cell) when it carves.
	pose := components.ObstaclePose{Position: geom.Vec3{-0.6, 9.7, -11.0}}
	crate, err := crowd.SpawnObstacle(&world, pose, components.BoxObstacle(0.8, 0.8, 2).Carving())
	if err != nil {
		log.Fatal(err)
	}
	nearest := float32(100)
	for tick := 0; tick < 600; tick++ {
		if err := crowd.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
		for _, ev := range crowd.Events(&world) {
			fmt.Printf("tick %d: %v\n", tick, ev.Kind)
		}
		info, _ := crowd.State(&world, agent)
		o, _ := crowd.Obstacle(&world, crate)
		f := o.Obstacle.Footprint(o.Pose)
		d, _, _ := f.Distance(info.Position[0], info.Position[2])
		nearest = min(nearest, d)
	}
	fmt.Printf("it kept %.1f m from the crate\n", nearest)

	// Removing the entity (or world.RemoveEntity) takes the hole away.
	if err := crowd.RemoveObstacle(&world, crate); err != nil {
		log.Fatal(err)
	}
	_ = crowd.Step(&world, 1.0/60)
	fmt.Println("obstacles left in the cache:", cache.ObstacleCount())
	// Output:
	// tick 30: obstacle landed
	// tick 338: target reached
	// it kept 1.3 m from the crate
	// obstacles left in the cache: 0
}

// Example_doors closes a door with RecastDemo's "disabled" flag: the
// crowd's default filters exclude navmesh.FlagDisabled, so nobody walks
// through (the agent goes as near as it can); opened again, the agent
// crosses at once, its corridor replanned because the door's tile
// changed. With a tile cache a door is an obstacle instead: MarkingArea(
// navmesh.AreaDoor) while open, Carving() while closed (SetObstacle).
func Example_doors() {
	// A 30 m hall with a door strip across it at x 20..21: bake marks its
	// polygons navmesh.AreaDoor, with flags FlagWalk|FlagDoor.
	g := &bake.Geometry{
		Vertices:   []geom.Vec3{{0, 0, 0}, {30, 0, 0}, {30, 0, 8}, {0, 0, 8}},
		Triangles:  [][3]int32{{0, 2, 1}, {0, 3, 2}},
		BoxVolumes: []bake.BoxVolume{{Min: geom.Vec3{20, -1, -1}, Max: geom.Vec3{21, 1, 9}, Area: navmesh.AreaDoor}},
	}
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	if err != nil {
		log.Fatal(err)
	}
	tile, err := mesh.AddTile(result.TileData, 0)
	if err != nil {
		log.Fatal(err)
	}
	setDoor := func(closed bool) {
		t := mesh.TileByRef(tile)
		for i := range t.Polys {
			if t.Polys[i].Area() != navmesh.AreaDoor {
				continue
			}
			flags := navmesh.FlagWalk | navmesh.FlagDoor
			if closed {
				flags |= navmesh.FlagDisabled
			}
			if err := mesh.SetPolyFlags(t.PolyRefBase()|navmesh.Ref(i), flags); err != nil {
				log.Fatal(err)
			}
		}
	}

	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 4})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	agent, err := crowd.Spawn(&world, geom.Vec3{3, 0, 4}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	setDoor(true)
	if err := crowd.RequestMoveTarget(&world, agent, geom.Vec3{27, 0, 4}); err != nil {
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
		fmt.Printf("beyond the door: %v\n", info.Position[0] > 21)
	}
	run(600)
	setDoor(false)
	run(600)
	// Output:
	// partial path
	// beyond the door: false
	// target reached
	// beyond the door: true
}

// Example_agentControls gives two agents the per-agent controls of Unity's
// NavMeshAgent and Godot's NavigationAgent3D: a stopping distance (the
// guard stops 3 m short of the door it watches) and an avoidance priority
// (the courier does not give way to the guard; the guard steps aside).
func Example_agentControls() {
	g := &bake.Geometry{
		Vertices:  []geom.Vec3{{0, 0, 0}, {20, 0, 0}, {20, 0, 20}, {0, 0, 20}},
		Triangles: [][3]int32{{0, 2, 1}, {0, 3, 2}},
	}
	result, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	if err != nil {
		log.Fatal(err)
	}
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := mesh.AddTile(result.TileData, 0); err != nil {
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

	guardParams := components.DefaultAgentParams()
	guardParams.StoppingDistance = 3 // stand 3 m from the target
	courierParams := components.DefaultAgentParams()
	courierParams.AvoidancePriority = 10 // others give way
	guard, _ := crowd.Spawn(&world, geom.Vec3{2, 0, 10}, guardParams)
	courier, _ := crowd.Spawn(&world, geom.Vec3{18, 0, 10.05}, courierParams)
	door := geom.Vec3{17, 0, 10}
	_ = crowd.RequestMoveTarget(&world, guard, door)
	_ = crowd.RequestMoveTarget(&world, courier, geom.Vec3{2, 0, 10.05})

	var guardStray, courierStray float32
	for range 600 {
		_ = crowd.Step(&world, 1.0/60)
		g, _ := crowd.State(&world, guard)
		c, _ := crowd.State(&world, courier)
		guardStray = max(guardStray, geom.Abs(g.Position[2]-10))
		courierStray = max(courierStray, geom.Abs(c.Position[2]-10.05))
	}
	g2, _ := crowd.State(&world, guard)
	fmt.Printf("the guard arrived %v, %.1f m from the door\n", g2.Arrived, geom.Dist2D(g2.Position, door))
	fmt.Printf("the guard stepped %.1f m aside, the courier %.1f m\n", guardStray, courierStray)
	// Output:
	// the guard arrived true, 3.0 m from the door
	// the guard stepped 1.4 m aside, the courier 0.0 m
}
