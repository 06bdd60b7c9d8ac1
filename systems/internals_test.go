package systems

import (
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWorkersCoverEveryIndexOnce(t *testing.T) {
	_, err := NewWorkers(0)
	assert.Error(t, err)
	_, err = NewWorkers(MaxWorkers + 1)
	assert.Error(t, err)
	var nilPool *Workers
	assert.Equal(t, 1, nilPool.Count())

	w, err := NewWorkers(4)
	require.NoError(t, err)
	defer w.Close()
	assert.Equal(t, 4, w.Count())
	for _, total := range []int{0, 1, 15, 16, 17, 100, 1000} {
		for _, workers := range []int{1, 2, 4, 9} {
			hits := make([]int32, total)
			var usedWorkers [4]atomic.Int32
			w.run(workers, total, func(worker, begin, end int) {
				assert.Less(t, worker, min(workers, 4), "only the workers of the job")
				usedWorkers[worker].Add(1)
				for i := begin; i < end; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			for i, h := range hits {
				require.EqualValues(t, 1, h, "total %d workers %d index %d", total, workers, i)
			}
		}
	}
	// Many short jobs in a row: helpers that wake late find their job gone
	// and must not touch the next one's agents twice.
	for job := 0; job < 2000; job++ {
		total := 17 + job%50
		hits := make([]int32, total)
		w.run(2+job%3, total, func(worker, begin, end int) {
			for i := begin; i < end; i++ {
				atomic.AddInt32(&hits[i], 1)
			}
		})
		for i, h := range hits {
			require.EqualValues(t, 1, h, "job %d index %d", job, i)
		}
	}
	w.Close()
	w.Close() // twice is fine
	ran := 0
	w.run(4, 100, func(worker, begin, end int) { ran += end - begin }) // closed: on the caller
	assert.Equal(t, 100, ran)
}

func TestWorkersRunBeside(t *testing.T) {
	w, err := NewWorkers(3)
	require.NoError(t, err)
	defer w.Close()
	for _, total := range []int{0, 1, 16, 17, 1000} {
		for _, workers := range []int{1, 2, 3} {
			hits := make([]int32, total)
			serialRuns := 0
			var callerBeforeSerial atomic.Int32
			w.runBeside(func() { serialRuns++ }, workers, total, func(worker, begin, end int) {
				if worker == 0 && serialRuns == 0 {
					callerBeforeSerial.Add(1)
				}
				for i := begin; i < end; i++ {
					atomic.AddInt32(&hits[i], 1)
				}
			})
			assert.Equal(t, 1, serialRuns, "total %d workers %d: the serial task runs once", total, workers)
			assert.Zero(t, callerBeforeSerial.Load(), "the caller claims chunks only after its serial task")
			for i, h := range hits {
				require.EqualValues(t, 1, h, "total %d workers %d index %d", total, workers, i)
			}
		}
	}
	// Without a pool the serial task runs first, then the whole job.
	var order []string
	var nilPool *Workers
	nilPool.runBeside(func() { order = append(order, "serial") }, 2, 40, func(worker, begin, end int) {
		order = append(order, fmt.Sprintf("%d-%d", begin, end))
	})
	assert.Equal(t, []string{"serial", "0-40"}, order)
}

func TestInsertByReplanTimeFollowsTheReference(t *testing.T) {
	times := []float32{0.5, 2, 2, 1, 3, 0.1, 2}
	agents := make([]agent, len(times))
	for i, time := range times {
		agents[i].target = &components.MoveTarget{ReplanTime: time}
	}
	var queue []int
	for i := range agents {
		queue = insertByReplanTime(queue, i, agents, 4)
	}
	// Longest wait first; a later agent with an equal time goes before an
	// earlier one unless it ties with the last (dtCrowd's addToPathQueue).
	assert.Equal(t, []int{4, 6, 2, 1}, queue)
}

func TestAddNeighbourKeepsTheNearest(t *testing.T) {
	var n components.Neighbours
	world := ecs.NewWorld()
	dists := []float32{5, 1, 3, 9, 1, 7, 2, 0.5, 8}
	entities := make([]ecs.Entity, len(dists))
	for i, d := range dists {
		entities[i] = world.NewEntity()
		addNeighbour(&n, entities[i], d)
	}
	require.Equal(t, components.MaxNeighbours, n.Count)
	var got []float32
	for _, nb := range n.Slice() {
		got = append(got, nb.DistanceSqr)
	}
	assert.Equal(t, []float32{0.5, 1, 1, 2, 3, 5}, got)
	// An equal distance goes before the one already there, unless it ties
	// with the last (dtCrowd's addNeighbour).
	assert.Equal(t, entities[4], n.List[1].Entity)
	assert.Equal(t, entities[1], n.List[2].Entity)
}

func TestWallsKeepPushesInside(t *testing.T) {
	// A wall along x from (0, 0) to (10, 0), walkable side towards -z (on
	// the left of P→Q seen from above, y up).
	segments := []crowd.BoundarySegment{{P: geom.Vec3{0, 0, 0}, Q: geom.Vec3{10, 0, 0}}}
	var walls nearWalls
	pos := geom.Vec3{5, 0, -0.5}
	walls.gather(pos, segments)
	require.Equal(t, 1, walls.count)
	assert.InDelta(t, -1, walls.walls[0].normalZ, 1e-6)
	// A push across the wall stops on it; one along it is free.
	x, z := walls.keepInside(5.5, 0.7)
	assert.InDelta(t, 0, z, 1e-6)
	assert.InDelta(t, 5.5, x, 1e-6)
	x, z = walls.keepInside(6, -0.4)
	assert.Equal(t, [2]float32{6, -0.4}, [2]float32{x, z})
	// Beyond the segment's end it does not apply.
	x, z = walls.keepInside(12, 0.5)
	assert.Equal(t, [2]float32{12, 0.5}, [2]float32{x, z})
	// Pressed against it: a push towards it is blocked, away from it not;
	// the two contact sets are apart.
	walls.touch(5, -0.01, 1)
	assert.Equal(t, [2]int{0, 1}, walls.contacts)
	assert.True(t, walls.blocks(0, 1, 1))
	assert.False(t, walls.blocks(0, -1, 1))
	assert.False(t, walls.blocks(0, 1, 0))
	walls.touch(pos[0], pos[2], 1)
	assert.Zero(t, walls.contacts[1])
	assert.False(t, walls.blocks(0, 1, 1))
}

// TestDeadlockBreakerNudgesAStuckAgent: an agent held in place gets a
// detour after 1.5 s, turned away from the wall beside it.
func TestDeadlockBreakerNudgesAStuckAgent(t *testing.T) {
	w := newTestWorld(t, 1)
	e := w.spawn(t, hallA)
	w.target(t, e, hallB)
	var paths PathRequest
	run(w, &paths, 1)
	var boundary BoundaryUpdate
	run(w, &boundary, 1)
	var s Steering
	s.Initialize(w.world)
	_, pos, vel, state, _, _, _, _, _, _ := w.get(e)
	held := *pos
	detourAt := -1
	for tick := 0; tick < 150; tick++ {
		s.Update(w.world)
		*pos = held // something keeps it there
		if detourAt < 0 && state.Progress.DetourTime > 0 {
			detourAt = tick
		}
	}
	// Samples every 0.5 s; judged over 1.5 s: the fourth sample.
	assert.InDelta(t, 90, detourAt, 1)
	assert.NotZero(t, state.Progress.Side)
	assert.GreaterOrEqual(t, state.Progress.Detours, uint8(1))
	assert.InDelta(t, 3.5, geom.Len(vel.Desired), 0.01) // speed kept, direction turned

	// Off, nothing happens.
	w2 := newTestWorld(t, 1)
	e2 := w2.spawn(t, hallA)
	w2.target(t, e2, hallB)
	w2.settings().DeadlockBreaker = false
	run(w2, &PathRequest{}, 1)
	var s2 Steering
	s2.Initialize(w2.world)
	_, pos2, _, state2, _, _, _, _, _, _ := w2.get(e2)
	held2 := *pos2
	for tick := 0; tick < 150; tick++ {
		s2.Update(w2.world)
		*pos2 = held2
	}
	assert.Zero(t, state2.Progress.DetourTime)
	assert.Zero(t, state2.Progress.Detours)
}

// TestPileBreakingWithWorkers: a pile of agents on one spot is pushed apart
// the same way with one worker and with several (run it with -race).
func TestPileBreakingWithWorkers(t *testing.T) {
	var want []geom.Vec3
	for _, workers := range []int{1, 3} {
		w := newTestWorld(t, 40)
		var agents []ecs.Entity
		for i := 0; i < 40; i++ {
			agents = append(agents, w.spawn(t, geom.Add(hallA, geom.Vec3{float32(i%5) * 0.05, 0, float32(i/5) * 0.05})))
		}
		if workers > 1 {
			pool, err := NewWorkers(workers)
			require.NoError(t, err)
			defer pool.Close()
			ecs.AddResource(w.world, pool)
			queries := make([]*query.Query, workers)
			for k := range queries {
				queries[k], err = query.New(w.mesh, 512)
				require.NoError(t, err)
			}
			ecs.GetResource[components.Queries](w.world).PerWorker = queries
		}
		run(w, &BoundaryUpdate{}, 1)
		w.settings().PushSpeedLimit = 0 // the pile breaking alone
		var s CollisionResolve
		run(w, &s, 20)
		var got []geom.Vec3
		for _, e := range agents {
			_, pos, _, _, _, _, _, _, _, _ := w.get(e)
			got = append(got, pos.Vec3())
		}
		// Spread out: nobody left within a third of a body of another.
		for i := range got {
			for j := i + 1; j < len(got); j++ {
				require.Greater(t, geom.Dist2D(got[i], got[j]), float32(0.3), "agents %d and %d", i, j)
			}
		}
		if want == nil {
			want = got
			continue
		}
		require.Equal(t, want, got)
	}
}

// TestPileBreakingSparesMovingAgents: pile breaking only acts on slow
// agents. The same pile as TestPileBreakingWithWorkers, but every agent
// moving at full speed: only the nearest-neighbour pushes of the reference
// act, so the pile does not spread out; slowed below half their
// maximum speed, the same agents do.
func TestPileBreakingSparesMovingAgents(t *testing.T) {
	tests := []struct {
		name       string
		speedShare float32
		spreadOut  bool
	}{
		{"full speed", 1, false},
		{"just above the pile speed", 0.51, false},
		{"just below the pile speed", 0.49, true},
		{"standing", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newTestWorld(t, 40)
			var agents []ecs.Entity
			for i := 0; i < 40; i++ {
				e := w.spawn(t, geom.Add(hallA, geom.Vec3{float32(i%5) * 0.05, 0, float32(i/5) * 0.05}))
				params, _, velocity, _, _, _, _, _, _, _ := w.get(e)
				velocity.Actual = geom.Vec3{tt.speedShare * params.MaxSpeed, 0, 0}
				agents = append(agents, e)
			}
			run(w, &BoundaryUpdate{}, 1)
			w.settings().PushSpeedLimit = 0 // the pile breaking alone
			var s CollisionResolve
			run(w, &s, 20)
			closest := float32(math.MaxFloat32)
			for i, a := range agents {
				_, pa, _, _, _, _, _, _, _, _ := w.get(a)
				for _, b := range agents[i+1:] {
					_, pb, _, _, _, _, _, _, _, _ := w.get(b)
					closest = min(closest, geom.Dist2D(pa.Vec3(), pb.Vec3()))
				}
			}
			if tt.spreadOut {
				assert.Greater(t, closest, float32(0.3))
			} else {
				assert.Less(t, closest, float32(0.3))
			}
		})
	}
}

// BenchmarkWorkersRun measures one parallel pass over 100 and 2000 cheap
// agents: the cost of handing out a job and waiting for it.
func BenchmarkWorkersRun(b *testing.B) {
	for _, total := range []int{100, 2000} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("agents=%d/workers=%d", total, workers), func(b *testing.B) {
				w, err := NewWorkers(workers)
				require.NoError(b, err)
				defer w.Close()
				sums := make([]float32, total)
				job := func(worker, begin, end int) {
					for i := begin; i < end; i++ {
						x := float32(i)
						for k := 0; k < 20; k++ {
							x = float32(x*0.999) + 1
						}
						sums[i] = x
					}
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					w.run(workers, total, job)
				}
			})
		}
	}
}

