package hierarchy

import (
	"fmt"
	"testing"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathsMatchAStar checks, on the generated level and the three
// RecastDemo levels tiled, with the default options, that the hierarchy
// reaches the goal on exactly the pairs unlimited A* reaches it (partial
// corridors ending where FindPath documents), and that its corridors cost
// within 1 % of A*'s on average and 5 % on 99 % of the pairs, their
// straight paths likewise.
func TestPathsMatchAStar(t *testing.T) {
	pairsPerLevel := 1000
	if longtest.Enabled() {
		pairsPerLevel = 4000
	}
	for _, level := range append([]string{"bigworld"}, recastDemoLevels...) {
		for _, cluster := range []int{DefaultClusterSize} {
			t.Run(fmt.Sprintf("%s/cluster%d", level, cluster), func(t *testing.T) {
				mesh := testMesh(t, level)
				filter := demoFilter()
				h, err := New(mesh, filter, Options{ClusterSize: cluster})
				require.NoError(t, err)
				q, err := query.New(mesh, 64)
				require.NoError(t, err)
				s, err := NewSearcher(q, h)
				require.NoError(t, err)
				pairs := randomPairs(t, mesh, filter, pairsPerLevel, uint64(cluster)*7919+uint64(len(level)))
				quality := comparePaths(t, mesh, s, filter, pairs)
				require.Greater(t, quality.reachable, pairsPerLevel/10)
				costMean, costP99 := summary(quality.costRatios)
				lengthMean, lengthP99 := summary(quality.lengthRatios)
				t.Logf("%d reachable, %d partial; cost ratio mean %.4f p99 %.4f; straight length ratio mean %.4f p99 %.4f",
					quality.reachable, quality.partial, costMean, costP99, lengthMean, lengthP99)
				assert.LessOrEqual(t, costMean, 1.01)
				assert.LessOrEqual(t, costP99, 1.05)
				assert.LessOrEqual(t, lengthMean, 1.01)
				assert.LessOrEqual(t, lengthP99, 1.05)
			})
		}
	}
}

// TestSameStartAndGoal: one polygon, no search.
func TestSameStartAndGoal(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	filter := demoFilter()
	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	q, _ := query.New(mesh, 64)
	s, _ := NewSearcher(q, h)
	p := randomPairs(t, mesh, filter, 1, 3)[0]
	path := make([]navmesh.Ref, 4)
	r, err := s.FindPath(p.startRef, p.startRef, p.start, p.end, filter, path)
	require.NoError(t, err)
	assert.Equal(t, Result{Count: 1}, r)
	assert.Equal(t, p.startRef, path[0])
}

// TestReachabilityEveryClusterSize checks reachability and the corridors'
// shape, pair by pair, with clusters of 1 and 2 tiles too (the bottom
// level then does more of the work) and with a region level, and that the
// corridors never cost much more than A*'s.
func TestReachabilityEveryClusterSize(t *testing.T) {
	for _, level := range append([]string{"bigworld"}, recastDemoLevels...) {
		for _, size := range []struct{ cluster, region int }{{1, 1}, {2, 1}, {MaxClusterSize, 1}, {DefaultClusterSize, 2}, {2, 4}} {
			cluster := size.cluster
			t.Run(fmt.Sprintf("%s/cluster%d/region%d", level, cluster, size.region), func(t *testing.T) {
				mesh := testMesh(t, level)
				filter := demoFilter()
				h, err := New(mesh, filter, Options{ClusterSize: cluster, RegionSize: size.region, Landmarks: 4})
				require.NoError(t, err)
				q, err := query.New(mesh, 64)
				require.NoError(t, err)
				s, err := NewSearcher(q, h)
				require.NoError(t, err)
				quality := comparePaths(t, mesh, s, filter, randomPairs(t, mesh, filter, 300, uint64(cluster)*31+uint64(len(level))))
				costMean, costP99 := summary(quality.costRatios)
				lengthMean, lengthP99 := summary(quality.lengthRatios)
				t.Logf("%d reachable, %d partial; cost ratio mean %.4f p99 %.4f; straight length ratio mean %.4f p99 %.4f",
					quality.reachable, quality.partial, costMean, costP99, lengthMean, lengthP99)
				assert.LessOrEqual(t, costMean, 1.01)
				assert.LessOrEqual(t, costP99, 1.05)
			})
		}
	}
}

// TestCorridorsAreStitched checks that the corridors of searches that
// cross clusters come from the route's kept ways (no refinement search)
// on nearly every pair, with regions and without, and that such
// corridors are sound (comparePaths checks them against A*).
func TestCorridorsAreStitched(t *testing.T) {
	for _, region := range []int{1, 2} {
		t.Run(fmt.Sprintf("region%d", region), func(t *testing.T) {
			mesh := testMesh(t, "bigworld")
			filter := demoFilter()
			h, err := New(mesh, filter, Options{RegionSize: region})
			require.NoError(t, err)
			q, err := query.New(mesh, 64)
			require.NoError(t, err)
			s, err := NewSearcher(q, h)
			require.NoError(t, err)
			path := make([]navmesh.Ref, 4096)
			crossing, stitched := 0, 0
			for _, p := range randomPairs(t, mesh, filter, 400, uint64(region)+11) {
				result, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
				require.NoError(t, err)
				if result.Fallback != FallbackNone || s.abstractClosed == 0 || p.startRef.TileIndex() == p.endRef.TileIndex() {
					continue
				}
				crossing++
				if s.refineClosed == 0 {
					stitched++
				}
			}
			t.Logf("%d of %d searches stitched", stitched, crossing)
			require.Greater(t, crossing, 50)
			assert.GreaterOrEqual(t, float64(stitched), 0.9*float64(crossing))
		})
	}
}
