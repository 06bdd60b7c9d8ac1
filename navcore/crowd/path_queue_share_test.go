package crowd

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// TestPathQueueSharesEqualRequests sends requests between the same two
// polygons with the same filter: they cost one search, get FindPath's
// corridor, and each can be cancelled without the others losing theirs.
func TestPathQueueSharesEqualRequests(t *testing.T) {
	g := newGridFixture(t, 16)
	aRef, a := g.cell(0, 0)
	bRef, b := g.cell(15, 12)
	q, err := query.New(g.mesh, 1024)
	require.NoError(t, err)
	want := make([]navmesh.Ref, 64)
	n, _, err := q.FindPath(aRef, bRef, a, b, g.filter, want)
	require.NoError(t, err)
	want = want[:n]

	for _, tc := range []struct {
		name   string
		cancel int // which request to cancel after the first update, -1 none
	}{
		{"none cancelled", -1}, {"first cancelled", 0}, {"follower cancelled", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 4, MaxPathSize: 64, MaxNodes: 256})
			require.NoError(t, err)
			ids := make([]PathRequestID, 3)
			for i := range ids {
				// Other points in the same polygons.
				offset := geom.Vec3{0.1 * float32(i), 0, -0.1 * float32(i)}
				ids[i], err = pq.Request(aRef, bRef, geom.Vec3{a[0] + offset[0], 0, a[2] + offset[2]}, geom.Vec3{b[0] - offset[0], 0, b[2] - offset[2]}, g.filter)
				require.NoError(t, err)
			}
			// Another start is searched on its own.
			otherRef, other := g.cell(3, 0)
			otherID, err := pq.Request(otherRef, bRef, other, b, g.filter)
			require.NoError(t, err)

			pq.Update(5)
			assert.Equal(t, 4, pq.Pending())
			if tc.cancel >= 0 {
				require.True(t, pq.Cancel(ids[tc.cancel]))
				assert.Equal(t, 3, pq.Pending(), "a cancel frees a slot at once")
				assert.False(t, pq.Full())
			}
			paths := make([][]navmesh.Ref, len(ids))
			statuses := make([]query.Status, len(ids))
			searched, otherDone := 0, false
			for range 100 {
				pq.Update(5)
				for i, id := range ids {
					if i == tc.cancel || paths[i] != nil || pq.Status(id) != PathRequestDone {
						continue
					}
					if pq.Iterations(id) > 0 {
						searched++
					}
					dst := make([]navmesh.Ref, 64)
					n, status, err := pq.Result(id, dst)
					require.NoError(t, err)
					paths[i], statuses[i] = dst[:n], status
				}
				otherDone = otherDone || pq.Status(otherID) == PathRequestDone
			}
			for i, id := range ids {
				if i == tc.cancel {
					assert.Equal(t, PathRequestUnknown, pq.Status(id))
					assert.Nil(t, paths[i])
					continue
				}
				assert.Equal(t, want, paths[i], "request %d", i)
				assert.False(t, statuses[i].Partial())
			}
			assert.True(t, otherDone)
			assert.Equal(t, 1, searched, "one of them searched")
			assert.Zero(t, pq.Pending(), "the other request expired unclaimed")
		})
	}
}

