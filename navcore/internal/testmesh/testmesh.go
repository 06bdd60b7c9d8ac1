// Package testmesh loads the fixtures the navcore tests share: the C++ solo
// tile of dungeon.obj as a one-tile Mesh, the C++ query runs recorded on it
// and a small seeded random source. It is for tests only.
//
// Paths are relative to a package directory two levels below the
// repository root (navcore/query, navcore/crowd), where go test runs.
package testmesh

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Files of the repository's testdata directory, seen from navcore/<package>.
const (
	// DungeonTilePath is the C++ solo tile of dungeon.obj (DNAV, 118
	// polygons).
	DungeonTilePath = "../../testdata/navmesh_solo_dungeon.bin"
	// ReferencePairsPath holds 1000 C++ query runs on that tile.
	ReferencePairsPath = "../../testdata/query_dungeon.csv"
)

// DungeonHalfExtents is the nearest-polygon search box of the reference runs
// [Units: world units].
var DungeonHalfExtents = geom.Vec3{2, 4, 2}

// DungeonIncludeFlags is the include mask of the reference runs' filter:
// every flag but "disabled" (0x10). Their exclude mask is 0.
const DungeonIncludeFlags = 0xffef

// Dungeon returns the C++ solo dungeon tile as a one-tile Mesh, laid out as
// dtNavMesh::init(data) does for a single tile.
func Dungeon(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	mesh, format, err := navmesh.LoadFile(DungeonTilePath)
	require.NoError(tb, err)
	require.Equal(tb, navmesh.FormatDNAV, format)
	return mesh
}

// ReferencePair is one row of query_dungeon.csv: what Detour answered for a
// start/end pair on the dungeon tile (two nearest-polygon queries, a path and
// a straight path). Polygons are given by their index in the tile: the C++
// 32-bit refs differ from ours.
type ReferencePair struct {
	Index                int
	Start, End           geom.Vec3
	StartFound, EndFound bool
	StartPoly, EndPoly   uint32
	Partial              bool
	PolyCount            int
	LastPoly             uint32
	StraightCount        int
	Length3D, Length2D   float64
	StraightEnd          geom.Vec3
}

// ReferencePairs reads the 1000 rows of query_dungeon.csv.
func ReferencePairs(tb testing.TB) []ReferencePair {
	tb.Helper()
	f, err := os.Open(ReferencePairsPath)
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
	// The dungeon's 118 polygons take the low 7 bits of a C++ ref; the salt
	// sits above them.
	polyIndex := func(row []string, name string) uint32 {
		v, err := strconv.ParseUint(row[col[name]], 0, 32)
		require.NoError(tb, err)
		return uint32(v) & 0x7f
	}
	pairs := make([]ReferencePair, 0, len(rows)-1)
	for _, row := range rows[1:] {
		pairs = append(pairs, ReferencePair{
			Index:         atoi(row, "i"),
			Start:         geom.Vec3{f32(row, "sx"), f32(row, "sy"), f32(row, "sz")},
			End:           geom.Vec3{f32(row, "ex"), f32(row, "ey"), f32(row, "ez")},
			StartFound:    atoi(row, "start_found") == 1,
			EndFound:      atoi(row, "end_found") == 1,
			StartPoly:     polyIndex(row, "start_ref"),
			EndPoly:       polyIndex(row, "end_ref"),
			Partial:       atoi(row, "path_partial") == 1,
			PolyCount:     atoi(row, "npolys"),
			LastPoly:      polyIndex(row, "last_poly"),
			StraightCount: atoi(row, "nstraight"),
			Length3D:      f64(row, "len3d"),
			Length2D:      f64(row, "len2d"),
			StraightEnd:   geom.Vec3{f32(row, "endx"), f32(row, "endy"), f32(row, "endz")},
		})
	}
	return pairs
}

// LCG is a small seeded random source returning float32 values in [0, 1),
// the same sequence in every test and benchmark (and in the C++ harnesses
// that mirror them).
type LCG struct{ State uint64 }

// Next returns the next number in [0, 1).
func (r *LCG) Next() float32 {
	r.State = r.State*6364136223846793005 + 1442695040888963407
	return float32(r.State>>40) / float32(1<<24)
}
