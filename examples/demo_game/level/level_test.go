package level

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
