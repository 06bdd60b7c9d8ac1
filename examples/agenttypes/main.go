// Command agenttypes runs soldiers and ogres in one crowd over a field cut
// by a wall with two gaps: a narrow one (1.6 m) near the agents and a wide
// one (6 m) far off. The level is baked once per agent type
// (bake.SoloTypes): the soldiers' mesh (radius 0.3) passes the narrow gap,
// the ogres' (radius 1) does not, so the soldiers take the short way and
// the ogres go round by the wide gap, and the two types still avoid each
// other where they meet. It runs headless and writes out/agenttypes.png
// (the soldiers' mesh, soldiers' trails white, ogres' yellow).
//
//	go run ./examples/agenttypes [-out DIR]
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
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

func main() {
	out := flag.String("out", "out", "directory for agenttypes.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s].
const (
	dt      = 1.0 / 60
	maxTime = 40.0
	perType = 3
	// arrivedWithin is how near (xz) its target an agent must end to have
	// arrived: the ones that came first may be pushed a little by those
	// that come after [Units: world units]
	arrivedWithin = 1
)

// The agent types: names, radii [Units: world units] and trail colours.
var (
	typeNames  = [2]string{"soldier", "ogre"}
	typeRadii  = [2]float32{0.3, 1}
	typeColors = [2]color.NRGBA{picture.White, picture.Yellow}
)

// The wall across the field at x 14.5..15.5 and its narrow gap, z 4..5.6
// [Units: world units].
const (
	wallX0, wallX1     = 14.5, 15.5
	narrowZ0, narrowZ1 = 4, 5.6
)

// result is what happened, for the test.
type result struct {
	// arrived counts the agents of each type that ended within
	// arrivedWithin of their targets.
	arrived [2]int
	// walked is the mean distance each type walked [Units: world units];
	// throughNarrow counts the agents that crossed the wall by the narrow
	// gap.
	walked        [2]float32
	throughNarrow [2]int
}

// level is the field, the wall and its two gaps.
func level() *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 30, 20, 0)
	l.Box(wallX0, 0, 0, wallX1, 2, narrowZ0)
	l.Box(wallX0, 0, narrowZ1, wallX1, 2, 14)
	return l.Geometry()
}

func run(out string, stdout io.Writer) (result, error) {
	types := make([]bake.AgentType, 2)
	for i := range types {
		types[i] = bake.AgentType{Name: typeNames[i], Settings: bake.DefaultSettings()}
		types[i].Settings.AgentRadius = typeRadii[i]
	}
	baked, err := bake.SoloTypes(context.Background(), level(), types, bake.SoloTypesOptions{})
	if err != nil {
		return result{}, err
	}
	set, err := baked.MeshSet()
	if err != nil {
		return result{}, err
	}
	crowd, err := plugin.New(plugin.Config{
		AgentTypes: []plugin.AgentTypeConfig{
			{Name: typeNames[0], Mesh: set.Find(typeNames[0])},
			{Name: typeNames[1], Mesh: set.Find(typeNames[1])},
		},
		MaxAgents: 2 * perType, MaxAgentRadius: typeRadii[1], ArrivalDistance: 0.5,
	})
	if err != nil {
		return result{}, err
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return result{}, err
	}
	defer crowd.Schedule().Finalize(&world)

	agents := make([]ecs.Entity, 2*perType)
	targets := make([]geom.Vec3, len(agents))
	kind := func(i int) int { return i / perType }
	for i := range agents {
		params := components.AgentParamsForRadius(typeRadii[kind(i)])
		if params.Type, err = crowd.AgentType(typeNames[kind(i)]); err != nil {
			return result{}, err
		}
		z := 2 + float32(float32(i%perType)*2.5) + float32(float32(kind(i))*1.2)
		if agents[i], err = crowd.Spawn(&world, geom.Vec3{3, 0, z}, params); err != nil {
			return result{}, err
		}
		targets[i] = geom.Vec3{27, 0, z}
		if err := crowd.RequestMoveTarget(&world, agents[i], targets[i]); err != nil {
			return result{}, err
		}
	}

	var r result
	trails := make([][]geom.Vec3, len(agents))
	last := make([]geom.Vec3, len(agents))
	crossed := make([]bool, len(agents))
	for i, e := range agents {
		info, err := crowd.State(&world, e)
		if err != nil {
			return result{}, err
		}
		last[i] = info.Position
	}
	reached := 0
	for tick := 1; reached < len(agents) && float32(tick)*dt <= maxTime; tick++ {
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			if ev.Kind == components.EventTargetReached {
				reached++
			}
		}
		for i, e := range agents {
			info, err := crowd.State(&world, e)
			if err != nil {
				return result{}, err
			}
			p := info.Position
			r.walked[kind(i)] += geom.Dist2D(p, last[i]) / perType
			last[i] = p
			if !crossed[i] && p[0] > wallX0 && p[0] < wallX1 {
				crossed[i] = true
				if p[2] > narrowZ0 && p[2] < narrowZ1 {
					r.throughNarrow[kind(i)]++
				}
			}
			if tick%6 == 0 {
				trails[i] = append(trails[i], p)
			}
		}
	}

	pic, err := picture.New(set.Find(typeNames[0]), 640)
	if err != nil {
		return result{}, err
	}
	for i := range agents {
		pic.Line(trails[i], typeColors[kind(i)], 2)
	}
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption("soldiers r 0.3 (white), ogres r 1 (yellow)")
	path := filepath.Join(out, "agenttypes.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	for i, e := range agents {
		info, err := crowd.State(&world, e)
		if err != nil {
			return result{}, err
		}
		if geom.Dist2D(info.Position, targets[i]) <= arrivedWithin {
			r.arrived[kind(i)]++
		}
	}
	for t := range typeNames {
		fmt.Fprintf(stdout, "%ss: %d of %d arrived, %.1f m walked on average, %d through the narrow gap\n",
			typeNames[t], r.arrived[t], perType, r.walked[t], r.throughNarrow[t])
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return r, nil
}
