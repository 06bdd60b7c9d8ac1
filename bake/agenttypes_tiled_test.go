package bake

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// tiledAgentTypes returns six types for tiled bakes, where a tile's border
// grows with the radius in cells: tall (taller), scout (radius 0.5, the
// same 2 cells as 0.6) and jumper (with links) share the soldier's
// rasterization, scout and jumper its compact stages too; ogre (radius 1.5,
// 5 cells) and cart (another climb and slope) share nothing but the
// triangle index.
func tiledAgentTypes() []AgentType {
	soldier := DefaultSettings()
	tall := soldier
	tall.AgentHeight = 3
	scout := soldier
	scout.AgentRadius = 0.5
	ogre := soldier
	ogre.AgentRadius, ogre.AgentHeight = 1.5, 3
	cart := soldier
	cart.AgentMaxClimb, cart.AgentMaxSlope = 0.3, 30
	jumper := soldier
	jumper.Links = DefaultLinkSettings()
	return []AgentType{
		{Name: "soldier", Settings: soldier},
		{Name: "tall", Settings: tall},
		{Name: "scout", Settings: scout},
		{Name: "ogre", Settings: ogre},
		{Name: "cart", Settings: cart},
		{Name: "jumper", Settings: jumper},
	}
}

// requireSameTiled checks that got holds the tiles of want byte for byte,
// with the same counts, links, fingerprints, warnings and navmesh file.
func requireSameTiled(t *testing.T, want, got *TiledResult, name string) {
	t.Helper()
	require.Len(t, got.Tiles, len(want.Tiles), name)
	for i, w := range want.Tiles {
		g := got.Tiles[i]
		where := fmt.Sprintf("%s: tile (%d, %d)", name, w.X, w.Y)
		require.Equal(t, [2]int{w.X, w.Y}, [2]int{g.X, g.Y}, where)
		require.Equal(t, w.BMin, g.BMin, where)
		require.Equal(t, w.BMax, g.BMax, where)
		wantBlob, err := navmesh.MarshalDNAV(w.Data)
		require.NoError(t, err)
		gotBlob, err := navmesh.MarshalDNAV(g.Data)
		require.NoError(t, err)
		require.Equal(t, wantBlob, gotBlob, where)
		require.Equal(t, w.Triangles, g.Triangles, where)
		require.Equal(t, w.Fingerprints, g.Fingerprints, where)
		require.Equal(t, w.Links, g.Links, where)
		require.Equal(t, w.Stats.Counts, g.Stats.Counts, where)
		require.Equal(t, w.Stats.Warnings, g.Stats.Warnings, where)
	}
	ws, gs := want.Stats, got.Stats
	require.Equal(t, [4]int{ws.TilesX, ws.TilesY, ws.TilesBaked, ws.TilesWithData}, [4]int{gs.TilesX, gs.TilesY, gs.TilesBaked, gs.TilesWithData}, name)
	require.Equal(t, ws.Range, gs.Range, name)
	require.Equal(t, ws.Triangles, gs.Triangles, name)
	require.Equal(t, ws.Counts, gs.Counts, name)
	require.Equal(t, ws.Warnings, gs.Warnings, name)
	require.Equal(t, ws.DroppedWarnings, gs.DroppedWarnings, name)
	require.Equal(t, want.NavMeshParams(), got.NavMeshParams(), name)
	require.Equal(t, navmeshFile(t, want), navmeshFile(t, got), "%s: navmesh file", name)
}

// navmeshFile returns the archenav file of the bake's navmesh.
func navmeshFile(t *testing.T, r *TiledResult) []byte {
	t.Helper()
	m, err := r.NavMesh()
	require.NoError(t, err)
	var file bytes.Buffer
	require.NoError(t, navmesh.Save(&file, m))
	return file.Bytes()
}

