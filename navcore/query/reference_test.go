package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestReferencePairs replays the 1000 C++ runs of query_dungeon.csv: two
// nearest-poly queries, a path and a straight path per pair.
func TestReferencePairs(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := referenceFilter()
	pairs := testmesh.ReferencePairs(t)
	require.Len(t, pairs, 1000)

	path := make([]navmesh.Ref, 256)
	points := make([]StraightPathPoint, 256)
	mismatches := 0
	partials := 0
	for _, p := range pairs {
		start, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)

		ok := assert.Equal(t, p.StartFound, start.Ref != 0, "pair %d start found", p.Index) &&
			assert.Equal(t, p.EndFound, end.Ref != 0, "pair %d end found", p.Index) &&
			assert.Equal(t, p.StartPoly, start.Ref.PolyIndex(), "pair %d start poly", p.Index) &&
			assert.Equal(t, p.EndPoly, end.Ref.PolyIndex(), "pair %d end poly", p.Index)
		if !ok {
			mismatches++
			continue
		}

		n, status, err := q.FindPath(start.Ref, end.Ref, p.Start, p.End, filter, path)
		require.NoError(t, err)
		if status.Partial() {
			partials++
		}
		ok = assert.Equal(t, p.Partial, status.Partial(), "pair %d partial", p.Index) &&
			assert.Equal(t, p.PolyCount, n, "pair %d polys", p.Index) &&
			assert.Equal(t, p.LastPoly, path[n-1].PolyIndex(), "pair %d last poly", p.Index)
		if !ok {
			mismatches++
			continue
		}

		ns, _, err := q.FindStraightPath(p.Start, p.End, path[:n], points, 0)
		require.NoError(t, err)
		var len3D, len2D float64
		for i := 1; i < ns; i++ {
			a, b := points[i-1].Pos, points[i].Pos
			len3D += float64(geom.Dist(a, b))
			len2D += float64(geom.Dist2D(a, b))
		}
		last := points[ns-1].Pos
		ok = assert.Equal(t, p.StraightCount, ns, "pair %d straight points", p.Index) &&
			assert.InDelta(t, p.Length3D, len3D, 1e-4, "pair %d 3D length", p.Index) &&
			assert.InDelta(t, p.Length2D, len2D, 1e-4, "pair %d 2D length", p.Index) &&
			assert.InDelta(t, p.StraightEnd[0], last[0], 1e-4, "pair %d end x", p.Index) &&
			assert.InDelta(t, p.StraightEnd[1], last[1], 1e-4, "pair %d end y", p.Index) &&
			assert.InDelta(t, p.StraightEnd[2], last[2], 1e-4, "pair %d end z", p.Index)
		if !ok {
			mismatches++
		}
	}
	assert.Zero(t, mismatches, "pairs differing from the C++")
	assert.Equal(t, 200, partials, "partial paths")
}
