package level

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

func TestEmbeddedLevelBakesLikeTheCppSoloTile(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	baked, err := Load("", Options{})
	require.NoError(t, err)
	loaded, err := Load("../../../testdata/navmesh_solo_dungeon.bin", Options{})
	require.NoError(t, err)

	assert.Equal(t, EmbeddedName, baked.Name)
	assert.True(t, baked.Baked)
	assert.Equal(t, 10133, baked.Triangles)
	assert.Positive(t, baked.BakeTime)
	assert.False(t, loaded.Baked)
	for _, l := range []*Level{baked, loaded} {
		assert.Equal(t, 1, l.Tiles)
		assert.Equal(t, 118, l.Polygons)
		assert.Equal(t, 223, l.Vertices)
	}
}

func TestTiledBake(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	tiled, err := Load("", Options{TileSize: 32, Workers: 2})
	require.NoError(t, err)
	assert.True(t, tiled.Baked)
	assert.Equal(t, 41, tiled.Tiles, "RecastDemo's 32-cell tiles over the dungeon")
	assert.Equal(t, 143, tiled.Polygons)

	_, err = Load("", Options{TileSize: -1})
	assert.Error(t, err)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		return path
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing file", filepath.Join(dir, "nope.obj"), "nope.obj"},
		{"bad obj", write("bad.obj", "v 1 2\n"), "bad.obj"},
		{"nothing walkable", write("wall.obj", "v 0 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\n"), "wall.obj"},
		{"not a navmesh", write("x.bin", "hello world"), "not an .obj level"},
		{"truncated DNAV", write("t.bin", "VAND\x07\x00\x00\x00"), "t.bin"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Load(tt.path, Options{})
			require.Error(t, err)
			assert.Nil(t, l)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestBakeWithLinks: with Options.Links the embedded dungeon gets the
// bake's drop links, which the level counts among its off-mesh
// connections; without, none.
func TestBakeWithLinks(t *testing.T) {
	plain, err := Embedded(Options{})
	require.NoError(t, err)
	assert.Zero(t, plain.OffMeshConnections)
	linked, err := Embedded(Options{Links: true})
	require.NoError(t, err)
	assert.Equal(t, 3, linked.OffMeshConnections)
	assert.Equal(t, plain.Polygons+3, linked.Polygons, "one polygon per link")
}

// twoTypes bakes the embedded dungeon into tile caches (32-cell tiles, as
// the demo does) for the demo's two agent types.
func twoTypes(t *testing.T) *Level {
	t.Helper()
	l, err := Load("", Options{TileCache: true, TileSize: 32, Workers: 2, Types: DefaultTypes()})
	require.NoError(t, err)
	require.Len(t, l.Types, 2)
	return l
}

func saved(t *testing.T, m *navmesh.Mesh) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, navmesh.Save(&b, m))
	return b.Bytes()
}

// TestTwoTypesKeepTheSmallMesh: baked beside the large type, the small
// type's mesh is byte for byte the one-type bake of before; the large mesh
// is smaller, and each type has its own tile cache.
func TestTwoTypesKeepTheSmallMesh(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	one, err := Load("", Options{TileCache: true, TileSize: 32, Workers: 2})
	require.NoError(t, err)
	two := twoTypes(t)

	assert.Equal(t, saved(t, one.Mesh), saved(t, two.Mesh), "the small mesh")
	assert.Same(t, two.Types[0].Mesh, two.Mesh)
	assert.Same(t, two.Types[0].Cache, two.Cache)
	assert.Equal(t, []AgentType{{"small", 0.6}, {"large", 1.8}}, []AgentType{two.Types[0].AgentType, two.Types[1].AgentType})
	assert.Equal(t, 145, two.Types[0].Polygons)
	assert.Equal(t, one.Polygons, two.Polygons)
	assert.Less(t, two.Types[1].Polygons, two.Types[0].Polygons)
	require.NotNil(t, two.Types[1].Cache)
	assert.NotSame(t, two.Types[0].Cache, two.Types[1].Cache)
	assert.Same(t, two.Types[1].Cache.Mesh(), two.Types[1].Mesh)
	assert.Equal(t, DefaultTypeName, one.Types[0].Name)

	// Solo and tiled bakes take the types too.
	for _, opts := range []Options{{Types: DefaultTypes()}, {TileSize: 32, Types: DefaultTypes()}} {
		l, err := Load("", opts)
		require.NoError(t, err)
		require.Len(t, l.Types, 2)
		assert.Nil(t, l.Cache)
		assert.Less(t, l.Types[1].Polygons, l.Types[0].Polygons)
	}
}