func TestTiledTypesEqualSeparateBakes(t *testing.T) {
	types := tiledAgentTypes()
	for _, level := range typeTestLevels() {
		t.Run(level, func(t *testing.T) {
			g := loadTestMesh(t, level)
			separate := make([]*TiledResult, len(types))
			tiles := 0
			for i, at := range types {
				var err error
				separate[i], err = Tiled(context.Background(), g, at.Settings, TiledOptions{Workers: 2})
				require.NoError(t, err, at.Name)
				tiles += separate[i].Stats.TilesBaked
			}
			for _, workers := range []int{1, 3} {
				progress, last := 0, 0
				result, err := TiledTypes(context.Background(), g, types, TiledOptions{Workers: workers, Progress: func(done, total int) {
					progress++
					assert.Greater(t, done, last)
					assert.Equal(t, tiles, total)
					last = done
				}})
				require.NoError(t, err, "%d workers", workers)
				for i := range types {
					requireSameTiled(t, separate[i], result.Results[i], fmt.Sprintf("%s, %d workers", types[i].Name, workers))
				}
				assert.Equal(t, tiles, last, "progress reaches the total")
				assertTiledSharing(t, result.Stats)
				assert.Equal(t, workers, result.Stats.Workers)
			}
		})
	}
}

// assertTiledSharing checks the counts of a bake of tiledAgentTypes: in
// each of the n tiles with geometry near it, the soldier's group of four
// rasterizes once and compacts twice (soldier and tall) and cart does both
// alone; ogre, whose border reaches further, does both alone in its m >= n
// tiles.
func assertTiledSharing(t *testing.T, stats TypesStats) {
	t.Helper()
	n := (stats.Bakes - stats.Rasterizations) / 3
	m := stats.Rasterizations - 2*n
	assert.Positive(t, n)
	assert.GreaterOrEqual(t, m, n)
	assert.Equal(t, 5*n+m, stats.Bakes)
	assert.Equal(t, 3*n+m, stats.Compactions)
}

// requireSameLayers checks that got holds the layers of want byte for
// byte, encoded the same, with the same counts and warnings.
func requireSameLayers(t *testing.T, want, got *TileCacheResult, name string) {
	t.Helper()
	require.Len(t, got.Tiles, len(want.Tiles), name)
	for i, w := range want.Tiles {
		g := got.Tiles[i]
		where := fmt.Sprintf("%s: tile (%d, %d)", name, w.X, w.Y)
		require.Equal(t, [2]int{w.X, w.Y}, [2]int{g.X, g.Y}, where)
		require.Equal(t, w.Layers, g.Layers, where)
		require.Equal(t, w.Encoded, g.Encoded, where)
		require.Equal(t, w.DroppedLayers, g.DroppedLayers, where)
		require.Equal(t, w.Triangles, g.Triangles, where)
		require.Equal(t, w.Stats.Counts, g.Stats.Counts, where)
		require.Equal(t, w.Stats.Warnings, g.Stats.Warnings, where)
	}
	ws, gs := want.Stats, got.Stats
	require.Equal(t, [3]int{ws.TilesX, ws.TilesY, ws.TilesWithLayers}, [3]int{gs.TilesX, gs.TilesY, gs.TilesWithLayers}, name)
	require.Equal(t, [4]int{ws.Layers, ws.MaxLayersInTile, ws.DroppedLayers, ws.LayerRawBytes}, [4]int{gs.Layers, gs.MaxLayersInTile, gs.DroppedLayers, gs.LayerRawBytes}, name)
	require.Equal(t, ws.LayerCompressedBytes, gs.LayerCompressedBytes, name)
	require.Equal(t, ws.Triangles, gs.Triangles, name)
	require.Equal(t, ws.Counts, gs.Counts, name)
	require.Equal(t, ws.Warnings, gs.Warnings, name)
	require.Equal(t, want.LayerHash(), got.LayerHash(), name)
	require.Equal(t, want.Params(), got.Params(), name)
	require.Equal(t, want.NavMeshParams(), got.NavMeshParams(), name)
}

func TestTileCacheTypesEqualSeparateBakes(t *testing.T) {
	types := tiledAgentTypes()
	for i := range types {
		types[i].Settings.TileSize = 48
		types[i].Settings.Links = LinkSettings{} // layers hold no links (ErrLinksInLayers)
	}
	for _, level := range typeTestLevels() {
		t.Run(level, func(t *testing.T) {
			g := loadTestMesh(t, level)
			opts := TileCacheOptions{Workers: 2, Compressor: tilecache.FastLZ{}}
			separate := make([]*TileCacheResult, len(types))
			for i, at := range types {
				var err error
				separate[i], err = TileCache(context.Background(), g, at.Settings, opts)
				require.NoError(t, err, at.Name)
			}
			for _, workers := range []int{1, 3} {
				opts.Workers = workers
				result, err := TileCacheTypes(context.Background(), g, types, opts)
				require.NoError(t, err, "%d workers", workers)
				for i := range types {
					requireSameLayers(t, separate[i], result.Results[i], fmt.Sprintf("%s, %d workers", types[i].Name, workers))
				}
				assertTiledSharing(t, result.Stats)
			}
		})
	}
}

