package query

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// partialPairs returns up to n reference pairs of the dungeon whose paths
// are partial (their ends lie in parts no path joins).
func partialPairs(t testing.TB, n int) []testmesh.ReferencePair {
	var out []testmesh.ReferencePair
	for _, p := range testmesh.ReferencePairs(t) {
		if p.Partial && p.StartFound && p.EndFound && len(out) < n {
			out = append(out, p)
		}
	}
	require.Len(t, out, n)
	return out
}

// ends finds the polygons of a pair's start and end.
func ends(t testing.TB, q *Query, filter *Filter, p testmesh.ReferencePair) (start, end NearestPoly) {
	start, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	end, err = q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	return start, end
}

func linkOf(start, end NearestPoly) navmesh.LinkDesc {
	return navmesh.LinkDesc{Start: start.Point, End: end.Point, Radius: 0.5, Bidirectional: true, Flags: 1}
}

// TestQueriesTakeRuntimeLinks: a path between the dungeon's unjoined parts
// is complete once a link joins them, crosses the link's polygon, and its
// straight path marks the link's start; a raycast does not go through the
// link; OutOfReach agrees; without the link all is as before.
func TestQueriesTakeRuntimeLinks(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := referenceFilter()
	pair := partialPairs(t, 1)[0]
	start, end := ends(t, q, filter, pair)
	path := make([]navmesh.Ref, 256)
	before, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	require.True(t, status.Partial())
	beforePath := slices.Clone(path[:before])
	assert.True(t, q.OutOfReach(start.Ref, end.Ref, filter))

	id, err := mesh.AddLink(linkOf(start, end))
	require.NoError(t, err)
	assert.False(t, q.OutOfReach(start.Ref, end.Ref, filter))
	n, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	assert.False(t, status.Partial())
	assert.Equal(t, end.Ref, path[n-1])
	at := slices.Index(path[:n], id.Ref())
	require.Positive(t, at, "the path crosses the link")
	assert.Equal(t, start.Ref, path[at-1])

	// From a little way off the link's start, so that its corner is one of
	// its own.
	visited := make([]navmesh.Ref, 16)
	from, count, _, err := q.MoveAlongSurface(start.Ref, start.Point, geom.Add(start.Point, geom.Vec3{2, 0, 2}), filter, visited)
	require.NoError(t, err)
	require.Greater(t, geom.Dist2D(from, start.Point), float32(0.5))
	n, status, err = q.FindPath(visited[count-1], end.Ref, from, end.Point, filter, path)
	require.NoError(t, err)
	require.False(t, status.Partial())
	points := make([]StraightPathPoint, 32)
	m, _, err := q.FindStraightPath(from, end.Point, path[:n], points, 0)
	require.NoError(t, err)
	var offMesh []StraightPathPoint
	for _, p := range points[:m] {
		if p.Flags&StraightPathOffMeshConnection != 0 {
			offMesh = append(offMesh, p)
		}
	}
	require.Len(t, offMesh, 1)
	assert.Equal(t, id.Ref(), offMesh[0].Ref)
	assert.Equal(t, start.Point, offMesh[0].Pos)

	hit, _, err := q.Raycast(start.Ref, start.Point, end.Point, filter, 0, 0, path)
	require.NoError(t, err)
	assert.Less(t, hit.T, float32(1), "a ray stops at walls, links or not")

	require.NoError(t, mesh.RemoveLink(id))
	n, status, err = q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	assert.True(t, status.Partial())
	assert.Equal(t, beforePath, path[:n], "without the link, the same path as before")
}

