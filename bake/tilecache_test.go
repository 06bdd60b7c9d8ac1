package bake

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tileCacheReference holds the figures of testdata/tilecache/tc48_*.json
// that the layer bake determines.
type tileCacheReference struct {
	TileSize         int    `json:"tileSize"`
	TilesX           int    `json:"tilesX"`
	TilesY           int    `json:"tilesY"`
	MaxTiles         int    `json:"maxTiles"`
	MaxPolysPerTile  int    `json:"maxPolysPerTile"`
	CacheMaxTiles    int32  `json:"cacheMaxTiles"`
	Layers           int    `json:"layers"`
	TilesWithLayers  int    `json:"tilesWithLayers"`
	MaxLayersInTile  int    `json:"maxLayersInTile"`
	HeightfieldSpans int    `json:"heightfieldSpans"`
	LayerRawBytes    int    `json:"layerRawBytes"`
	LayerHash        string `json:"layerHash"`
}

func loadTileCacheReference(t *testing.T, level string) tileCacheReference {
	t.Helper()
	file, err := os.ReadFile(filepath.Join("testdata", "tilecache", "tc48_"+level+".json"))
	require.NoError(t, err)
	var ref tileCacheReference
	require.NoError(t, json.Unmarshal(file, &ref))
	return ref
}

// tileCacheSettings are RecastDemo's defaults with the tile cache sample's
// tile size.
func tileCacheSettings() Settings {
	s := DefaultSettings()
	s.TileSize = 48
	return s
}

// TestTileCacheMatchesTheCPP bakes each level's layers as
// Sample_TempObstacles does and compares the counts and the layer hash
// with the C++ figures (dungeon: the reference's; nav_test and undulating:
// recorded with the same harness, see testdata/README.md).
func TestTileCacheMatchesTheCPP(t *testing.T) {
	for _, level := range []string{"dungeon", "nav_test", "undulating"} {
		t.Run(level, func(t *testing.T) {
			ref := loadTileCacheReference(t, level)
			r, err := TileCache(context.Background(), loadTestMesh(t, level), tileCacheSettings(), TileCacheOptions{Workers: 2})
			require.NoError(t, err)
			s := r.Stats
			assert.Equal(t, [2]int{ref.TilesX, ref.TilesY}, [2]int{s.TilesX, s.TilesY})
			assert.Equal(t, ref.Layers, s.Layers)
			assert.Equal(t, ref.TilesWithLayers, s.TilesWithLayers)
			assert.Equal(t, ref.MaxLayersInTile, s.MaxLayersInTile)
			assert.Equal(t, ref.HeightfieldSpans, s.Counts.HeightfieldSpans)
			assert.Equal(t, ref.LayerRawBytes, s.LayerRawBytes)
			assert.Equal(t, ref.LayerHash, fmt.Sprintf("%016x", r.LayerHash()))
			assert.Equal(t, ref.LayerHash, fmt.Sprintf("%016x", LayerHash(r.Layers())))
			assert.Zero(t, s.DroppedLayers)
			assert.Len(t, r.Layers(), ref.Layers)

			params := r.Params()
			assert.Equal(t, ref.CacheMaxTiles, params.MaxTiles)
			assert.Equal(t, int32(ref.TileSize), params.Width)
			nav := r.NavMeshParams()
			assert.Equal(t, ref.MaxTiles, nav.MaxTiles)
			assert.Equal(t, ref.MaxPolysPerTile, nav.MaxPolys)
		})
	}
}

// TestTileCacheParamsAreTheTSETFiles: the tile cache and navmesh
// parameters are those the C++ wrote into its TSET file for dungeon.
func TestTileCacheParamsAreTheTSETFiles(t *testing.T) {
	r, err := TileCache(context.Background(), loadTestMesh(t, "dungeon"), tileCacheSettings(), TileCacheOptions{Tiles: &TileRange{}})
	require.NoError(t, err)
	bmin, _ := r.Baker.Bounds()
	// The TSET header of testdata/tilecache (see README): dtNavMeshParams
	// then dtTileCacheParams.
	assert.Equal(t, tilecache.Params{
		Origin: bmin, CellSize: 0.3, CellHeight: 0.2, Width: 48, Height: 48,
		WalkableHeight: 2, WalkableRadius: 0.6, WalkableClimb: 0.9, MaxSimplificationError: 1.3,
		MaxTiles: 168, MaxObstacles: 1024,
	}, r.Params())
	nav := r.NavMeshParams()
	assert.Equal(t, bmin, nav.Origin)
	assert.Equal(t, float32(48)*float32(0.3), nav.TileWidth)
	assert.Equal(t, [2]int{256, 16384}, [2]int{nav.MaxTiles, nav.MaxPolys})
}

// TestTileCacheLayerHeaders checks the headers of a bake against the
// rules of Sample_TempObstacles: the tile's location and layer index, the
// layer's xz bounds the tile's box (the border grown and shrunk again in
// float32), y from the level's floor plus HMin and HMax cells, a grid of
// the tile size.
func TestTileCacheLayerHeaders(t *testing.T) {
	r, err := TileCache(context.Background(), loadTestMesh(t, "dungeon"), tileCacheSettings(), TileCacheOptions{})
	require.NoError(t, err)
	bmin, _ := r.Baker.Bounds()
	border := float32(float32(5) * 0.3)
	for _, tile := range r.Tiles {
		tileMin, tileMax := r.Baker.TileBounds(tile.X, tile.Y)
		for i, l := range tile.Layers {
			h := l.Header
			assert.Equal(t, [3]int32{int32(tile.X), int32(tile.Y), int32(i)}, [3]int32{h.TX, h.TY, h.TLayer})
			assert.Equal(t, (tileMin[0]-border)+border, h.BMin[0])
			assert.Equal(t, (tileMin[2]-border)+border, h.BMin[2])
			assert.Equal(t, (tileMax[0]+border)-border, h.BMax[0])
			assert.Equal(t, bmin[1]+float32(float32(h.HMin)*0.2), h.BMin[1])
			assert.Equal(t, bmin[1]+float32(float32(h.HMax)*0.2), h.BMax[1])
			assert.Equal(t, [2]uint8{48, 48}, [2]uint8{h.Width, h.Height})
			assert.LessOrEqual(t, h.MinX, h.MaxX)
			assert.LessOrEqual(t, h.MinY, h.MaxY)
			assert.Len(t, l.Heights, 48*48)
			for c, area := range l.Areas {
				if area == tilecache.NullArea {
					assert.Equal(t, uint8(0xff), l.Heights[c])
					assert.Zero(t, l.Cons[c])
				}
			}
		}
	}
}

