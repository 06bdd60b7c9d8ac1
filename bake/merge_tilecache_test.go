package bake

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cacheFiles returns a cache's TSET and archenav files.
func cacheFiles(t *testing.T, c *tilecache.Cache) (tset, own []byte) {
	t.Helper()
	tset, err := tilecache.MarshalTSET(c.TileSet())
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, c.Save(&buf))
	return tset, buf.Bytes()
}

// TestTileCacheWritesTheCPPFile bakes dungeon's layers with FastLZ on two
// workers: the compressed size is the C++'s, and the cache's TSET file is
// the one RecastDemo saved, byte for byte.
func TestTileCacheWritesTheCPPFile(t *testing.T) {
	r, err := TileCache(context.Background(), loadTestMesh(t, "dungeon"), tileCacheSettings(),
		TileCacheOptions{Workers: 2, Compressor: tilecache.FastLZ{}})
	require.NoError(t, err)
	assert.Equal(t, 18447, r.Stats.LayerCompressedBytes)
	require.Len(t, r.Encoded(), 30)

	cache, mesh, err := r.Cache(tilecache.Options{})
	require.NoError(t, err)
	assert.Equal(t, 30, cache.LayerCount())
	assert.Equal(t, r.NavMeshParams(), mesh.Params())
	tset, _ := cacheFiles(t, cache)
	want, err := os.ReadFile(filepath.Join("testdata", "tilecache", "tc48_dungeon.tset"))
	require.NoError(t, err)
	assert.Equal(t, want, tset)

	// Without a compressor at bake time the cache encodes the layers
	// itself, to the same bytes.
	plain, err := TileCache(context.Background(), loadTestMesh(t, "dungeon"), tileCacheSettings(), TileCacheOptions{Workers: 1})
	require.NoError(t, err)
	assert.Nil(t, plain.Encoded())
	assert.Zero(t, plain.Stats.LayerCompressedBytes)
	cache, _, err = plain.Cache(tilecache.Options{})
	require.NoError(t, err)
	again, _ := cacheFiles(t, cache)
	assert.Equal(t, want, again)

	// A rebuilt tile encodes to the bytes of the bake.
	tile, err := r.Baker.BuildTileLayers(context.Background(), r.Tiles[3].X, r.Tiles[3].Y)
	require.NoError(t, err)
	require.NoError(t, tile.Encode(tilecache.FastLZ{}))
	assert.Equal(t, r.Tiles[3].Encoded, tile.Encoded)
}

// TestTileCacheRangesMergeToTheWholeBake bakes dungeon's layers in four
// ranges, writes each as a TSET or archenav file, reads them back and
// merges them (in any order): both files of the merge are the whole
// bake's, byte for byte.
func TestTileCacheRangesMergeToTheWholeBake(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	whole, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: 2, Compressor: tilecache.FastLZ{}})
	require.NoError(t, err)
	wholeCache, _, err := whole.Cache(tilecache.Options{})
	require.NoError(t, err)
	wantTSET, wantOwn := cacheFiles(t, wholeCache)

	var parts []*tilecache.Cache
	for i, area := range quarters(whole.Baker.Grid()) {
		part, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: 2, Tiles: &area, Compressor: tilecache.FastLZ{}})
		require.NoError(t, err)
		cache, _, err := part.Cache(tilecache.Options{})
		require.NoError(t, err)
		tset, own := cacheFiles(t, cache)
		file := tset
		if i%2 == 1 {
			file = own
		}
		back, _, _, err := tilecache.Load(file, tilecache.Options{})
		require.NoError(t, err)
		parts = append(parts, back)
	}
	merged, mesh, err := MergeTileCaches(tilecache.Options{}, parts[2], parts[0], parts[3], parts[1])
	require.NoError(t, err)
	assert.Equal(t, whole.NavMeshParams(), mesh.Params())
	tset, own := cacheFiles(t, merged)
	assert.Equal(t, wantTSET, tset)
	assert.Equal(t, wantOwn, own)
}

// TestMergeTileCachesRefusesCachesThatDoNotFit: another tile size, an
// overlapping range, obstacles.
func TestMergeTileCachesRefusesCachesThatDoNotFit(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	bakeCache := func(settings Settings, area TileRange) *tilecache.Cache {
		t.Helper()
		r, err := TileCache(context.Background(), g, settings, TileCacheOptions{Tiles: &area})
		require.NoError(t, err)
		c, _, err := r.Cache(tilecache.Options{})
		require.NoError(t, err)
		return c
	}
	left := bakeCache(tileCacheSettings(), TileRange{MaxX: 2, MaxY: 6})
	small := tileCacheSettings()
	small.TileSize = 40
	withObstacle := bakeCache(tileCacheSettings(), TileRange{MinX: 3, MaxX: 5, MaxY: 6})
	_, err := withObstacle.AddObstacle(tilecache.Obstacle{Shape: tilecache.ShapeCylinder, Position: withObstacle.Layers(nil)[0].Header.BMin.Add(mgl32.Vec3{3, 0, 3}), Radius: 1, Height: 2})
	require.NoError(t, err)

	tests := []struct {
		name  string
		other *tilecache.Cache
		want  string
	}{
		{"tile size", bakeCache(small, TileRange{MinX: 4, MaxX: 6, MaxY: 8}), "tile cache parameters (origin"},
		{"overlap", bakeCache(tileCacheSettings(), TileRange{MinX: 2, MaxX: 3, MaxY: 6}), "as does input"},
		{"obstacles", withObstacle, "input 1: holds 1 obstacles: only bakes merge"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cache, mesh, err := MergeTileCaches(tilecache.Options{}, left, tt.other)
			require.ErrorIs(t, err, ErrIncompatibleBakes)
			assert.ErrorContains(t, err, tt.want)
			assert.Nil(t, cache)
			assert.Nil(t, mesh)
			var mergeErr *MergeError
			require.True(t, errors.As(err, &mergeErr))
			assert.Equal(t, 1, mergeErr.Input)
		})
	}
	_, _, err = MergeTileCaches(tilecache.Options{})
	assert.Error(t, err)
}
