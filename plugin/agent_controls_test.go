package plugin

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkAlone sends one agent with params across the open floor from start
// to goal for ticks ticks and returns its positions and speeds, tick by
// tick, and the tick EventTargetReached fired (-1 for none).
func walkAlone(t *testing.T, params components.AgentParams, start, goal geom.Vec3, ticks int) ([]geom.Vec3, []float32, int) {
	t.Helper()
	log := &eventLog{}
	p, err := New(Config{Mesh: floorLevel(t), MaxAgents: 2, OnEvent: log.record})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	e, err := p.Spawn(&world, start, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, goal))
	var positions []geom.Vec3
	var speeds []float32
	for log.tick = 0; log.tick < ticks; log.tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
		info, err := p.State(&world, e)
		require.NoError(t, err)
		positions = append(positions, info.Position)
		speeds = append(speeds, geom.Len(info.Velocity))
	}
	reached := -1
	for i, ev := range log.events {
		if ev.Kind == components.EventTargetReached {
			reached = log.ticks[i]
		}
	}
	return positions, speeds, reached
}

// TestStoppingAndBrakingDistance: an agent with a stopping distance stands
// still that far from its target, having arrived; one with a longer
// braking distance starts slowing down sooner. By default it walks to the
// target and slows within two radii.
func TestStoppingAndBrakingDistance(t *testing.T) {
	start, goal := geom.Vec3{2, 0, 10}, geom.Vec3{18, 0, 10}
	plain := components.DefaultAgentParams()
	positions, speeds, reached := walkAlone(t, plain, start, goal, 600)
	require.GreaterOrEqual(t, reached, 0)
	assert.Less(t, geom.Dist2D(positions[len(positions)-1], goal), float32(0.2))

	stopping := plain
	stopping.StoppingDistance = 2
	sPositions, sSpeeds, sReached := walkAlone(t, stopping, start, goal, 600)
	require.GreaterOrEqual(t, sReached, 0, "arrived at its stopping distance")
	end := geom.Dist2D(sPositions[len(sPositions)-1], goal)
	assert.InDelta(t, 2, end, 0.2, "stands still about its stopping distance from the target")
	assert.Less(t, sSpeeds[len(sSpeeds)-1], float32(0.01))
	assert.Less(t, sReached, reached, "arrives sooner, being nearer")

	braking := plain
	braking.BrakingDistance = 5
	bPositions, bSpeeds, _ := walkAlone(t, braking, start, goal, 600)
	// At 3 m from the target the default still walks at full speed, the
	// long brake is already slower.
	speedAt := func(positions []geom.Vec3, speeds []float32, d float32) float32 {
		for i, p := range positions {
			if geom.Dist2D(p, goal) < d {
				return speeds[i]
			}
		}
		return -1
	}
	assert.InDelta(t, plain.MaxSpeed, speedAt(positions, speeds, 3), 0.05)
	assert.Less(t, speedAt(bPositions, bSpeeds, 3), 0.8*plain.MaxSpeed)
	assert.Less(t, geom.Dist2D(bPositions[len(bPositions)-1], goal), float32(0.2))
}

// avoidanceMethods are the methods the per-agent avoidance controls are
// tested with: the reference's adaptive sampling and ORCA.
var avoidanceMethods = []crowd.AvoidanceMethod{crowd.AvoidanceAdaptive, crowd.AvoidanceORCA}

// presetsFor returns avoidance presets whose default one (the agents'
// preset 3) uses method.
func presetsFor(method crowd.AvoidanceMethod) []crowd.AvoidanceParams {
	presets := components.NewAvoidancePresets()
	preset := &presets.List[components.DefaultAgentParams().AvoidancePreset]
	if method == crowd.AvoidanceORCA {
		*preset = crowd.ORCAPreset()
	}
	return presets.List[:]
}

