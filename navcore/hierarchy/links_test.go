package hierarchy

import (
	"context"
	"math"
	"testing"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// island is a connected component of a level: a box's roof on the
// generated levels.
type island struct {
	ref    navmesh.Ref // a polygon of it
	center geom.Vec3
}

// farIslands returns two components of mesh that are small (a roof, at
// most 40 m across) and whose centres lie as near to distance apart as
// any two such components do.
func farIslands(t *testing.T, mesh *navmesh.Mesh, distance float32) (island, island) {
	t.Helper()
	conn := mesh.Snapshot().Connectivity()
	var roofs []island
	for id := uint32(1); int(id) <= conn.ComponentCount(); id++ {
		info, _ := conn.Info(id)
		size := geom.Sub(info.BMax, info.BMin)
		if info.Polys < 2 || size[0] > 40 || size[2] > 40 || info.OneWay {
			continue
		}
		roofs = append(roofs, island{ref: navmesh.Ref(id), center: geom.Scale(geom.Add(info.BMin, info.BMax), 0.5)})
	}
	require.GreaterOrEqual(t, len(roofs), 2)
	best := float32(math.MaxFloat32)
	var a, b island
	for i := range roofs {
		for j := i + 1; j < len(roofs); j++ {
			if miss := geom.Abs(geom.Dist2D(roofs[i].center, roofs[j].center) - distance); miss < best {
				best, a, b = miss, roofs[i], roofs[j]
			}
		}
	}
	// A polygon of each.
	snap := mesh.Snapshot()
	for tile := range snap.Tiles() {
		for ip := range tile.Polys {
			ref := tile.PolyRefBase() | navmesh.Ref(ip)
			switch conn.Component(ref) {
			case uint32(a.ref):
				a.ref = ref
			case uint32(b.ref):
				b.ref = ref
			}
		}
	}
	return a, b
}

// pointsOn returns n random points of island's component.
func pointsOn(t *testing.T, q *query.Query, filter *query.Filter, in island, n int, seed uint32) []query.RandomPoint {
	t.Helper()
	sampler, err := query.ComponentSamplerAt(q.Mesh().Snapshot(), filter, in.ref)
	require.NoError(t, err)
	state := seed
	random := func() float32 {
		state = state*1664525 + 1013904223
		return float32(state>>8) / (1 << 24)
	}
	points := make([]query.RandomPoint, n)
	for i := range points {
		points[i], err = sampler.RandomPoint(random)
		require.NoError(t, err)
	}
	return points
}

// linkPaths plans a path from every point of from to the point of to with
// the same index, with A* and with the hierarchy, and counts the
// complete ones.
func linkPaths(t *testing.T, q *query.Query, s *Searcher, filter *query.Filter, from, to []query.RandomPoint) (astar, hierarchical int) {
	t.Helper()
	path := make([]navmesh.Ref, 4096)
	for i := range from {
		n, status, err := q.FindPath(from[i].Ref, to[i].Ref, from[i].Pos, to[i].Pos, filter, path)
		require.NoError(t, err)
		if !status.Partial() && n > 0 && path[n-1] == to[i].Ref {
			astar++
		}
		result, err := s.FindPath(from[i].Ref, to[i].Ref, from[i].Pos, to[i].Pos, filter, path)
		require.NoError(t, err)
		if !result.Status.Partial() && result.Count > 0 && path[result.Count-1] == to[i].Ref {
			hierarchical++
			assert.Equal(t, FallbackNone, result.Fallback)
		}
	}
	return astar, hierarchical
}

// TestLinkBetweenFarIslands is issue 28's first check on the generated
// level (the 1 km one with ARCHENAV_LONG, else the 250 m one): a link
// between two roofs (islands) far apart makes the paths between them
// complete, with plain A* and with the hierarchy; removed, they are
// partial again; its end's tile removed and added again, or the start's
// tile swapped for a new version of itself, it is back without a call.
func TestLinkBetweenFarIslands(t *testing.T) {
	params, distance := bigworld.Small(), float32(180)
	if longtest.Enabled() {
		params, distance = bigworld.Default(), 500
	}
	mesh, err := params.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	filter := query.NewFilter()
	a, b := farIslands(t, mesh, distance)
	t.Logf("islands at %v and %v, %.1f m apart", a.center, b.center, geom.Dist2D(a.center, b.center))
	require.InDelta(t, distance, geom.Dist2D(a.center, b.center), 0.1*float64(distance))

	h, err := New(mesh, filter, Options{Workers: 2})
	require.NoError(t, err)
	q, err := query.New(mesh, 8192)
	require.NoError(t, err)
	s, err := NewSearcher(q, h)
	require.NoError(t, err)
	const pairs = 20
	from, to := pointsOn(t, q, filter, a, pairs, 1), pointsOn(t, q, filter, b, pairs, 2)
	back := func() (int, int) { return linkPaths(t, q, s, filter, to, from) }

	astar, hier := linkPaths(t, q, s, filter, from, to)
	require.Equal(t, [2]int{0, 0}, [2]int{astar, hier}, "the islands are apart")

	desc := navmesh.LinkDesc{Start: from[0].Pos, End: to[0].Pos, Radius: 1, Bidirectional: true, Flags: 1}
	id, err := mesh.AddLink(desc)
	require.NoError(t, err)
	astar, hier = linkPaths(t, q, s, filter, from, to)
	assert.Equal(t, [2]int{pairs, pairs}, [2]int{astar, hier}, "through the link")
	astar, hier = back()
	assert.Equal(t, [2]int{pairs, pairs}, [2]int{astar, hier}, "back through it")

	require.NoError(t, mesh.RemoveLink(id))
	astar, hier = linkPaths(t, q, s, filter, from, to)
	assert.Equal(t, [2]int{0, 0}, [2]int{astar, hier}, "link removed")

	id, err = mesh.AddLink(desc)
	require.NoError(t, err)
	// The end's tile leaves and comes back: no call to the link.
	snap := mesh.Snapshot()
	endTile, _, err := snap.TileAndPoly(to[0].Ref)
	require.NoError(t, err)
	data, err := mesh.RemoveTile(endTile.Ref())
	require.NoError(t, err)
	_, end, _ := mesh.Snapshot().LinkEnds(id, 0)
	assert.NotEqual(t, endTile.Index(), int(end.TileIndex()), "its end lands elsewhere or nowhere")
	_, err = mesh.AddTile(data, 0)
	require.NoError(t, err)
	_, end, _ = mesh.Snapshot().LinkEnds(id, 0)
	assert.Equal(t, mustNearest(t, q, filter, to[0].Pos), end, "its end lands where it did")
	// The refs of that tile changed: find the points' polygons again.
	relocate(t, q, filter, to)
	astar, hier = linkPaths(t, q, s, filter, from, to)
	assert.Equal(t, [2]int{pairs, pairs}, [2]int{astar, hier}, "end tile back")

	// The start's tile swapped for a new version of itself, as a tile
	// cache rebuild does.
	startTile, _, err := mesh.Snapshot().TileAndPoly(from[0].Ref)
	require.NoError(t, err)
	var batch navmesh.Batch
	batch.Replace(startTile.Data)
	_, err = mesh.Apply(&batch, nil)
	require.NoError(t, err)
	relocate(t, q, filter, from)
	astar, hier = linkPaths(t, q, s, filter, from, to)
	assert.Equal(t, [2]int{pairs, pairs}, [2]int{astar, hier}, "start tile rebuilt")
	start, end, _ := mesh.Snapshot().LinkEnds(id, 0)
	assert.Equal(t, [2]navmesh.Ref{from[0].Ref, to[0].Ref}, [2]navmesh.Ref{start, end})
}

// relocate finds the polygons of points again after their tiles changed.
func relocate(t *testing.T, q *query.Query, filter *query.Filter, points []query.RandomPoint) {
	t.Helper()
	for i := range points {
		points[i].Ref = mustNearest(t, q, filter, points[i].Pos)
	}
}

func mustNearest(t *testing.T, q *query.Query, filter *query.Filter, p geom.Vec3) navmesh.Ref {
	t.Helper()
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.5, 1, 0.5}, filter)
	require.NoError(t, err)
	require.NotZero(t, nearest.Ref)
	return nearest.Ref
}

