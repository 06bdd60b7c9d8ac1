package plugin_test

import (
	"bytes"
	"fmt"
	"log"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

// Health is a component of the game's own, saved by the game beside the
// crowd's state.
type Health struct{ Points int }

// newGame loads the level and makes a world with a crowd on it, as a game
// does at start and before loading a saved game.
func newGame() (*plugin.Plugin, *ecs.World) {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 100})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	return crowd, &world
}

// positions returns where the agents stand.
func positions(crowd *plugin.Plugin, world *ecs.World, agents []ecs.Entity) []geom.Vec3 {
	var out []geom.Vec3
	for _, e := range agents {
		info, err := crowd.State(world, e)
		if err != nil {
			log.Fatal(err)
		}
		out = append(out, info.Position)
	}
	return out
}

// Save a game mid-run, load it into a world made afresh from the level,
// and continue: the loaded crowd walks on exactly as the saved one does.
// The game's own components (here Health) are the game's to save; the
// EntityMap of Load tells which entity each saved agent has now.
func ExamplePlugin_Save() {
	crowd, world := newGame()
	health := ecs.ComponentID[Health](world)
	starts := []geom.Vec3{{-9.17, 10.2, -20.34}, {-5, 10.2, -18}, {2, 10.2, -12}}
	goal := geom.Vec3{11.22, 10.2, -0.93}
	var agents []ecs.Entity
	for i, start := range starts {
		e, err := crowd.Spawn(world, start, components.DefaultAgentParams())
		if err != nil {
			log.Fatal(err)
		}
		world.Add(e, health)
		(*Health)(world.Get(e, health)).Points = 100 - 10*i
		if err := crowd.RequestMoveTarget(world, e, goal); err != nil {
			log.Fatal(err)
		}
		agents = append(agents, e)
	}
	step := func(crowd *plugin.Plugin, world *ecs.World, ticks int) {
		for range ticks {
			if err := crowd.Step(world, 1.0/60); err != nil {
				log.Fatal(err)
			}
		}
	}
	step(crowd, world, 90)

	// Save: the crowd's state, and the game's own components by entity.
	var file bytes.Buffer
	if err := crowd.Save(world, &file); err != nil {
		log.Fatal(err)
	}
	saved := map[ecs.Entity]Health{}
	for _, e := range agents {
		saved[e] = *(*Health)(world.Get(e, health))
	}
	step(crowd, world, 120)
	want := positions(crowd, world, agents)

	// Load into a new world, put the game's components back, continue.
	loaded, newWorld := newGame()
	entities, err := loaded.Load(newWorld, &file)
	if err != nil {
		log.Fatal(err)
	}
	newHealth := ecs.ComponentID[Health](newWorld)
	var newAgents []ecs.Entity
	for _, old := range agents {
		e, _ := entities.Entity(old)
		newWorld.Add(e, newHealth)
		*(*Health)(newWorld.Get(e, newHealth)) = saved[old]
		newAgents = append(newAgents, e)
	}
	step(loaded, newWorld, 120)
	got := positions(loaded, newWorld, newAgents)
	fmt.Println("same positions after 120 more ticks:", fmt.Sprint(got) == fmt.Sprint(want))
	fmt.Println("health of the second agent:", (*Health)(newWorld.Get(newAgents[1], newHealth)).Points)
	// Output:
	// same positions after 120 more ticks: true
	// health of the second agent: 90
}

// Rollback: take a snapshot every tick, and when a late input arrives for
// an earlier tick, restore that tick's snapshot, apply the input and
// simulate the ticks again.
func ExamplePlugin_Snapshot() {
	crowd, world := newGame()
	agent, err := crowd.Spawn(world, geom.Vec3{-9.17, 10.2, -20.34}, components.DefaultAgentParams())
	if err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(world, agent, geom.Vec3{11.22, 10.2, -0.93}); err != nil {
		log.Fatal(err)
	}
	var history [9]plugin.Snapshot // reused: no allocation once filled
	for tick := range 60 {
		if err := crowd.Snapshot(world, &history[tick%len(history)]); err != nil {
			log.Fatal(err)
		}
		if err := crowd.Step(world, 1.0/60); err != nil {
			log.Fatal(err)
		}
	}
	// An input for tick 52 arrives at tick 60: the agent should have
	// turned back then.
	if _, err := crowd.Restore(world, &history[52%len(history)]); err != nil {
		log.Fatal(err)
	}
	if err := crowd.RequestMoveTarget(world, agent, geom.Vec3{-9.17, 10.2, -20.34}); err != nil {
		log.Fatal(err)
	}
	for range 8 {
		if err := crowd.Step(world, 1.0/60); err != nil {
			log.Fatal(err)
		}
	}
	info, err := crowd.State(world, agent)
	if err != nil {
		log.Fatal(err)
	}
	t := info.TargetPosition
	fmt.Printf("tick after the replay: %d, target (%.1f, %.1f, %.1f)\n", history[52%len(history)].Tick()+8, t[0], t[1], t[2])
	// Output:
	// tick after the replay: 60, target (-9.2, 10.2, -20.3)
}
