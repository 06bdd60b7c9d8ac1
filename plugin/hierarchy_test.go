package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHierarchicalPaths plans the reference scenario's random targets on
// the generated level with and without the hierarchy: the crowd plans the
// same targets, sooner.
func TestHierarchicalPaths(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	plain := runReachScenario(t, mesh, 120, 240, Config{})
	hierarchical := runReachScenario(t, mesh, 120, 240, Config{HierarchicalPaths: On})
	t.Logf("plain:        %v", plain)
	t.Logf("hierarchical: %v", hierarchical)
	assert.Equal(t, plain.outOfReach, hierarchical.outOfReach)
	assert.LessOrEqual(t, hierarchical.unplanned, plain.unplanned)
	assert.Less(t, hierarchical.meanPlanTicks, plain.meanPlanTicks, "the queue plans with the hierarchy, not its A* fallback")
}

func TestHierarchicalPathsConfig(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	for _, c := range []struct {
		name   string
		config Config
		want   bool
	}{
		{"off", Config{}, false},
		{"on", Config{HierarchicalPaths: On}, true},
		{"reference", Config{HierarchicalPaths: On, Reference: true}, false},
	} {
		c.config.Mesh = mesh
		p, err := New(c.config)
		require.NoError(t, err, c.name)
		world := ecs.NewWorld()
		require.NoError(t, p.Install(&world), c.name)
		assert.Equal(t, c.want, p.Hierarchy() != nil, c.name)
		if c.want {
			// Built for the filter agents use by default, so their
			// searches do not fall back to plain A* (they did while the
			// hierarchy took query.NewFilter and agents the default
			// filter, which excludes navmesh.FlagDisabled).
			assert.True(t, p.Hierarchy().Matches(&p.filters.Get().List[0]), c.name)
		}
		assert.Equal(t, c.want, p.settings.Get().HierarchicalPaths, c.name)
		require.NoError(t, p.Step(&world, 1.0/60))
		assert.Equal(t, c.want, p.pathQueue.Hierarchical(), c.name)
		if c.want {
			// The Settings switch turns it off between ticks.
			p.settings.Get().HierarchicalPaths = false
			require.NoError(t, p.Step(&world, 1.0/60))
			assert.False(t, p.pathQueue.Hierarchical())
		}
	}
}
