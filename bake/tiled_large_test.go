package bake

import (
	"context"
	"runtime"
	"testing"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stackedFloors returns square floors of side size stacked gap apart, each
// two triangles wound to face up.
func stackedFloors(size, gap float32, floors int) *Geometry {
	g := &Geometry{}
	for f := range floors {
		y := float32(f) * gap
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices,
			mgl32.Vec3{0, y, 0}, mgl32.Vec3{size, y, 0}, mgl32.Vec3{size, y, size}, mgl32.Vec3{0, y, size})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 2, base + 1}, [3]int32{base, base + 3, base + 2})
	}
	return g
}

// TestTiledLargeLevel bakes a level whose walkable surface has more than
// 2^24 spans: two floors of a square kilometre, 3333×3333 cells each. The
// C++ solo bake of such a level fails silently (its compact heightfield
// indexes spans with 24 bits); tiled, each tile holds some 40 000 spans,
// and a path runs from corner to corner across the tiles.
func TestTiledLargeLevel(t *testing.T) {
	// Bakes 22 million spans (about 10 s on 2 cores, minutes under -race).
	longtest.SkipSoak(t)
	g := stackedFloors(1000, 3, 2)
	settings := DefaultSettings()
	settings.TileSize = 128
	r, err := Tiled(context.Background(), g, settings, TiledOptions{Workers: runtime.GOMAXPROCS(0)})
	require.NoError(t, err)

	width, height := CalcGridSize(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1000, 3, 1000}, settings.CellSize)
	require.Equal(t, [2]int{3333, 3333}, [2]int{width, height})
	assert.Greater(t, 2*width*height, 1<<24)
	assert.Equal(t, [2]int{27, 27}, [2]int{r.Stats.TilesX, r.Stats.TilesY})
	assert.Equal(t, 27*27, r.Stats.TilesWithData)
	for _, tile := range r.Tiles {
		floors := map[float32]bool{}
		for _, v := range tile.Data.Verts {
			floors[v[1]] = true
		}
		require.Len(t, floors, 2, "tile (%d, %d) heights", tile.X, tile.Y)
	}

	mesh, err := r.NavMesh()
	require.NoError(t, err)
	q, err := query.New(mesh, 8192)
	require.NoError(t, err)
	filter := query.NewFilter()
	from, err := q.FindNearestPoly(mgl32.Vec3{2, 0, 2}, mgl32.Vec3{2, 1, 2}, filter)
	require.NoError(t, err)
	to, err := q.FindNearestPoly(mgl32.Vec3{998, 0, 998}, mgl32.Vec3{2, 1, 2}, filter)
	require.NoError(t, err)
	require.NotZero(t, from.Ref)
	require.NotZero(t, to.Ref)
	path := make([]navmesh.Ref, 1024)
	n, status, err := q.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, path)
	require.NoError(t, err)
	assert.False(t, status.Partial())
	points := make([]query.StraightPathPoint, 64)
	count, _, err := q.FindStraightPath(from.Point, to.Point, path[:n], points, 0)
	require.NoError(t, err)
	length := float32(0)
	for i := 1; i < count; i++ {
		length += geom.Dist(points[i-1].Pos, points[i].Pos)
	}
	// A straight diagonal over a flat floor: 996·√2.
	assert.InDelta(t, 1408.56, length, 0.1)
	t.Logf("%d polys in the corridor, %d corners, length %.2f; %+v; wall %v", n, count, length, r.Stats.Counts, r.Stats.Wall)

	// A pool of 32 nodes runs out on this path across 729 tiles; one that
	// may grow finds the whole corridor.
	small, err := query.New(mesh, 32)
	require.NoError(t, err)
	partial := make([]navmesh.Ref, 1024)
	_, status, err = small.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, partial)
	require.NoError(t, err)
	assert.True(t, status.OutOfNodes())
	assert.True(t, status.Partial())
	require.NoError(t, small.SetNodeLimit(65536))
	grownN, status, err := small.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, partial)
	require.NoError(t, err)
	assert.False(t, status.Partial())
	assert.Equal(t, path[:n], partial[:grownN])
	t.Logf("pool grown from 32 to %d nodes", small.MaxNodes())
}
