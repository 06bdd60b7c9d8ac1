package tilecache_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// TestLinkLandsAgainAfterRebuilds: a runtime link between two parts of
// the dungeon's tile cache navmesh that no path joins stays attached while
// the cache rebuilds the tiles its ends land on (an obstacle placed beside
// each end, then taken away), without a call to the link: its ends land on
// the rebuilt tiles' polygons and the paths through it stay complete.
func TestLinkLandsAgainAfterRebuilds(t *testing.T) {
	file, err := os.ReadFile("testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, mesh, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(t, err)
	update := func() {
		for {
			done, err := cache.Update(tilecache.Budget{})
			require.NoError(t, err)
			if done {
				return
			}
		}
	}
	update()
	q, err := query.New(mesh, 4096)
	require.NoError(t, err)
	filter := query.NewFilter()

	// A point of the largest part and one of another part.
	largest, err := query.LargestComponentSampler(mesh.Snapshot(), filter)
	require.NoError(t, err)
	state := uint32(5)
	random := func() float32 {
		state = state*1664525 + 1013904223
		return float32(state>>8) / (1 << 24)
	}
	a, err := largest.RandomPoint(random)
	require.NoError(t, err)
	var b query.RandomPoint
	for range 200 {
		p, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		if !mesh.Snapshot().SameComponent(a.Ref, p.Ref) {
			b = p
			break
		}
	}
	require.NotZero(t, b.Ref, "the dungeon has parts no path joins")

	id, err := mesh.AddLink(navmesh.LinkDesc{Start: a.Pos, End: b.Pos, Radius: 0.5, Bidirectional: true, Flags: 1})
	require.NoError(t, err)
	complete := func(what string) {
		t.Helper()
		from, err := q.FindNearestPoly(a.Pos, geom.Vec3{0.2, 0.5, 0.2}, filter)
		require.NoError(t, err)
		to, err := q.FindNearestPoly(b.Pos, geom.Vec3{0.2, 0.5, 0.2}, filter)
		require.NoError(t, err)
		path := make([]navmesh.Ref, 512)
		n, status, err := q.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, path)
		require.NoError(t, err)
		assert.False(t, status.Partial(), what)
		assert.Equal(t, to.Ref, path[n-1], what)
		start, end, ok := mesh.Snapshot().LinkEnds(id, 0)
		require.True(t, ok)
		assert.Equal(t, [2]navmesh.Ref{from.Ref, to.Ref}, [2]navmesh.Ref{start, end}, "%s: the ends land on the polygons there now", what)
	}
	complete("before any rebuild")

	for _, end := range []geom.Vec3{b.Pos, a.Pos} {
		tileBefore, _, err := mesh.Snapshot().TileAndPoly(mustNearest(t, q, filter, end))
		require.NoError(t, err)
		obstacle, err := cache.AddObstacle(tilecache.Cylinder(geom.Add(end, geom.Vec3{1.2, -0.5, 0}), 0.3, 2))
		require.NoError(t, err)
		update()
		tileAfter, _, err := mesh.Snapshot().TileAndPoly(mustNearest(t, q, filter, end))
		require.NoError(t, err)
		assert.NotEqual(t, tileBefore.Ref(), tileAfter.Ref(), "the tile was rebuilt")
		complete("obstacle beside an end")
		require.NoError(t, cache.RemoveObstacle(obstacle))
		update()
		complete("obstacle gone")
	}
}

func mustNearest(t *testing.T, q *query.Query, filter *query.Filter, p geom.Vec3) navmesh.Ref {
	t.Helper()
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.2, 0.5, 0.2}, filter)
	require.NoError(t, err)
	require.NotZero(t, nearest.Ref)
	return nearest.Ref
}
