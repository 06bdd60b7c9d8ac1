// Command areacosts sends two groups of agents across a field with a patch
// of long grass in the way: the first group's filter costs every area the
// same and walks straight through, the second's makes grass ten times as
// costly and keeps to the road round it (with visibility shortcuts off,
// since those ignore area costs). It runs headless and writes
// out/areacosts.png.
//
//	go run ./examples/areacosts [-out DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"image/color"
	"io"
	"log"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/internal/blocks"
	"github.com/archenav/archenav/examples/internal/picture"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

func main() {
	out := flag.String("out", "out", "directory for areacosts.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s].
const (
	dt      = 1.0 / 60
	maxTime = 30.0
	perTeam = 3
)

// grass is the patch in the way: x0, z0, x1, z1 [Units: world units].
var grass = [4]float32{11, 0, 19, 15}

// teamColors are the groups' trail colors.
var teamColors = [2]color.NRGBA{picture.White, picture.Yellow}

// result is what happened, for the test.
type result struct {
	arrived [2]int
	// walked is the mean distance each group walked, and inGrass the
	// agent-ticks it spent in the grass [Units: world units].
	walked  [2]float32
	inGrass [2]int
}

// level is a field with the grass patch (RecastDemo's grass area, walkable)
// and a road (RecastDemo's road area) along its far side.
func level() *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 30, 20, 0)
	l.Area(grass[0], grass[1], grass[2], grass[3], -1, 1, bake.DemoAreaGrass)
	l.Area(0, 15, 30, 20, -1, 1, bake.DemoAreaRoad)
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
	// Filter 0 costs every area 1; filter 1 makes grass ten times as
	// costly to cross. An agent picks its filter with AgentParams.Filter.
	straight := query.NewFilter()
	careful := query.NewFilter()
	careful.AreaCost[bake.DemoAreaGrass] = 10
	crowd, err := plugin.New(plugin.Config{
		Mesh: mesh, MaxAgents: 2 * perTeam, ArrivalDistance: 0.5,
		Filters: []query.Filter{*straight, *careful},
	})
	if err != nil {
		return result{}, err
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return result{}, err
	}
	defer crowd.Schedule().Finalize(&world)

	agents := make([]ecs.Entity, 2*perTeam)
	for i := range agents {
		params := components.DefaultAgentParams()
		params.Filter = uint8(i / perTeam)
		if params.Filter == 1 {
			// Visibility shortcuts are straight raycasts that ignore area
			// costs: agents that must keep off costly areas go without.
			params.UpdateFlags &^= components.OptimizeVisibility
		}
		z := 3 + float32(float32(i%perTeam)*3)
		if agents[i], err = crowd.Spawn(&world, geom.Vec3{2, 0, z + float32(float32(i/perTeam)*0.5)}, params); err != nil {
			return result{}, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{28, 0, z}); err != nil {
			return result{}, err
		}
	}

	var r result
	trails := make([][]geom.Vec3, len(agents))
	last := make([]geom.Vec3, len(agents))
	for i, e := range agents {
		info, err := crowd.State(&world, e)
		if err != nil {
			return result{}, err
		}
		last[i] = info.Position
	}
	for tick := 1; r.arrived[0]+r.arrived[1] < len(agents) && float32(tick)*dt <= maxTime; tick++ {
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			if ev.Kind == components.EventTargetReached {
				for i, e := range agents {
					if e == ev.Entity {
						r.arrived[i/perTeam]++
					}
				}
			}
		}
		for i, e := range agents {
			info, err := crowd.State(&world, e)
			if err != nil {
				return result{}, err
			}
			p := info.Position
			r.walked[i/perTeam] += geom.Dist2D(p, last[i]) / perTeam
			last[i] = p
			if p[0] > grass[0] && p[0] < grass[2] && p[2] > grass[1] && p[2] < grass[3] {
				r.inGrass[i/perTeam]++
			}
			if tick%6 == 0 {
				trails[i] = append(trails[i], p)
			}
		}
	}

	pic, err := picture.New(mesh, 640)
	if err != nil {
		return result{}, err
	}
	for i := range agents {
		pic.Line(trails[i], teamColors[i/perTeam], 2)
	}
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption("grass costs 1 (white) or 10 (yellow)")
	path := filepath.Join(out, "areacosts.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "grass at cost 1: %d of %d arrived, %.1f m walked on average, %d agent-ticks in the grass\n"+
		"grass at cost 10: %d of %d arrived, %.1f m walked on average, %d agent-ticks in the grass\nwrote %s\n",
		r.arrived[0], perTeam, r.walked[0], r.inGrass[0], r.arrived[1], perTeam, r.walked[1], r.inGrass[1], path)
	return r, nil
}
