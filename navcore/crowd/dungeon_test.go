package crowd

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// The C++ reference values in these tests come from DetourCrowd 1.6.0 built
// with g++ -O2 on x86-64, run on the same tile. Its 32-bit poly refs differ
// from ours, so polygons are compared by their index in the tile.

// dungeonFilter is the demo's filter: every flag but "disabled" (0x10).
func dungeonFilter() *query.Filter {
	f := query.NewFilter()
	f.IncludeFlags = testmesh.DungeonIncludeFlags
	return f
}

// A long walk across the dungeon: pair 1 of query_dungeon.csv (22 polygons).
var (
	walkStart = geom.Vec3{-9.17410278, 10.1972942, -20.340023}
	walkEnd   = geom.Vec3{23.7297325, 15.0986919, -73.5664291}
	walkPath  = []uint32{72, 68, 61, 74, 71, 56, 57, 58, 45, 46, 49, 50, 47, 38, 39, 41, 30, 31, 32, 28, 24, 27}
)

func polyIndices(refs []navmesh.Ref) []uint32 {
	out := make([]uint32, len(refs))
	for i, r := range refs {
		out[i] = r.PolyIndex()
	}
	return out
}

// dungeonFixture is a mesh, a query and the walk's polygons.
type dungeonFixture struct {
	mesh             *navmesh.Mesh
	query            *query.Query
	filter           *query.Filter
	startRef, endRef navmesh.Ref
	start, end       geom.Vec3
	path             []navmesh.Ref
}

func newDungeonFixture(t testing.TB) *dungeonFixture {
	t.Helper()
	mesh := testmesh.Dungeon(t)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	f := &dungeonFixture{mesh: mesh, query: q, filter: dungeonFilter()}
	start, err := q.FindNearestPoly(walkStart, testmesh.DungeonHalfExtents, f.filter)
	require.NoError(t, err)
	end, err := q.FindNearestPoly(walkEnd, testmesh.DungeonHalfExtents, f.filter)
	require.NoError(t, err)
	f.startRef, f.start = start.Ref, start.Point
	f.endRef, f.end = end.Ref, end.Point
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(f.startRef, f.endRef, f.start, f.end, f.filter, path)
	require.NoError(t, err)
	f.path = path[:n]
	require.Equal(t, walkPath, polyIndices(f.path))
	return f
}

// tileOf returns the dungeon's only tile.
func (f *dungeonFixture) tile(t testing.TB) *navmesh.Tile {
	tile, _, err := f.mesh.TileAndPoly(f.startRef)
	require.NoError(t, err)
	return tile
}