// headOn sends two agents at each other along the floor's middle, avoiding
// with method, and returns how far each strayed sideways from its line and
// how near they came.
func headOn(t *testing.T, method crowd.AvoidanceMethod, a, b components.AgentParams) (float32, float32, float32) {
	t.Helper()
	p, err := New(Config{Mesh: floorLevel(t), MaxAgents: 2, AvoidancePresets: presetsFor(method)})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	ea, err := p.Spawn(&world, geom.Vec3{3, 0, 10}, a)
	require.NoError(t, err)
	eb, err := p.Spawn(&world, geom.Vec3{17, 0, 10.05}, b)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, ea, geom.Vec3{17, 0, 10}))
	require.NoError(t, p.RequestMoveTarget(&world, eb, geom.Vec3{3, 0, 10.05}))
	var strayA, strayB float32
	nearest := float32(100)
	for range 360 {
		require.NoError(t, p.Step(&world, 1.0/60))
		ia, err := p.State(&world, ea)
		require.NoError(t, err)
		ib, err := p.State(&world, eb)
		require.NoError(t, err)
		strayA = max(strayA, geom.Abs(ia.Position[2]-10))
		strayB = max(strayB, geom.Abs(ib.Position[2]-10.05))
		nearest = min(nearest, geom.Dist2D(ia.Position, ib.Position))
	}
	return strayA, strayB, nearest
}

// TestAvoidancePriority: of two agents meeting head-on, the one of lower
// priority gives way (it strays more, the other keeps nearer its line);
// of equal priority they share it.
func TestAvoidancePriority(t *testing.T) {
	for _, method := range avoidanceMethods {
		t.Run(method.String(), func(t *testing.T) {
			plain := components.DefaultAgentParams()
			equalA, equalB, _ := headOn(t, method, plain, plain)
			t.Logf("equal priorities: strays %.2f and %.2f", equalA, equalB)
			assert.Greater(t, equalA, float32(0.2))
			assert.Greater(t, equalB, float32(0.2))

			important := plain
			important.AvoidancePriority = 5
			highA, lowB, _ := headOn(t, method, important, plain)
			t.Logf("a first: strays %.2f and %.2f", highA, lowB)
			assert.Less(t, highA, 0.5*equalA, "the important agent keeps to its line")
			assert.Greater(t, lowB, equalB, "the other gives way")
		})
	}
}

// TestAvoidanceLayers: agents whose masks leave out each other's layer do
// not avoid each other: they walk their lines until their bodies touch
// and the collision pushes part them; in each other's masks they pass with
// room to spare.
func TestAvoidanceLayers(t *testing.T) {
	for _, method := range avoidanceMethods {
		t.Run(method.String(), func(t *testing.T) {
			plain := components.DefaultAgentParams()
			_, _, apart := headOn(t, method, plain, plain)
			ghost := plain
			ghost.AvoidanceLayers, ghost.AvoidanceMask = 0b100, 0b100 // a layer the default mask leaves out
			_, _, through := headOn(t, method, ghost, plain)
			t.Logf("nearest: %.2f avoiding, %.2f in layers apart", apart, through)
			assert.Greater(t, apart, float32(2*plain.Radius)+0.3, "avoiding, they pass with room to spare")
			assert.Less(t, through, float32(2*plain.Radius)+0.01, "not avoiding, they run into each other")

			// A mask with the ghost's layer avoids it again.
			seeing := plain
			seeing.AvoidanceMask = 0b101
			strayGhost, strayB, _ := headOn(t, method, ghost, seeing)
			assert.Less(t, strayGhost, strayB, "only the one that sees the other gives way")
			assert.Greater(t, strayB, float32(0.2))
		})
	}
}

// TestDefaultControlsChangeNothing: spelling out the defaults of the
// per-agent controls (no stopping distance, braking over two radii,
// priority 0, layer 1 and mask 1) moves a crowd exactly as their zero
// values do.
func TestDefaultControlsChangeNothing(t *testing.T) {
	mesh := loadDungeon(t)
	run := func(params components.AgentParams) []geom.Vec3 {
		f := newCrowd(t, mesh, 80, 21, Config{})
		for _, e := range f.agents {
			require.NoError(t, f.plugin.UpdateParams(f.world, e, params))
		}
		f.step(t, 200)
		return f.positions(t)
	}
	zero := components.DefaultAgentParams()
	spelt := zero
	spelt.BrakingDistance = 2 * zero.Radius
	spelt.AvoidanceLayers, spelt.AvoidanceMask = 1, 1
	require.Equal(t, run(zero), run(spelt))
}