// pathTo returns where a path on mesh from from towards to ends and how
// long it is; ok false when mesh has no polygon near one of the points
// [Units: world units].
func pathTo(t *testing.T, mesh *navmesh.Mesh, from, to geom.Vec3) (end geom.Vec3, length float32, ok bool) {
	t.Helper()
	q, err := query.New(mesh, 4096)
	require.NoError(t, err)
	filter := query.NewFilter()
	box := geom.Vec3{2, 4, 2}
	start, err := q.FindNearestPoly(from, box, filter)
	require.NoError(t, err)
	goal, err := q.FindNearestPoly(to, box, filter)
	require.NoError(t, err)
	if start.Ref == 0 || goal.Ref == 0 {
		return end, 0, false
	}
	path := make([]navmesh.Ref, 512)
	n, _, err := q.FindPath(start.Ref, goal.Ref, start.Point, goal.Point, filter, path)
	require.NoError(t, err)
	corners := make([]query.StraightPathPoint, 256)
	count, _, err := q.FindStraightPath(start.Point, goal.Point, path[:n], corners, 0)
	require.NoError(t, err)
	for i := 1; i < count; i++ {
		length += geom.Dist(corners[i-1].Pos, corners[i].Pos)
	}
	return corners[count-1].Pos, length, true
}

// TestLargeMeshLacksTheTowerRamp: the small mesh has a path from the
// dungeon's east room up the tower's ramp to its top floor; the large
// type's mesh has no polygon within 2 m of the top floor's spot, nor a
// path that ends near it, so the large agents never go up. Along the way
// the lower floor's passages are all in the large mesh: a path between
// two of its rooms is hardly longer there.
func TestLargeMeshLacksTheTowerRamp(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	l := twoTypes(t)
	eastRoom := geom.Vec3{42.7, 10.2, 4.4}
	towerTop := geom.Vec3{20.1, 19.25, -80.8}
	westRoom := geom.Vec3{-15.3, 1, 2.9}
	small, large := l.Types[0].Mesh, l.Types[1].Mesh

	end, length, ok := pathTo(t, small, eastRoom, towerTop)
	require.True(t, ok)
	assert.Less(t, geom.Dist(end, towerTop), float32(0.5), "the small path gets to the top floor")
	assert.Greater(t, length, float32(100))

	end, _, ok = pathTo(t, large, eastRoom, towerTop)
	if ok {
		assert.Greater(t, geom.Dist(end, towerTop), float32(4), "the large path ends short of the top floor")
	}
	q, err := query.New(large, 64)
	require.NoError(t, err)
	near, err := q.FindNearestPoly(towerTop, geom.Vec3{2, 4, 2}, query.NewFilter())
	require.NoError(t, err)
	assert.Zero(t, near.Ref, "the large mesh has no top floor there")

	_, smallLength, ok := pathTo(t, small, eastRoom, westRoom)
	require.True(t, ok)
	_, largeLength, ok := pathTo(t, large, eastRoom, westRoom)
	require.True(t, ok)
	assert.InDelta(t, smallLength, largeLength, 5, "the lower floor is open to both")
}

func TestBadAgentTypesAreRefused(t *testing.T) {
	for _, types := range [][]AgentType{
		{{"small", 0.6}, {"large", 0}},
		{{"small", -1}},
		{{"small", 0.6}, {"small", 1.8}},
		{{"", 0.6}, {"large", 1.8}},
		make([]AgentType, maxTypes+1),
	} {
		l, err := Load("", Options{Types: types})
		assert.Error(t, err, "%v", types)
		assert.Nil(t, l)
	}
}
