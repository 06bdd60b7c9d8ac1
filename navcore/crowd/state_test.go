package crowd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// corridorWalk moves c along its corners in small steps, asking for the
// corners every step with a refresh distance (so that the corner memory
// decides some answers) and shortcutting with spaced-out rays, and returns
// every answer.
func corridorWalk(t *testing.T, c *Corridor, f *dungeonFixture, steps int) []any {
	t.Helper()
	var seen []any
	corners := make([]query.StraightPathPoint, 4)
	for range steps {
		n, err := c.FindCornersAfter(f.query, corners, 0.15)
		require.NoError(t, err)
		seen = append(seen, append([]query.StraightPathPoint(nil), corners...), n)
		if n == 0 {
			break
		}
		require.NoError(t, c.OptimizePathVisibilityAfter(corners[n-1].Pos, 18, 0.3, f.query, f.filter))
		pos := c.Position()
		dir := geom.Sub(corners[0].Pos, pos)
		if l := geom.Len(dir); l > 0.1 {
			dir = geom.Scale(dir, 0.1/l)
		}
		require.NoError(t, c.MovePosition(geom.Add(pos, dir), f.query, f.filter))
		seen = append(seen, c.Position(), append([]navmesh.Ref(nil), c.Path()...))
	}
	return seen
}

// TestCorridorStateContinuesTheWalk: a corridor's state, captured and
// restored into a new corridor, or written and read back first, walks on
// exactly as the original: the same corners (some of them remembered answers), moves
// and shortcuts.
func TestCorridorStateContinuesTheWalk(t *testing.T) {
	f := newDungeonFixture(t)
	c := newWalkCorridor(t, f)
	corridorWalk(t, c, f, 37)

	version := f.mesh.Snapshot().Version()
	var state CorridorState
	path := c.CaptureState(&state, nil)
	saved := state.AppendState(nil, path, f.mesh, version)
	var readState CorridorState
	readPath, err := readState.ReadState(saved, f.mesh, version, 256, nil)
	require.NoError(t, err)
	assert.Equal(t, saved, readState.AppendState(nil, readPath, f.mesh, version), "a read state writes the same bytes")
	read, err := NewCorridor(256)
	require.NoError(t, err)
	require.NoError(t, read.RestoreState(&readState, readPath))
	copied, err := NewCorridor(256)
	require.NoError(t, err)
	require.NoError(t, copied.RestoreState(&state, path))

	want := corridorWalk(t, c, f, 400)
	assert.Equal(t, want, corridorWalk(t, read, f, 400))
	assert.Equal(t, want, corridorWalk(t, copied, f, 400))

	small, err := NewCorridor(MinCorridorPath)
	require.NoError(t, err)
	require.ErrorIs(t, small.RestoreState(&state, path), ErrBadState)
	_, err = readState.ReadState(saved, f.mesh, version, MinCorridorPath, nil)
	require.ErrorIs(t, err, ErrBadState)
	for n := range len(saved) {
		_, err := readState.ReadState(saved[:n], f.mesh, version, 256, nil)
		require.ErrorIs(t, err, ErrBadState, "truncated to %d", n)
	}
}

// TestBoundaryStateRoundTrip: a boundary's state reads back to the same
// segments and polygons; truncations are refused.
func TestBoundaryStateRoundTrip(t *testing.T) {
	f := newDungeonFixture(t)
	b := NewLocalBoundary()
	b.Update(f.startRef, f.start, 7.2, f.query, f.filter)
	require.Positive(t, b.SegmentCount())
	saved := b.AppendState(nil)
	var read LocalBoundary
	require.NoError(t, read.ReadState(saved))
	assert.Equal(t, b.Segments(), read.Segments())
	assert.Equal(t, b.Polys(), read.Polys())
	assert.Equal(t, b.Center(), read.Center())
	for n := range len(saved) {
		require.ErrorIs(t, read.ReadState(saved[:n]), ErrBadState, "truncated to %d", n)
	}
}

// queueRun requests the pairs on pq as slots free up and updates it with
// budget for updates Updates, returning every request's status and result
// after each Update.
func queueRun(t *testing.T, pq *PathQueue, filter *query.Filter, pairs [][2]query.RandomPoint, next int, ids []PathRequestID, updates, budget int) ([]any, int) {
	t.Helper()
	var seen []any
	buf := make([]navmesh.Ref, 512)
	for range updates {
		for next < len(pairs) && !pq.Full() {
			p := pairs[next]
			id, err := pq.Request(p[0].Ref, p[1].Ref, p[0].Pos, p[1].Pos, filter)
			require.NoError(t, err)
			ids[next] = id
			next++
		}
		pq.Update(budget)
		for k := range next {
			if ids[k] == 0 {
				continue
			}
			status := pq.Status(ids[k])
			seen = append(seen, k, status, pq.Iterations(ids[k]))
			if status == PathRequestDone {
				n, st, err := pq.Result(ids[k], buf)
				require.NoError(t, err)
				seen = append(seen, append([]navmesh.Ref(nil), buf[:n]...), st)
				ids[k] = 0
			}
		}
	}
	return seen, next
}

