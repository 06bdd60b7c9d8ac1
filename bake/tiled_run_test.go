package bake

import (
	"context"
	"errors"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tileBlobs(tb testing.TB, r *TiledResult) (coords [][2]int, blobs [][]byte) {
	tb.Helper()
	for _, tile := range r.Tiles {
		blob, err := navmesh.MarshalDNAV(tile.Data)
		require.NoError(tb, err)
		coords = append(coords, [2]int{tile.X, tile.Y})
		blobs = append(blobs, blob)
	}
	return coords, blobs
}

// TestTiledWorkersDeterministic bakes each level with 1 and with 4 workers:
// the same tiles in the same order, byte for byte, and the same counts.
func TestTiledWorkersDeterministic(t *testing.T) {
	for _, mesh := range []string{"dungeon", "nav_test", "undulating"} {
		t.Run(mesh, func(t *testing.T) {
			g := loadTestMesh(t, mesh)
			one, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: 1})
			require.NoError(t, err)
			four, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: 4})
			require.NoError(t, err)
			assert.Equal(t, 1, one.Stats.Workers)
			assert.Equal(t, 4, four.Stats.Workers)

			coords1, blobs1 := tileBlobs(t, one)
			coords4, blobs4 := tileBlobs(t, four)
			assert.Equal(t, coords1, coords4)
			assert.Equal(t, blobs1, blobs4)
			assert.Equal(t, one.Stats.Counts, four.Stats.Counts)
			assert.Equal(t, one.Stats.Triangles, four.Stats.Triangles)
			for i := range one.Tiles {
				assert.Equal(t, one.Tiles[i].Fingerprints, four.Tiles[i].Fingerprints)
			}
		})
	}
}

// TestBuildTileMatchesTiled rebuilds single tiles, alone and through the
// package-level BuildTile, and gets the bytes of the full bake.
func TestBuildTileMatchesTiled(t *testing.T) {
	g := loadTestMesh(t, "nav_test")
	r, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: 2})
	require.NoError(t, err)
	for _, i := range []int{0, len(r.Tiles) / 2, len(r.Tiles) - 1} {
		want := r.Tiles[i]
		got, err := r.Baker.BuildTile(context.Background(), want.X, want.Y)
		require.NoError(t, err)
		wantBlob, err := navmesh.MarshalDNAV(want.Data)
		require.NoError(t, err)
		gotBlob, err := navmesh.MarshalDNAV(got.Data)
		require.NoError(t, err)
		assert.Equal(t, wantBlob, gotBlob)
		assert.Equal(t, want.Stats.Counts, got.Stats.Counts)
		assert.Equal(t, want.Fingerprints, got.Fingerprints)
		assert.Equal(t, int32(want.X), got.Data.Header.X)
		assert.Equal(t, int32(want.Y), got.Data.Header.Y)

		alone, err := BuildTile(g, DefaultSettings(), want.X, want.Y)
		require.NoError(t, err)
		aloneBlob, err := navmesh.MarshalDNAV(alone.Data)
		require.NoError(t, err)
		assert.Equal(t, wantBlob, aloneBlob)
	}

	// A tile with no geometry gives no data and no error.
	empty, err := r.Baker.BuildTile(context.Background(), 0, 0)
	require.NoError(t, err)
	assert.Nil(t, empty.Data)

	_, err = r.Baker.BuildTile(context.Background(), 10, 0)
	assert.ErrorIs(t, err, errTileOutOfGrid)
	_, err = r.Baker.BuildTile(context.Background(), 0, -1)
	assert.ErrorIs(t, err, errTileOutOfGrid)
}

// TestTiledBakeTileBounds checks the tile boxes: the tile grid starts at the
// level's minimum corner, and the tile data bounds are the tile's box in x
// and z (the border is not part of the tile).
func TestTiledBakeTileBounds(t *testing.T) {
	r, err := Tiled(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), TiledOptions{})
	require.NoError(t, err)
	bmin, bmax := r.Baker.Bounds()
	size := r.Baker.TileWorldSize()
	assert.Equal(t, float32(9.6), size)
	for _, tile := range r.Tiles {
		h := tile.Data.Header
		assert.Equal(t, bmin[0]+float32(float32(tile.X)*size), h.BMin[0])
		assert.Equal(t, bmin[2]+float32(float32(tile.Y)*size), h.BMin[2])
		assert.InDelta(t, bmin[0]+float32(float32(tile.X+1)*size), h.BMax[0], 1e-4)
		assert.InDelta(t, bmin[2]+float32(float32(tile.Y+1)*size), h.BMax[2], 1e-4)
		assert.Equal(t, bmin[1], h.BMin[1])
		assert.Equal(t, bmax[1]+2.0, h.BMax[1]) // top raised by the walkable height
		tx, ty := r.Baker.TileAt(tileCentre(tile))
		assert.Equal(t, [2]int{tile.X, tile.Y}, [2]int{tx, ty})
	}
}

func tileCentre(tile *TileResult) [3]float32 {
	return [3]float32{float32((tile.BMin[0] + tile.BMax[0]) / 2), 0, float32((tile.BMin[2] + tile.BMax[2]) / 2)}
}

