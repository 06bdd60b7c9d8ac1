package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestClosedNodes counts, after each search, the polygons IsInClosedList
// reports closed.
func TestClosedNodes(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := NewFilter()
	filter.IncludeFlags = testmesh.DungeonIncludeFlags
	path := make([]navmesh.Ref, 256)
	tile := mesh.Snapshot().Tile(0)
	searched := 0
	for _, p := range testmesh.ReferencePairs(t)[:50] {
		start, _ := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
		end, _ := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, filter)
		if start.Ref == 0 || end.Ref == 0 || start.Ref == end.Ref {
			continue
		}
		_, _, err := q.FindPath(start.Ref, end.Ref, p.Start, p.End, filter, path)
		require.NoError(t, err)
		want := 0
		for i := range tile.Polys {
			if q.IsInClosedList(tile.PolyRefBase() | navmesh.Ref(i)) {
				want++
			}
		}
		assert.Equal(t, want, q.ClosedNodes())
		assert.Positive(t, want)
		searched++
	}
	assert.Positive(t, searched)
	assert.Zero(t, testing.AllocsPerRun(10, func() { q.ClosedNodes() }))
}
