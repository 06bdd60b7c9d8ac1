package plugin

import (
	"context"
	"runtime"
	"testing"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLargeLevelTicksDoNotAllocate runs 2000 agents sent to random targets
// with the defaults on a large level, on one and two workers: once the
// crowd has set itself up (two seconds), a tick allocates nothing, with
// the path queue planning on the hierarchy all along. The 1 km level
// (benchmarks/bigworld's Default) runs with ARCHENAV_LONG=1, the 400 m one
// always.
func TestLargeLevelTicksDoNotAllocate(t *testing.T) {
	if longtest.Race {
		t.Skip("the race detector allocates")
	}
	levels := []struct {
		name string
		mesh func(testing.TB) *navmesh.Mesh
	}{{"400 m", mediumLevel}}
	if longtest.Enabled() {
		levels = append(levels, struct {
			name string
			mesh func(testing.TB) *navmesh.Mesh
		}{"1 km", func(tb testing.TB) *navmesh.Mesh {
			mesh, err := bigworld.Default().CachedMesh(context.Background(), 0)
			require.NoError(tb, err)
			return mesh
		}})
	}
	for _, level := range levels {
		mesh := level.mesh(t)
		for _, workers := range []int{1, 2} {
			f := newCrowd(t, mesh, 2000, 11, Config{Workers: workers})
			require.NotNil(t, f.plugin.Hierarchy(), "a large level plans on the hierarchy")
			// Half of them get a new target after the set-up, so that the
			// measured ticks plan paths.
			// A first round of new targets warms the hierarchy searchers'
			// scratch up to the level's tiles (the 1 km level's searchers
			// still grew in the first rounds); the second is measured.
			f.step(t, 120)
			for round := range 2 {
				for i := 0; i < len(f.agents); i += 2 {
					require.NoError(t, f.plugin.RequestMoveTarget(f.world, f.agents[i], f.targets[(i+7+round*13)%len(f.targets)]))
				}
				if round == 0 {
					f.step(t, 240)
				}
			}
			requests := 0
			allocs := testing.AllocsPerRun(60, func() {
				f.step(t, 1)
				stats := f.plugin.Stats(f.world)
				requests += stats.PathQueueRequests
			})
			assert.Zero(t, allocs, "%s, %d workers", level.name, workers)
			assert.Positive(t, requests, "%s: the path queue searched meanwhile", level.name)
			t.Logf("%s, %d workers: %d queue requests in the measured ticks", level.name, workers, requests)
			f.plugin.Schedule().Finalize(f.world)
		}
	}
}

// TestSpawnBatchReservesFirstTick spawns 2000 agents in one SpawnBatch on
// the 400 m level and checks that the first tick allocates little: the
// per-agent buffers of the stages, the stages' agent list and the
// proximity grid's index were sized by SpawnBatch, outside the tick
// (issue 23; they took about 1 KB per agent in the first tick before).
// What is left (about 150 bytes per agent here) is the hierarchy
// searchers' scratch growing with their first searches and the stages'
// set-up on the first Step.
func TestSpawnBatchReservesFirstTick(t *testing.T) {
	if longtest.Race {
		t.Skip("the race detector allocates")
	}
	const agents = 2000
	mesh := mediumLevel(t)
	for _, workers := range []int{1, 2} {
		f := newCrowd(t, mesh, agents, 11, Config{Workers: workers})
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f.step(t, 1)
		runtime.ReadMemStats(&after)
		f.plugin.Schedule().Finalize(f.world)
		allocated := after.TotalAlloc - before.TotalAlloc
		t.Logf("%d workers: the first tick allocated %d bytes in %d objects", workers, allocated, after.Mallocs-before.Mallocs)
		assert.Less(t, allocated, uint64(agents*256), "%d workers: bytes allocated by the first tick", workers)
	}
}