func TestTileCacheTypesCaches(t *testing.T) {
	types := smallAndLarge()
	for i := range types {
		types[i].Settings.TileSize = 48
	}
	result, err := TileCacheTypes(context.Background(), loadTestMesh(t, "dungeon"), types, TileCacheOptions{})
	require.NoError(t, err)
	caches, set, err := result.Caches(tilecache.Options{})
	require.NoError(t, err)
	require.Equal(t, []string{"small", "large"}, set.Names())
	polys := make([]int, len(caches))
	for i, cache := range caches {
		upToDate, err := cache.Update(tilecache.Budget{})
		require.NoError(t, err)
		require.True(t, upToDate)
		assert.Equal(t, types[i].Settings.AgentRadius, cache.Params().WalkableRadius, "each cache inflates obstacles by its type's radius")
		snap := set[i].Mesh.Snapshot()
		for slot := range snap.MaxTiles() {
			if tile := snap.Tile(slot); tile != nil {
				polys[i] += len(tile.Polys)
			}
		}
	}
	assert.Less(t, polys[1], polys[0], "the large agent's mesh is smaller")
}

// TestTypesTileRange bakes a range of tiles for several types: each type's
// tiles are those of its own range bake.
func TestTypesTileRange(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	types := tiledAgentTypes()[:4]
	area := &TileRange{MinX: 2, MaxX: 5, MinY: 3, MaxY: 8}
	result, err := TiledTypes(context.Background(), g, types, TiledOptions{Workers: 2, Tiles: area})
	require.NoError(t, err)
	layerTypes := slices.Clone(types)
	for i := range layerTypes {
		layerTypes[i].Settings.TileSize = 48
	}
	layerArea := &TileRange{MinX: 1, MaxX: 3, MinY: 2, MaxY: 5}
	layers, err := TileCacheTypes(context.Background(), g, layerTypes, TileCacheOptions{Workers: 2, Tiles: layerArea})
	require.NoError(t, err)
	for i := range types {
		alone, err := Tiled(context.Background(), g, types[i].Settings, TiledOptions{Workers: 1, Tiles: area})
		require.NoError(t, err)
		requireSameTiled(t, alone, result.Results[i], types[i].Name)
		aloneLayers, err := TileCache(context.Background(), g, layerTypes[i].Settings, TileCacheOptions{Workers: 1, Tiles: layerArea})
		require.NoError(t, err)
		requireSameLayers(t, aloneLayers, layers.Results[i], types[i].Name)
	}
	_, err = TiledTypes(context.Background(), g, types, TiledOptions{Tiles: &TileRange{MaxX: 50, MaxY: 1}})
	require.ErrorIs(t, err, ErrTileRange)
	assert.Contains(t, err.Error(), `agent type "soldier"`)
}

func TestTiledTypesChecksEveryTypeFirst(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	types := tiledAgentTypes()[:2]
	types[1].Settings.CellHeight = 0
	_, err := TiledTypes(context.Background(), g, types, TiledOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `agent type "tall": bake: settings: CellHeight 0`)
	tooBig := tiledAgentTypes()[:2]
	tooBig[1].Settings.TileSize = MaxLayerSide + 1
	_, err = TileCacheTypes(context.Background(), g, tooBig, TileCacheOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `agent type "tall"`)
	_, err = TiledTypes(context.Background(), g, nil, TiledOptions{})
	require.Error(t, err)

	bad := func(uint8) (uint8, uint16) { return 64, 0 }
	result, err := TiledTypes(context.Background(), g, tiledAgentTypes(), TiledOptions{Workers: 2, AreaFlags: bad})
	require.Error(t, err)
	assert.Regexp(t, `agent type "[a-z]+": bake: build tile \(\d+, \d+\): .*area mapping gave area 64`, err.Error())
	assert.Nil(t, result)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = TiledTypes(ctx, g, tiledAgentTypes(), TiledOptions{Workers: 2})
	require.ErrorIs(t, err, context.Canceled)
	_, err = TileCacheTypes(ctx, g, smallAndLarge(), TileCacheOptions{Workers: 2, TileSize: 48})
	require.ErrorIs(t, err, context.Canceled)
}
