package bake

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLevelTooWide: a vertex at 1e30 stretches the level past MaxGridSide
// cells; solo, tiled and tile cache bakes refuse it with ErrLevelTooWide,
// naming the vertex and its OBJ line. A tiled bake made a grid of
// -2147483648 cells and baked part of the floor without a word, a solo
// bake blamed the level for being less than a cell across (issue 27).
func TestLevelTooWide(t *testing.T) {
	obj := "v 0 0 0\nv 0 0 10\nv 10 0 10\nv 10 0 0\n# far away\nv 1e30 0 0\nf 1 2 3\nf 1 3 4\n"
	g, err := ReadOBJ(strings.NewReader(obj))
	require.NoError(t, err)
	assert.Equal(t, []int32{1, 2, 3, 4, 6}, g.VertexLines)
	settings := DefaultSettings()
	check := func(what string, err error) {
		t.Helper()
		require.ErrorIs(t, err, ErrLevelTooWide, what)
		assert.Contains(t, err.Error(), "vertex 4 (obj line 6) at [1e+30 0 0]", what)
		assert.Contains(t, err.Error(), "3.33e+30 cells along x", what)
		assert.Contains(t, err.Error(), "16777216 cells (MaxGridSide)", what)
	}
	settings.TileSize = 0
	_, err = Solo(context.Background(), g, settings)
	check("solo", err)
	settings.TileSize = 32
	_, err = Tiled(context.Background(), g, settings, TiledOptions{})
	check("tiled", err)
	_, err = TileCache(context.Background(), g, settings, TileCacheOptions{})
	check("tile cache", err)
	_, err = EstimateWork(g, settings)
	check("estimate", err)

	// At the other end, without line numbers, the vertex index alone.
	g.Vertices[4] = mgl32.Vec3{0, 0, -3e7}
	g.VertexLines = nil
	_, err = Tiled(context.Background(), g, settings, TiledOptions{})
	require.ErrorIs(t, err, ErrLevelTooWide)
	assert.Contains(t, err.Error(), "vertex 4 at [0 0 -3e+07] stretches the level to 1e+08 cells along z")

	// Within the limit the bake goes on.
	g.Vertices[4] = mgl32.Vec3{0, 0, -1000}
	_, err = Tiled(context.Background(), g, settings, TiledOptions{})
	assert.NoError(t, err)
}

// TestRepeatedTrianglesLeftOut: a triangle repeated 100,000 times bakes
// exactly as the triangle alone, with a warning that counts the copies
// left out (it took minutes: every copy was rasterized again). Copies with
// another winding or area stay, degenerate triangles go.
func TestRepeatedTrianglesLeftOut(t *testing.T) {
	single := &Geometry{
		Vertices:  []mgl32.Vec3{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}, {0, 0, 0}},
		Triangles: [][3]int32{{0, 1, 2}},
	}
	repeated := &Geometry{Vertices: single.Vertices}
	for i := range 100_000 {
		t := [3]int32{0, 1, 2}
		if i%3 == 1 {
			t = [3]int32{1, 2, 3} // the same corners turned, vertex 3 at vertex 0's place
		}
		repeated.Triangles = append(repeated.Triangles, t)
	}
	settings := DefaultSettings()
	for _, tileSize := range []int{0, 32} {
		settings.TileSize = tileSize
		want, wantWarnings := bakeFingerprints(t, single, settings)
		got, warnings := bakeFingerprints(t, repeated, settings)
		assert.Equal(t, want, got, "tile size %d", tileSize)
		assert.Len(t, warnings, len(wantWarnings)+1)
		assert.Contains(t, warnings, "99999 triangles left out: they repeat an earlier triangle or have two corners at the same position")
	}

	for _, tc := range []struct {
		name      string
		triangles [][3]int32
		areas     []uint8
		kept      [][3]int32
	}{
		{"winding", [][3]int32{{0, 1, 2}, {0, 2, 1}, {2, 0, 1}}, nil, [][3]int32{{0, 1, 2}, {0, 2, 1}}},
		{"degenerate", [][3]int32{{0, 0, 1}, {0, 1, 3}, {1, 2, 0}}, nil, [][3]int32{{1, 2, 0}}},
		{"areas", [][3]int32{{0, 1, 2}, {0, 1, 2}, {1, 2, 0}}, []uint8{5, 7, 5}, [][3]int32{{0, 1, 2}, {0, 1, 2}}},
		{"first copy stays", [][3]int32{{1, 2, 0}, {0, 2, 1}, {0, 1, 2}}, nil, [][3]int32{{1, 2, 0}, {0, 2, 1}}},
	} {
		g := &Geometry{Vertices: single.Vertices, Triangles: tc.triangles, Areas: tc.areas}
		out, skipped := g.WithoutRepeatedTriangles()
		assert.Equal(t, tc.kept, out.Triangles, tc.name)
		assert.Equal(t, len(tc.triangles)-len(tc.kept), skipped, tc.name)
		if tc.areas != nil {
			assert.Len(t, out.Areas, len(tc.kept), tc.name)
		}
	}
	none, skipped := single.WithoutRepeatedTriangles()
	assert.Same(t, single, none)
	assert.Zero(t, skipped)
}

