package plugin

import (
	"runtime"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPluginHoldsEveryCorridor: arche moves component memory as bytes,
// unseen by the garbage collector's write barriers, so the plugin keeps
// every corridor it made reachable itself (Plugin.madeCorridors). After
// spawns, removals that move agents within their archetype, reuse from the
// pool, and snapshot restores, each agent's corridor is one the plugin
// holds, no two agents share one, and the plugin holds no more than the
// agents and the pool use. The crowd then steps on under a collection
// every tick: a corridor freed while in use would crash the runtime here
// (as it did, now and then, in the save and rollback tests before).
func TestPluginHoldsEveryCorridor(t *testing.T) {
	p, err := New(Config{Mesh: loadDungeon(t), MaxAgents: 64})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	t.Cleanup(func() { p.Schedule().Finalize(&world) })

	var agents []ecs.Entity
	spawn := func(n int) {
		for i := range n {
			e, err := p.Spawn(&world, geom.Add(openFloor, geom.Vec3{float32(i%8) - 4, 0, float32(i/8) - 2}), components.DefaultAgentParams())
			require.NoError(t, err)
			require.NoError(t, p.RequestMoveTarget(&world, e, geom.Add(openFloor, geom.Vec3{-float32(i % 5), 0, 3})))
			agents = append(agents, e)
		}
	}
	check := func(what string) {
		held := map[*crowd.Corridor]bool{}
		for _, c := range p.madeCorridors {
			held[c] = true
		}
		used := map[*crowd.Corridor]bool{}
		q := generic.NewFilter1[components.Corridor]().Query(&world)
		for q.Next() {
			c := q.Get().Corridor
			require.True(t, held[c], "%s: an agent's corridor the plugin does not hold", what)
			require.False(t, used[c], "%s: two agents share a corridor", what)
			used[c] = true
		}
		assert.Equal(t, len(used)+len(p.corridors), len(p.madeCorridors), "%s: held = used + pooled", what)
	}

	spawn(40)
	check("after spawning")
	for _, e := range agents[:25:25] {
		if e.ID()%2 == 0 {
			world.RemoveEntity(e)
		}
	}
	check("after removing")
	spawn(10)
	check("after reusing")
	var snap Snapshot
	require.NoError(t, p.Snapshot(&world, &snap))
	for range 30 {
		runtime.GC()
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	_, err = p.Restore(&world, &snap)
	require.NoError(t, err)
	check("after restoring")
	for range 30 {
		runtime.GC()
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	check("after stepping")
}
