package bake

import (
	"context"
	"os"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadTileCache loads the C++ tile cache of the dungeon (tiles of 48
// cells) with process and builds every tile.
func loadTileCache(t *testing.T, process tilecache.MeshProcess) (*tilecache.Cache, *navmesh.Mesh) {
	t.Helper()
	file, err := os.ReadFile("../navcore/tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, mesh, _, err := tilecache.Load(file, tilecache.Options{Process: process})
	require.NoError(t, err)
	upToDate, err := cache.Update(tilecache.Budget{})
	require.NoError(t, err)
	require.True(t, upToDate)
	return cache, mesh
}

// TestLinksInTileCacheTiles brings the automatic links into a tile cache:
// place them on the cache's tiles (built without), then hand them to the
// mesh process, which gives every tile the level's connections (the tile
// builder keeps those starting in it). The rebuilt tiles hold every link,
// linked at both ends, and keep them when an obstacle rebuilds their tile.
func TestLinksInTileCacheTiles(t *testing.T) {
	_, plain := loadTileCache(t, nil)
	s := linkSettings()
	s.TileSize = 48
	baker, err := NewTileBaker(loadTestMesh(t, "dungeon"), s, TiledOptions{})
	require.NoError(t, err)
	links, err := baker.PlaceLinks(context.Background(), plain, 2)
	require.NoError(t, err)
	require.NotEmpty(t, links)
	for _, l := range links {
		kind, _ := navmesh.ParseAutoLinkUserID(l.UserID)
		assert.Equal(t, navmesh.LinkDrop, kind, "the dungeon has ledges, no gaps")
	}

	process := &tilecache.RecastDemoProcess{OffMeshConnections: ConnectionParams(links)}
	cache, mesh := loadTileCache(t, process)
	checkStored := func(what string) {
		stored := storedConnections(mesh)
		require.Len(t, stored, len(links), what)
		for _, l := range links {
			con, tile := findConnection(stored, l)
			require.NotNil(t, con, "%s: link %v -> %v stored", what, l.Start, l.End)
			edges := linkedEdges(tile, con)
			assert.True(t, edges[0] && edges[1], "%s: link %v -> %v linked at both ends", what, l.Start, l.End)
		}
	}
	checkStored("built")

	// An obstacle a few metres from the first link's start, in its tile,
	// rebuilds the tile; the link comes back with it.
	_, before := findConnection(storedConnections(mesh), links[0])
	start := links[0].Start
	at := mgl32.Vec3{start[0] + 2.5, start[1] - 0.5, start[2]}
	if at[0] >= before.Data.Header.BMax[0] {
		at[0] = start[0] - 2.5
	}
	_, err = cache.AddObstacle(tilecache.Cylinder(at, 0.5, 2))
	require.NoError(t, err)
	upToDate, err := cache.Update(tilecache.Budget{})
	require.NoError(t, err)
	require.True(t, upToDate)
	_, after := findConnection(storedConnections(mesh), links[0])
	require.NotNil(t, after)
	assert.NotSame(t, before.Data, after.Data, "the tile was built again")
	checkStored("after the obstacle")
}

// TestTileCacheBakesRefuseLinks: layers hold no off-mesh connections, so a
// tile cache bake whose settings place links says so instead of dropping
// them, for every entry point.
func TestTileCacheBakesRefuseLinks(t *testing.T) {
	level := loadTestMesh(t, "dungeon")
	s := linkSettings()
	s.TileSize = 48
	_, err := TileCache(context.Background(), level, s, TileCacheOptions{})
	assert.ErrorIs(t, err, ErrLinksInLayers, "TileCache")

	_, err = TileCacheTypes(context.Background(), level, []AgentType{{Name: "walker", Settings: s}}, TileCacheOptions{})
	assert.ErrorIs(t, err, ErrLinksInLayers, "TileCacheTypes")

	baker, err := NewTileBaker(level, s, TiledOptions{})
	require.NoError(t, err)
	_, err = baker.BuildTileLayers(context.Background(), 1, 1)
	assert.ErrorIs(t, err, ErrLinksInLayers, "BuildTileLayers")

	s.Links = LinkSettings{}
	result, err := TileCache(context.Background(), level, s, TileCacheOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, result.Tiles, "without links the same bake goes through")
}
