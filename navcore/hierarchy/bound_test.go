package hierarchy

import (
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLandmarkCostsAreAMetric checks what the two-sided landmark bound
// rests on: the landmarks' costs obey the triangle inequality along every
// step of the cluster level, both ways. A step from node u to node w
// costing c changes a landmark's cost by at most c (plus the rounding of
// the stored steps). Costs over the directed steps of the search (a
// port reached only from outside its cluster) break it by tens of metres.
func TestLandmarkCostsAreAMetric(t *testing.T) {
	for _, level := range []string{"bigworld", "nav_test"} {
		t.Run(level, func(t *testing.T) {
			mesh := testMesh(t, level)
			h, err := New(mesh, demoFilter(), Options{})
			require.NoError(t, err)
			v := h.versionFor(mesh.Snapshot())
			l := v.landmarksOf()
			require.NotNil(t, l)
			require.Positive(t, l.count)
			checked, worst := 0, 0.0
			check := func(u, w int, cost float32) {
				limit := math.Ceil(float64(cost/l.unit)) + 1
				for k := range l.count {
					su, sw := l.steps[u*l.count+k], l.steps[w*l.count+k]
					if su == unreachable || sw == unreachable {
						assert.Equal(t, su, sw, "landmark %d reaches one end of a step only", k)
						continue
					}
					d := math.Abs(float64(su) - float64(sw))
					worst = max(worst, d-limit)
					if !assert.LessOrEqual(t, d, limit, "landmark %d, nodes %d and %d, step cost %.2f", k, u, w, cost) {
						return
					}
					checked++
				}
			}
			for number, c := range v.clusters {
				if c == nil {
					continue
				}
				base := int(v.clusterNodeBase[number])
				for j := range c.nodes {
					first, end := c.edgesOf(j)
					for _, e := range c.edges[first:end] {
						check(base+j, base+int(e.to), e.cost)
					}
					for _, tw := range v.links[number].twinsOf(j) {
						check(base+j, int(v.clusterNodeBase[tw.cluster]+tw.node), tw.cost)
					}
				}
			}
			t.Logf("%d landmark steps checked, worst excess %.0f steps", checked, worst)
			assert.Greater(t, checked, 1000)
		})
	}
}

// TestSearchBoundsAreAdmissible checks, on pairs whose clusters are far
// apart (where the goal cluster is searched whole and the bound is
// two-sided), that no node of the route has a bound above what the route
// still costs from it, so that A* keeps its corridors optimal; and that
// the upper side of the bound (a landmark behind the goal) is what bounds
// some of them, so that the test exercises it.
func TestSearchBoundsAreAdmissible(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, err := New(mesh, filter, Options{})
	require.NoError(t, err)
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	s, err := NewSearcher(q, h)
	require.NoError(t, err)
	path := make([]navmesh.Ref, 1<<14)
	snap := mesh.Snapshot()
	v := h.versionFor(snap)
	far, routeNodes, upperWins := 0, 0, 0
	for _, p := range randomPairs(t, mesh, filter, 600, 17) {
		if !snap.SameComponent(p.startRef, p.endRef) {
			continue
		}
		r, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
		require.NoError(t, err)
		if r.Fallback != FallbackNone || !s.goalByCluster || s.landmarks == nil || !s.goalBounded {
			continue
		}
		far++
		l := s.landmarks
		goal := s.nodes[s.goalNode].cost
		for u := s.origins[s.goalNode].parent; u >= 0; u = s.origins[u].parent {
			if u >= s.l0Base && u != s.startNode && v.slots[s.origins[u].a].cluster == s.goalCluster {
				// The way inside the goal cluster, put on the route after
				// the search (the nodes keep what the search left there).
				continue
			}
			n := &s.nodes[u]
			rest := goal - n.cost
			require.LessOrEqual(t, n.heuristic, rest+float32(1e-3*goal), "pair %v: node %d's bound %.3f over the %.3f left", p, u, n.heuristic, rest)
			routeNodes++
			if u >= s.l0Base {
				continue
			}
			lower, upper := int32(math.MinInt32), int32(math.MinInt32)
			for k, steps := range l.steps[int(u)*l.count : (int(u)+1)*l.count] {
				lower = max(lower, s.goalLow[k]-int32(steps))
				upper = max(upper, int32(steps)-s.goalHigh[k])
			}
			if upper > lower && upper > 0 {
				upperWins++
			}
		}
	}
	t.Logf("%d far pairs, %d route nodes, %d bounded by a landmark behind the goal", far, routeNodes, upperWins)
	require.Greater(t, far, 20, "far pairs")
	assert.Positive(t, upperWins)
}
