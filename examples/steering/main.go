// Command steering adds a steering behaviour of its own to the crowd: a
// system put after the Steering stage bends every agent's desired velocity
// away from a fire in the middle of the field, and obstacle avoidance and
// the rest of the crowd carry on from there. It runs the crowd with and
// without the system, headless, and writes out/steering.png.
//
//	go run ./examples/steering [-out DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/internal/blocks"
	"github.com/archenav/archenav/examples/internal/picture"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

func main() {
	out := flag.String("out", "out", "directory for steering.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s].
const (
	dt        = 1.0 / 60
	maxTime   = 30.0
	agentsNum = 5
)

// KeepAway steers agents away from a hazard: within Radius + Margin of
// Center, it adds a push straight away from it to the desired velocity the
// Steering stage chose, stronger the closer the agent is, and keeps the
// speed the agent wanted. It runs after plugin.StageSteering.
type KeepAway struct {
	// Center of the hazard [Units: world units].
	Center geom.Vec3
	// Radius of the hazard and the Margin kept from it [Units: world units].
	Radius, Margin float32

	agents *generic.Filter2[components.Position, components.Velocity]
}

// Initialize builds the agent filter.
func (k *KeepAway) Initialize(world *ecs.World) {
	k.agents = generic.NewFilter2[components.Position, components.Velocity]()
}

// Update bends the desired velocities.
func (k *KeepAway) Update(world *ecs.World) {
	q := k.agents.Query(world)
	for q.Next() {
		pos, vel := q.Get()
		away := geom.Vec3{pos[0] - k.Center[0], 0, pos[2] - k.Center[2]}
		dist := geom.Len(away)
		reach := k.Radius + k.Margin
		if dist >= reach || dist == 0 || vel.DesiredSpeed == 0 {
			continue
		}
		push := (reach - dist) / k.Margin // 0 at the edge of the margin, 1 at the hazard
		desired := geom.Add(vel.Desired, geom.Scale(away, float32(push*vel.DesiredSpeed)*2/dist))
		if length := geom.Len(desired); length > 0 {
			vel.Desired = geom.Scale(desired, vel.DesiredSpeed/length)
		}
	}
}

// Finalize does nothing.
func (k *KeepAway) Finalize(world *ecs.World) {}

// fire is the hazard.
var fire = KeepAway{Center: geom.Vec3{15, 0, 10}, Radius: 3, Margin: 2}

// result is what happened in each run (without, with the system).
type result struct {
	arrived [2]int
	// closest is the nearest any agent came to the fire's center
	// [Units: world units].
	closest [2]float32
}

// crossing runs the crowd across the field, with the system when keepAway,
// and draws the agents' trails (in white without the system) and, with
// it, the agents where they end into pic.
func crossing(mesh *navmesh.Mesh, keepAway bool, pic *picture.Picture) (arrived int, closest float32, err error) {
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: agentsNum, ArrivalDistance: 0.5})
	if err != nil {
		return 0, 0, err
	}
	if keepAway {
		system := fire // a copy per run
		if err := crowd.Schedule().After(plugin.StageSteering, &system); err != nil {
			return 0, 0, err
		}
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return 0, 0, err
	}
	defer crowd.Schedule().Finalize(&world)

	agents := make([]ecs.Entity, agentsNum)
	for i := range agents {
		z := 6 + float32(float32(i)*2)
		if agents[i], err = crowd.Spawn(&world, geom.Vec3{2, 0, z}, components.DefaultAgentParams()); err != nil {
			return 0, 0, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{28, 0, 16 - z}); err != nil {
			return 0, 0, err
		}
	}
	trails := make([][]geom.Vec3, agentsNum)
	closest = 1e9
	for tick := 1; arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		if err := crowd.Step(&world, dt); err != nil {
			return 0, 0, err
		}
		for _, ev := range crowd.Events(&world) {
			if ev.Kind == components.EventTargetReached {
				arrived++
			}
		}
		for i, e := range agents {
			info, err := crowd.State(&world, e)
			if err != nil {
				return 0, 0, err
			}
			closest = min(closest, geom.Dist2D(info.Position, fire.Center))
			if tick%6 == 0 {
				trails[i] = append(trails[i], info.Position)
			}
		}
	}
	for i, trail := range trails {
		if keepAway {
			pic.Trail(trail, i)
		} else {
			pic.Line(trail, picture.White, 1)
		}
	}
	if keepAway {
		if err := pic.Crowd(&world); err != nil {
			return 0, 0, err
		}
	}
	return arrived, closest, nil
}

func run(out string, stdout io.Writer) (result, error) {
	var l blocks.Level
	baked, err := bake.Solo(context.Background(), l.Floor(0, 0, 30, 20, 0).Geometry(), bake.DefaultSettings())
	if err != nil {
		return result{}, err
	}
	mesh, err := baked.NavMesh()
	if err != nil {
		return result{}, err
	}
	pic, err := picture.New(mesh, 640)
	if err != nil {
		return result{}, err
	}
	pic.Ring(fire.Center, fire.Radius, 0, picture.Red)
	pic.Ring(fire.Center, fire.Radius+fire.Margin, 1, picture.Red)
	var r result
	if r.arrived[0], r.closest[0], err = crossing(mesh, false, pic); err != nil {
		return result{}, err
	}
	if r.arrived[1], r.closest[1], err = crossing(mesh, true, pic); err != nil {
		return result{}, err
	}
	pic.Caption("with KeepAway (colors), without (white)")
	path := filepath.Join(out, "steering.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "without the system: %d of %d arrived, the closest came %.1f m from the fire's center\n"+
		"with it: %d of %d arrived, the closest came %.1f m (the fire's radius is %.0f m)\nwrote %s\n",
		r.arrived[0], agentsNum, r.closest[0], r.arrived[1], agentsNum, r.closest[1], fire.Radius, path)
	return r, nil
}
