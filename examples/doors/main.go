// Command doors closes a door while a crowd walks through it: the door's
// polygons get RecastDemo's "disabled" flag, which the agents' filter
// excludes, and the agents plan again and take the long way round. It runs
// headless and writes out/doors.png.
//
//	go run ./examples/doors [-out DIR]
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
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
)

func main() {
	out := flag.String("out", "out", "directory for doors.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// Timing of the run [Units: s].
const (
	dt        = 1.0 / 60
	closeAt   = 1.0 // the door closes
	maxTime   = 30.0
	agentsNum = 6
)

// result is what happened, for the test.
type result struct {
	agents, arrived int
	// crossedClosed counts agent-ticks on a door polygon after it closed.
	crossedClosed int
	// longWay counts the agents that walked the long corridor.
	longWay int
	// seconds is when the last agent arrived.
	seconds float32
}

// level is two rooms joined by a short corridor with a door in it, and by
// a long corridor round the bottom.
func level() *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 10, 10, 0).Floor(14, 0, 24, 10, 0)                        // the rooms
	l.Floor(9, 4, 15, 6, 0)                                                 // the short corridor
	l.Area(11.5, 3, 12.5, 7, -1, 1, bake.DemoAreaDoor)                      // its door: RecastDemo's door area and flags
	l.Floor(3, 9, 7, 18, 0).Floor(3, 15, 21, 18, 0).Floor(17, 9, 21, 18, 0) // the long way
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
	doors := polygonsWithFlag(mesh, bake.DemoFlagDoor)
	if len(doors) == 0 {
		return result{}, fmt.Errorf("doors: the level baked without a door polygon")
	}

	// The agents' filter refuses disabled polygons: closing a door is
	// setting that flag on its polygons.
	filter := query.NewFilter()
	filter.ExcludeFlags = bake.DemoFlagDisabled
	crowd, err := plugin.New(plugin.Config{
		Mesh: mesh, MaxAgents: agentsNum, ArrivalDistance: 0.5, Filters: []query.Filter{*filter},
	})
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
		start := geom.Vec3{2 + float32(float32(i%3)*3), 0, 2.5 + float32(float32(i/3)*4)}
		if agents[i], err = crowd.Spawn(&world, start, components.DefaultAgentParams()); err != nil {
			return result{}, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{start[0] + 16, 0, start[2]}); err != nil {
			return result{}, err
		}
	}

	r := result{agents: agentsNum}
	trails := make([][]geom.Vec3, agentsNum)
	closed := false
	for tick := 1; r.arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		if !closed && float32(tick)*dt >= closeAt {
			for _, ref := range doors {
				flags, err := mesh.PolyFlags(ref)
				if err != nil {
					return result{}, err
				}
				if err := mesh.SetPolyFlags(ref, flags|bake.DemoFlagDisabled); err != nil {
					return result{}, err
				}
			}
			closed = true
		}
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			if ev.Kind == components.EventTargetReached {
				r.arrived++
				r.seconds = float32(tick) * dt
			}
		}
		for i, e := range agents {
			info, err := crowd.State(&world, e)
			if err != nil {
				return result{}, err
			}
			if tick%6 == 0 {
				trails[i] = append(trails[i], info.Position)
			}
			if closed && onAny(mesh, doors, info.Position) {
				r.crossedClosed++
			}
		}
	}

	for _, trail := range trails {
		for _, p := range trail {
			if p[2] > 15 { // in the long corridor
				r.longWay++
				break
			}
		}
	}

	pic, err := picture.New(mesh, 640)
	if err != nil {
		return result{}, err
	}
	for _, ref := range doors {
		pic.Polygon(ref, picture.Red)
	}
	for i := range agents {
		pic.Trail(trails[i], i)
	}
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption(fmt.Sprintf("door closed at %.0f s: %d of %d agents took the long way", closeAt, r.longWay, agentsNum))
	path := filepath.Join(out, "doors.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "door (%d polygons) closed at %.1f s: %d of %d agents took the long way, %d arrived, the last after %.1f s; %d agent-ticks on the closed door\nwrote %s\n",
		len(doors), closeAt, r.longWay, agentsNum, r.arrived, r.seconds, r.crossedClosed, path)
	return r, nil
}

// polygonsWithFlag returns the polygons of mesh with flag set.
func polygonsWithFlag(mesh *navmesh.Mesh, flag uint16) []navmesh.Ref {
	var refs []navmesh.Ref
	snap := mesh.Snapshot()
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil {
			continue
		}
		for p := range tile.Polys {
			if tile.Polys[p].Flags&flag != 0 {
				refs = append(refs, tile.PolyRefBase()|navmesh.Ref(p))
			}
		}
	}
	return refs
}

// onAny reports whether pos lies over one of the polygons refs (seen from
// above, within a centimetre).
func onAny(mesh *navmesh.Mesh, refs []navmesh.Ref, pos geom.Vec3) bool {
	for _, ref := range refs {
		closest, over, err := mesh.ClosestPointOnPoly(ref, pos)
		if err == nil && over && geom.Dist2D(closest, pos) < 0.01 {
			return true
		}
	}
	return false
}
