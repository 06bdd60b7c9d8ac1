package bake_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/navmesh"
)

// writeFixturesEnv, set to 1, rewrites the query package's baked fixtures.
const writeFixturesEnv = "ARCHENAV_WRITE_QUERY_FIXTURES"

// TestQueryFixturesAreFresh checks that the navmesh files navcore/query's
// tests load (they cannot import bake, which imports query) are what bake
// makes of nav_test today: solo, and tiled with 32-cell tiles.
func TestQueryFixturesAreFresh(t *testing.T) {
	g, err := bake.LoadOBJ("../testdata/nav_test.obj")
	require.NoError(t, err)
	solo, err := bake.Solo(context.Background(), g, bake.DefaultSettings())
	require.NoError(t, err)
	soloMesh, err := navmesh.New(navmesh.SingleTileParams(solo.TileData))
	require.NoError(t, err)
	_, err = soloMesh.AddTile(solo.TileData, 0)
	require.NoError(t, err)
	tiled, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{TileSize: 32})
	require.NoError(t, err)
	tiledMesh, err := tiled.NavMesh()
	require.NoError(t, err)

	for _, c := range []struct {
		path string
		mesh *navmesh.Mesh
	}{
		{"../navcore/query/testdata/nav_test_solo.navmesh", soloMesh},
		{"../navcore/query/testdata/nav_test_tiled32.navmesh", tiledMesh},
	} {
		var want bytes.Buffer
		require.NoError(t, navmesh.Save(&want, c.mesh))
		if os.Getenv(writeFixturesEnv) == "1" {
			require.NoError(t, os.WriteFile(c.path, want.Bytes(), 0o644))
			continue
		}
		got, err := os.ReadFile(c.path)
		require.NoError(t, err)
		require.True(t, bytes.Equal(want.Bytes(), got), "%s is stale: rerun with %s=1", c.path, writeFixturesEnv)
	}
}
