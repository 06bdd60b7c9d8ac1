package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mediumLevel returns a 400 m level of the generated kind (441 tiles,
// about 8000 polygons): large by the polygon rule, quick to bake.
func mediumLevel(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	p := bigworld.Default()
	p.Size, p.Boxes = 400, 320
	mesh, err := p.CachedMesh(context.Background(), 0)
	require.NoError(tb, err)
	return mesh
}

// onGrid returns a mesh holding the tiles of mesh on a grid with room for
// maxTiles tiles.
func onGrid(tb testing.TB, mesh *navmesh.Mesh, maxTiles int) *navmesh.Mesh {
	tb.Helper()
	params := mesh.Params()
	params.MaxTiles = maxTiles
	grid, err := navmesh.New(params)
	require.NoError(tb, err)
	for tile := range mesh.Snapshot().Tiles() {
		_, err := grid.AddTile(tile.Data, 0)
		require.NoError(tb, err)
	}
	return grid
}

func TestIsLargeLevel(t *testing.T) {
	small, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	medium := mediumLevel(t)
	polys := 0
	for tile := range medium.Snapshot().Tiles() {
		polys += len(tile.Polys)
	}
	require.Greater(t, polys, largeLevelPolygons, "the medium level's polygons")
	require.Less(t, medium.MaxTiles(), largeLevelMaxTiles, "the medium level's grid")
	for _, tc := range []struct {
		name string
		mesh *navmesh.Mesh
		want bool
	}{
		{"nil", nil, false},
		{"dungeon solo", loadDungeon(t), false},
		{"250 m level", small, false},
		{"250 m level on a 1024-tile grid", onGrid(t, small, largeLevelMaxTiles), true},
		{"250 m level on a 512-tile grid", onGrid(t, small, 512), false},
		{"400 m level", medium, true},
	} {
		assert.Equal(t, tc.want, IsLargeLevel(tc.mesh), tc.name)
	}
}

// TestLargeLevelDefaults: on a large level the hierarchy and the large
// queue sizes come by default; what the user sets stays, Reference keeps
// the reference's, and a small level keeps the defaults it always had.
func TestLargeLevelDefaults(t *testing.T) {
	medium := mediumLevel(t)
	dungeon := loadDungeon(t)
	smallQueue := crowd.DefaultPathQueueConfig()
	largeQueue := crowd.DefaultPathQueueConfig()
	largeQueue.Slots = LargeLevelPathQueueSlots
	referenceQueue := crowd.DefaultPathQueueConfig()
	referenceQueue.NodeLimit, referenceQueue.FullSearchUnreachable, referenceQueue.ReferenceSchedule = 0, true, true
	for _, tc := range []struct {
		name                 string
		config               Config
		hierarchy            bool
		queue                crowd.PathQueueConfig
		iterations, requests int
	}{
		{"large", Config{Mesh: medium}, true, largeQueue, LargeLevelPathQueueIterations, LargeLevelRequestsPerTick},
		{"large, hierarchy off", Config{Mesh: medium, HierarchicalPaths: Off}, false, largeQueue, LargeLevelPathQueueIterations, LargeLevelRequestsPerTick},
		{"large, own budgets", Config{Mesh: medium, PathQueueIterations: 500, RequestsPerTick: 4}, true, largeQueue, 500, 4},
		{"large, reference", Config{Mesh: medium, Reference: true}, false, referenceQueue, DefaultPathQueueIterations, DefaultRequestsPerTick},
		{"small", Config{Mesh: dungeon}, false, smallQueue, DefaultPathQueueIterations, DefaultRequestsPerTick},
		{"small, hierarchy on", Config{Mesh: dungeon, HierarchicalPaths: On}, true, smallQueue, DefaultPathQueueIterations, DefaultRequestsPerTick},
	} {
		p, err := New(tc.config)
		require.NoError(t, err, tc.name)
		c := p.Config()
		assert.Equal(t, tc.queue, c.PathQueue, tc.name)
		assert.Equal(t, tc.iterations, c.PathQueueIterations, tc.name)
		assert.Equal(t, tc.requests, c.RequestsPerTick, tc.name)
		world := ecs.NewWorld()
		require.NoError(t, p.Install(&world), tc.name)
		assert.Equal(t, tc.hierarchy, p.Hierarchy() != nil, tc.name)
		assert.Equal(t, tc.hierarchy, p.settings.Get().HierarchicalPaths, tc.name)
		assert.Equal(t, tc.queue.Slots, p.pathQueue.Slots(), tc.name)
		wantQuick := components.DefaultQuickSearchesPerTick
		if tc.config.Reference {
			wantQuick = 0
		}
		assert.Equal(t, wantQuick, p.settings.Get().QuickSearchesPerTick, tc.name)
	}
	_, err := New(Config{Mesh: dungeon, HierarchicalPaths: Off + 1})
	assert.ErrorIs(t, err, ErrInvalidConfig)
}

// TestPathWaitsRecordTheFirstPath watches 80 agents sent across the 250 m
// level tick by tick from outside (the first tick after which each one's
// target is TargetValid) and compares the crowd's own account of their
// waits with it.
func TestPathWaitsRecordTheFirstPath(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	const agents, ticks, dt = 80, 30, float32(1.0 / 60)
	f := newCrowd(t, mesh, agents, 7, Config{})
	found := make([]int, agents) // the tick each agent's first path came, 0 before
	for tick := 1; tick <= ticks; tick++ {
		f.step(t, 1)
		for i, e := range f.agents {
			info, err := f.plugin.State(f.world, e)
			require.NoError(t, err)
			if found[i] == 0 && info.Target == components.TargetValid {
				found[i] = tick
			}
		}
	}
	// A wait is the time steps the agent waited, summed as the crowd sums
	// them.
	wait := func(ticks int) float32 {
		w := float32(0)
		for range ticks {
			w += dt
		}
		return w
	}
	var want components.PathWaits
	waiting, longest := 0, float32(0)
	for _, tick := range found {
		if tick == 0 {
			waiting++
			longest = wait(ticks)
			continue
		}
		want.Add(wait(tick))
	}
	stats := f.plugin.Stats(f.world)
	require.Positive(t, want.Count)
	require.Positive(t, waiting, "some agents still wait: the level's queue is the reference's")
	assert.Equal(t, want, stats.PathWaits)
	assert.Equal(t, waiting, stats.WaitingForPath)
	assert.Equal(t, longest, stats.LongestWait)
	assert.Equal(t, waiting, stats.OpenWaits.Count)

	// A new request starts a new wait.
	require.NoError(t, f.plugin.RequestMoveTarget(f.world, f.agents[0], f.targets[1]))
	f.step(t, 1)
	assert.GreaterOrEqual(t, f.plugin.Stats(f.world).PathWaits.Count+f.plugin.Stats(f.world).WaitingForPath, want.Count+waiting+1)
}

// TestQuickSearchesSpreadOverTicks sends 100 agents off at once with at
// most 30 quick searches a tick: they run over four ticks, each agent's
// once, and the reference runs them all at once.
func TestQuickSearchesSpreadOverTicks(t *testing.T) {
	mesh := loadDungeon(t)
	for _, reference := range []bool{false, true} {
		f := newCrowd(t, mesh, 100, 3, Config{Reference: reference})
		if !reference {
			f.plugin.settings.Get().QuickSearchesPerTick = 30
		}
		searched := make([]bool, len(f.agents))
		for tick := 1; tick <= 4; tick++ {
			f.step(t, 1)
			want := max(0, 100-30*tick)
			if reference {
				want = 0
			}
			assert.Equal(t, want, f.plugin.Stats(f.world).QuickSearchesPending, "tick %d, reference %v", tick, reference)
			requesting := 0
			for i, e := range f.agents {
				info, err := f.plugin.State(f.world, e)
				require.NoError(t, err)
				if info.Target == components.TargetRequesting {
					requesting++
					assert.False(t, searched[i], "agent %d searched again at tick %d", i, tick)
				}
				searched[i] = info.Target != components.TargetRequesting
			}
			assert.Equal(t, want, requesting, "tick %d", tick)
		}
	}
}
