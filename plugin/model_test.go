package plugin

import (
	"testing"

	"github.com/mlange-42/arche-model/model"
	"github.com/mlange-42/arche-model/system"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
)

// TestScheduleInArcheModel drops the crowd's schedule into an arche-model
// Model as one of its systems and runs the model for 120 ticks: the agents
// end exactly where 120 calls of Plugin.Step at the configured time step
// put the same crowd.
func TestScheduleInArcheModel(t *testing.T) {
	const ticks = 120
	mesh := loadDungeon(t)
	config := Config{Mesh: mesh, MaxAgents: 20, Workers: 2, TimeStep: 1.0 / 60}

	stepped := newCrowd(t, mesh, 20, 7, config)
	defer stepped.plugin.Schedule().Finalize(stepped.world)
	for range ticks {
		require.NoError(t, stepped.plugin.Step(stepped.world, config.TimeStep))
	}
	want := stepped.positions(t)

	m := model.New()
	m.Seed(1)
	p, err := New(config)
	require.NoError(t, err)
	require.NoError(t, p.Install(&m.World))
	starts, targets := randomPairs(t, mesh, 20, 7)
	specs := make([]AgentSpec, len(starts))
	for i, start := range starts {
		specs[i] = AgentSpec{Position: start, Params: components.DefaultAgentParams()}
	}
	agents, err := p.SpawnBatch(&m.World, specs, nil)
	require.NoError(t, err)
	for i, e := range agents {
		require.NoError(t, p.RequestMoveTarget(&m.World, e, targets[i]))
	}
	m.AddSystem(p.Schedule())
	m.AddSystem(&system.FixedTermination{Steps: ticks})
	m.Run()

	moved := 0
	for i, e := range agents {
		info, err := p.State(&m.World, e)
		require.NoError(t, err)
		assert.Equal(t, want[i], info.Position, "agent %d", i)
		if geom.Dist2D(info.Position, starts[i]) > 1 {
			moved++
		}
	}
	assert.Greater(t, moved, 10, "agents that walked more than 1 m")
}