// TestPathQueueStateContinuesTheQueue: a queue caught with searches in
// progress, its state written and read back into a new queue on the same
// mesh, hands out the same paths at the same Updates as the original:
// with plain A* (the node pools copied) and with the hierarchy (its
// searches run again to where they were), requests that share a search
// included.
func TestPathQueueStateContinuesTheQueue(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	filter := query.NewFilter()
	// Every pair twice, so that requests share searches (slotFollowing).
	var pairs [][2]query.RandomPoint
	for _, p := range farRequests(t, mesh, filter, 20) {
		pairs = append(pairs, p, p)
	}
	h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
	require.NoError(t, err)
	filters := []*query.Filter{filter}
	index := func(f *query.Filter) (int, bool) { return 0, f == filter }
	at := func(i int) *query.Filter {
		if i == 0 {
			return filters[0]
		}
		return nil
	}
	for _, hier := range []*hierarchy.Hierarchy{nil, h} {
		config := DefaultPathQueueConfig()
		config.Hierarchy = hier
		original, err := NewPathQueue(mesh, config)
		require.NoError(t, err)
		ids := make([]PathRequestID, len(pairs))
		_, next := queueRun(t, original, filter, pairs, 0, ids, 3, 60)
		var state PathQueueState
		original.CaptureState(&state)
		searching, following := 0, 0
		for i := range state.slots {
			switch state.slots[i].slot.state {
			case slotSearching:
				searching++
			case slotFollowing:
				following++
			}
		}
		require.Positive(t, searching, "hierarchy %v: searches in progress", hier != nil)
		require.Positive(t, following, "hierarchy %v: requests sharing a search", hier != nil)
		saved, err := state.AppendState(nil, index)
		require.NoError(t, err)
		var read PathQueueState
		require.NoError(t, read.ReadState(saved, at))
		again, err := read.AppendState(nil, index)
		require.NoError(t, err)
		assert.Equal(t, saved, again)

		restored, err := NewPathQueue(mesh, config)
		require.NoError(t, err)
		require.NoError(t, restored.RestoreState(&read))
		restoredIDs := append([]PathRequestID(nil), ids...)
		want, _ := queueRun(t, original, filter, pairs, next, ids, 60, 60)
		got, _ := queueRun(t, restored, filter, pairs, next, restoredIDs, 60, 60)
		assert.Equal(t, want, got, "hierarchy %v", hier != nil)

		for n := range len(saved) {
			require.Error(t, read.ReadState(saved[:n], at), "truncated to %d", n)
		}
	}
}

// TestPathQueueStateRefusesBadShares: a read state whose shared searches
// do not add up is refused.
func TestPathQueueStateRefusesBadShares(t *testing.T) {
	slot := func(state slotState, leader, followers int32) pathSlotState {
		return pathSlotState{slot: pathSlot{state: state, leader: leader, followers: followers}}
	}
	for _, tc := range []struct {
		name  string
		slots []pathSlotState
		ok    bool
	}{
		{"leader and follower", []pathSlotState{slot(slotSearching, 0, 1), slot(slotFollowing, 1, 0)}, true},
		{"queued leader", []pathSlotState{slot(slotFollowing, 2, 0), slot(slotQueued, 0, 1)}, true},
		{"follower count off", []pathSlotState{slot(slotSearching, 0, 2), slot(slotFollowing, 1, 0)}, false},
		{"uncounted follower", []pathSlotState{slot(slotSearching, 0, 0), slot(slotFollowing, 1, 0)}, false},
		{"follows itself", []pathSlotState{slot(slotFollowing, 1, 1)}, false},
		{"follows nothing", []pathSlotState{slot(slotFollowing, 0, 0)}, false},
		{"leader out of range", []pathSlotState{slot(slotFollowing, 3, 0), slot(slotQueued, 0, 0)}, false},
		{"leader done", []pathSlotState{slot(slotDone, 0, 1), slot(slotFollowing, 1, 0)}, false},
		{"leader following", []pathSlotState{slot(slotFollowing, 2, 1), slot(slotFollowing, 1, 1)}, false},
		{"a searching slot with a leader", []pathSlotState{slot(slotSearching, 0, 0), slot(slotSearching, 1, 0)}, false},
	} {
		err := checkShares(tc.slots)
		if tc.ok {
			assert.NoError(t, err, tc.name)
		} else {
			assert.Error(t, err, tc.name)
		}
	}
}

// FuzzCorridorAndBoundaryState feeds arbitrary bytes to the corridor's
// and the boundary's ReadState: they must not panic, and a state either
// accepts must restore and write itself back to the same bytes.
func FuzzCorridorAndBoundaryState(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 40))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s CorridorState
		if path, err := s.ReadState(data, nil, 0, 16, nil); err == nil {
			c, err := NewCorridor(16)
			require.NoError(t, err)
			require.NoError(t, c.RestoreState(&s, path))
			var again CorridorState
			back := c.CaptureState(&again, nil)
			assert.Equal(t, path, back)
		}
		var b LocalBoundary
		if b.ReadState(data) == nil {
			assert.Equal(t, data, b.AppendState(nil))
		}
	})
}
