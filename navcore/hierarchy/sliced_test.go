package hierarchy

import (
	"fmt"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// slicedPath runs a sliced search in steps of step iterations.
func slicedPath(t *testing.T, s *Searcher, p pathPair, filter *query.Filter, step int, path []navmesh.Ref) (Result, int) {
	t.Helper()
	status, err := s.InitSlicedFindPath(p.startRef, p.endRef, p.start, p.end, filter)
	require.NoError(t, err)
	updates := 0
	for status.InProgress() {
		var n int
		n, status, err = s.UpdateSlicedFindPath(step)
		require.NoError(t, err)
		require.LessOrEqual(t, n, step)
		updates++
	}
	r, err := s.FinalizeSlicedFindPath(path)
	require.NoError(t, err)
	return r, updates
}

// TestSlicedMatchesFindPath: the sliced search gives FindPath's corridor,
// whatever the step size, for the hierarchy's filter and others.
func TestSlicedMatchesFindPath(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	q, _ := query.New(mesh, 4096)
	s, _ := NewSearcher(q, h)
	other := demoFilter()
	other.AreaCost[1] = 2
	want := make([]navmesh.Ref, 4096)
	got := make([]navmesh.Ref, 4096)
	for i, p := range randomPairs(t, mesh, filter, 60, 12) {
		f := filter
		if i%5 == 4 {
			f = other
		}
		whole, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, f, want)
		require.NoError(t, err)
		for _, step := range []int{1, 7, 1000} {
			sliced, updates := slicedPath(t, s, p, f, step, got)
			assert.Equal(t, whole.Status, sliced.Status, "pair %d step %d", i, step)
			assert.Equal(t, whole.Fallback, sliced.Fallback)
			if whole.Fallback == FallbackNone {
				assert.Equal(t, want[:whole.Count], got[:sliced.Count], "pair %d step %d", i, step)
				assert.Equal(t, whole.NodesVisited, sliced.NodesVisited)
				if step == 1 && whole.NodesVisited > 0 {
					// One node an update, but for the searches inside the
					// start and goal tiles, which the start makes.
					assert.Greater(t, updates, 1)
				}
			} else {
				// Plain A* sliced and whole may differ in detail (Detour's
				// sliced search keeps one node per polygon); both reach
				// the same end.
				assert.Equal(t, want[whole.Count-1], got[sliced.Count-1])
			}
		}
	}
}

// TestSlicedFinalizeEarly: finalizing a search in progress runs it to its
// end.
func TestSlicedFinalizeEarly(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, _ := New(mesh, filter, Options{})
	q, _ := query.New(mesh, 4096)
	s, _ := NewSearcher(q, h)
	want := make([]navmesh.Ref, 4096)
	got := make([]navmesh.Ref, 4096)
	for _, p := range randomPairs(t, mesh, filter, 10, 13) {
		whole, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, want)
		require.NoError(t, err)
		_, err = s.InitSlicedFindPath(p.startRef, p.endRef, p.start, p.end, filter)
		require.NoError(t, err)
		_, _, err = s.UpdateSlicedFindPath(3)
		require.NoError(t, err)
		r, err := s.FinalizeSlicedFindPath(got)
		require.NoError(t, err)
		assert.Equal(t, want[:whole.Count], got[:r.Count])
	}
}

// TestSlicedStartRemoved: a search whose start tile goes away fails with
// ErrInvalidRef; one whose other tiles change finishes on the snapshot it
// started on.
func TestSlicedStartRemoved(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, _ := New(mesh, filter, Options{})
	q, _ := query.New(mesh, 4096)
	s, _ := NewSearcher(q, h)
	var p pathPair
	for _, candidate := range randomPairs(t, mesh, filter, 200, 14) {
		if mesh.Snapshot().SameComponent(candidate.startRef, candidate.endRef) && candidate.startRef.TileIndex() != candidate.endRef.TileIndex() {
			p = candidate
			break
		}
	}
	require.NotZero(t, p.startRef)
	status, err := s.InitSlicedFindPath(p.startRef, p.endRef, p.start, p.end, filter)
	require.NoError(t, err)
	require.True(t, status.InProgress())
	data, err := mesh.RemoveTile(mesh.Snapshot().TileByRef(p.startRef).Ref())
	require.NoError(t, err)
	_, _, err = s.UpdateSlicedFindPath(5)
	assert.ErrorIs(t, err, ErrInvalidRef)
	_, err = s.FinalizeSlicedFindPath(make([]navmesh.Ref, 16))
	assert.ErrorIs(t, err, ErrNoSlicedQuery)
	_, err = mesh.AddTile(data, 0)
	require.NoError(t, err)
}

// TestBufferTooSmall: a short buffer keeps the corridor's start.
func TestBufferTooSmall(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, _ := New(mesh, filter, Options{})
	q, _ := query.New(mesh, 4096)
	s, _ := NewSearcher(q, h)
	full := make([]navmesh.Ref, 4096)
	for _, p := range randomPairs(t, mesh, filter, 40, 15) {
		whole, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, full)
		require.NoError(t, err)
		if whole.Count < 4 {
			continue
		}
		short := make([]navmesh.Ref, whole.Count/2)
		cut, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, short)
		require.NoError(t, err)
		assert.True(t, cut.Status.BufferTooSmall())
		assert.Equal(t, whole.Status.Partial(), cut.Status.Partial())
		assert.Equal(t, full[:len(short)], short)
	}
}

// TestNoAllocations: once warm, searches allocate nothing, with the
// region level and without.
func TestNoAllocations(t *testing.T) {
	for _, region := range []int{1, 2} {
		t.Run(fmt.Sprintf("region%d", region), func(t *testing.T) { testNoAllocations(t, region) })
	}
}

func testNoAllocations(t *testing.T, region int) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, _ := New(mesh, filter, Options{RegionSize: region})
	q, _ := query.New(mesh, 4096)
	s, _ := NewSearcher(q, h)
	pairs := randomPairs(t, mesh, filter, 30, 16)
	path := make([]navmesh.Ref, 4096)
	run := func() {
		for _, p := range pairs {
			if _, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path); err != nil {
				t.Fatal(err)
			}
			status, err := s.InitSlicedFindPath(p.startRef, p.endRef, p.start, p.end, filter)
			for err == nil && status.InProgress() {
				_, status, err = s.UpdateSlicedFindPath(25)
			}
			if err == nil {
				_, err = s.FinalizeSlicedFindPath(path)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	run()
	assert.Zero(t, testing.AllocsPerRun(5, run))
}
