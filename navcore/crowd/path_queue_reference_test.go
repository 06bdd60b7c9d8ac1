package crowd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
)

// referenceQueue returns a queue with dtPathQueue's scheduling on g.
func referenceQueue(t *testing.T, g *gridFixture, slots int) *PathQueue {
	t.Helper()
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{
		Slots: slots, MaxPathSize: 1024, MaxNodes: 1 << 16, MaxIterationsPerRequest: 50,
		FullSearchUnreachable: true, ReferenceSchedule: true,
	})
	require.NoError(t, err)
	return pq
}

// island stands for the unreachable island as a request's end: its search
// visits the whole floor.
var island = [2]int{-1, -1}

// iterationsAlone returns the A* iterations the search from cell a to cell
// b takes on its own.
func iterationsAlone(t *testing.T, g *gridFixture, a, b [2]int) int {
	t.Helper()
	pq := referenceQueue(t, g, 1)
	id := requestCells(t, pq, g, a, b)
	pq.Update(1 << 30)
	require.Equal(t, PathRequestDone, pq.Status(id))
	return pq.Iterations(id)
}

func requestCells(t *testing.T, pq *PathQueue, g *gridFixture, a, b [2]int) PathRequestID {
	t.Helper()
	startRef, start := g.cell(a[0], a[1])
	endRef, end := g.island, g.islandCentre()
	if b != island {
		endRef, end = g.cell(b[0], b[1])
	}
	id, err := pq.Request(startRef, endRef, start, end, g.filter)
	require.NoError(t, err)
	return id
}

// TestPathQueueReferenceServesOneAtATime: the reference schedule gives the
// whole budget to the first unfinished request from the head, hands what
// a finishing search leaves to the next one in the same Update, ignores the
// per-request cap, and the next Update goes on where the budget ran out.
func TestPathQueueReferenceServesOneAtATime(t *testing.T) {
	g := newGridFixture(t, 40)
	short := [2][2]int{{0, 0}, {3, 4}}
	long := [2][2]int{{20, 20}, island}
	shortIterations := iterationsAlone(t, g, short[0], short[1])
	longIterations := iterationsAlone(t, g, long[0], long[1])
	require.Less(t, shortIterations, 100)
	require.Greater(t, longIterations, 400, "the long search must take several Updates")

	pq := referenceQueue(t, g, 4)
	a := requestCells(t, pq, g, short[0], short[1]) // slot 0
	b := requestCells(t, pq, g, long[0], long[1])   // slot 1
	c := requestCells(t, pq, g, short[0], short[1]) // slot 2

	pq.Update(100)
	assert.Equal(t, PathRequestDone, pq.Status(a))
	assert.Equal(t, shortIterations, pq.Iterations(a))
	assert.Equal(t, 100-shortIterations, pq.Iterations(b), "the rest of the budget goes to the next request")
	assert.Zero(t, pq.Iterations(c), "nothing for the third while the second searches")
	_, _, err := pq.Result(a, make([]navmesh.Ref, 64))
	require.NoError(t, err)

	// Slot 0 is free again; a new request there waits for the walk to come
	// round: the head stays on the long search.
	d := requestCells(t, pq, g, short[0], short[1])
	updates := 1
	for pq.Status(b) == PathRequestWaiting {
		pq.Update(100)
		updates++
		if pq.Status(b) == PathRequestWaiting {
			assert.Zero(t, pq.Iterations(c), "update %d", updates)
			assert.Zero(t, pq.Iterations(d), "update %d", updates)
		}
	}
	assert.Equal(t, longIterations, pq.Iterations(b), "no per-request cap (MaxIterationsPerRequest 50 is ignored)")
	assert.Equal(t, (shortIterations+longIterations+99)/100, updates, "the budget is used in full until the long search ends")
	// The update the long search ended in went on with what was left to
	// slot 2 and then, round the ring, to slot 0.
	left := updates*100 - shortIterations - longIterations
	assert.Equal(t, min(left, shortIterations), pq.Iterations(c))
	if left > shortIterations {
		assert.Equal(t, min(left-shortIterations, shortIterations), pq.Iterations(d))
	}
}

// TestPathQueueReferenceKeepAlive: a finished, unclaimed result ages only
// when the walk passes its slot, and Abandon leaves a request to run on and
// expire, holding its slot meanwhile.
func TestPathQueueReferenceKeepAlive(t *testing.T) {
	g := newGridFixture(t, 40)
	pq := referenceQueue(t, g, 2)
	short := requestCells(t, pq, g, [2]int{0, 0}, [2]int{2, 2}) // slot 0
	long := requestCells(t, pq, g, [2]int{20, 20}, island)      // slot 1
	longNeeds := iterationsAlone(t, g, [2]int{20, 20}, island)  // several Updates
	pq.Update(100)
	require.Equal(t, PathRequestDone, pq.Status(short))
	// While the long search holds the head, the walk never reaches slot 0:
	// the unclaimed result does not age.
	for pq.Iterations(long) < longNeeds-100 {
		pq.Update(100)
		require.Equal(t, PathRequestDone, pq.Status(short), "result kept while the walk stops at slot 1")
	}

	// Abandoning the long search changes nothing: it runs on to its end.
	assert.True(t, pq.Abandon(long))
	for pq.Status(long) == PathRequestWaiting {
		pq.Update(100)
	}
	assert.Equal(t, longNeeds, pq.Iterations(long))
	assert.True(t, pq.Full(), "both slots still held")
	// Now every Update walks both slots: each result lasts
	// PathQueueKeepAlive more Updates unclaimed (the one the long search
	// ended in may already have counted for slot 0).
	for range PathQueueKeepAlive + 1 {
		pq.Update(100)
	}
	assert.Equal(t, PathRequestUnknown, pq.Status(short), "expired")
	assert.Equal(t, PathRequestUnknown, pq.Status(long), "expired")
	assert.Zero(t, pq.Pending())
}

// TestPathQueueAbandonByDefaultCancels: without the reference schedule,
// Abandon frees the slot at once.
func TestPathQueueAbandonByDefaultCancels(t *testing.T) {
	g := newGridFixture(t, 8)
	pq, err := NewPathQueue(g.mesh, PathQueueConfig{Slots: 1, MaxPathSize: 64, MaxNodes: 256})
	require.NoError(t, err)
	id := requestCells(t, pq, g, [2]int{0, 0}, [2]int{7, 7})
	assert.True(t, pq.Full())
	assert.True(t, pq.Abandon(id))
	assert.False(t, pq.Full())
	assert.False(t, pq.Abandon(id), "gone")
	assert.Equal(t, PathRequestUnknown, pq.Status(id))
}