// TestAgentTableFollowsStructuralChanges: the table keeps its list while
// the world's agents stay put, and lists them afresh after every kind of
// structural change, with each agent's components at their current
// addresses.
func TestAgentTableFollowsStructuralChanges(t *testing.T) {
	w := newTestWorld(t, 64)
	var table agentTable
	table.init()
	var agents []ecs.Entity
	for i := 0; i < 5; i++ {
		agents = append(agents, w.spawn(t, hallA))
	}
	type marker struct{ X int }
	markerID := ecs.ComponentID[marker](w.world)
	check := func(step string) {
		t.Helper()
		listed := table.collect(w.world)
		require.Len(t, listed, len(agents), step)
		for _, e := range agents {
			i := table.lookup(e)
			require.GreaterOrEqual(t, i, 0, "%s: entity %v listed", step, e)
			_, position, velocity, _, _, _, boundary, _, _, animation := w.get(e)
			a := &listed[i]
			require.Same(t, position, a.position, step)
			require.Same(t, velocity, a.velocity, step)
			require.Same(t, boundary, a.boundary, step)
			require.Same(t, animation, a.animation, step)
		}
	}
	check("first")
	first := &table.agents[0]
	check("unchanged")
	require.Same(t, first, &table.agents[0], "the same list, kept")

	w.world.RemoveEntity(agents[1])
	agents = append(agents[:1], agents[2:]...)
	check("removed: the last agent moved into its slot")

	w.world.Add(agents[0], markerID)
	check("an agent changed archetype")

	for i := 0; i < 40; i++ {
		agents = append(agents, w.spawn(t, hallB))
	}
	check("grown: storage moved")

	extra := w.spawn(t, hallA)
	w.world.RemoveEntity(extra)
	check("added and removed")

	w.world.NewEntity(markerID) // not an agent
	check("another entity")

	for _, e := range agents {
		w.world.RemoveEntity(e)
	}
	agents = nil
	check("none left")
	fresh := w.spawn(t, hallA)
	agents = append(agents, fresh)
	check("a new agent in an old slot")
}

