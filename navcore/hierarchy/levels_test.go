package hierarchy

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/require"
)

// recastDemoLevels are the RecastDemo test levels in testdata/.
var recastDemoLevels = []string{"dungeon", "nav_test", "undulating"}

// tiledLevels holds the tiled bakes of the RecastDemo levels (tile size
// 32), made once per process.
var tiledLevels struct {
	once    sync.Once
	results map[string]*bake.TiledResult
	err     error
}

// testMesh returns a new mesh of level name: a RecastDemo level tiled
// with tile size 32, or "bigworld", the small generated level
// (bigworld.Small, tile size 64). Each call returns a mesh of its own.
func testMesh(tb testing.TB, name string) *navmesh.Mesh {
	tb.Helper()
	if name == "bigworld" {
		mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
		require.NoError(tb, err)
		return mesh
	}
	tiledLevels.once.Do(func() {
		tiledLevels.results = map[string]*bake.TiledResult{}
		for _, level := range recastDemoLevels {
			g, err := bake.LoadOBJ("../../testdata/" + level + ".obj")
			if err != nil {
				tiledLevels.err = err
				return
			}
			settings := bake.DefaultSettings()
			settings.TileSize = 32
			r, err := bake.Tiled(context.Background(), g, settings, bake.TiledOptions{})
			if err != nil {
				tiledLevels.err = err
				return
			}
			tiledLevels.results[level] = r
		}
	})
	require.NoError(tb, tiledLevels.err)
	r, ok := tiledLevels.results[name]
	require.True(tb, ok, "no level %q", name)
	mesh, err := r.NavMesh()
	require.NoError(tb, err)
	return mesh
}

// demoFilter is RecastDemo's filter: every flag but "disabled".
func demoFilter() *query.Filter {
	f := query.NewFilter()
	f.IncludeFlags = 0xffff ^ bake.DemoFlagDisabled
	return f
}

// randomPairs draws n start/goal pairs of random points on mesh.
func randomPairs(tb testing.TB, mesh *navmesh.Mesh, filter *query.Filter, n int, seed uint64) []pathPair {
	tb.Helper()
	q, err := query.New(mesh, 64)
	require.NoError(tb, err)
	random := newRandom(seed)
	pairs := make([]pathPair, 0, n)
	for len(pairs) < n {
		a, errA := q.FindRandomPoint(filter, random)
		b, errB := q.FindRandomPoint(filter, random)
		if errA != nil || errB != nil {
			continue
		}
		pairs = append(pairs, pathPair{a.Ref, b.Ref, a.Pos, b.Pos})
	}
	return pairs
}

// pathQuality compares the corridors of a Searcher with those of A* with
// a node pool that always finishes, pair by pair.
type pathQuality struct {
	costRatios, lengthRatios []float64
	reachable, partial       int
}

// comparePaths runs every pair with both searches and checks, pair by
// pair, what must hold exactly: both reach the goal or neither does; a
// complete corridor runs from the start polygon to the goal polygon
// through linked polygons; a partial one (of the hierarchy) ends at the
// polygon of the start's component nearest the goal. It returns the cost
// and straight-path length ratios of the complete corridors.
func comparePaths(t *testing.T, mesh *navmesh.Mesh, s *Searcher, filter *query.Filter, pairs []pathPair) pathQuality {
	t.Helper()
	plain, err := query.New(mesh, 4096)
	require.NoError(t, err)
	require.NoError(t, plain.SetNodeLimit(query.MaxNodes))
	snap := mesh.Snapshot()
	pathA := make([]navmesh.Ref, 1<<14)
	pathH := make([]navmesh.Ref, 1<<14)
	points := make([]query.StraightPathPoint, 1<<14)
	var quality pathQuality
	for i, p := range pairs {
		what := fmt.Sprintf("pair %d (%v to %v)", i, p.start, p.end)
		nA, statusA, err := plain.FindPath(p.startRef, p.endRef, p.start, p.end, filter, pathA)
		require.NoError(t, err, what)
		result, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, pathH)
		require.NoError(t, err, what)
		require.Equal(t, statusA.Partial(), result.Status.Partial(), "%s: reachability differs from A*", what)
		corridor := pathH[:result.Count]
		requireLinked(t, snap, corridor, what)
		require.Equal(t, p.startRef, corridor[0], what)
		if !statusA.Partial() {
			quality.reachable++
			require.Equal(t, p.endRef, corridor[len(corridor)-1], what)
			costA, err := CorridorCost(snap, filter, p.start, p.end, pathA[:nA])
			require.NoError(t, err)
			costH, err := CorridorCost(snap, filter, p.start, p.end, corridor)
			require.NoError(t, err)
			lengthA := straightLength(t, plain, p.start, p.end, pathA[:nA], points)
			lengthH := straightLength(t, plain, p.start, p.end, corridor, points)
			if costA > 0 {
				quality.costRatios = append(quality.costRatios, float64(costH/costA))
			}
			if lengthA > 0 {
				quality.lengthRatios = append(quality.lengthRatios, lengthH/lengthA)
			}
			continue
		}
		quality.partial++
		if result.Fallback != FallbackNone {
			continue // plain A* answered: its own partial rule
		}
		nearest, err := plain.FindNearestPolyInComponent(p.startRef, p.end, filter)
		require.NoError(t, err)
		want := nearest.Ref
		if want == 0 {
			want = p.startRef
		}
		require.Equal(t, want, corridor[len(corridor)-1], "%s: partial corridor's end", what)
	}
	return quality
}

// requireLinked checks that each polygon of corridor links to the next.
func requireLinked(t *testing.T, snap *navmesh.Snapshot, corridor []navmesh.Ref, what string) {
	t.Helper()
	require.NotEmpty(t, corridor, what)
	for k := 0; k+1 < len(corridor); k++ {
		tile, poly, err := snap.TileAndPoly(corridor[k])
		require.NoError(t, err, what)
		require.NotNil(t, findLink(tile, poly, corridor[k+1]), "%s: polygons %d and %d are not linked", what, k, k+1)
	}
}

func straightLength(t *testing.T, q *query.Query, start, end geom.Vec3, corridor []navmesh.Ref, points []query.StraightPathPoint) float64 {
	t.Helper()
	n, _, err := q.FindStraightPath(start, end, corridor, points, 0)
	require.NoError(t, err)
	length := 0.0
	for i := 1; i < n; i++ {
		length += float64(geom.Dist(points[i-1].Pos, points[i].Pos))
	}
	return length
}

// summary returns the mean and the 99th percentile of ratios.
func summary(ratios []float64) (mean, p99 float64) {
	if len(ratios) == 0 {
		return 1, 1
	}
	sorted := slices.Clone(ratios)
	slices.Sort(sorted)
	for _, r := range sorted {
		mean += r
	}
	mean /= float64(len(sorted))
	return mean, sorted[int(math.Ceil(0.99*float64(len(sorted))))-1]
}
