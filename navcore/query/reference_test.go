package query

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// referencePair is one row of query_dungeon.csv: what the C++ Detour
// answered for a start/end pair.
type referencePair struct {
	index                int
	start, end           geom.Vec3
	startFound, endFound bool
	startPoly, endPoly   uint32 // polygon index of the C++ 32-bit refs
	partial              bool
	polyCount            int
	lastPoly             uint32
	straightCount        int
	length3D, length2D   float64
	straightEnd          geom.Vec3
}

// cppPolyIndex extracts the polygon index from a C++ 32-bit ref of the
// dungeon tile: 118 polygons take 7 bits, above them the salt.
func cppPolyIndex(tb testing.TB, s string) uint32 {
	v, err := strconv.ParseUint(s, 0, 32)
	require.NoError(tb, err)
	return uint32(v) & 0x7f
}

func readReferencePairs(tb testing.TB) []referencePair {
	tb.Helper()
	f, err := os.Open("../../testdata/query_dungeon.csv")
	require.NoError(tb, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(tb, err)
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	f32 := func(row []string, name string) float32 {
		v, err := strconv.ParseFloat(row[col[name]], 32)
		require.NoError(tb, err)
		return float32(v)
	}
	f64 := func(row []string, name string) float64 {
		v, err := strconv.ParseFloat(row[col[name]], 64)
		require.NoError(tb, err)
		return v
	}
	atoi := func(row []string, name string) int {
		v, err := strconv.Atoi(row[col[name]])
		require.NoError(tb, err)
		return v
	}
	var pairs []referencePair
	for _, row := range rows[1:] {
		pairs = append(pairs, referencePair{
			index:         atoi(row, "i"),
			start:         geom.Vec3{f32(row, "sx"), f32(row, "sy"), f32(row, "sz")},
			end:           geom.Vec3{f32(row, "ex"), f32(row, "ey"), f32(row, "ez")},
			startFound:    atoi(row, "start_found") == 1,
			endFound:      atoi(row, "end_found") == 1,
			startPoly:     cppPolyIndex(tb, row[col["start_ref"]]),
			endPoly:       cppPolyIndex(tb, row[col["end_ref"]]),
			partial:       atoi(row, "path_partial") == 1,
			polyCount:     atoi(row, "npolys"),
			lastPoly:      cppPolyIndex(tb, row[col["last_poly"]]),
			straightCount: atoi(row, "nstraight"),
			length3D:      f64(row, "len3d"),
			length2D:      f64(row, "len2d"),
			straightEnd:   geom.Vec3{f32(row, "endx"), f32(row, "endy"), f32(row, "endz")},
		})
	}
	return pairs
}

// TestReferencePairs replays the 1000 C++ runs of query_dungeon.csv: two
// nearest-poly queries, a path and a straight path per pair.
func TestReferencePairs(t *testing.T) {
	mesh := loadDungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	filter := referenceFilter()
	pairs := readReferencePairs(t)
	require.Len(t, pairs, 1000)

	path := make([]navmesh.Ref, 256)
	points := make([]StraightPathPoint, 256)
	mismatches := 0
	partials := 0
	for _, p := range pairs {
		start, err := q.FindNearestPoly(p.start, referenceExtents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(p.end, referenceExtents, filter)
		require.NoError(t, err)

		ok := assert.Equal(t, p.startFound, start.Ref != 0, "pair %d start found", p.index) &&
			assert.Equal(t, p.endFound, end.Ref != 0, "pair %d end found", p.index) &&
			assert.Equal(t, p.startPoly, start.Ref.PolyIndex(), "pair %d start poly", p.index) &&
			assert.Equal(t, p.endPoly, end.Ref.PolyIndex(), "pair %d end poly", p.index)
		if !ok {
			mismatches++
			continue
		}

		n, status, err := q.FindPath(start.Ref, end.Ref, p.start, p.end, filter, path)
		require.NoError(t, err)
		if status.Partial() {
			partials++
		}
		ok = assert.Equal(t, p.partial, status.Partial(), "pair %d partial", p.index) &&
			assert.Equal(t, p.polyCount, n, "pair %d polys", p.index) &&
			assert.Equal(t, p.lastPoly, path[n-1].PolyIndex(), "pair %d last poly", p.index)
		if !ok {
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
		ok = assert.Equal(t, p.straightCount, ns, "pair %d straight points", p.index) &&
			assert.InDelta(t, p.length3D, len3D, 1e-4, "pair %d 3D length", p.index) &&
			assert.InDelta(t, p.length2D, len2D, 1e-4, "pair %d 2D length", p.index) &&
			assert.InDelta(t, p.straightEnd[0], last[0], 1e-4, "pair %d end x", p.index) &&
			assert.InDelta(t, p.straightEnd[1], last[1], 1e-4, "pair %d end y", p.index) &&
			assert.InDelta(t, p.straightEnd[2], last[2], 1e-4, "pair %d end z", p.index)
		if !ok {
			mismatches++
		}
	}
	assert.Zero(t, mismatches, "pairs differing from the C++")
	assert.Equal(t, 200, partials, "partial paths")
}
