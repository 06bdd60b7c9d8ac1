package plugin

import (
	"fmt"
	"testing"
	"time"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// obstacleBench is a 200-agent crowd on the tile cache of dungeon whose
// 80 reference obstacles switch between their two sets every second.
type obstacleBench struct {
	*obstacleRun
	states [][]placedObstacle
	tick   int
}

func newObstacleBench(tb testing.TB, obstacles bool, workers int, effect components.ObstacleEffect) *obstacleBench {
	tb.Helper()
	b := &obstacleBench{obstacleRun: newObstacleRun(tb, loadDungeonCache(tb), 200, 1, Config{Workers: workers})}
	if obstacles {
		for _, path := range []string{dungeonObstaclesPath, dungeonMovedObstaclePath} {
			state := readObstacleState(tb, path)
			for i := range state {
				state[i].obstacle.Effect = effect
			}
			b.states = append(b.states, state)
		}
	}
	return b
}

// step runs one tick, switching the obstacle set every 60 ticks (the
// switch, test code, is not timed).
func (b *obstacleBench) step(tb testing.TB) {
	if len(b.states) > 0 && b.tick%60 == 0 {
		if bb, ok := tb.(*testing.B); ok {
			bb.StopTimer()
			defer bb.StartTimer()
		}
		b.apply(tb, b.states[(b.tick/60)%2])
	}
	if err := b.plugin.Step(b.world, 1.0/60); err != nil {
		tb.Fatal(err)
	}
	b.tick++
}

// BenchmarkCrowdTickObstacles measures a tick of 200 agents on the tile
// cache of dungeon without obstacles, with the 80 reference obstacles
// carving and switching between their two sets every second (each switch
// lifts the holes of the obstacles that moved and carves them again half a
// second later), and with the same obstacles only avoided. It reports the
// tick's wall time (ns/op), the ObstacleSync stage's share
// (obstacle-ms/tick) and the allocations per tick, after a 2 s warm-up.
// The carving run's allocations are the tile cache's: the data of the
// rebuilt tiles and the navmesh's new snapshot (see tilecache.Cache.Update);
// ticks without rebuilds allocate nothing (TestObstacleStageAllocatesNothing).
func BenchmarkCrowdTickObstacles(b *testing.B) {
	for _, tc := range []struct {
		name      string
		obstacles bool
		effect    components.ObstacleEffect
	}{
		{"none", false, 0},
		{"80-carving", true, components.ObstacleCarves},
		{"80-avoided", true, components.ObstacleAvoided},
	} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(b *testing.B) {
				run := newObstacleBench(b, tc.obstacles, workers, tc.effect)
				defer run.plugin.Schedule().Finalize(run.world)
				for range 120 {
					run.step(b)
				}
				var obstacleTime time.Duration
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					run.step(b)
					obstacleTime += run.plugin.Stats(run.world).StageDurations[0]
				}
				b.ReportMetric(float64(obstacleTime.Nanoseconds())/1e6/float64(b.N), "obstacle-ms/tick")
			})
		}
	}
}

// TestObstacleStageAllocatesNothing: with carved obstacles standing and
// avoided ones moving, the ObstacleSync stage allocates nothing; so does a
// tick of the whole crowd once the holes are in.
func TestObstacleStageAllocatesNothing(t *testing.T) {
	run := newObstacleBench(t, true, 1, components.ObstacleCarves)
	run.apply(t, run.states[0])
	var carts []placedObstacle
	for i, o := range run.states[1][:20] {
		o.id = 1000 + i
		o.obstacle.Effect = components.ObstacleAvoided
		carts = append(carts, o)
	}
	run.apply(t, append(append([]placedObstacle(nil), run.states[0]...), carts...))
	for range 120 {
		run.obstacleRun.step(t)
	}
	stage, ok := run.plugin.Schedule().Stage(StageObstacleSync)
	require.True(t, ok)
	stats := run.plugin.Stats(run.world)
	require.Equal(t, 100, stats.Obstacles)
	require.Equal(t, 20, stats.ObstacleBodies, "the carts are bodies, the carved obstacles are not")
	require.Zero(t, stats.ObstacleTilesPending)
	tick := 0
	allocs := testing.AllocsPerRun(50, func() {
		tick++
		for i, c := range carts {
			pose := c.pose
			pose.Position = geom.Add(pose.Position, geom.Vec3{0.02 * float32(tick%20), 0, 0})
			_ = run.plugin.SetObstaclePose(run.world, run.entries[1000+i], pose)
		}
		stage.Update(run.world)
	})
	assert.Zero(t, allocs, "obstacle stage")
	allocs = testing.AllocsPerRun(20, func() { _ = run.plugin.Step(run.world, 1.0/60) })
	assert.Zero(t, allocs, "whole tick")
}