// TestTiledProgressAndStats checks that progress counts every tile baked
// once, in order (74 of the 88 tiles of the grid have geometry within their
// border), and that the stage times and counts are summed.
func TestTiledProgressAndStats(t *testing.T) {
	var calls []int
	r, err := Tiled(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), TiledOptions{
		Workers:  3,
		Progress: func(done, total int) { assert.Equal(t, 74, total); calls = append(calls, done) },
	})
	require.NoError(t, err)
	require.Len(t, calls, 74)
	for i, c := range calls {
		assert.Equal(t, i+1, c)
	}
	s := r.Stats
	assert.Equal(t, [2]int{8, 11}, [2]int{s.TilesX, s.TilesY})
	assert.Equal(t, 74, s.TilesBaked)
	assert.Equal(t, 41, s.TilesWithData)
	assert.Equal(t, 55728, s.Triangles)
	assert.Equal(t, 36085, s.Counts.CompactSpans)
	for stage, d := range s.StageTimes {
		if Stage(stage) == StageLinks || Stage(stage) == StageLayers {
			assert.Zero(t, d, "links are off and no tile cache stage runs")
			continue
		}
		assert.Positive(t, d, Stage(stage).String())
	}
	assert.Positive(t, s.Wall)
}

// TestTiledCancel stops a bake from its progress callback and before it
// starts: the error is the context's and no result comes back.
func TestTiledCancel(t *testing.T) {
	g := loadTestMesh(t, "undulating")
	ctx, cancel := context.WithCancel(context.Background())
	done := 0
	r, err := Tiled(ctx, g, DefaultSettings(), TiledOptions{Workers: 2, Progress: func(int, int) {
		done++
		if done == 5 {
			cancel()
		}
	}})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, r)
	// No progress after the cancellation.
	assert.Equal(t, 5, done)

	_, err = Tiled(ctx, g, DefaultSettings(), TiledOptions{})
	assert.ErrorIs(t, err, context.Canceled)

	_, err = r2BuildTile(ctx, g)
	assert.ErrorIs(t, err, context.Canceled)
}

func r2BuildTile(ctx context.Context, g *Geometry) (*TileResult, error) {
	b, err := NewTileBaker(g, DefaultSettings(), TiledOptions{})
	if err != nil {
		return nil, err
	}
	return b.BuildTile(ctx, 5, 5)
}

// TestTiledBadInput checks the errors of bad settings and geometry.
func TestTiledBadInput(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	s := DefaultSettings()
	s.TileSize = 0
	_, err := Tiled(context.Background(), g, s, TiledOptions{})
	assert.ErrorContains(t, err, "TileSize")
	_, err = Tiled(context.Background(), g, DefaultSettings(), TiledOptions{TileSize: -1})
	assert.ErrorContains(t, err, "TileSize")
	s = DefaultSettings()
	s.CellSize = 0
	_, err = Tiled(context.Background(), g, s, TiledOptions{})
	assert.ErrorContains(t, err, "CellSize")
	_, err = Tiled(context.Background(), &Geometry{}, DefaultSettings(), TiledOptions{})
	assert.ErrorContains(t, err, "no triangles")
	_, err = BuildTile(nil, DefaultSettings(), 0, 0)
	assert.Error(t, err)

	// A tile that fails stops the bake with its error.
	_, err = Tiled(context.Background(), g, DefaultSettings(), TiledOptions{
		Workers:   2,
		AreaFlags: func(uint8) (uint8, uint16) { return 64, 0 },
	})
	assert.ErrorContains(t, err, "bake: build tile (")
	assert.ErrorContains(t, err, "area 64")

	// TileSize in the options wins over the settings.
	r, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{TileSize: 64})
	require.NoError(t, err)
	assert.Equal(t, [2]int{4, 6}, [2]int{r.Stats.TilesX, r.Stats.TilesY})
	assert.Equal(t, 64, r.Baker.Settings().TileSize)
	assert.False(t, errors.Is(err, context.Canceled))
}

// TestTiledAreaFlags maps the baked areas with a custom function.
func TestTiledAreaFlags(t *testing.T) {
	r, err := Tiled(context.Background(), loadTestMesh(t, "nav_test"), DefaultSettings(), TiledOptions{
		AreaFlags: func(area uint8) (uint8, uint16) {
			assert.Equal(t, WalkableArea, area)
			return 7, 0x20
		},
	})
	require.NoError(t, err)
	require.NotEmpty(t, r.Tiles)
	for _, tile := range r.Tiles {
		for _, p := range tile.Data.Polys {
			assert.Equal(t, uint8(7), p.Area())
			assert.Equal(t, uint16(0x20), p.Flags)
		}
	}
}

// TestTiledNothingWalkable bakes a wall: every tile is empty, which is not
// an error, and the navmesh holds no tile.
func TestTiledNothingWalkable(t *testing.T) {
	wall := &Geometry{
		Vertices:  []mgl32.Vec3{{0, 0, 0}, {20, 0, 0}, {20, 10, 0}, {0, 10, 0}, {0, 0, 0.5}, {20, 0, 0.5}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	r, err := Tiled(context.Background(), wall, DefaultSettings(), TiledOptions{})
	require.NoError(t, err)
	assert.Equal(t, [2]int{3, 1}, [2]int{r.Stats.TilesX, r.Stats.TilesY}) // 67 × 2 cells
	assert.Empty(t, r.Tiles)
	assert.Zero(t, r.Stats.Counts.Polys)
	assert.Positive(t, r.Stats.Triangles)
	require.Len(t, r.Stats.Warnings, 1)
	assert.Contains(t, r.Stats.Warnings[0], "no walkable polygons: of the level's 2 triangles, 0 are flatter")
	mesh, err := r.NavMesh()
	require.NoError(t, err)
	assert.Zero(t, mesh.TileCount())
	assert.Equal(t, 4, mesh.Params().MaxTiles)
}
