package plugin_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Follow makes an agent follow another one.
type Follow struct {
	// Leader is the agent to follow.
	Leader ecs.Entity
}

// FollowTheLeader steers every agent with a Follow component towards its
// leader, stopping two metres behind. It runs after the Steering stage and
// overwrites the desired velocity, which obstacle avoidance then refines.
type FollowTheLeader struct {
	followers *generic.Filter4[Follow, components.AgentParams, components.Position, components.Velocity]
	positions generic.Map[components.Position]
}

// Initialize builds the filter and the position accessor.
func (s *FollowTheLeader) Initialize(world *ecs.World) {
	s.followers = generic.NewFilter4[Follow, components.AgentParams, components.Position, components.Velocity]()
	s.positions = generic.NewMap[components.Position](world)
}

// Update sets the followers' desired velocities.
func (s *FollowTheLeader) Update(world *ecs.World) {
	const gap = 2 // metres behind the leader
	q := s.followers.Query(world)
	for q.Next() {
		follow, params, pos, vel := q.Get()
		if !world.Alive(follow.Leader) {
			continue
		}
		leader := s.positions.Get(follow.Leader)
		toLeader := geom.Vec3{leader[0] - pos[0], 0, leader[2] - pos[2]}
		dist := geom.Len(toLeader)
		if dist <= gap {
			vel.Desired, vel.DesiredSpeed = geom.Vec3{}, 0
			continue
		}
		speed := min(params.MaxSpeed, 2*(dist-gap)) // slow down when close
		vel.Desired = geom.Scale(toLeader, speed/dist)
		vel.DesiredSpeed = speed
	}
}

// Finalize does nothing.
func (s *FollowTheLeader) Finalize(world *ecs.World) {}

// A leader walks across the dungeon; a follower with no move target of its
// own keeps up with it, steered by a user system put after the Steering
// stage.
func Example() {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 10})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := crowd.Install(&world); err != nil {
		log.Fatal(err)
	}
	if err := crowd.Schedule().After(plugin.StageSteering, &FollowTheLeader{}); err != nil {
		log.Fatal(err)
	}

	params := components.DefaultAgentParams()
	leader, err := crowd.Spawn(&world, geom.Vec3{-9.17, 10.2, -20.34}, params)
	if err != nil {
		log.Fatal(err)
	}
	follower, err := crowd.Spawn(&world, geom.Vec3{-12, 10.2, -18}, params)
	if err != nil {
		log.Fatal(err)
	}
	follow := generic.NewMap1[Follow](&world)
	follow.Assign(follower, &Follow{Leader: leader})
	if err := crowd.RequestMoveTarget(&world, leader, geom.Vec3{11.2, 10.2, -0.93}); err != nil {
		log.Fatal(err)
	}

	maxGap := float32(0)
	for tick := 0; tick < 900; tick++ {
		if err := crowd.Step(&world, 1.0/60); err != nil {
			log.Fatal(err)
		}
		l, _ := crowd.State(&world, leader)
		f, _ := crowd.State(&world, follower)
		if tick >= 120 {
			maxGap = max(maxGap, geom.Dist2D(l.Position, f.Position))
		}
	}
	l, _ := crowd.State(&world, leader)
	f, _ := crowd.State(&world, follower)
	fmt.Println("leader arrived:", l.Arrived)
	fmt.Printf("follower within %.0f m of the leader after the start\n", maxGap+0.5)
	fmt.Printf("follower's final distance to the leader: %.0f m\n", geom.Dist2D(l.Position, f.Position))
	// Output:
	// leader arrived: true
	// follower within 4 m of the leader after the start
	// follower's final distance to the leader: 2 m
}

// TestFollowTheLeaderChangesMotion runs the example's scene with and without
// the user system: only with it does the follower move, and it ends near the
// leader.
func TestFollowTheLeaderChangesMotion(t *testing.T) {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	start := geom.Vec3{-12, 10.2, -18}
	run := func(withSystem bool) (follower, leader plugin.AgentInfo, desiredSeen bool) {
		crowd, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 2})
		require.NoError(t, err)
		world := ecs.NewWorld()
		require.NoError(t, crowd.Install(&world))
		if withSystem {
			require.NoError(t, crowd.Schedule().After(plugin.StageSteering, &FollowTheLeader{}))
		}
		params := components.DefaultAgentParams()
		l, err := crowd.Spawn(&world, geom.Vec3{-9.17, 10.2, -20.34}, params)
		require.NoError(t, err)
		f, err := crowd.Spawn(&world, start, params)
		require.NoError(t, err)
		follow := generic.NewMap1[Follow](&world)
		follow.Assign(f, &Follow{Leader: l})
		require.NoError(t, crowd.RequestMoveTarget(&world, l, geom.Vec3{11.2, 10.2, -0.93}))
		velocities := generic.NewMap[components.Velocity](&world)
		for tick := 0; tick < 900; tick++ {
			require.NoError(t, crowd.Step(&world, 1.0/60))
			if geom.Len(velocities.Get(f).Desired) > 1 {
				desiredSeen = true
			}
		}
		follower, err = crowd.State(&world, f)
		require.NoError(t, err)
		leader, err = crowd.State(&world, l)
		require.NoError(t, err)
		return follower, leader, desiredSeen
	}

	follower, leader, desired := run(false)
	assert.False(t, desired)
	assert.Less(t, geom.Dist2D(follower.Position, start), float32(0.5), "without the system the follower stays")
	assert.Greater(t, geom.Dist2D(follower.Position, leader.Position), float32(20))

	follower, leader, desired = run(true)
	assert.True(t, desired)
	assert.Greater(t, geom.Dist2D(follower.Position, start), float32(20), "with it the follower crosses the level")
	assert.Less(t, geom.Dist2D(follower.Position, leader.Position), float32(3))
	assert.True(t, leader.Arrived)
}

// A crowd switches its agents' avoidance from DetourCrowd's adaptive
// sampling to ORCA between two ticks: preset 3 (every agent's by default)
// is replaced, and the VelocitySampling stage stops scoring samples.
func ExamplePlugin_SetAvoidancePreset() {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	if err != nil {
		log.Fatal(err)
	}
	p, err := plugin.New(plugin.Config{Mesh: mesh, MaxAgents: 10})
	if err != nil {
		log.Fatal(err)
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		log.Fatal(err)
	}
	params := components.DefaultAgentParams()
	for _, start := range []geom.Vec3{{-9.17, 10.2, -20.34}, {-12, 10.2, -18}} {
		agent, err := p.Spawn(&world, start, params)
		if err != nil {
			log.Fatal(err)
		}
		if err := p.RequestMoveTarget(&world, agent, geom.Vec3{11.2, 10.2, -0.93}); err != nil {
			log.Fatal(err)
		}
	}
	step := func() {
		for range 30 {
			if err := p.Step(&world, 1.0/60); err != nil {
				log.Fatal(err)
			}
		}
	}
	step()
	fmt.Println("sampling, samples scored in the last tick:", p.Stats(&world).VelocitySamples > 0)

	if err := p.SetAvoidancePreset(&world, int(params.AvoidancePreset), crowd.ORCAPreset()); err != nil {
		log.Fatal(err)
	}
	step()
	preset, _ := p.AvoidancePreset(&world, int(params.AvoidancePreset))
	fmt.Printf("%s, samples scored in the last tick: %d\n", preset.Method, p.Stats(&world).VelocitySamples)
	// Output:
	// sampling, samples scored in the last tick: true
	// orca, samples scored in the last tick: 0
}