// TestStageRunSharesTheAgentList: while a StageRun is open the stages take
// the list the first of them made; closed, each checks its own.
func TestStageRunSharesTheAgentList(t *testing.T) {
	w := newTestWorld(t, 8)
	for i := 0; i < 4; i++ {
		w.spawn(t, geom.Add(hallA, geom.Vec3{float32(i), 0, 0}))
	}
	run := &StageRun{}
	ecs.AddResource(w.world, run)
	var integrate Integrate
	var steering Steering
	integrate.Initialize(w.world)
	steering.Initialize(w.world)

	run.Open()
	integrate.Update(w.world)
	steering.Update(w.world)
	assert.Same(t, &run.table, integrate.table)
	assert.Same(t, &run.table, steering.table)
	assert.Len(t, run.table.agents, 4)
	run.Open() // already open: keeps the list
	assert.True(t, run.listed)

	// Announced structural change: Close, then the stages see it.
	run.Close()
	w.spawn(t, hallB)
	integrate.Update(w.world)
	assert.Same(t, &integrate.own, integrate.table)
	assert.Len(t, integrate.agents, 5)
	run.Open()
	steering.Update(w.world)
	assert.Same(t, &run.table, steering.table)
	assert.Len(t, steering.agents, 5)

	var nilRun *StageRun
	nilRun.Open()
	nilRun.Close()
}
