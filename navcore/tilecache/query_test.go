package tilecache

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// referencePath is one row of tc48_dungeon_query_obstacles.csv.
type referencePath struct {
	index                int
	start, end           geom.Vec3
	startFound, endFound bool
	status               uint32
	partial              bool
	polyCount, straight  int
	len3D, len2D         float64
	straightEnd          geom.Vec3
}

func readReferencePaths(t testing.TB) []referencePath {
	t.Helper()
	f, err := os.Open("testdata/tc48_dungeon_query_obstacles.csv")
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	out := make([]referencePath, 0, len(rows)-1)
	for _, row := range rows[1:] {
		f32 := func(name string) float32 {
			v, err := strconv.ParseFloat(row[col[name]], 32)
			require.NoError(t, err)
			return float32(v)
		}
		f64 := func(name string) float64 {
			v, err := strconv.ParseFloat(row[col[name]], 64)
			require.NoError(t, err)
			return v
		}
		atoi := func(name string) int {
			v, err := strconv.ParseInt(row[col[name]], 0, 64)
			require.NoError(t, err)
			return int(v)
		}
		out = append(out, referencePath{
			index:       atoi("i"),
			start:       geom.Vec3{f32("sx"), f32("sy"), f32("sz")},
			end:         geom.Vec3{f32("ex"), f32("ey"), f32("ez")},
			startFound:  atoi("start_found") == 1,
			endFound:    atoi("end_found") == 1,
			status:      uint32(atoi("path_status")),
			partial:     atoi("path_partial") == 1,
			polyCount:   atoi("npolys"),
			straight:    atoi("nstraight"),
			len3D:       f64("len3d"),
			len2D:       f64("len2d"),
			straightEnd: geom.Vec3{f32("endx"), f32("endy"), f32("endz")},
		})
	}
	return out
}

// cppStatus is the Detour status word of a successful query with status's
// detail bits.
func cppStatus(s query.Status) uint32 {
	out := uint32(0x40000000)
	if s.Partial() {
		out |= 0x40
	}
	if s.OutOfNodes() {
		out |= 0x20
	}
	if s.BufferTooSmall() {
		out |= 0x10
	}
	return out
}

// TestDungeonPathsAroundObstacles replays the 1000 C++ path requests on the
// mesh with the 80 obstacles: nearest polygons, path status and length,
// straight path count, lengths and end point.
func TestDungeonPathsAroundObstacles(t *testing.T) {
	ref := readDungeonReference(t)
	obstacles := readObstacles(t, "testdata/tc48_dungeon_obstacles.csv")
	pairs := readReferencePaths(t)
	require.Len(t, pairs, ref.QueryWithObstacles.Pairs)
	for _, serial := range []bool{true, false} {
		t.Run(map[bool]string{true: "serial", false: "burst"}[serial], func(t *testing.T) {
			cache := loadDungeon(t, 1)
			newObstacleSet().apply(t, cache, obstacles, serial)
			mismatches, partials := replayPaths(t, cache.Mesh(), pairs)
			assert.Zero(t, mismatches, "paths differing from the C++")
			assert.Equal(t, ref.QueryWithObstacles.Partial, partials)
		})
	}
}

func replayPaths(t *testing.T, mesh *navmesh.Mesh, pairs []referencePath) (mismatches, partials int) {
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	filter := query.NewFilter()
	filter.IncludeFlags = testmesh.DungeonIncludeFlags
	filter.ExcludeFlags = 0
	path := make([]navmesh.Ref, 256)
	points := make([]query.StraightPathPoint, 256)
	for _, p := range pairs {
		start, err := q.FindNearestPoly(p.start, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(p.end, testmesh.DungeonHalfExtents, filter)
		require.NoError(t, err)
		name := fmt.Sprintf("pair %d", p.index)
		if !assert.Equal(t, p.startFound, start.Ref != 0, name) || !assert.Equal(t, p.endFound, end.Ref != 0, name) {
			mismatches++
			continue
		}
		n, status, err := q.FindPath(start.Ref, end.Ref, p.start, p.end, filter, path)
		require.NoError(t, err)
		if status.Partial() {
			partials++
		}
		if !assert.Equal(t, fmt.Sprintf("%#x", p.status), fmt.Sprintf("%#x", cppStatus(status)), name) ||
			!assert.Equal(t, p.partial, status.Partial(), name) || !assert.Equal(t, p.polyCount, n, name) {
			mismatches++
			continue
		}
		ns, _, err := q.FindStraightPath(p.start, p.end, path[:n], points, 0)
		require.NoError(t, err)
		var len3D, len2D float64
		for i := 1; i < ns; i++ {
			a, b := points[i-1].Pos, points[i].Pos
			len3D += float64(geom.Dist(a, b))
			len2D += float64(geom.Dist2D(a, b))
		}
		last := points[ns-1].Pos
		ok := assert.Equal(t, p.straight, ns, name) &&
			assert.InDelta(t, p.len3D, len3D, 1e-4, name) &&
			assert.InDelta(t, p.len2D, len2D, 1e-4, name) &&
			assert.InDelta(t, p.straightEnd[0], last[0], 1e-4, name) &&
			assert.InDelta(t, p.straightEnd[1], last[1], 1e-4, name) &&
			assert.InDelta(t, p.straightEnd[2], last[2], 1e-4, name)
		if !ok {
			mismatches++
		}
	}
	return mismatches, partials
}
