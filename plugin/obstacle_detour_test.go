package plugin

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bodyOverlapTolerance is how far an agent may come into an avoided
// obstacle [Units: world units]
const bodyOverlapTolerance = float32(0.15)

// TestAgentsWalkAroundAvoidedBoxes: an agent whose straight way to its
// target runs through an avoided (not carved) box walks around the box
// and arrives, never coming into it by more than bodyOverlapTolerance, for
// random box sizes, positions and yaws and agent radii on an open floor,
// with either avoidance method.
func TestAgentsWalkAroundAvoidedBoxes(t *testing.T) {
	mesh := floorLevel(t)
	for _, method := range avoidanceMethods {
		rng := rand.New(rand.NewPCG(7, 11))
		for run := range 16 {
			center := geom.Vec3{8 + float32(4*rng.Float32()), 0, 8 + float32(4*rng.Float32())}
			halfX, halfZ := 0.3+float32(2.2*rng.Float32()), 0.3+float32(2.2*rng.Float32())
			yaw := float32(math.Pi) * rng.Float32()
			radius := []float32{0.3, 0.45, 0.6}[rng.IntN(3)]
			heading := float32(2*math.Pi) * rng.Float32()
			aside := float32(rng.Float32()) - 0.5
			name := fmt.Sprintf("%v/%d", method, run)
			t.Run(name, func(t *testing.T) {
				dx, dz := geom.Cos(heading), geom.Sin(heading)
				start := geom.Vec3{center[0] - float32(7*dx), 0, center[2] - float32(7*dz)}
				target := geom.Vec3{center[0] + float32(7*dx) - float32(aside*dz), 0, center[2] + float32(7*dz) + float32(aside*dx)}
				walkAroundBox(t, mesh, method, components.OrientedBoxObstacle(halfX, halfZ, 1),
					components.ObstaclePose{Position: center, Yaw: yaw}, radius, start, target, true)
			})
		}
	}
}

// TestAgentsWalkAroundAvoidedBoxesInCorridor: in a 5 m wide corridor an
// avoided box of random size, place and yaw leaves a gap on one side, both
// or none; an agent sent along the corridor arrives within 15 s when a gap
// is wide enough for it, and never comes into the box either way.
func TestAgentsWalkAroundAvoidedBoxesInCorridor(t *testing.T) {
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 30, 5, 0)
	mesh := bakeLevel(t, g)
	// The navmesh keeps about the bake's agent radius from the corridor's
	// sides (rounded to its cells): read where it ends.
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	side := func(z float32) float32 {
		near, err := q.FindNearestPoly(geom.Vec3{15, 0, z}, geom.Vec3{2, 1, 2}, query.NewFilter())
		require.NoError(t, err)
		return near.Point[2]
	}
	minZ, maxZ := side(-1), side(6)
	rng := rand.New(rand.NewPCG(3, 5))
	for run := range 24 {
		center := geom.Vec3{15, 0, float32(5 * rng.Float32())}
		halfX, halfZ := 0.3+float32(2*float32(rng.Float32())), 0.3+float32(2.5*float32(rng.Float32()))
		yaw := float32(math.Pi) * rng.Float32()
		radius := []float32{0.3, 0.45, 0.6}[rng.IntN(3)]
		ob := components.OrientedBoxObstacle(halfX, halfZ, 1)
		pose := components.ObstaclePose{Position: center, Yaw: yaw}
		footprint := ob.Footprint(pose)
		_, lowZ, _, highZ := footprint.Bounds()
		// The widest room left beside the box for the agent's centre; too
		// near the agent's size to call either way, the case is dropped.
		room := max(lowZ-radius-minZ, maxZ-highZ-radius)
		if float32(math.Abs(float64(room))) < 0.1 {
			continue
		}
		startZ, targetZ := 0.8+float32(3.4*rng.Float32()), 0.8+float32(3.4*rng.Float32())
		t.Run(fmt.Sprintf("%d", run), func(t *testing.T) {
			walkAroundBox(t, mesh, crowd.AvoidanceAdaptive, ob, pose, radius, geom.Vec3{4, 0, startZ}, geom.Vec3{26, 0, targetZ}, room > 0)
		})
	}
}

