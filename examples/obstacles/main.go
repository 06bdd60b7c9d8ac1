// Command obstacles shows runtime obstacles: a crate dropped into the
// corridor a crowd is walking through carves its footprint out of the
// navmesh through the tile cache, and the agents plan again and take the
// long way round; a cart that moves all the time is not carved but
// avoided, and the agents steer round it. It runs headless, prints what
// happens and writes out/obstacles.png.
//
//	go run ./examples/obstacles [-out DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/examples/internal/blocks"
	"github.com/archenav/archenav/examples/internal/picture"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/archenav/archenav/plugin"
)

func main() {
	out := flag.String("out", "out", "directory for obstacles.png")
	flag.Parse()
	if _, err := run(*out, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// The run [Units: s, world units].
const (
	dt        = 1.0 / 60
	dropAt    = 0.25 // the crate drops into the corridor
	maxTime   = 30.0
	agentsNum = 6
	// The cart patrols the right room's doorway from the long corridor.
	cartRadius      = float32(0.8)
	cartSpeed       = float32(1.2)
	cartMinX        = float32(15.5)
	cartMaxX        = float32(22.5)
	cartZ           = float32(8)
	crateHalfX      = float32(1)
	crateHalfZ      = float32(1.5)
	crateHeight     = float32(1.5)
	agentRadius     = float32(0.6)
	corridorCentreX = float32(12)
	corridorCentreZ = float32(5)
)

// result is what happened, for the test.
type result struct {
	agents, arrived int
	// landedAt is when the crate's hole reached the navmesh, -1 never.
	landedAt float32
	// inCrate counts agent-ticks with an agent's centre over the crate
	// after its hole landed.
	inCrate int
	// longWay counts the agents that walked the long corridor.
	longWay int
	// cartClearance is the smallest gap between an agent's body and the
	// cart's (negative: they overlapped).
	cartClearance float32
	// seconds is when the last agent arrived.
	seconds float32
}

// level is two rooms joined by a short corridor, where the crate will
// drop, and by a long corridor round the bottom.
func level() *bake.Geometry {
	var l blocks.Level
	l.Floor(0, 0, 10, 10, 0).Floor(14, 0, 24, 10, 0)                        // the rooms
	l.Floor(9, 4, 15, 6, 0)                                                 // the short corridor
	l.Floor(3, 9, 7, 18, 0).Floor(3, 15, 21, 18, 0).Floor(17, 9, 21, 18, 0) // the long way
	return l.Geometry()
}

func run(out string, stdout io.Writer) (result, error) {
	// A tile cache instead of a plain navmesh: obstacles carve through it.
	baked, err := bake.TileCache(context.Background(), level(), bake.DefaultSettings(), bake.TileCacheOptions{TileSize: 32})
	if err != nil {
		return result{}, err
	}
	cache, _, err := baked.Cache(tilecache.Options{})
	if err != nil {
		return result{}, err
	}
	for done := false; !done; {
		if done, err = cache.Update(tilecache.Budget{}); err != nil {
			return result{}, err
		}
	}
	crowd, err := plugin.New(plugin.Config{TileCache: cache, MaxAgents: agentsNum, ArrivalDistance: 0.5})
	if err != nil {
		return result{}, err
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		return result{}, err
	}
	defer crowd.Schedule().Finalize(&world)

	agents := make([]ecs.Entity, agentsNum)
	params := components.DefaultAgentParams()
	params.Radius = agentRadius
	for i := range agents {
		start := geom.Vec3{2 + float32(float32(i%3)*3), 0, 2.5 + float32(float32(i/3)*4)}
		if agents[i], err = crowd.Spawn(&world, start, params); err != nil {
			return result{}, err
		}
		if err := crowd.RequestMoveTarget(&world, agents[i], geom.Vec3{start[0] + 16, 0, start[2]}); err != nil {
			return result{}, err
		}
	}
	// The cart: avoided (the zero Effect), moved every tick.
	cartPose := components.ObstaclePose{Position: geom.Vec3{cartMinX, 0, cartZ}}
	cart, err := crowd.SpawnObstacle(&world, cartPose, components.CylinderObstacle(cartRadius, 1.5))
	if err != nil {
		return result{}, err
	}
	cartDirection := float32(1)

	r := result{agents: agentsNum, landedAt: -1, cartClearance: float32(math.Inf(1))}
	trails := make([][]geom.Vec3, agentsNum)
	var crate ecs.Entity
	crateFootprint := components.Footprint{}
	for tick := 1; r.arrived < agentsNum && float32(tick)*dt <= maxTime; tick++ {
		now := float32(tick) * dt
		if crate.IsZero() && now >= dropAt {
			// A carving box across the corridor: it carves once it has
			// stood still for half a second (Unity's default).
			box := components.BoxObstacle(crateHalfX, crateHalfZ, crateHeight).Carving()
			pose := components.ObstaclePose{Position: geom.Vec3{corridorCentreX, -0.2, corridorCentreZ}}
			if crate, err = crowd.SpawnObstacle(&world, pose, box); err != nil {
				return result{}, err
			}
			crateFootprint = box.Footprint(pose)
			fmt.Fprintf(stdout, "%5.2f s: a crate drops into the corridor\n", now)
		}
		cartPose.Position[0] += float32(cartDirection * cartSpeed * dt)
		if cartPose.Position[0] > cartMaxX || cartPose.Position[0] < cartMinX {
			cartDirection = -cartDirection
		}
		if err := crowd.SetObstaclePose(&world, cart, cartPose); err != nil {
			return result{}, err
		}
		if err := crowd.Step(&world, dt); err != nil {
			return result{}, err
		}
		for _, ev := range crowd.Events(&world) {
			switch {
			case ev.Kind == components.EventTargetReached:
				r.arrived++
				r.seconds = now
			case ev.Kind == components.EventObstacleLanded && ev.Entity == crate:
				r.landedAt = now
				fmt.Fprintf(stdout, "%5.2f s: its hole is in the navmesh; the agents plan round it\n", now)
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
			if r.landedAt >= 0 {
				if d, _, _ := crateFootprint.Distance(info.Position[0], info.Position[2]); d < 0 {
					r.inCrate++
				}
			}
			gap := geom.Dist2D(info.Position, cartPose.Position) - cartRadius - agentRadius
			r.cartClearance = min(r.cartClearance, gap)
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
	fmt.Fprintf(stdout, "%d of %d agents arrived, the last after %.1f s; %d took the long way; %d agent-ticks over the crate once carved; closest to the cart: %.2f m\n",
		r.arrived, agentsNum, r.seconds, r.longWay, r.inCrate, r.cartClearance)

	// The picture: the navmesh with its hole, the trails, the obstacles
	// and the agents (plugin/crowddraw draws the obstacle entities).
	pic, err := picture.New(cache.Mesh(), 640)
	if err != nil {
		return result{}, err
	}
	for i := range agents {
		pic.Trail(trails[i], i)
	}
	if err := pic.Crowd(&world); err != nil {
		return result{}, err
	}
	pic.Caption(fmt.Sprintf("crate in the corridor: %d of %d agents went round", r.longWay, agentsNum))
	path := filepath.Join(out, "obstacles.png")
	if err := pic.WritePNG(path); err != nil {
		return result{}, err
	}
	fmt.Fprintf(stdout, "wrote %s\n", path)
	return r, nil
}
