package crowd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// farRequests draws start/end pairs of random points more than 100 m
// apart on mesh.
func farRequests(t *testing.T, mesh *navmesh.Mesh, filter *query.Filter, n int) [][2]query.RandomPoint {
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	rng := testmesh.LCG{State: 77}
	var pairs [][2]query.RandomPoint
	for len(pairs) < n {
		a, errA := q.FindRandomPoint(filter, rng.Next)
		b, errB := q.FindRandomPoint(filter, rng.Next)
		if errA == nil && errB == nil && a.Pos.Sub(b.Pos).Len() > 100 {
			pairs = append(pairs, [2]query.RandomPoint{a, b})
		}
	}
	return pairs
}

// runQueue plans every pair on queue pq, a slot's worth at a time, and
// returns the paths, their statuses and the Updates it took.
func runQueue(t *testing.T, pq *PathQueue, filter *query.Filter, pairs [][2]query.RandomPoint, budget int) ([][]navmesh.Ref, []query.Status, int) {
	paths := make([][]navmesh.Ref, len(pairs))
	statuses := make([]query.Status, len(pairs))
	ids := make([]PathRequestID, len(pairs))
	next, done, updates := 0, 0, 0
	buf := make([]navmesh.Ref, 1024)
	for done < len(pairs) {
		for next < len(pairs) && !pq.Full() {
			p := pairs[next]
			id, err := pq.Request(p[0].Ref, p[1].Ref, p[0].Pos, p[1].Pos, filter)
			require.NoError(t, err)
			ids[next] = id
			next++
		}
		pq.Update(budget)
		updates++
		require.Less(t, updates, 100000)
		for k := range next {
			if ids[k] == 0 || pq.Status(ids[k]) != PathRequestDone {
				continue
			}
			n, status, err := pq.Result(ids[k], buf)
			require.NoError(t, err)
			paths[k] = append([]navmesh.Ref(nil), buf[:n]...)
			statuses[k] = status
			ids[k] = 0
			done++
		}
	}
	return paths, statuses, updates
}

// TestPathQueueHierarchical plans far targets on the generated level with
// and without the hierarchy: the same targets are reached, the paths end
// in the same polygons, and the hierarchy takes fewer Updates.
func TestPathQueueHierarchical(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	filter := query.NewFilter()
	h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
	require.NoError(t, err)
	pairs := farRequests(t, mesh, filter, 64)

	config := DefaultPathQueueConfig()
	plainQueue, err := NewPathQueue(mesh, config)
	require.NoError(t, err)
	config.Hierarchy = h
	queue, err := NewPathQueue(mesh, config)
	require.NoError(t, err)
	assert.True(t, queue.Hierarchical())
	assert.False(t, plainQueue.Hierarchical())

	wantPaths, wantStatuses, plainUpdates := runQueue(t, plainQueue, filter, pairs, 100)
	gotPaths, gotStatuses, updates := runQueue(t, queue, filter, pairs, 100)
	for k := range pairs {
		assert.Equal(t, wantStatuses[k].Partial(), gotStatuses[k].Partial(), "pair %d", k)
		assert.Equal(t, wantPaths[k][0], gotPaths[k][0], "pair %d", k)
		assert.Equal(t, wantPaths[k][len(wantPaths[k])-1], gotPaths[k][len(gotPaths[k])-1], "pair %d", k)
	}
	t.Logf("updates: %d plain, %d hierarchical", plainUpdates, updates)
	assert.Less(t, updates, plainUpdates)

	// Off: plain A* again, the same paths as the plain queue.
	queue.SetHierarchical(false)
	assert.False(t, queue.Hierarchical())
	offPaths, _, _ := runQueue(t, queue, filter, pairs[:8], 100)
	assert.Equal(t, wantPaths[:8], offPaths)
}

func TestPathQueueHierarchyOfAnotherMesh(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	h, err := hierarchy.New(mesh, query.NewFilter(), hierarchy.Options{})
	require.NoError(t, err)
	config := DefaultPathQueueConfig()
	config.Hierarchy = h
	_, err = NewPathQueue(testmesh.Dungeon(t), config)
	assert.ErrorIs(t, err, ErrInvalidParam)
}
