package query

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestFindStraightPathOnCorridorMatches checks FindStraightPathOnCorridor,
// given the end points ClosestPointOnPolyBoundary returns, against
// FindStraightPath bit for bit on the 1000 reference pairs: whole paths,
// paths broken in the middle (a polygon dropped, so that the funnel meets
// two unlinked polygons), small point buffers and every option.
func TestFindStraightPathOnCorridorMatches(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := referenceFilter()
	path := make([]navmesh.Ref, 256)
	broken := make([]navmesh.Ref, 256)
	want := make([]StraightPathPoint, 64)
	got := make([]StraightPathPoint, 64)
	compared, partials := 0, 0
	for _, p := range testmesh.ReferencePairs(t) {
		start, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		if start.Ref == 0 || end.Ref == 0 {
			continue
		}
		n, _, err := q.FindPath(start.Ref, end.Ref, p.Start, p.End, filter, path)
		require.NoError(t, err)
		corridors := [][]navmesh.Ref{path[:n]}
		if n > 3 {
			m := copy(broken, path[:n/2])
			m += copy(broken[m:], path[n/2+1:n])
			corridors = append(corridors, broken[:m])
		}
		for _, corridor := range corridors {
			closestStart, err := q.ClosestPointOnPolyBoundary(corridor[0], p.Start)
			require.NoError(t, err)
			closestEnd, err := q.ClosestPointOnPolyBoundary(corridor[len(corridor)-1], p.End)
			require.NoError(t, err)
			for _, size := range []int{64, 4, 1} {
				for _, options := range []StraightPathOptions{0, StraightPathAreaCrossings, StraightPathAllCrossings} {
					wn, wstatus, werr := q.FindStraightPath(p.Start, p.End, corridor, want[:size], options)
					gn, gstatus, gerr := q.FindStraightPathOnCorridor(closestStart, closestEnd, p.End, corridor, got[:size], options)
					require.NoError(t, werr)
					require.NoError(t, gerr)
					require.Equal(t, wstatus, gstatus, "pair %d", p.Index)
					require.Equal(t, want[:wn], got[:gn], "pair %d size %d options %d", p.Index, size, options)
					compared++
					if gstatus.Partial() {
						partials++
					}
				}
			}
		}
	}
	assert.Greater(t, compared, 10000)
	assert.Greater(t, partials, 1000, "broken corridors")
}

// TestFindStraightPathOnCorridorArguments: bad input is an error, as for
// FindStraightPath.
func TestFindStraightPathOnCorridorArguments(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 64)
	require.NoError(t, err)
	start, err := q.FindNearestPoly(testmesh.ReferencePairs(t)[0].Start, testmesh.DungeonHalfExtents, referenceFilter())
	require.NoError(t, err)
	points := make([]StraightPathPoint, 4)
	nan := geom.Vec3{float32(math.NaN()), 0, 0}
	for name, call := range map[string]func() error{
		"NaN start": func() error {
			_, _, err := q.FindStraightPathOnCorridor(nan, start.Point, start.Point, []navmesh.Ref{start.Ref}, points, 0)
			return err
		},
		"NaN end": func() error {
			_, _, err := q.FindStraightPathOnCorridor(start.Point, start.Point, nan, []navmesh.Ref{start.Ref}, points, 0)
			return err
		},
		"empty path": func() error {
			_, _, err := q.FindStraightPathOnCorridor(start.Point, start.Point, start.Point, nil, points, 0)
			return err
		},
		"zero ref": func() error {
			_, _, err := q.FindStraightPathOnCorridor(start.Point, start.Point, start.Point, []navmesh.Ref{0}, points, 0)
			return err
		},
		"empty buffer": func() error {
			_, _, err := q.FindStraightPathOnCorridor(start.Point, start.Point, start.Point, []navmesh.Ref{start.Ref}, nil, 0)
			return err
		},
	} {
		assert.Error(t, call(), name)
	}
	n, _, err := q.FindStraightPathOnCorridor(start.Point, start.Point, start.Point, []navmesh.Ref{start.Ref}, points, 0)
	require.NoError(t, err)
	want := make([]StraightPathPoint, 4)
	wn, _, err := q.FindStraightPath(start.Point, start.Point, []navmesh.Ref{start.Ref}, want, 0)
	require.NoError(t, err)
	assert.Equal(t, want[:wn], points[:n], "a path that ends where it starts")
}