// bakeFingerprints bakes g solo or tiled and returns the fingerprints of
// its tiles and the warnings.
func bakeFingerprints(t *testing.T, g *Geometry, settings Settings) ([]Fingerprints, []string) {
	t.Helper()
	if settings.TileSize == 0 {
		result, err := Solo(context.Background(), g, settings)
		require.NoError(t, err)
		return []Fingerprints{result.Fingerprints}, result.Stats.Warnings
	}
	result, err := Tiled(context.Background(), g, settings, TiledOptions{})
	require.NoError(t, err)
	var prints []Fingerprints
	for _, tile := range result.Tiles {
		prints = append(prints, tile.Fingerprints)
	}
	return prints, result.Stats.Warnings
}

// TestWorkLimit: a settings file of 37 bytes, a cell size of 0.001 or
// 0.01 with 64-cell tiles, made a tiled bake of the dungeon run for hours
// or a minute; the estimate refuses both at once with ErrWorkLimit, and
// MaxWork moves the limit. RecastDemo's levels need a thousandth of the
// default limit.
func TestWorkLimit(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	for _, tc := range []struct {
		cellSize float32
		estimate string
	}{
		{0.001, "at least "},
		{0.01, "at least 1.08 billion work units"},
	} {
		settings := DefaultSettings()
		settings.CellSize, settings.TileSize = tc.cellSize, 64
		var err error
		allocated := allocatedBy(func() { _, err = Tiled(context.Background(), g, settings, TiledOptions{}) })
		require.ErrorIs(t, err, ErrWorkLimit, "cell size %v", tc.cellSize)
		assert.Contains(t, err.Error(), tc.estimate)
		assert.Contains(t, err.Error(), "over the limit of 1.07 billion (Settings.MaxWork")
		assert.Less(t, allocated, uint64(256<<20), "refused before baking")
		_, err = TileCache(context.Background(), g, settings, TileCacheOptions{})
		assert.ErrorIs(t, err, ErrWorkLimit)
	}

	settings := DefaultSettings()
	settings.CellSize, settings.TileSize = 0.01, 64
	estimate, err := EstimateWork(g, settings)
	require.NoError(t, err)
	assert.Equal(t, "about 3.52 billion work units (7304 grids of 269254656 cells, 807763968 watershed, 2447912910 covered by triangles, 10133 triangles)", estimate.String())
	settings.MaxWork = estimate.Total()
	assert.NoError(t, settings.checkWork("tiled build", estimate))
	settings.MaxWork = estimate.Total() - 1
	assert.ErrorIs(t, settings.checkWork("tiled build", estimate), ErrWorkLimit)
	settings.MaxWork = -1
	assert.Error(t, settings.Validate())

	for _, name := range []string{"dungeon", "nav_test", "undulating"} {
		g := loadTestMesh(t, name)
		for _, tileSize := range []int{0, 32} {
			settings := DefaultSettings()
			settings.TileSize = tileSize
			estimate, err := EstimateWork(g, settings)
			require.NoError(t, err)
			assert.Less(t, estimate.Total(), int64(DefaultMaxWork/1000), "%s, tile size %d", name, tileSize)
			assert.Greater(t, estimate.Total(), int64(100_000), "%s, tile size %d", name, tileSize)
		}
	}
	// A solo bake refuses too, with the solo estimate.
	settings = DefaultSettings()
	settings.TileSize, settings.MaxWork = 0, 1000
	_, err = Solo(context.Background(), g, settings)
	require.ErrorIs(t, err, ErrWorkLimit)
	assert.Contains(t, err.Error(), "solo needs about 832 thousand work units")
}

