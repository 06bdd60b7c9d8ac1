package crowd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// TestPathQueueOutOfReachPlansToNearestPoint sends the search of
// TestPathQueueHopelessSearchDoesNotBlock to the island again, by default:
// the queue plans to the floor's point nearest the island at the cost of
// that path, not of the whole floor.
func TestPathQueueOutOfReachPlansToNearestPoint(t *testing.T) {
	const size = 160
	g := newGridFixture(t, size)
	fromRef, from := g.cell(80, 80)
	nearestRef, _ := g.cell(size-1, 0)
	nearestPoint := geom.Vec3{size, 0, 0.5} // the east edge of quad (159, 0)

	iterations := map[bool]int{}
	for _, full := range []bool{false, true} {
		pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 8, MaxPathSize: 1024, MaxNodes: 1 << 16, FullSearchUnreachable: full})
		require.NoError(t, err)
		assert.Equal(t, full, pq.FullSearchUnreachable())
		id, err := pq.Request(fromRef, g.island, from, g.islandCentre(), g.filter)
		require.NoError(t, err)
		_, _, _, ok := pq.Goal(id)
		assert.False(t, ok, "not aimed before its search starts")

		took := runUntil(t, pq, 100, 1000, id)
		require.NotZero(t, took[0])
		iterations[full] = pq.Iterations(id)
		goal, goalPos, outOfReach, ok := pq.Goal(id)
		require.True(t, ok)
		dst := make([]navmesh.Ref, 1024)
		n, status, err := pq.Result(id, dst)
		require.NoError(t, err)
		assert.True(t, status.Partial())
		require.NotZero(t, n)
		assert.Equal(t, fromRef, dst[0])
		assert.Equal(t, nearestRef, dst[n-1], "both end on the quad nearest the island")
		if full {
			assert.False(t, outOfReach)
			assert.Equal(t, g.island, goal)
			continue
		}
		assert.True(t, outOfReach)
		assert.Equal(t, nearestRef, goal)
		assert.Equal(t, nearestPoint, goalPos)

		// The same path as a FindPath to that point.
		direct, err := query.New(g.mesh, 1<<16)
		require.NoError(t, err)
		want := make([]navmesh.Ref, 1024)
		m, directStatus, err := direct.FindPath(fromRef, nearestRef, from, nearestPoint, g.filter, want)
		require.NoError(t, err)
		assert.False(t, directStatus.Partial())
		assert.Equal(t, want[:m], dst[:n])
		assert.Equal(t, statusWithoutPartial(status), directStatus)
	}
	t.Logf("iterations: %d planning to the nearest point, %d searching in full", iterations[false], iterations[true])
	assert.GreaterOrEqual(t, iterations[true], size*size-1)
	assert.Less(t, iterations[false], 2*size, "about the length of the path")
}

// statusWithoutPartial drops the partial bit the queue adds for an
// out-of-reach target.
func statusWithoutPartial(s query.Status) query.Status { return s &^ query.StatusPartial }

