package bake

import (
	"context"
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTiledDungeonPathsMatchRecast runs the 1000 start/end pairs of
// query_dungeon.csv on the tiled dungeon (tile size 32) as RecastDemo's
// tester does: nearest polygons within (2, 4, 2), FindPath (256 polygons,
// node pool 2048, every flag but disabled), then the straight path to the
// end point (or the closest point of the last polygon of a partial path).
// The C++ demo, run on its own tiled dungeon, finds every pair, 200 of them
// partial, 842 crossing three tiles or more, 16440 corridor polygons and
// 5727 straight path points in all, 45748.59 units of paths; pair 257 crosses
// 19 tiles: 42 polygons, 12 points, 126.534440 units long.
func TestTiledDungeonPathsMatchRecast(t *testing.T) {
	r, err := Tiled(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), TiledOptions{})
	require.NoError(t, err)
	mesh, err := r.NavMesh()
	require.NoError(t, err)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	filter := query.NewFilter()
	filter.IncludeFlags = 0xffff ^ DemoFlagDisabled

	file, err := os.Open("../testdata/query_dungeon.csv")
	require.NoError(t, err)
	defer file.Close()
	rows, err := csv.NewReader(file).ReadAll()
	require.NoError(t, err)

	parse := func(row []string, i int) float32 {
		f, err := strconv.ParseFloat(row[i], 32)
		require.NoError(t, err)
		return float32(f)
	}
	halfExtents := geom.Vec3{2, 4, 2}
	path := make([]navmesh.Ref, 256)
	points := make([]query.StraightPathPoint, 256)
	found, partial, manyTiles, polys, corners := 0, 0, 0, 0, 0
	total := 0.0
	for _, row := range rows[1:] {
		start := geom.Vec3{parse(row, 1), parse(row, 2), parse(row, 3)}
		end := geom.Vec3{parse(row, 4), parse(row, 5), parse(row, 6)}
		from, err := q.FindNearestPoly(start, halfExtents, filter)
		require.NoError(t, err)
		to, err := q.FindNearestPoly(end, halfExtents, filter)
		require.NoError(t, err)
		if from.Ref == 0 || to.Ref == 0 {
			continue
		}
		found++
		n, status, err := q.FindPath(from.Ref, to.Ref, from.Point, to.Point, filter, path)
		require.NoError(t, err)
		if status.Partial() {
			partial++
		}
		tiles := map[uint32]bool{}
		for _, ref := range path[:n] {
			tiles[ref.TileIndex()] = true
		}
		if len(tiles) >= 3 {
			manyTiles++
		}
		goal := to.Point
		if n > 0 && path[n-1] != to.Ref {
			goal, _, err = q.ClosestPointOnPoly(path[n-1], to.Point)
			require.NoError(t, err)
		}
		count, _, err := q.FindStraightPath(from.Point, goal, path[:n], points, 0)
		require.NoError(t, err)
		length := 0.0
		for i := 1; i < count; i++ {
			length += float64(geom.Dist(points[i-1].Pos, points[i].Pos))
		}
		polys += n
		corners += count
		total += length
		if row[0] == "257" {
			assert.Equal(t, [3]int{42, 19, 12}, [3]int{n, len(tiles), count}, "pair 257")
			assert.InDelta(t, 126.534440, length, 1e-4, "pair 257")
		}
	}
	assert.Equal(t, 1000, found)
	assert.Equal(t, 200, partial)
	assert.Equal(t, 842, manyTiles)
	assert.Equal(t, 16440, polys)
	assert.Equal(t, 5727, corners)
	assert.InDelta(t, 45748.59, total, 0.01)
	assert.False(t, math.IsNaN(total))
}