// TestEstimatedWorkMatchesABruteCount checks Config.EstimatedWork and the
// tiled estimate against a count of every triangle's box cells in every
// grid.
func TestEstimatedWorkMatchesABruteCount(t *testing.T) {
	g := loadTestMesh(t, "nav_test")
	settings := DefaultSettings()
	settings.TileSize = 32
	b, err := NewTileBaker(g, settings, TiledOptions{})
	require.NoError(t, err)
	tiles, err := b.tilesWithGeometry(b.GridRange(), DefaultMaxTiles)
	require.NoError(t, err)
	var want int64
	for _, index := range tiles {
		tileMin, tileMax := b.TileBounds(int(index)%b.tilesX, int(index)/b.tilesX)
		cfg, err := b.settings.TileConfig(tileMin, tileMax)
		require.NoError(t, err)
		tile := cfg.EstimatedWork(g)
		assert.Equal(t, int64(cfg.Width*cfg.Height), tile.Cells)
		assert.Equal(t, int64(cfg.Width*cfg.Height*min(cfg.Width, cfg.Height)/64), tile.Regions)
		for _, tri := range g.Triangles {
			var lo, hi [2]int
			for axis, a := range [2]int{0, 2} {
				vmin := min(g.Vertices[tri[0]][a], g.Vertices[tri[1]][a], g.Vertices[tri[2]][a])
				vmax := max(g.Vertices[tri[0]][a], g.Vertices[tri[1]][a], g.Vertices[tri[2]][a])
				size := []int{cfg.Width, cfg.Height}[axis]
				lo[axis] = max(int(math.Floor((float64(vmin)-float64(cfg.BMin[a]))/float64(cfg.CellSize))), 0)
				hi[axis] = min(int(math.Floor((float64(vmax)-float64(cfg.BMin[a]))/float64(cfg.CellSize))), size-1)
			}
			if hi[0] >= lo[0] && hi[1] >= lo[1] {
				want += int64((hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1))
			}
		}
	}
	got := b.tilesWork(tiles, 1<<62)
	assert.Equal(t, int64(len(tiles)), got.Grids)
	assert.Equal(t, want, got.Footprint)
}

// TestRasterizeStackedFloorsWalksLinearly: floors stacked in height order,
// from the top down, or clamped onto the span height limit make each span
// insertion walk a span or two, not the column (2000 floors took minutes:
// each insertion walked up from the bottom);
// the same floors in random order walk their columns, and a bake's
// MaxWork stops that with ErrWorkLimit.
func TestRasterizeStackedFloorsWalksLinearly(t *testing.T) {
	const floors = 1000
	g := stackedFloors(3, 3, floors)
	reversed := &Geometry{Vertices: g.Vertices}
	for i := len(g.Triangles) - 2; i >= 0; i -= 2 {
		reversed.Triangles = append(reversed.Triangles, g.Triangles[i], g.Triangles[i+1])
	}
	shuffled := &Geometry{Vertices: g.Vertices, Triangles: append([][3]int32(nil), g.Triangles...)}
	rng := rand.New(rand.NewPCG(1, 2))
	rng.Shuffle(len(shuffled.Triangles)/2, func(i, j int) {
		s := shuffled.Triangles
		s[2*i], s[2*j], s[2*i+1], s[2*j+1] = s[2*j], s[2*i], s[2*j+1], s[2*i+1]
	})
	settings := DefaultSettings()
	settings.CellHeight = 0.3 // 3000 m of floors: clamped above 2457 m
	field := func(g *Geometry) (*Heightfield, *Config, []uint8) {
		bmin, bmax := g.Bounds()
		cfg, err := settings.Config(bmin, bmax)
		require.NoError(t, err)
		hf := &Heightfield{}
		require.NoError(t, hf.Reset(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight))
		areas := make([]uint8, len(g.Triangles))
		require.NoError(t, MarkWalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas))
		return hf, cfg, areas
	}
	// walked rasterizes g as RasterizeTriangles does and counts the spans
	// the insertions walked past or merged.
	walked := func(g *Geometry) (int64, int) {
		hf, cfg, areas := field(g)
		r := newRasterizer(hf, cfg.WalkableClimb)
		hf.hints = resize(hf.hints, len(hf.Columns))
		for i := range hf.hints {
			hf.hints[i] = noSpan
		}
		r.hints = hf.hints
		for i, tri := range g.Triangles {
			r.triangle(g.Vertices[tri[0]], g.Vertices[tri[1]], g.Vertices[tri[2]], areas[i])
		}
		return r.walked, hf.SpanCount()
	}
	var inOrder int64
	for name, level := range map[string]*Geometry{"bottom up": g, "top down": reversed} {
		n, spans := walked(level)
		// 2457 m of 3 m floors stay apart, the rest is clamped onto one.
		assert.Greater(t, spans, 819*100, name)
		// Each of a floor's two triangles covers at most 11 × 11 cells;
		// each insertion walks past one span or merges one.
		assert.LessOrEqual(t, n, int64(2*floors*2*11*11), "%s: %d spans", name, spans)
		inOrder = max(inOrder, n)
	}
	n, _ := walked(shuffled)
	assert.Greater(t, n, 20*inOrder, "out of order, an insertion walks up its column")
	hf, cfg, areas := field(shuffled)
	hf.maxWalk = n / 2
	err := hf.RasterizeTriangles(shuffled.Vertices, shuffled.Triangles, areas, cfg.WalkableClimb)
	require.ErrorIs(t, err, ErrWorkLimit)
	assert.Contains(t, err.Error(), "stacks many floors over the same cells, out of height order")
}

