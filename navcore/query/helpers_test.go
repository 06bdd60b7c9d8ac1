package query

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
)

// referenceFilter is the filter of the reference runs: every flag but
// "disabled" (0x10).
func referenceFilter() *Filter {
	f := NewFilter()
	f.IncludeFlags = testmesh.DungeonIncludeFlags
	f.ExcludeFlags = 0
	return f
}

// walkSetup returns a Query with maxNodes search nodes on the dungeon tile,
// the reference filter, pair 1 of the reference runs (a 22-polygon walk)
// and the nearest polygons of its two ends.
func walkSetup(t testing.TB, maxNodes int) (q *Query, filter *Filter, pair testmesh.ReferencePair, start, end NearestPoly) {
	t.Helper()
	q, err := New(testmesh.Dungeon(t), maxNodes)
	require.NoError(t, err)
	filter = referenceFilter()
	pair = testmesh.ReferencePairs(t)[1]
	start, err = q.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	end, err = q.FindNearestPoly(pair.End, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	require.NotZero(t, start.Ref)
	require.NotZero(t, end.Ref)
	return q, filter, pair, start, end
}
