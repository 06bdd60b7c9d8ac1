package plugin

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soakTicksPerMinute is a simulated minute at 60 ticks a second.
const soakTicksPerMinute = 3600

// soakProfile, when set, is called after each simulated minute's GC.
var soakProfile func(minute int)

// soakRun describes one soak: its crowd and how long it runs.
type soakRun struct {
	agents, minutes, workers int
}

// TestHeapStaysFlat runs a crowd of 120 agents on the tile cache of
// dungeon with the hierarchy on: agents get a new random target when they
// arrive, and every 20 s a quarter of the crowd is sent elsewhere at once;
// 24 obstacles move, come and go every 5 s; every 7 s two layers of the
// cache are taken out (their tiles leave the navmesh) and put back 2 s
// later. The live heap after a GC at the end stays within 5 % of what it
// was after the first simulated minute, when every cache and pool the run
// needs has grown: nothing grows with time.
//
// It runs with ARCHENAV_LONG=1, without the race detector, for 3
// simulated minutes (about 25 s on a 2-core machine at load 23: CI's
// version); ARCHENAV_SOAK gives the full length, ARCHENAV_SOAK=30m the 30
// simulated minutes (108,000 ticks) of issue 23, 4 to 12 minutes
// by the load.
func TestHeapStaysFlat(t *testing.T) {
	longtest.SkipSoak(t)
	length, _ := longtest.SoakDuration(t, 3*time.Minute)
	run := soakRun{agents: 120, minutes: max(2, int(length/time.Minute)), workers: 2}
	first, last, minutes := runSoak(t, run)
	for m, heap := range minutes {
		t.Logf("after minute %d: %.2f MB live", m+1, float64(heap)/1e6)
	}
	t.Logf("live heap after the first minute %.2f MB, at the end %.2f MB (%+.1f %%)",
		float64(first)/1e6, float64(last)/1e6, 100*(float64(last)/float64(first)-1))
	assert.LessOrEqual(t, float64(last), 1.05*float64(first), "live heap at the end against after the first minute")
}

// runSoak runs a soak and returns the live heap after the first simulated
// minute and at the end, and after each minute.
func runSoak(t *testing.T, run soakRun) (first, last uint64, minutes []uint64) {
	cache := loadDungeonCache(t)
	r := newObstacleRun(t, cache, run.agents, 31, Config{Workers: run.workers, HierarchicalPaths: On})
	defer r.plugin.Schedule().Finalize(r.world)
	require.NotNil(t, r.plugin.Hierarchy())
	states := randomObstacleStates(t, cache, 24, 32, 33)
	rng := rand.New(rand.NewPCG(34, 35))
	q, err := query.New(cache.Mesh(), 256)
	require.NoError(t, err)
	filter := components.DefaultFilter()
	target := func() geom.Vec3 {
		p, err := q.FindRandomPoint(&filter, rng.Float32)
		require.NoError(t, err)
		return p.Pos
	}
	var taken []takenLayer
	live := func() uint64 {
		var stats runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&stats)
		return stats.HeapAlloc
	}
	ticks := run.minutes * soakTicksPerMinute
	for tick := 1; tick <= ticks; tick++ {
		switch {
		case tick%300 == 0:
			r.apply(t, states[(tick/300)%len(states)])
		case tick%420 == 0:
			taken = takeLayers(t, cache, rng, 2)
		case tick%420 == 120:
			putLayers(t, cache, taken)
			taken = nil
		}
		if tick%1200 == 0 {
			for i := rng.IntN(4); i < len(r.agents); i += 4 {
				require.NoError(t, r.plugin.RequestMoveTarget(r.world, r.agents[i], target()))
			}
		}
		require.NoError(t, r.plugin.Step(r.world, 1.0/60), "tick %d", tick)
		for _, ev := range r.plugin.Events(r.world) {
			if ev.Kind == components.EventTargetReached {
				require.NoError(t, r.plugin.RequestMoveTarget(r.world, ev.Entity, target()))
			}
		}
		if tick%soakTicksPerMinute == 0 {
			heap := live()
			if soakProfile != nil {
				soakProfile(tick / soakTicksPerMinute)
			}
			minutes = append(minutes, heap)
			if tick == soakTicksPerMinute {
				first = heap
			}
		}
	}
	stats := r.plugin.Stats(r.world)
	t.Logf("%d agents, %d ticks: %d first paths, p99 wait %.2f s, %d still waiting", run.agents, ticks,
		stats.PathWaits.Count, stats.PathWaits.Quantile(0.99), stats.WaitingForPath)
	require.Positive(t, stats.PathWaits.Count)
	return first, live(), minutes
}

// takenLayer is a layer taken out of a tile cache, to put back.
type takenLayer struct {
	data []byte
}

// takeLayers takes n random layers out of cache and brings its navmesh up
// to date.
func takeLayers(tb testing.TB, cache *tilecache.Cache, rng *rand.Rand, n int) []takenLayer {
	tb.Helper()
	layers := cache.Layers(nil)
	var out []takenLayer
	for range n {
		info := layers[rng.IntN(len(layers))]
		data, err := cache.RemoveLayer(info.Ref)
		if err != nil {
			continue // taken already
		}
		out = append(out, takenLayer{data: data})
	}
	return out
}

// putLayers puts taken layers back into cache.
func putLayers(tb testing.TB, cache *tilecache.Cache, layers []takenLayer) {
	tb.Helper()
	for _, l := range layers {
		_, err := cache.AddLayer(l.data)
		require.NoError(tb, err)
	}
}
