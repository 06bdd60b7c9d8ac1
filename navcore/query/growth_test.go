package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestNodePoolGrowsForLongPaths runs the reference pairs on a Query whose
// pool starts at 8 nodes and may grow to 2048, plainly and sliced: every
// path is the one a 2048-node Query finds, none runs out of nodes, and the
// pool has grown by doublings. The same start without growth runs out.
func TestNodePoolGrowsForLongPaths(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	filter := referenceFilter()
	big, err := New(mesh, 2048)
	require.NoError(t, err)
	fixed, err := New(mesh, 8)
	require.NoError(t, err)
	growing, err := New(mesh, 8)
	require.NoError(t, err)
	require.NoError(t, growing.SetNodeLimit(2048))
	assert.Equal(t, 2048, growing.NodeLimit())
	sliced, err := New(mesh, 8)
	require.NoError(t, err)
	require.NoError(t, sliced.SetNodeLimit(2048))

	want := make([]navmesh.Ref, 256)
	got := make([]navmesh.Ref, 256)
	outOfNodes := 0
	for i, pair := range testmesh.ReferencePairs(t)[:300] {
		start, err := big.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		end, err := big.FindNearestPoly(pair.End, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		if start.Ref == 0 || end.Ref == 0 {
			continue
		}
		wantN, wantStatus, err := big.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, want)
		require.NoError(t, err)
		require.False(t, wantStatus.OutOfNodes(), "pair %d", i)

		_, status, err := fixed.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, got)
		require.NoError(t, err)
		if status.OutOfNodes() {
			outOfNodes++
		}

		n, status, err := growing.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, got)
		require.NoError(t, err)
		assert.Equal(t, wantStatus, status, "pair %d", i)
		require.Equal(t, want[:wantN], got[:n], "pair %d", i)

		_, err = sliced.InitSlicedFindPath(start.Ref, end.Ref, start.Point, end.Point, filter, 0)
		require.NoError(t, err)
		for {
			_, status, err := sliced.UpdateSlicedFindPath(7)
			require.NoError(t, err)
			if !status.InProgress() {
				assert.False(t, status.OutOfNodes(), "pair %d", i)
				break
			}
		}
		n, _, err = sliced.FinalizeSlicedFindPath(got)
		require.NoError(t, err)
		require.Equal(t, want[:wantN], got[:n], "pair %d, sliced", i)
	}
	assert.Greater(t, outOfNodes, 100, "pairs that run out of 8 nodes")
	for _, q := range []*Query{growing, sliced} {
		size := q.MaxNodes()
		assert.Greater(t, size, 8)
		assert.LessOrEqual(t, size, 2048)
		assert.Zero(t, size&(size-1), "grown by doublings: %d", size)
	}
}

// TestNodePoolAtItsLimit: a pool that may not grow further reports
// StatusOutOfNodes as before, and a grown pool stays grown and allocates
// nothing more.
func TestNodePoolAtItsLimit(t *testing.T) {
	q, filter, _, start, end := walkSetup(t, 4)
	require.NoError(t, q.SetNodeLimit(6))
	path := make([]navmesh.Ref, 256)
	_, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	assert.True(t, status.OutOfNodes())
	assert.True(t, status.Partial())
	assert.Equal(t, 6, q.MaxNodes(), "grown to the limit, not past it")

	require.NoError(t, q.SetNodeLimit(4096))
	_, status, err = q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	assert.False(t, status.OutOfNodes())
	assert.False(t, status.Partial())
	grown := q.MaxNodes()
	require.NoError(t, q.SetNodeLimit(1))
	assert.Equal(t, grown, q.MaxNodes(), "a lower limit keeps the pool")
	assert.Equal(t, grown, q.NodeLimit())

	allocs := testing.AllocsPerRun(20, func() {
		_, _, _ = q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	})
	assert.Zero(t, allocs)
}

func TestSetNodeLimitErrors(t *testing.T) {
	q, err := New(testmesh.Dungeon(t), 16)
	require.NoError(t, err)
	for _, limit := range []int{0, -1, MaxNodes + 1} {
		assert.ErrorIs(t, q.SetNodeLimit(limit), ErrInvalidParam, "limit %d", limit)
	}
	assert.Equal(t, 16, q.NodeLimit(), "a refused limit changes nothing")
}
