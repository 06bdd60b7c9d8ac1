package bake

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/query"
)

// allocatedBy returns the bytes fn allocated.
func allocatedBy(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestSoloRefusesTooFineCells: a cell size of 0.002 on the dungeon (a grid
// of 1.8e9 cells, under the 2^31 guard) fails at once with the estimate
// instead of running out of memory; the limit is the caller's to set.
func TestSoloRefusesTooFineCells(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	settings := DefaultSettings()
	settings.TileSize = 0
	settings.CellSize = 0.002
	settings.AgentRadius = 0.5 // within 2^13 cells of 0.002
	settings.DetailSampleDist = 0
	var err error
	allocated := allocatedBy(func() { _, err = Solo(context.Background(), g, settings) })
	require.ErrorIs(t, err, ErrMemoryLimit)
	assert.Contains(t, err.Error(), "37160×49466 cell grid needs at least 85.6 GiB (50 bytes per cell)")
	assert.Contains(t, err.Error(), "over the limit of 4.0 GiB")
	assert.Less(t, allocated, uint64(1<<20), "refused before allocating")

	// The limit is the caller's: the dungeon's 248 × 330 cells estimate
	// 4.1 MB.
	settings = DefaultSettings()
	settings.TileSize = 0
	bmin, bmax := g.Bounds()
	cfg, err := settings.Config(bmin, bmax)
	require.NoError(t, err)
	assert.Equal(t, int64(248*330*50), cfg.EstimatedMemory())
	settings.MaxMemory = cfg.EstimatedMemory() - 1
	_, err = Solo(context.Background(), g, settings)
	require.ErrorIs(t, err, ErrMemoryLimit)
	settings.MaxMemory = cfg.EstimatedMemory()
	_, err = Solo(context.Background(), g, settings)
	require.NoError(t, err)

	settings.MaxMemory = -1
	assert.Error(t, settings.Validate())
}

// TestEstimatedMemoryBoundsTheBake: the estimate is close to what a solo
// bake allocates on the test levels: at least the 32 bytes per cell every
// grid costs, and from 0.9 to 3 times the estimate (the dungeon has fewer
// spans than columns, the others more spans and larger products).
func TestEstimatedMemoryBoundsTheBake(t *testing.T) {
	for _, name := range []string{"dungeon", "nav_test", "undulating"} {
		g := loadTestMesh(t, name)
		settings := DefaultSettings()
		settings.TileSize = 0
		bmin, bmax := g.Bounds()
		cfg, err := settings.Config(bmin, bmax)
		require.NoError(t, err)
		var b Baker // a fresh Baker: no memory from earlier bakes
		allocated := allocatedBy(func() { _, err = b.Solo(context.Background(), g, settings) })
		require.NoError(t, err)
		ratio := float64(allocated) / float64(cfg.EstimatedMemory())
		t.Logf("%s: estimate %d bytes, allocated %d (%.1f×)", name, cfg.EstimatedMemory(), allocated, ratio)
		assert.GreaterOrEqual(t, allocated, uint64(cfg.Width*cfg.Height*32), name)
		assert.GreaterOrEqual(t, ratio, 0.9, name)
		assert.Less(t, ratio, 3.0, name)
	}
}

// TestTiledMemoryLimitCountsWorkers: a tiled bake estimates one tile's grid
// on each worker.
func TestTiledMemoryLimitCountsWorkers(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	settings := DefaultSettings()
	oneTile := int64(42 * 42 * bytesPerGridCell) // 32 cells and a border of 5 on each side
	settings.MaxMemory = 2*oneTile + oneTile/2
	_, err := Tiled(context.Background(), g, settings, TiledOptions{Workers: 3})
	require.ErrorIs(t, err, ErrMemoryLimit)
	assert.Contains(t, err.Error(), "42×42 cell grid on 3 workers")
	_, err = Tiled(context.Background(), g, settings, TiledOptions{Workers: 2})
	require.NoError(t, err)

	settings.MaxMemory = oneTile - 1
	_, err = NewTileBaker(g, settings, TiledOptions{})
	require.ErrorIs(t, err, ErrMemoryLimit, "not even one tile fits")
}

// TestTiledRefusesTooManyTiles: past Settings.MaxTiles tiles with geometry
// a tiled bake fails before baking any.
func TestTiledRefusesTooManyTiles(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	settings := DefaultSettings()
	settings.MaxTiles = 73
	progress := 0
	_, err := Tiled(context.Background(), g, settings, TiledOptions{Progress: func(int, int) { progress++ }})
	require.ErrorIs(t, err, ErrTooManyTiles)
	assert.Contains(t, err.Error(), "more than 73 of the 8×11 tiles")
	assert.Zero(t, progress, "nothing baked")
	settings.MaxTiles = 74
	r, err := Tiled(context.Background(), g, settings, TiledOptions{})
	require.NoError(t, err)
	assert.Equal(t, 74, r.Stats.TilesBaked)
}

// TestTiledSkipsOnlyEmptyTiles: every tile of the grid the bake skips is
// one that, baked on its own (BuildTile, which looks at every chunk),
// looks at no triangle and has no data.
func TestTiledSkipsOnlyEmptyTiles(t *testing.T) {
	for _, name := range []string{"dungeon", "nav_test", "undulating"} {
		baker := newTestBaker(t, name)
		tiles, err := baker.tilesWithGeometry(baker.GridRange(), DefaultMaxTiles)
		require.NoError(t, err)
		baked := map[int32]bool{}
		for _, i := range tiles {
			baked[i] = true
		}
		tx, ty := baker.Grid()
		skipped := 0
		for y := range ty {
			for x := range tx {
				if baked[int32(x+y*tx)] {
					continue
				}
				skipped++
				tile, err := baker.BuildTile(context.Background(), x, y)
				require.NoError(t, err)
				assert.Zero(t, tile.Triangles, "%s tile (%d, %d)", name, x, y)
				assert.Nil(t, tile.Data, "%s tile (%d, %d)", name, x, y)
			}
		}
		t.Logf("%s: %d of %d tiles baked, %d skipped", name, len(tiles), tx*ty, skipped)
	}
}

// TestTiledFarApartFloors: two 20 × 20 floors 100 km apart span a grid of
// 10419 × 10419 tiles (108 million); the bake looks at the few tiles near
// the floors only, finds the tiles with data that baking every tile near
// the floors one by one finds, and the navmesh has both floors.
func TestTiledFarApartFloors(t *testing.T) {
	g := &Geometry{}
	for _, corner := range []mgl32.Vec3{{0, 0, 0}, {100000, 0, 100000}} {
		base := int32(len(g.Vertices))
		x, z := corner[0], corner[2]
		g.Vertices = append(g.Vertices, mgl32.Vec3{x, 0, z}, mgl32.Vec3{x, 0, z + 20}, mgl32.Vec3{x + 20, 0, z + 20}, mgl32.Vec3{x + 20, 0, z})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	start := time.Now()
	r, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: 2})
	require.NoError(t, err)
	t.Logf("%d×%d tiles, %d baked, %d with data, %v", r.Stats.TilesX, r.Stats.TilesY, r.Stats.TilesBaked, r.Stats.TilesWithData, time.Since(start))
	assert.Equal(t, [2]int{10419, 10419}, [2]int{r.Stats.TilesX, r.Stats.TilesY})
	assert.Less(t, r.Stats.TilesBaked, 60)
	var want, got [][2]int
	for _, tile := range r.Tiles {
		got = append(got, [2]int{tile.X, tile.Y})
	}
	for _, first := range []int{0, 10413} {
		for y := first; y < first+6; y++ {
			for x := first; x < first+6; x++ {
				tile, err := r.Baker.BuildTile(context.Background(), x, y)
				require.NoError(t, err)
				if tile.Data != nil {
					want = append(want, [2]int{x, y})
				}
			}
		}
	}
	assert.ElementsMatch(t, want, got)

	mesh, err := r.NavMesh()
	require.NoError(t, err)
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	for _, centre := range []mgl32.Vec3{{10, 0, 10}, {100010, 0, 100010}} {
		nearest, err := q.FindNearestPoly(centre, mgl32.Vec3{1, 1, 1}, query.NewFilter())
		require.NoError(t, err)
		assert.NotZero(t, nearest.Ref, "a polygon under %v", centre)
	}
}
