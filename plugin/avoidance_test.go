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

// orcaConfig is a Config whose preset 3, the agents' default, is ORCA.
func orcaConfig(workers int) Config {
	presets := components.NewAvoidancePresets()
	presets.List[components.DefaultAgentParams().AvoidancePreset] = crowd.ORCAPreset()
	return Config{Workers: workers, AvoidancePresets: presets.List[:]}
}

// mixMethods moves every other agent of f to preset 2 (adaptive sampling),
// so that one tick runs both methods.
func mixMethods(tb testing.TB, f *crowdFixture) {
	tb.Helper()
	for i, e := range f.agents {
		if i%2 == 0 {
			continue
		}
		params := components.DefaultAgentParams()
		params.AvoidancePreset = 2
		require.NoError(tb, f.plugin.UpdateParams(f.world, e, params))
	}
}

// TestORCAWorkersAreBitIdentical: ORCA agents mixed with sampling ones
// (every other agent) move to the same bits on 1, 2 and 5 workers (run it
// with -race).
func TestORCAWorkersAreBitIdentical(t *testing.T) {
	mesh := loadDungeon(t)
	ticks, agents := 150, 150
	if testing.Short() {
		ticks, agents = 60, 100
	}
	var want []geom.Vec3
	for _, workers := range []int{1, 2, 5} {
		f := newCrowd(t, mesh, agents, 21, orcaConfig(workers))
		mixMethods(t, f)
		f.step(t, ticks)
		got := f.positions(t)
		f.plugin.Schedule().Finalize(f.world)
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got, "%d workers", workers)
	}
}

// TestORCASameSeedSamePositions: run after run, the same bits.
func TestORCASameSeedSamePositions(t *testing.T) {
	mesh := loadDungeon(t)
	run := func() []geom.Vec3 {
		f := newCrowd(t, mesh, 120, 22, orcaConfig(2))
		defer f.plugin.Schedule().Finalize(f.world)
		f.step(t, 200)
		return f.positions(t)
	}
	assert.Equal(t, run(), run())
}

// TestAvoidanceMethodIsPerPreset: the stage runs the method of each
// agent's preset. ORCA scores no samples; a crowd all on ORCA, all on
// adaptive sampling or mixed moves differently.
func TestAvoidanceMethodIsPerPreset(t *testing.T) {
	mesh := loadDungeon(t)
	run := func(config Config, mixed bool) ([]geom.Vec3, int) {
		f := newCrowd(t, mesh, 80, 23, config)
		defer f.plugin.Schedule().Finalize(f.world)
		if mixed {
			mixMethods(t, f)
		}
		samples := 0
		for range 120 {
			f.step(t, 1)
			samples += f.plugin.Stats(f.world).VelocitySamples
		}
		return f.positions(t), samples
	}
	adaptive, adaptiveSamples := run(Config{}, false)
	orca, orcaSamples := run(orcaConfig(1), false)
	mixed, mixedSamples := run(orcaConfig(1), true)
	assert.Zero(t, orcaSamples)
	assert.Positive(t, mixedSamples)
	assert.Less(t, mixedSamples, adaptiveSamples)
	assert.NotEqual(t, adaptive, orca)
	assert.NotEqual(t, orca, mixed)
}

func TestSetAvoidancePreset(t *testing.T) {
	mesh := loadDungeon(t)
	f := newCrowd(t, mesh, 40, 24, Config{})
	defer f.plugin.Schedule().Finalize(f.world)
	f.step(t, 30)
	assert.Positive(t, f.plugin.Stats(f.world).VelocitySamples, "adaptive sampling at first")

	preset, err := f.plugin.AvoidancePreset(f.world, 3)
	require.NoError(t, err)
	assert.Equal(t, crowd.AvoidancePreset(crowd.AvoidanceHigh), preset)

	// Bad input changes nothing.
	bad := crowd.ORCAPreset()
	bad.ORCA.TimeHorizon = 0
	assert.ErrorIs(t, f.plugin.SetAvoidancePreset(f.world, 3, bad), ErrInvalidInput)
	assert.ErrorIs(t, f.plugin.SetAvoidancePreset(f.world, components.MaxAvoidancePresets, crowd.ORCAPreset()), ErrInvalidInput)
	assert.ErrorIs(t, f.plugin.SetAvoidancePreset(f.world, -1, crowd.ORCAPreset()), ErrInvalidInput)
	_, err = f.plugin.AvoidancePreset(f.world, 8)
	assert.ErrorIs(t, err, ErrInvalidInput)
	other := ecs.NewWorld()
	assert.ErrorIs(t, f.plugin.SetAvoidancePreset(&other, 3, crowd.ORCAPreset()), ErrNotInstalled)
	preset, err = f.plugin.AvoidancePreset(f.world, 3)
	require.NoError(t, err)
	assert.Equal(t, crowd.AvoidanceAdaptive, preset.Method)

	// Switched to ORCA, the same agents stop sampling from the next tick.
	require.NoError(t, f.plugin.SetAvoidancePreset(f.world, 3, crowd.ORCAPreset()))
	preset, err = f.plugin.AvoidancePreset(f.world, 3)
	require.NoError(t, err)
	assert.Equal(t, crowd.ORCAPreset(), preset)
	f.step(t, 1)
	assert.Zero(t, f.plugin.Stats(f.world).VelocitySamples)
}

func TestConfigValidatesPresetMethods(t *testing.T) {
	mesh := loadDungeon(t)
	bad := crowd.ORCAPreset()
	bad.ORCA.MaxNeighbours = -1
	_, err := New(Config{Mesh: mesh, AvoidancePresets: []crowd.AvoidanceParams{bad}})
	assert.ErrorIs(t, err, ErrInvalidConfig)
	unknown := crowd.DefaultAvoidanceParams()
	unknown.Method = 9
	_, err = New(Config{Mesh: mesh, AvoidancePresets: []crowd.AvoidanceParams{unknown}})
	assert.ErrorIs(t, err, ErrInvalidConfig)
	// ORCA needs only its own fields.
	_, err = New(Config{Mesh: mesh, AvoidancePresets: []crowd.AvoidanceParams{{Method: crowd.AvoidanceORCA, ORCA: crowd.DefaultORCAParams()}}})
	assert.NoError(t, err)
}