// TestPathQueueTakesFinishedResult: a request equal to one finished and not
// yet claimed is done before any update, with the same corridor and goal.
func TestPathQueueTakesFinishedResult(t *testing.T) {
	g := newGridFixture(t, 8)
	aRef, a := g.cell(0, 0)
	bRef, b := g.cell(7, 5)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 64, MaxNodes: 256})
	require.NoError(t, err)
	first, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	pq.Update(1000)
	require.Equal(t, PathRequestDone, pq.Status(first))
	second, err := pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	assert.Equal(t, PathRequestDone, pq.Status(second))
	assert.Zero(t, pq.Iterations(second))
	goal1, pos1, _, ok1 := pq.Goal(first)
	goal2, pos2, _, ok2 := pq.Goal(second)
	assert.True(t, ok1 && ok2)
	assert.Equal(t, goal1, goal2)
	assert.Equal(t, pos1, pos2)

	p1, p2 := make([]navmesh.Ref, 64), make([]navmesh.Ref, 64)
	n1, s1, err1 := pq.Result(first, p1)
	n2, s2, err2 := pq.Result(second, p2)
	require.NoError(t, err1)
	require.NoError(t, err2)
	assert.Equal(t, p1[:n1], p2[:n2])
	assert.Equal(t, s1, s2)
	assert.Equal(t, 13, n1, "7 across and 5 up, and the start")

	// With another filter, or with the reference's schedule, it searches.
	other := *g.filter
	third, err := pq.Request(aRef, bRef, a, b, &other)
	require.NoError(t, err)
	assert.Equal(t, PathRequestWaiting, pq.Status(third))
	ref, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 64, MaxNodes: 256, ReferenceSchedule: true})
	require.NoError(t, err)
	id1, _ := ref.Request(aRef, bRef, a, b, g.filter)
	id2, _ := ref.Request(aRef, bRef, a, b, g.filter)
	ref.Update(1000)
	ref.Update(1000)
	assert.Positive(t, ref.Iterations(id1))
	assert.Positive(t, ref.Iterations(id2))
}

// goroutineRunner runs each range of a job on a goroutine of its own.
type goroutineRunner struct{}

func (goroutineRunner) Run(workers, total int, job func(worker, begin, end int)) {
	var wg sync.WaitGroup
	per := (total + workers - 1) / workers
	for w := 0; w < workers; w++ {
		begin, end := w*per, min(total, (w+1)*per)
		if begin >= end {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			job(w, begin, end)
		}()
	}
	wg.Wait()
}

// TestPathQueueUpdateWithMatchesUpdate runs the same 300 random dungeon
// requests through two queues, one updated in turn and one with its
// searches on 3 goroutines, at a small budget: every request finishes at
// the same update with the same corridor, status and iterations.
func TestPathQueueUpdateWithMatchesUpdate(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	filter := dungeonFilter()
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	config := PathQueueConfig{Slots: 12, MaxPathSize: 256, MaxNodes: 64, NodeLimit: 1024}
	serial, err := NewPathQueue(mesh, config)
	require.NoError(t, err)
	parallel, err := NewPathQueue(mesh, config)
	require.NoError(t, err)

	rng := testmesh.LCG{}
	type request struct {
		startRef, endRef navmesh.Ref
		start, end       geom.Vec3
	}
	var requests []request
	for len(requests) < 300 {
		a, err := q.FindRandomPoint(filter, rng.Next)
		require.NoError(t, err)
		b, err := q.FindRandomPoint(filter, rng.Next)
		require.NoError(t, err)
		requests = append(requests, request{a.Ref, b.Ref, a.Pos, b.Pos})
		if len(requests)%7 == 0 { // some equal requests, to share
			requests = append(requests, request{a.Ref, b.Ref, a.Pos, b.Pos})
		}
	}
	type outcome struct {
		update, count, iterations int
		status                    query.Status
		path                      []navmesh.Ref
	}
	run := func(pq *PathQueue, update func()) []outcome {
		out := make([]outcome, len(requests))
		ids := make([]PathRequestID, len(requests))
		next := 0
		for u := 1; u < 10000; u++ {
			for next < len(requests) && !pq.Full() {
				r := requests[next]
				ids[next], err = pq.Request(r.startRef, r.endRef, r.start, r.end, filter)
				require.NoError(t, err)
				next++
			}
			update()
			for i := range next {
				if out[i].update != 0 || pq.Status(ids[i]) != PathRequestDone {
					continue
				}
				path := make([]navmesh.Ref, 256)
				out[i].iterations = pq.Iterations(ids[i])
				n, status, err := pq.Result(ids[i], path)
				require.NoError(t, err)
				out[i] = outcome{update: u, count: n, iterations: out[i].iterations, status: status, path: path[:n]}
			}
			if next == len(requests) && pq.Pending() == 0 {
				break
			}
		}
		return out
	}
	want := run(serial, func() { serial.Update(40) })
	got := run(parallel, func() { parallel.UpdateWith(40, goroutineRunner{}, 3) })
	for i := range want {
		require.NotZero(t, want[i].update, "request %d finished", i)
		require.Equal(t, want[i], got[i], "request %d", i)
	}
}
