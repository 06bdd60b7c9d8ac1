package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

func TestSearchNodesOfAPathSearch(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	assert.Empty(t, q.SearchNodes(nil), "no search yet")

	filter := NewFilter()
	pair := testmesh.ReferencePairs(t)[1]
	start, err := q.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	end, err := q.FindNearestPoly(pair.End, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(start.Ref, end.Ref, pair.Start, pair.End, filter, path)
	require.NoError(t, err)
	require.Positive(t, n)

	nodes := q.SearchNodes(nil)
	require.NotEmpty(t, nodes)
	closed := map[navmesh.Ref]bool{}
	for i, node := range nodes {
		assert.True(t, mesh.IsValid(node.Ref))
		assert.Less(t, node.Parent, len(nodes))
		if node.Parent < 0 {
			assert.Equal(t, start.Ref, node.Ref, "only the start has no parent (node %d)", i)
		}
		assert.LessOrEqual(t, node.Cost, node.Total+1e-3, "the estimate is not negative")
		if node.Closed {
			closed[node.Ref] = true
		}
		assert.Equal(t, node.Closed, q.IsInClosedList(node.Ref), "agrees with IsInClosedList")
	}
	for _, ref := range path[:n-1] {
		assert.True(t, closed[ref], "every polygon the path leaves was explored")
	}

	buffer := make([]SearchNode, 0, len(nodes))
	allocs := testing.AllocsPerRun(20, func() { buffer = q.SearchNodes(buffer[:0]) })
	assert.Zero(t, allocs)
}
