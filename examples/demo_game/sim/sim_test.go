package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
)

func dungeon(t *testing.T) *level.Level {
	t.Helper()
	l, err := level.Load("../../../testdata/navmesh_solo_dungeon.bin", level.Options{})
	require.NoError(t, err)
	return l
}

func run(t *testing.T, s *Sim, seconds float32) {
	t.Helper()
	for i := 0; i < int(seconds*30); i++ {
		require.NoError(t, s.Step(1.0/30))
	}
}

func TestCrowdWalksToTargetsAndStaysOnTheMesh(t *testing.T) {
	l := dungeon(t)
	config := DefaultConfig()
	config.Agents = 20
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	run(t, s, 10)

	stats := s.Stats()
	assert.Equal(t, 20, stats.Agents)
	assert.Equal(t, 300, stats.Ticks)
	assert.Greater(t, stats.Arrivals, 3, "wandering agents reach targets")
	assert.NotEmpty(t, stats.Stages)

	q, err := query.New(l.Mesh, 64)
	require.NoError(t, err)
	agents := s.Agents(nil)
	require.Len(t, agents, 20)
	moving := 0
	for i, a := range agents {
		nearest, err := q.FindNearestPoly(a.Position, geom.Vec3{0.1, 1, 0.1}, query.NewFilter())
		require.NoError(t, err)
		assert.NotZero(t, nearest.Ref, "agent %d at %v is on the navmesh", i, a.Position)
		assert.Less(t, geom.Dist2D(nearest.Point, a.Position), float32(0.01), "agent %d at %v is on a polygon", i, a.Position)
		if geom.Len(a.Velocity) > 0.1 {
			moving++
		}
		assert.True(t, a.HasTarget, "agent %d has a target in wander mode", i)
	}
	assert.Greater(t, moving, 10)
}

func TestSameSeedSameRun(t *testing.T) {
	l := dungeon(t)
	positions := func(seed uint64) []geom.Vec3 {
		config := DefaultConfig()
		config.Agents, config.Seed = 10, seed
		s, err := New(l.Mesh, config)
		require.NoError(t, err)
		run(t, s, 2)
		var out []geom.Vec3
		for _, a := range s.Agents(nil) {
			out = append(out, a.Position)
		}
		return out
	}
	assert.Equal(t, positions(7), positions(7))
	assert.NotEqual(t, positions(7), positions(8))
}

func TestGatherSpawnAndPick(t *testing.T) {
	l := dungeon(t)
	layer, err := scene.NewNavmeshLayer(l.Mesh)
	require.NoError(t, err)
	config := DefaultConfig()
	config.Agents = 5
	s, err := New(l.Mesh, config)
	require.NoError(t, err)

	// The first agent's spot is on the mesh seen from above.
	first := s.Agents(nil)[0].Position
	picked, ok := s.PointAt(first[0], first[2], layer.Min[1], layer.Max[1])
	require.True(t, ok)
	assert.InDelta(t, first[0], picked[0], 1e-3)
	_, ok = s.PointAt(layer.Min[0]-10, layer.Min[2]-10, layer.Min[1], layer.Max[1])
	assert.False(t, ok, "nothing outside the level")

	require.NoError(t, s.Spawn(first))
	assert.Equal(t, 6, s.Stats().Agents)
	assert.Error(t, s.Spawn(geom.Vec3{layer.Min[0] - 50, 0, 0}), "off the mesh")

	require.NoError(t, s.SetTarget(first))
	for _, a := range s.Agents(nil) {
		assert.Equal(t, first, a.Target)
	}
	run(t, s, 45) // the farthest agent spawned 80 m away
	near := 0
	for _, a := range s.Agents(nil) {
		if geom.Dist2D(a.Position, first) < 4 {
			near++
		}
	}
	assert.GreaterOrEqual(t, near, 5, "gathered agents end up around the target")
	assert.Error(t, s.Step(0))
}

func TestConfigIsChecked(t *testing.T) {
	l := dungeon(t)
	for _, change := range []func(*Config){
		func(c *Config) { c.Agents = -1 },
		func(c *Config) { c.Agents = c.MaxAgents + 1 },
		func(c *Config) { c.Workers = 0 },
		func(c *Config) { c.Radius = 0 },
		func(c *Config) { c.MaxSpeed = -1 },
	} {
		config := DefaultConfig()
		change(&config)
		_, err := New(l.Mesh, config)
		assert.Error(t, err)
	}
}