// walkAroundBox sends an agent of the given radius from start to target
// past obstacle ob at pose and checks that it never walks into the
// obstacle and, when reachable, arrives within 15 s.
func walkAroundBox(t *testing.T, mesh *navmesh.Mesh, method crowd.AvoidanceMethod, ob components.Obstacle, pose components.ObstaclePose, radius float32, start, target geom.Vec3, reachable bool) {
	p, err := New(Config{Mesh: mesh, MaxAgents: 4, AvoidancePresets: presetsFor(method)})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	_, err = p.SpawnObstacle(&world, pose, ob)
	require.NoError(t, err)
	params := components.DefaultAgentParams()
	params.Radius = radius
	e, err := p.Spawn(&world, start, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, target))
	footprint := ob.Footprint(pose)
	for tick := range 15 * 60 {
		require.NoError(t, p.Step(&world, 1.0/60))
		info, err := p.State(&world, e)
		require.NoError(t, err)
		d, _, _ := footprint.Distance(info.Position[0], info.Position[2])
		require.Greater(t, d, radius-bodyOverlapTolerance, "tick %d: the agent walked into the box at %v", tick, info.Position)
		if info.Arrived {
			require.True(t, reachable, "the agent arrived where it cannot")
			return
		}
	}
	if !reachable {
		return
	}
	info, err := p.State(&world, e)
	require.NoError(t, err)
	assert.Fail(t, "the agent did not arrive", "after 15 s it is at %v, %.2f m from its target %v", info.Position, geom.Dist2D(info.Position, target), target)
}

// TestAgentsPassAvoidedBoxInDungeonCorridor is the newcomer's report: a
// 3 m × 3 m avoided box half across the mouth of one of dungeon's
// corridors, with the path's corner inside it, held the agents that came
// to its west face there for good. All ten agents now walk around it, on
// the solo navmesh and on the tile cache.
func TestAgentsPassAvoidedBoxInDungeonCorridor(t *testing.T) {
	for _, tiled := range []bool{false, true} {
		t.Run(fmt.Sprintf("tilecache=%v", tiled), func(t *testing.T) {
			config := Config{MaxAgents: 16}
			if tiled {
				config.TileCache = loadDungeonCache(t)
			} else {
				config.Mesh = loadDungeon(t)
			}
			p, err := New(config)
			require.NoError(t, err)
			world := ecs.NewWorld()
			require.NoError(t, p.Install(&world))
			boxAt := geom.Vec3{-1.2, 10.197, -11.9}
			box := components.BoxObstacle(1.5, 1.5, 2)
			_, err = p.SpawnObstacle(&world, components.ObstaclePose{Position: boxAt}, box)
			require.NoError(t, err)
			footprint := box.Footprint(components.ObstaclePose{Position: boxAt})
			start, goal := geom.Vec3{-9.17, 10.2, -20.34}, geom.Vec3{11.22, 10.2, -0.93}
			var agents []ecs.Entity
			for i := range 10 {
				e, err := p.Spawn(&world, geom.Add(start, geom.Vec3{float32(i%5) * 0.8, 0, float32(i/5) * 0.8}), components.DefaultAgentParams())
				require.NoError(t, err)
				require.NoError(t, p.RequestMoveTarget(&world, e, goal))
				agents = append(agents, e)
			}
			radius := components.DefaultAgentParams().Radius
			for tick := range 15 * 60 {
				require.NoError(t, p.Step(&world, 1.0/60))
				for i, e := range agents {
					info, err := p.State(&world, e)
					require.NoError(t, err)
					d, _, _ := footprint.Distance(info.Position[0], info.Position[2])
					require.Greater(t, d, radius-bodyOverlapTolerance, "tick %d: agent %d walked into the box", tick, i)
				}
			}
			// Ten agents crowd one goal: all of them within 6 m of it is past
			// the box (28 m away at the start).
			for i, e := range agents {
				info, err := p.State(&world, e)
				require.NoError(t, err)
				assert.Less(t, geom.Dist2D(info.Position, goal), float32(6), "agent %d at %v", i, info.Position)
			}
		})
	}
}