// TestTeleporterShortensHierarchicalPaths: a cheap link (Cost 0.01 per
// metre) between two far points of the level's largest part is taken by
// the hierarchy's search, whose corridor then costs a small part of the
// walk's.
func TestTeleporterShortensHierarchicalPaths(t *testing.T) {
	mesh, err := bigworld.Small().CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	filter := query.NewFilter()
	h, err := New(mesh, filter, Options{Workers: 2})
	require.NoError(t, err)
	q, err := query.New(mesh, 8192)
	require.NoError(t, err)
	s, err := NewSearcher(q, h)
	require.NoError(t, err)
	sampler, err := query.LargestComponentSampler(mesh.Snapshot(), filter)
	require.NoError(t, err)
	state := uint32(9)
	random := func() float32 {
		state = state*1664525 + 1013904223
		return float32(state>>8) / (1 << 24)
	}
	var from, to query.RandomPoint
	for from.Ref == 0 || geom.Dist2D(from.Pos, to.Pos) < 150 {
		from, err = sampler.RandomPoint(random)
		require.NoError(t, err)
		to, err = sampler.RandomPoint(random)
		require.NoError(t, err)
	}
	path := make([]navmesh.Ref, 4096)
	cost := func() (float32, bool) {
		result, err := s.FindPath(from.Ref, to.Ref, from.Pos, to.Pos, filter, path)
		require.NoError(t, err)
		require.False(t, result.Status.Partial())
		require.Equal(t, FallbackNone, result.Fallback)
		c, err := CorridorCost(mesh.Snapshot(), filter, from.Pos, to.Pos, path[:result.Count])
		require.NoError(t, err)
		crossed := false
		for _, ref := range path[:result.Count] {
			crossed = crossed || ref.TileIndex() >= uint32(mesh.MaxTiles())
		}
		return c, crossed
	}
	walk, crossed := cost()
	require.False(t, crossed)
	_, err = mesh.AddLink(navmesh.LinkDesc{Start: from.Pos, End: to.Pos, Radius: 0.5, Bidirectional: true, Flags: 1, Cost: 0.01})
	require.NoError(t, err)
	teleport, crossed := cost()
	t.Logf("%.0f m apart: walking costs %.1f, the teleporter %.1f", geom.Dist2D(from.Pos, to.Pos), walk, teleport)
	assert.True(t, crossed)
	assert.Less(t, teleport, walk/10)
}