// TestLinkCostSteersTheSearch: a link between two points a long walk
// apart is taken at its area's cost (shorter than the walk) and at a
// small Cost, and avoided at a large one.
func TestLinkCostSteersTheSearch(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 4096)
	require.NoError(t, err)
	filter := referenceFilter()
	var pair testmesh.ReferencePair
	for _, p := range testmesh.ReferencePairs(t) {
		if !p.Partial && p.StartFound && p.EndFound && p.Length3D > 2.5*float64(geom.Dist(p.Start, p.End)) {
			pair = p
			break
		}
	}
	require.NotZero(t, pair.Length3D, "a pair whose walk is much longer than the straight line")
	start, end := ends(t, q, filter, pair)
	path := make([]navmesh.Ref, 256)
	for _, tc := range []struct {
		cost  float32
		takes bool
	}{{0, true}, {0.01, true}, {100, false}} {
		link := linkOf(start, end)
		link.Cost = tc.cost
		id, err := mesh.AddLink(link)
		require.NoError(t, err)
		n, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
		require.NoError(t, err)
		assert.False(t, status.Partial())
		assert.Equal(t, tc.takes, slices.Contains(path[:n], id.Ref()), "cost %v", tc.cost)
		require.NoError(t, mesh.RemoveLink(id))
	}
}

// TestQueriesWhileLinksChange runs path searches on several goroutines
// while links between unjoined parts come and go: every path is either
// partial or complete through a link, and nothing fails. Run it with
// -race.
func TestQueriesWhileLinksChange(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	filter := referenceFilter()
	setup, err := New(mesh, 64)
	require.NoError(t, err)
	pairs := partialPairs(t, 8)
	starts, goals := make([]NearestPoly, len(pairs)), make([]NearestPoly, len(pairs))
	for i, p := range pairs {
		starts[i], goals[i] = ends(t, setup, filter, p)
	}
	var stop atomic.Bool
	var complete, partial atomic.Int64
	var wg sync.WaitGroup
	for w := range max(2, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q, err := New(mesh, 2048)
			if !assert.NoError(t, err) {
				return
			}
			path := make([]navmesh.Ref, 256)
			points := make([]StraightPathPoint, 32)
			for i := w; !stop.Load(); i++ {
				s, g := starts[i%len(starts)], goals[i%len(goals)]
				n, status, err := q.FindPath(s.Ref, g.Ref, s.Point, g.Point, filter, path)
				if !assert.NoError(t, err) {
					return
				}
				if status.Partial() {
					partial.Add(1)
					continue
				}
				complete.Add(1)
				crossed := false
				for _, ref := range path[:n] {
					crossed = crossed || ref.TileIndex() >= uint32(mesh.MaxTiles())
				}
				assert.True(t, crossed, "a complete path crosses a link")
				_, _, err = q.FindStraightPath(s.Point, g.Point, path[:n], points, 0)
				assert.NoError(t, err)
			}
		}()
	}
	ids := make([]navmesh.LinkID, len(pairs))
	for round := range 400 {
		i := round % len(pairs)
		if ids[i] != 0 {
			require.NoError(t, mesh.RemoveLink(ids[i]))
			ids[i] = 0
		} else {
			ids[i], err = mesh.AddLink(linkOf(starts[i], goals[i]))
			require.NoError(t, err)
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d complete, %d partial paths", complete.Load(), partial.Load())
	assert.Positive(t, complete.Load())
}

// TestLinkedQueriesDoNotAllocate: with runtime links in the mesh, the
// searches through them allocate nothing.
func TestLinkedQueriesDoNotAllocate(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := referenceFilter()
	start, end := ends(t, q, filter, partialPairs(t, 1)[0])
	_, err = mesh.AddLink(linkOf(start, end))
	require.NoError(t, err)
	path := make([]navmesh.Ref, 256)
	points := make([]StraightPathPoint, 32)
	n, _, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
	require.NoError(t, err)
	corridor := slices.Clone(path[:n])
	for name, run := range map[string]func(){
		"FindPath":         func() { _, _, _ = q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path) },
		"FindStraightPath": func() { _, _, _ = q.FindStraightPath(start.Point, end.Point, corridor, points, 0) },
		"OutOfReach":       func() { _ = q.OutOfReach(start.Ref, end.Ref, filter) },
		"SlicedFindPath": func() {
			st, _ := q.InitSlicedFindPath(start.Ref, end.Ref, start.Point, end.Point, filter, 0)
			for st.InProgress() {
				_, st, _ = q.UpdateSlicedFindPath(16)
			}
			_, _, _ = q.FinalizeSlicedFindPath(path)
		},
	} {
		run()
		assert.Zero(t, testing.AllocsPerRun(20, run), name)
	}
}