// TestPathQueueOutOfReachDungeon runs every cross-component pair of a
// seeded sample on the dungeon: each result is the FindPath to the
// reachable point nearest the target, marked partial, and reachable
// targets are searched as before.
func TestPathQueueOutOfReachDungeon(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	snap := mesh.Snapshot()
	filter := dungeonFilter()
	q, err := query.New(mesh, 4096)
	require.NoError(t, err)
	pq, err := NewPathQueue(mesh, DefaultPathQueueConfig())
	require.NoError(t, err)
	full, err := NewPathQueue(mesh, PathQueueConfig{Slots: 8, MaxPathSize: 256, MaxNodes: 4096, FullSearchUnreachable: true})
	require.NoError(t, err)

	rng := rand.New(rand.NewPCG(8, 9))
	random := func() float32 { return rng.Float32() }
	dst := make([]navmesh.Ref, 256)
	want := make([]navmesh.Ref, 256)
	outOfReach, sameEnd := 0, 0
	iterations := [2]int{}
	for i := range 300 {
		a, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		b, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		reachable := snap.SameComponent(a.Ref, b.Ref)

		id, err := pq.Request(a.Ref, b.Ref, a.Pos, b.Pos, filter)
		require.NoError(t, err)
		runUntil(t, pq, 100, 1000, id)
		goal, goalPos, goalOutOfReach, ok := pq.Goal(id)
		require.True(t, ok)
		assert.Equal(t, !reachable, goalOutOfReach, "pair %d", i)
		nearIterations := pq.Iterations(id)
		n, status, err := pq.Result(id, dst)
		require.NoError(t, err)

		fullID, err := full.Request(a.Ref, b.Ref, a.Pos, b.Pos, filter)
		require.NoError(t, err)
		runUntil(t, full, 100, 1000, fullID)
		fullIterations := full.Iterations(fullID)
		fn, fullStatus, err := full.Result(fullID, want)
		require.NoError(t, err)

		if reachable {
			assert.Equal(t, want[:fn], dst[:n], "pair %d: reachable, unchanged", i)
			assert.Equal(t, fullStatus, status)
			continue
		}
		outOfReach++
		iterations[0] += nearIterations
		iterations[1] += fullIterations
		assert.True(t, status.Partial(), "pair %d", i)
		assert.True(t, fullStatus.Partial(), "pair %d", i)
		nearest, err := q.FindNearestPolyInComponent(a.Ref, b.Pos, filter)
		require.NoError(t, err)
		assert.Equal(t, nearest.Ref, goal)
		assert.Equal(t, nearest.Point, goalPos)
		m, directStatus, err := q.FindPath(a.Ref, goal, a.Pos, goalPos, filter, want)
		require.NoError(t, err)
		assert.False(t, directStatus.Partial())
		assert.Equal(t, want[:m], dst[:n], "pair %d", i)
		if want[m-1] == dst[fn-1] {
			sameEnd++
		}
	}
	t.Logf("%d of 300 pairs out of reach (%d ending on the polygon the full search ends on); "+
		"A* iterations on them: %d planning to the nearest point, %d searching in full",
		outOfReach, sameEnd, iterations[0], iterations[1])
	assert.Greater(t, outOfReach, 30)
	// The dungeon's components are small (the largest has 105 polygons), so
	// a full search costs only about twice the path to the nearest point.
	assert.Less(t, iterations[0], iterations[1])
}

func TestPathQueueFull(t *testing.T) {
	g := newGridFixture(t, 8)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 64, MaxNodes: 256})
	require.NoError(t, err)
	aRef, a := g.cell(0, 0)
	bRef, b := g.cell(7, 7)
	assert.False(t, pq.Full())
	_, err = pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	assert.False(t, pq.Full())
	_, err = pq.Request(aRef, bRef, a, b, g.filter)
	require.NoError(t, err)
	assert.True(t, pq.Full())

	var id PathRequestID
	allocs := testing.AllocsPerRun(10, func() {
		id, err = pq.Request(aRef, bRef, a, b, g.filter)
	})
	assert.Zero(t, allocs, "a full queue answers without allocating")
	assert.Zero(t, id)
	assert.Same(t, ErrQueueFull, err)
	assert.ErrorIs(t, err, ErrCapacity)
}

// TestPathQueueOutOfReachNothingPasses: when the filter passes no polygon
// of the start's component, the request ends at once on the start polygon.
func TestPathQueueOutOfReachNothingPasses(t *testing.T) {
	g := newGridFixture(t, 8)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 2, MaxPathSize: 64, MaxNodes: 256})
	require.NoError(t, err)
	none := query.NewFilter()
	none.IncludeFlags = 0
	fromRef, from := g.cell(3, 3)
	id, err := pq.Request(fromRef, g.island, from, g.islandCentre(), none)
	require.NoError(t, err)
	pq.Update(100)
	require.Equal(t, PathRequestDone, pq.Status(id))
	goal, goalPos, outOfReach, ok := pq.Goal(id)
	assert.True(t, ok)
	assert.True(t, outOfReach)
	assert.Equal(t, fromRef, goal)
	assert.Equal(t, from, goalPos)
	dst := make([]navmesh.Ref, 8)
	n, status, err := pq.Result(id, dst)
	require.NoError(t, err)
	assert.Equal(t, []navmesh.Ref{fromRef}, dst[:n])
	assert.True(t, status.Partial())
}

