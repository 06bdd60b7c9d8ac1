// Command offmesh lets a crowd jump off a ledge along an off-mesh link: the
// only way from the platform down to the field is a one-way jump baked into
// the navmesh, and the agents plan through it, leap (EventOffMeshStarted,
// EventOffMeshFinished) and walk on. It runs headless and writes
// out/offmesh.png.
//
//	go run ./examples/offmesh [-out DIR]
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
	"github.com/archenav/archenav/plugin"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/mlange-42/arche/ecs"
)

func main() {
	out := flag.String("out", "out", "directory for offmesh.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s].
const (
	dt        = 1.0 / 60
	maxTime   = 30.0
	agentsNum = 4
)

// jump is the one-way link from the platform's edge down to the field.
var jump = bake.OffMeshConnection{
	Start:  mgl32.Vec3{8.5, 2, 5},
	End:    mgl32.Vec3{12.5, 0, 5},
	Radius: 0.6,
	Area:   bake.DemoAreaJump,
	Flags:  bake.DemoFlagJump,
	UserID: 1,
}

// result is what happened, for the test.
type result struct {
	agents, arrived int
	// jumps counts the off-mesh starts and finishes.
	started, finished int
}

// level is a platform 2 m high beside a field, with the jump between them.
func level() *bake.Geometry {
	var l blocks.Level
	l.Box(0, 0, 0, 10, 2, 10) // the platform: too high to step down from
	l.Floor(10, 0, 30, 10, 0) // the field
	l.Link(jump)
	return l.Geometry()
}

func run(out string, stdout io.Writer) (result, error) {
	baked, err := bake.Solo(context.Background(), level(), bake.DefaultSettings())
	if err != nil {
		return result{}, err
	}
	mesh, err := baked.NavMesh()
	if err != nil {
		return result{}, err
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: agentsNum, ArrivalDistance: 0.5})
	if err != nil {
		return result{}, err
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return result{}, err
	}
	defer crowd.Schedule().Finalize(&world)

	agents := make([]ecs.Entity, agentsNum)
	for i := range agents {
		z := 2 + float32(float32(i)*2)
		if agents[i], err = crowd.Spawn(&world, geom.Vec3{2, 2, z}, components.DefaultAgentParams()); err != nil {
			return result{}, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{27, 0, z}); err != nil {
			return result{}, err
		}
	}

	r := result{agents: agentsNum}
	trails := make([][]geom.Vec3, agentsNum)
	for tick := 1; r.arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			switch ev.Kind {
			case components.EventTargetReached:
				r.arrived++
			case components.EventOffMeshStarted:
				r.started++
			case components.EventOffMeshFinished:
				r.finished++
			}
		}
		if tick%4 == 0 {
			for i, e := range agents {
				info, err := crowd.State(&world, e)
				if err != nil {
					return result{}, err
				}
				trails[i] = append(trails[i], info.Position)
			}
		}
	}

	pic, err := picture.New(mesh, 640)
	if err != nil {
		return result{}, err
	}
	for i := range agents {
		pic.Trail(trails[i], i)
	}
	pic.Line([]geom.Vec3{jump.Start, jump.End}, picture.Purple, 4)
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption(fmt.Sprintf("%d agents jumped down the link (purple)", r.finished))
	path := filepath.Join(out, "offmesh.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "%d of %d agents arrived; %d jumps started, %d finished\nwrote %s\n",
		r.arrived, agentsNum, r.started, r.finished, path)
	return r, nil
}