// TestTileCacheWorkersDeterministic: any number of workers gives the same
// layers in the same order as one, and BuildTileLayers rebuilds any tile
// alone to the same bytes.
func TestTileCacheWorkersDeterministic(t *testing.T) {
	g := loadTestMesh(t, "nav_test")
	one, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: 1})
	require.NoError(t, err)
	for _, workers := range []int{2, 5} {
		many, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: workers})
		require.NoError(t, err)
		assert.Equal(t, workers, many.Stats.Workers)
		assert.Equal(t, one.Layers(), many.Layers())
		assert.Equal(t, one.Stats.Counts, many.Stats.Counts)
		assert.Equal(t, one.Stats.Triangles, many.Stats.Triangles)
	}
	for _, tile := range []*TileLayers{one.Tiles[0], one.Tiles[len(one.Tiles)/2], one.Tiles[len(one.Tiles)-1]} {
		again, err := one.Baker.BuildTileLayers(context.Background(), tile.X, tile.Y)
		require.NoError(t, err)
		assert.Equal(t, tile.Layers, again.Layers)
	}
	empty, err := one.Baker.BuildTileLayers(context.Background(), 0, 0)
	require.NoError(t, err)
	assert.Empty(t, empty.Layers)
	_, err = one.Baker.BuildTileLayers(context.Background(), 7, 0)
	assert.ErrorIs(t, err, errTileOutOfGrid)
}

// TestTileCacheProgressAndCancel: progress counts every tile of the range
// once, in order; a cancelled bake returns the context's error.
func TestTileCacheProgressAndCancel(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	var calls []int
	area := TileRange{MinX: 1, MinY: 2, MaxX: 3, MaxY: 5}
	r, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{
		Workers: 3,
		Tiles:   &area,
		Progress: func(done, total int) {
			assert.Equal(t, 12, total)
			calls = append(calls, done)
		},
	})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, calls)
	assert.Equal(t, area, r.Stats.Range)
	for _, tile := range r.Tiles {
		assert.True(t, area.Contains(tile.X, tile.Y))
	}
	assert.Positive(t, r.Stats.StageTimes[StageLayers])

	ctx, cancel := context.WithCancel(context.Background())
	_, err = TileCache(ctx, g, tileCacheSettings(), TileCacheOptions{
		Workers:  2,
		Progress: func(done, total int) { cancel() },
	})
	require.ErrorIs(t, err, context.Canceled)
}

func TestTileCacheBadInput(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	big := tileCacheSettings()
	big.TileSize = 256
	_, err := TileCache(context.Background(), g, big, TileCacheOptions{})
	assert.ErrorContains(t, err, "TileSize 256 is more than a layer's 255 cells")

	for _, area := range []TileRange{
		{MinX: 0, MinY: 0, MaxX: 6, MaxY: 0},
		{MinX: 2, MinY: 0, MaxX: 1, MaxY: 0},
		{MinX: -1, MinY: 0, MaxX: 1, MaxY: 0},
		{MinX: 0, MinY: 0, MaxX: 0, MaxY: 7},
	} {
		_, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Tiles: &area})
		assert.ErrorIs(t, err, ErrTileRange, "range %v", area)
		assert.ErrorContains(t, err, "of a 6×7 grid (0:5,0:6)")
	}

	baker, err := NewTileBaker(g, tileCacheSettings(), TiledOptions{})
	require.NoError(t, err)
	_, err = baker.BuildAllLayers(context.Background(), TileCacheOptions{TileSize: 32})
	assert.ErrorContains(t, err, "TileSize 32 differs from the baker's 48")
}

// TestTileCacheLayerOverflowFailsTheBake: a tile whose layers overflow
// fails the bake with the tile named and ErrLayerOverflow wrapped.
func TestTileCacheLayerOverflowFailsTheBake(t *testing.T) {
	// 64 small platforms stacked over a floor, in one tile.
	g := &Geometry{}
	quad := func(x0, z0, x1, z1, y float32) {
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices, [3]float32{x0, y, z0}, [3]float32{x0, y, z1}, [3]float32{x1, y, z1}, [3]float32{x1, y, z0})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	quad(0, 0, 10, 10, 0)
	for i := range 64 {
		x, z := float32(float32(i%8)*1.2)+0.3, float32(float32(i/8)*1.2)+0.3
		quad(x, z, x+0.6, z+0.6, 5)
	}
	settings := tileCacheSettings()
	settings.AgentRadius = 0
	settings.Filters.LedgeSpans = false // the platforms are all ledge
	_, err := TileCache(context.Background(), g, settings, TileCacheOptions{})
	require.ErrorIs(t, err, ErrLayerOverflow)
	assert.ErrorContains(t, err, "bake: build tile (0, 0): bake: build heightfield layers: layer overflow")
	assert.False(t, errors.Is(err, ErrTileRange))
}