func TestPathQueueOutOfReachDoesNotAllocate(t *testing.T) {
	g := newGridFixture(t, 40)
	pq, err := NewPathQueue(g.mesh, DefaultPathQueueConfig())
	require.NoError(t, err)
	aRef, a := g.cell(1, 1)
	dst := make([]navmesh.Ref, 256)
	g.mesh.Snapshot().Connectivity()
	allocs := testing.AllocsPerRun(20, func() {
		var ids [8]PathRequestID
		for i := range ids {
			ids[i], _ = pq.Request(aRef, g.island, a, g.islandCentre(), g.filter)
		}
		for pq.Status(ids[7]) == PathRequestWaiting {
			pq.Update(100)
		}
		for _, id := range ids {
			_, _, _, _ = pq.Goal(id)
			_, _, _ = pq.Result(id, dst)
		}
	})
	assert.Zero(t, allocs)
}

// BenchmarkPathQueueOutOfReach plans from the middle of the 40×40 floor to
// the island, to the nearest point and in full.
func BenchmarkPathQueueOutOfReach(b *testing.B) {
	g := newGridFixture(b, 40)
	aRef, a := g.cell(20, 20)
	dst := make([]navmesh.Ref, 256)
	for _, full := range []bool{false, true} {
		name := "nearest point"
		if full {
			name = "full search"
		}
		b.Run(name, func(b *testing.B) {
			pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 8, MaxPathSize: 256, MaxNodes: 4096, FullSearchUnreachable: full})
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				id, _ := pq.Request(aRef, g.island, a, g.islandCentre(), g.filter)
				for pq.Status(id) == PathRequestWaiting {
					pq.Update(100)
				}
				_, _, _ = pq.Result(id, dst)
			}
		})
	}
}

// TestPathQueueClosedDoor closes a wall of polygons across the grid with
// a flag the filter excludes: the far side is out of reach for that filter
// only, and the queue plans to the near side of the wall.
func TestPathQueueClosedDoor(t *testing.T) {
	const size, disabled = 20, 0x10
	g := newGridFixture(t, size)
	for z := range size {
		ref, _ := g.cell(10, z)
		require.NoError(t, g.mesh.SetPolyFlags(ref, 1|disabled))
	}
	filter := query.NewFilter()
	filter.ExcludeFlags = disabled
	pq, err := NewPathQueue(g.mesh, DefaultPathQueueConfig())
	require.NoError(t, err)
	fromRef, from := g.cell(2, 5)
	toRef, to := g.cell(15, 5)

	id, err := pq.Request(fromRef, toRef, from, to, filter)
	require.NoError(t, err)
	runUntil(t, pq, 100, 100, id)
	goal, goalPos, outOfReach, ok := pq.Goal(id)
	require.True(t, ok)
	assert.True(t, outOfReach)
	wallSide, _ := g.cell(9, 5)
	assert.Equal(t, wallSide, goal)
	assert.Equal(t, geom.Vec3{10, 0, 5.5}, goalPos)
	assert.Less(t, pq.Iterations(id), 20)
	dst := make([]navmesh.Ref, 64)
	n, status, err := pq.Result(id, dst)
	require.NoError(t, err)
	assert.True(t, status.Partial())
	assert.Equal(t, wallSide, dst[n-1])

	// The default filter passes the wall: reachable, a complete path.
	id, err = pq.Request(fromRef, toRef, from, to, g.filter)
	require.NoError(t, err)
	runUntil(t, pq, 100, 100, id)
	_, _, outOfReach, _ = pq.Goal(id)
	assert.False(t, outOfReach)
	n, status, err = pq.Result(id, dst)
	require.NoError(t, err)
	assert.False(t, status.Partial())
	assert.Equal(t, toRef, dst[n-1])
}
