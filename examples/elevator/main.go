// Command elevator runs an elevator as a runtime link crossed under the
// game's control: the only way from the ground floor up to the mezzanine
// is a LinkManual link with room for four. Agents queue at the bottom
// stop (EventLinkQueued), step into the cabin four at a time
// (EventLinkReached), the game carries each group up, lets it off at the
// top (plugin.CompleteLink, EventLinkCompleted), sends the empty cabin
// down, and the agents walk on to their targets. It runs headless and
// writes out/elevator.png.
//
//	go run ./examples/elevator [-out DIR]
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
	out := flag.String("out", "out", "directory for elevator.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run and the elevator [Units: s, world units].
const (
	dt        = 1.0 / 60
	maxTime   = 120.0
	agentsNum = 12
	// cabinSize is how many agents ride at once.
	cabinSize = 4
	// upper is the mezzanine's height; rideTime how long the cabin takes
	// from one stop to the other.
	upper    = 6
	rideTime = 3.0
)

// The stops: the link's ends, at the ground floor's edge and at the
// mezzanine's.
var (
	bottom = geom.Vec3{11.4, 0, 5}
	top    = geom.Vec3{14.6, upper, 5}
)

// level is a ground floor and, beside it and 6 m higher, a mezzanine,
// with nothing between them but the elevator.
func level() *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 12, 10, 0)
	l.Floor(14, 0, 26, 10, upper)
	return l.Geometry()
}

// result is what happened, for the test.
type result struct {
	agents, arrived int
	// groups holds the size of each group the cabin carried up.
	groups []int
	// events are the link and arrival events of each agent, in order.
	events map[ecs.Entity][]components.EventKind
	// offMesh counts the agent-ticks a walking agent stood off the
	// navmesh; skipped the agents up on the mezzanine that never rode.
	offMesh, skipped int
}

// cabinState is where the elevator is in its round.
type cabinState uint8

const (
	boarding cabinState = iota
	rising
	descending
)

// elevator is the game's side of the link: it waits for a full cabin (or
// for the last agents), carries them up and comes back down.
type elevator struct {
	crowd  *plugin.Plugin
	link   ecs.Entity
	state  cabinState
	t      float32
	riders []ecs.Entity
	// slots are where the riders stand in the cabin, relative to its
	// floor's centre.
	slots [cabinSize]geom.Vec3
}

// cabinAt returns the point of the cabin's floor at fraction u of the
// ride up.
func cabinAt(u float32) geom.Vec3 { return geom.Lerp(bottom, top, u) }

// update runs the elevator for one tick, after the crowd's; waiting is
// the number of agents still below that will want to ride.
func (e *elevator) update(world *ecs.World, waiting int, r *result) error {
	switch e.state {
	case boarding:
		riders, err := e.crowd.LinkRiders(world, e.link, e.riders[:0])
		if err != nil {
			return err
		}
		e.riders = riders
		for i, a := range e.riders {
			if err := e.crowd.MoveOnLink(world, a, geom.Add(cabinAt(0), e.slots[i])); err != nil {
				return err
			}
		}
		if len(e.riders) == cabinSize || (len(e.riders) > 0 && len(e.riders) == waiting) {
			e.state, e.t = rising, 0
			r.groups = append(r.groups, len(e.riders))
		}
	case rising:
		e.t += dt / rideTime
		u := min(e.t, 1)
		for i, a := range e.riders {
			if err := e.crowd.MoveOnLink(world, a, geom.Add(cabinAt(u), e.slots[i])); err != nil {
				return err
			}
		}
		if e.t >= 1 {
			for _, a := range e.riders {
				if err := e.crowd.CompleteLink(world, a); err != nil {
					return err
				}
			}
			e.riders = e.riders[:0]
			e.state, e.t = descending, 0
		}
	case descending:
		if e.t += dt / rideTime; e.t >= 1 {
			e.state = boarding
		}
	}
	return nil
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

	link, err := crowd.SpawnLink(&world, components.Link{
		Start: bottom, End: top, Radius: 0.6, Bidirectional: true,
		Traversal: components.LinkManual, Capacity: cabinSize,
	})
	if err != nil {
		return result{}, err
	}
	lift := &elevator{crowd: crowd, link: link, slots: [cabinSize]geom.Vec3{{-0.4, 0, -0.4}, {-0.4, 0, 0.4}, {0.4, 0, -0.4}, {0.4, 0, 0.4}}}

	agents := make([]ecs.Entity, agentsNum)
	for i := range agents {
		// Each product rounded on its own, so no CPU fuses it into an add.
		row, column := float32(i/3), float32(i%3)
		start := geom.Vec3{1.5 + float32(column*2), 0, 1.5 + float32(row*2.2)}
		if agents[i], err = crowd.Spawn(&world, start, components.DefaultAgentParams()); err != nil {
			return result{}, err
		}
		target := geom.Vec3{18 + float32(column*2.5), upper, 1.5 + float32(row*2.2)}
		if err := crowd.RequestMoveTarget(&world, agents[i], target); err != nil {
			return result{}, err
		}
	}

	r := result{agents: agentsNum, events: map[ecs.Entity][]components.EventKind{}}
	q, err := query.New(mesh, 64)
	if err != nil {
		return result{}, err
	}
	rode := map[ecs.Entity]bool{}
	trails := make([][]geom.Vec3, agentsNum)
	for tick := 1; r.arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			switch ev.Kind {
			case components.EventTargetReached:
				r.arrived++
			case components.EventLinkCompleted:
				rode[ev.Entity] = true
			}
			switch ev.Kind {
			case components.EventTargetReached, components.EventLinkQueued, components.EventLinkReached, components.EventLinkCompleted, components.EventLinkCancelled:
				r.events[ev.Entity] = append(r.events[ev.Entity], ev.Kind)
			}
		}
		waiting := 0
		for i, a := range agents {
			info, err := crowd.State(&world, a)
			if err != nil {
				return result{}, err
			}
			if info.Position[1] < upper/2 {
				waiting++
			}
			if info.Mode == components.AgentWalking {
				if !onMesh(q, info.Position) {
					r.offMesh++
				}
				if info.Position[1] > upper/2 && !rode[a] {
					r.skipped++
				}
			}
			if tick%6 == 0 {
				trails[i] = append(trails[i], info.Position)
			}
		}
		if err := lift.update(&world, waiting, &r); err != nil {
			return result{}, err
		}
	}

	if err := draw(mesh, &world, trails, r, filepath.Join(out, "elevator.png")); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "%d of %d agents arrived, carried up in groups of %v\nwrote %s\n",
		r.arrived, agentsNum, r.groups, filepath.Join(out, "elevator.png"))
	return r, nil
}

// onMesh reports whether p lies on a polygon of the navmesh (within 5 cm
// across and half a metre in height).
func onMesh(q *query.Query, p geom.Vec3) bool {
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.05, 0.5, 0.05}, query.NewFilter())
	return err == nil && nearest.Ref != 0 && geom.Dist2D(nearest.Point, p) < 0.05
}

func draw(mesh *navmesh.Mesh, world *ecs.World, trails [][]geom.Vec3, r result, path string) error {
	pic, err := picture.New(mesh, 640)
	if err != nil {
		return err
	}
	for i := range trails {
		pic.Trail(trails[i], i)
	}
	pic.Line([]geom.Vec3{bottom, top}, picture.Purple, 4)
	if err := pic.Crowd(world); err != nil {
		return err
	}
	pic.Caption(fmt.Sprintf("%d agents rode the elevator (purple) in %d groups", r.arrived, len(r.groups)))
	return pic.WritePNG(path)
}