func TestDebugStateForOverlays(t *testing.T) {
	l := dungeon(t)
	config := DefaultConfig()
	config.Agents = 30
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	run(t, s, 3)

	all := s.Debug(nil, -1)
	require.Len(t, all, 30)
	withCorridor, withCorners, withNeighbours, withWalls := 0, 0, 0, 0
	for i, d := range all {
		if len(d.Corridor) > 0 {
			withCorridor++
		}
		if len(d.Corners) > 0 {
			withCorners++
		}
		if len(d.Neighbours) > 0 {
			withNeighbours++
			for _, n := range d.Neighbours {
				assert.NotEqual(t, i, n, "an agent is not its own neighbour")
				assert.Less(t, n, 30)
			}
		}
		if len(d.Boundary) > 0 {
			withWalls++
		}
		assert.Empty(t, d.Samples, "samples only for a selected agent")
	}
	assert.Equal(t, 30, withCorridor)
	assert.Greater(t, withCorners, 20)
	assert.Positive(t, withNeighbours)
	assert.Greater(t, withWalls, 20)

	// The selected agent alone gets its state, with avoidance samples when
	// it is walking.
	agents := s.Agents(nil)
	selected := -1
	for i, a := range agents {
		if geom.Len(a.Velocity) > 0.5 {
			selected = i
			break
		}
	}
	require.GreaterOrEqual(t, selected, 0)
	one := s.Debug(nil, selected)
	for i, d := range one {
		if i != selected {
			assert.Empty(t, d.Corridor)
			continue
		}
		assert.NotEmpty(t, d.Corridor)
		require.NotEmpty(t, d.Samples)
		best := float32(2)
		for _, sample := range d.Samples {
			assert.True(t, sample.Penalty >= 0 && sample.Penalty <= 1, "normalized penalty %v", sample.Penalty)
			best = min(best, sample.Penalty)
		}
		assert.Zero(t, best, "the best sample normalizes to 0")
	}
	p := agents[selected].Position
	assert.Equal(t, selected, s.Nearest(p[0], p[2], 0.01))
	assert.Equal(t, -1, s.Nearest(l.Mesh.Params().Origin[0]-100, 0, 1))
}

func TestBehaviourFlagsReachTheAgents(t *testing.T) {
	l := dungeon(t)
	config := DefaultConfig()
	config.Agents = 10
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	assert.Equal(t, DefaultBehaviour, s.Behaviour())
	off := Behaviour{}
	s.SetBehaviour(off)
	assert.Equal(t, off, s.Behaviour())
	run(t, s, 1)
	for i, d := range s.Debug(nil, 0) {
		if i == 0 {
			assert.Empty(t, d.Samples, "no avoidance, no samples")
		}
	}
}

// TestSwitchingAvoidance: the method switches for every agent; ORCA scores
// no samples to draw, the samplers do, and the crowd keeps walking.
func TestSwitchingAvoidance(t *testing.T) {
	l := dungeon(t)
	config := DefaultConfig()
	config.Agents = 20
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	assert.Equal(t, crowd.AvoidanceAdaptive, s.Avoidance())
	samples := func() int {
		for i, a := range s.Agents(nil) {
			if geom.Len(a.Velocity) > 0.5 {
				return len(s.Debug(nil, i)[i].Samples)
			}
		}
		t.Fatal("no agent walking")
		return 0
	}
	for _, method := range []crowd.AvoidanceMethod{crowd.AvoidanceORCA, crowd.AvoidanceGrid, crowd.AvoidanceAdaptive} {
		require.NoError(t, s.SetAvoidance(method))
		assert.Equal(t, method, s.Avoidance())
		before := s.Agents(nil)
		run(t, s, 3)
		moved := 0
		for i, a := range s.Agents(nil) {
			if geom.Dist2D(a.Position, before[i].Position) > 1 {
				moved++
			}
		}
		assert.Greater(t, moved, 10, "%v: the crowd keeps walking", method)
		if method == crowd.AvoidanceORCA {
			assert.Zero(t, samples(), "ORCA samples nothing")
		} else {
			assert.Positive(t, samples(), "%v", method)
		}
	}
	assert.Error(t, s.SetAvoidance(9))
	assert.Equal(t, crowd.AvoidanceAdaptive, s.Avoidance(), "unchanged after an error")
}