// TestStackedFloorsBakeEveryFloor: 125 floors 3 m apart baked to the
// polygons of 63 (Recast's links name 62 spans up a column), without a
// word; with 12-bit links every floor gets its polygon, solo and tiled,
// and 2000 floors bake the 546 that fit under the span height limit and
// the clamped top, with the clamp warning. (Partitioning 500 floors took
// minutes before the region merge kept its floors in a set.)
func TestStackedFloorsBakeEveryFloor(t *testing.T) {
	for _, tc := range []struct {
		floors, tileSize, want int
		warning                string
	}{
		{125, 0, 125, ""},
		{130, 8, 130, ""},
		{2000, 0, 547, "were clamped to it"},
	} {
		g := stackedFloors(5, 3, tc.floors)
		settings := DefaultSettings()
		settings.TileSize = tc.tileSize
		heights := map[float32]bool{}
		var warnings []string
		if tc.tileSize == 0 {
			result, err := Solo(context.Background(), g, settings)
			require.NoError(t, err)
			for _, v := range result.TileData.Verts {
				heights[v[1]] = true
			}
			warnings = result.Stats.Warnings
		} else {
			result, err := Tiled(context.Background(), g, settings, TiledOptions{})
			require.NoError(t, err)
			for _, tile := range result.Tiles {
				for _, v := range tile.Data.Verts {
					heights[v[1]] = true
				}
			}
			warnings = result.Stats.Warnings
		}
		assert.Len(t, heights, tc.want, "%d floors, tile size %d", tc.floors, tc.tileSize)
		if tc.warning == "" {
			assert.Empty(t, warnings)
		} else {
			require.NotEmpty(t, warnings)
			assert.Contains(t, warnings[0], tc.warning)
		}
	}
}

// TestUnlinkedSpansWarn: a bake whose columns stack more spans than a link
// reaches says so, with the settings that stack fewer.
func TestUnlinkedSpansWarn(t *testing.T) {
	assert.Empty(t, unlinkedWarning(0))
	assert.Equal(t, "spans up to 4095 spans up their column could not be linked to their neighbours (links reach 4094 spans up): "+
		"the surface above is cut off; raise CellHeight, or turn on Filters.WalkableLowHeightSpans, to stack fewer spans", unlinkedWarning(4095))
}

// TestLayerRegionOverflowNamesTheCause: a tile cache tile with more than
// 255 monotone regions fails with ErrLayerRegionOverflow and says why and
// what helps. Stacked floors (300 over one cell) need a navmesh bake;
// 256 platforms side by side bake in smaller tiles. (Before, both said
// only "region id overflow: more than 255 monotone regions".)
func TestLayerRegionOverflowNamesTheCause(t *testing.T) {
	platforms := &Geometry{}
	quad := func(x0, z0, x1, z1, y float32) {
		base := int32(len(platforms.Vertices))
		platforms.Vertices = append(platforms.Vertices, [3]float32{x0, y, z0}, [3]float32{x0, y, z1}, [3]float32{x1, y, z1}, [3]float32{x1, y, z0})
		platforms.Triangles = append(platforms.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	// A checkerboard of 24 × 24 squares of 2 × 2 cells, 2 m steps apart:
	// 576 regions in a tile of 48 cells.
	for i := range 576 {
		x, z := float32(float32(i%24)*0.6), float32(float32(i/24)*0.6)
		quad(x+0.01, z+0.01, x+0.59, z+0.59, float32(2*((i%24+i/24)%2)))
	}
	flat := tileCacheSettings()
	flat.AgentRadius = 0
	flat.Filters.LedgeSpans = false // the platforms are all ledge
	for _, tc := range []struct {
		name     string
		g        *Geometry
		settings Settings
		want     []string
	}{
		{"stacked", stackedFloors(5, 3, 300), tileCacheSettings(), []string{
			"region id overflow: more than 255 monotone regions",
			"stacks up to 300 walkable floors over one cell",
			"cannot hold so many stacked floors at any tile size: bake a navmesh instead (solo or tiled: navtool bake without -tilecache)",
		}},
		{"side by side", platforms, flat, []string{
			"region id overflow: more than 255 monotone regions",
			"this tile of 48×48 cells stacks up to 1 walkable floors",
			"smaller tiles (Settings.TileSize, navtool -tile-size) share the regions among more tiles",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := TileCache(context.Background(), tc.g, tc.settings, TileCacheOptions{})
			require.ErrorIs(t, err, ErrLayerRegionOverflow)
			for _, want := range tc.want {
				assert.Contains(t, err.Error(), want)
			}
		})
	}
	// The advice holds: the platforms bake in tiles of 24 cells, the
	// stacked floors as a navmesh.
	flat.TileSize = 24
	result, err := TileCache(context.Background(), platforms, flat, TileCacheOptions{})
	require.NoError(t, err)
	assert.Equal(t, 4, result.Stats.TilesWithLayers)
	_, err = Solo(context.Background(), stackedFloors(5, 3, 300), DefaultSettings())
	require.NoError(t, err)
}

// TestEstimateWorkLeavesOutRepeatedTriangles: EstimateWork counts what a
// bake rasterizes, so one triangle repeated 10,000 times covers the cells
// of the triangle once, solo and tiled; only the Triangles part, the
// triangles read to find the repeats, counts them all. (Before, the solo
// and tiled estimates rasterized every copy.)
func TestEstimateWorkLeavesOutRepeatedTriangles(t *testing.T) {
	once := &Geometry{Vertices: []mgl32.Vec3{{0, 0, 0}, {0, 0, 10}, {10, 0, 10}}, Triangles: [][3]int32{{0, 1, 2}}}
	repeated := &Geometry{Vertices: once.Vertices}
	for range 10_000 {
		repeated.Triangles = append(repeated.Triangles, once.Triangles[0])
	}
	for _, tileSize := range []int{0, 16} {
		settings := DefaultSettings()
		settings.TileSize = tileSize
		want, err := EstimateWork(once, settings)
		require.NoError(t, err)
		require.Positive(t, want.Footprint)
		got, err := EstimateWork(repeated, settings)
		require.NoError(t, err)
		assert.Equal(t, int64(1), want.Triangles)
		assert.Equal(t, int64(10_000), got.Triangles)
		want.Triangles = got.Triangles
		assert.Equal(t, want, got, "tile size %d", tileSize)
	}
}

// TestSoloTooManyVerticesSaysTile: a level whose solo bake needs more than
// 65535 vertices (the 1 km level of internal/bigworld needs 79493) fails
// with ErrTooManyVertices and says to bake it tiled, which bakes.
// (Before, it said only "too many vertices", after the whole bake.)
func TestSoloTooManyVerticesSaysTile(t *testing.T) {
	// 128 × 128 platforms of 9 × 9 cells a cell apart: 4 vertices each.
	g := &Geometry{}
	for i := range 128 * 128 {
		x, z := float32(float32(i%128)*3), float32(float32(i/128)*3)
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices, mgl32.Vec3{x, 0, z}, mgl32.Vec3{x, 0, z + 2.69}, mgl32.Vec3{x + 2.69, 0, z + 2.69}, mgl32.Vec3{x + 2.69, 0, z})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	settings := DefaultSettings()
	settings.AgentRadius = 0
	settings.Filters.LedgeSpans = false
	_, err := Solo(context.Background(), g, settings)
	require.ErrorIs(t, err, ErrTooManyVertices)
	assert.Contains(t, err.Error(), "a solo bake is one tile, with at most 65535 vertices and polygons; bake the level tiled (Settings.TileSize, navtool -tile-size)")
	settings.TileSize = 64
	result, err := Tiled(context.Background(), g, settings, TiledOptions{})
	require.NoError(t, err)
	assert.Positive(t, result.Stats.Counts.Polys)
}
