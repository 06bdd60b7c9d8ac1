package bake

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cellKey names a column in expectations.
type cellKey struct{ x, z int }

// assertOnlyColumns checks that exactly the listed columns hold spans, each a
// single span as given.
func assertOnlyColumns(t *testing.T, hf *Heightfield, want map[cellKey]spanSpec) {
	t.Helper()
	for z := range hf.Height {
		for x := range hf.Width {
			got := columnSpans(hf, x, z)
			if span, ok := want[cellKey{x, z}]; ok {
				assert.Equal(t, []spanSpec{span}, got, "column (%d, %d)", x, z)
			} else {
				assert.Empty(t, got, "column (%d, %d)", x, z)
			}
		}
	}
}

// TestRasterizeTriangleFromRecastTests ports the rcRasterizeTriangle cases of
// Tests_RecastRasterization.cpp on a 10×10×10 field of unit cells.
func TestRasterizeTriangleFromRecastTests(t *testing.T) {
	walkable := func(min, max uint16) spanSpec { return spanSpec{min, max, WalkableArea} }
	tests := []struct {
		name       string
		v0, v1, v2 mgl32.Vec3
		want       map[cellKey]spanSpec
	}{
		{
			"simple triangle in the xz-plane",
			mgl32.Vec3{0, 0, 0}, mgl32.Vec3{2, 0, 0}, mgl32.Vec3{0, 0, 2},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 1), {0, 1}: walkable(0, 1), {1, 0}: walkable(0, 1)},
		},
		{
			"triangle inside a single voxel",
			mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 1)},
		},
		{
			"triangle clipped by the field bounds",
			mgl32.Vec3{-2, 0, -2}, mgl32.Vec3{4, 0, -2}, mgl32.Vec3{-2, 0, 4},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 1), {0, 1}: walkable(0, 1), {1, 0}: walkable(0, 1)},
		},
		{
			"outside the xz bounds",
			mgl32.Vec3{-5, 0, -5}, mgl32.Vec3{-5, 0, 5}, mgl32.Vec3{5, 0, -5},
			nil,
		},
		{
			"below the y bounds",
			mgl32.Vec3{0, -1, 0}, mgl32.Vec3{5, -1, 5}, mgl32.Vec3{5, -1, 0},
			nil,
		},
		{
			"above the y bounds",
			mgl32.Vec3{0, 40, 0}, mgl32.Vec3{5, 40, 5}, mgl32.Vec3{5, 40, 0},
			nil,
		},
		{
			"a cell is filled when the triangle barely overlaps it",
			mgl32.Vec3{-1, 0, -1}, mgl32.Vec3{1.01, 0, -1}, mgl32.Vec3{-1, 0, 1.01},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 1)},
		},
		{
			"the span covers every voxel the triangle touches vertically",
			mgl32.Vec3{0, 0, 0}, mgl32.Vec3{0.5, 0, 0.5}, mgl32.Vec3{0.5, 2.01, 0.5},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 3)},
		},
		{
			"a sloped triangle gives varying heights",
			mgl32.Vec3{0, 0, 0.5}, mgl32.Vec3{4, 0, 0.5}, mgl32.Vec3{2, 2, 0.5},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 1), {1, 0}: walkable(0, 2), {2, 0}: walkable(0, 2), {3, 0}: walkable(0, 1)},
		},
		{
			"a triangle crossing the y bounds is clamped",
			mgl32.Vec3{0, -5, 0}, mgl32.Vec3{1, -5, 1}, mgl32.Vec3{0.5, 15, 0.5},
			map[cellKey]spanSpec{{0, 0}: walkable(0, 10)},
		},
		{
			// The regression case of recastnavigation PR #476.
			"outside the field with a bounding box overlapping it",
			mgl32.Vec3{-10, 5.5, -10}, mgl32.Vec3{-10, 5.5, 3}, mgl32.Vec3{3, 5.5, -10},
			nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 10, 10, 1, 1, 10)
			require.NoError(t, hf.RasterizeTriangle(tt.v0, tt.v1, tt.v2, WalkableArea, 1))
			assertOnlyColumns(t, hf, tt.want)
		})
	}
}

// TestRasterizeDegenerateTriangles records what the reference does with
// degenerate triangles (its own test expecting nothing is skipped): they
// rasterize as a point or line of non-zero volume. The expectations were
// printed by the C++ build.
func TestRasterizeDegenerateTriangles(t *testing.T) {
	walkable := spanSpec{0, 1, WalkableArea}
	hf := newTestHeightfield(t, 10, 10, 1, 1, 10)
	point := mgl32.Vec3{0.5, 0, 0.5}
	require.NoError(t, hf.RasterizeTriangle(point, point, point, WalkableArea, 1))
	assertOnlyColumns(t, hf, map[cellKey]spanSpec{{0, 0}: walkable})

	hf = newTestHeightfield(t, 10, 10, 1, 1, 10)
	require.NoError(t, hf.RasterizeTriangle(mgl32.Vec3{1, 0, 0.5}, mgl32.Vec3{2, 0, 0.5}, mgl32.Vec3{4, 0, 0.5}, WalkableArea, 1))
	assertOnlyColumns(t, hf, map[cellKey]spanSpec{{1, 0}: walkable, {2, 0}: walkable, {3, 0}: walkable})
}

// TestRasterizeTrianglesFromRecastTests ports rcRasterizeTriangles' test: two
// triangles with different areas on a 0.5 grid. The C++ overloads for short
// indices and for a flat triangle list are one function here.
func TestRasterizeTrianglesFromRecastTests(t *testing.T) {
	vertices := []mgl32.Vec3{{0, 0, 0}, {1, 0, 0}, {0, 0, -1}, {0, 0, 1}}
	triangles := [][3]int32{{0, 1, 2}, {0, 3, 1}}
	areas := []uint8{1, 2}
	g := Geometry{Vertices: vertices}
	bmin, bmax := g.Bounds()
	width, height := CalcGridSize(bmin, bmax, 0.5)
	hf, err := NewHeightfield(width, height, bmin, bmax, 0.5, 0.5)
	require.NoError(t, err)
	require.NoError(t, hf.RasterizeTriangles(vertices, triangles, areas, 1))

	want := map[cellKey]spanSpec{
		{0, 0}: {0, 1, 1},
		{0, 1}: {0, 1, 1},
		{0, 2}: {0, 1, 2},
		{0, 3}: {0, 1, 2},
		{1, 1}: {0, 1, 1},
		{1, 2}: {0, 1, 2},
	}
	assertOnlyColumns(t, hf, want)
}

func TestRasterizeTrianglesChecksBeforeChanging(t *testing.T) {
	vertices := []mgl32.Vec3{{0, 0, 0}, {2, 0, 0}, {0, 0, 2}, {float32(math.NaN()), 0, 0}}
	tests := []struct {
		name      string
		triangles [][3]int32
		areas     []uint8
		want      string
	}{
		{"index out of range", [][3]int32{{0, 1, 2}, {0, 1, 4}}, []uint8{63, 63}, "vertex index 4"},
		{"negative index", [][3]int32{{0, 1, 2}, {-1, 1, 2}}, []uint8{63, 63}, "vertex index -1"},
		{"NaN vertex", [][3]int32{{0, 1, 2}, {0, 1, 3}}, []uint8{63, 63}, "not finite"},
		{"area too large", [][3]int32{{0, 1, 2}, {0, 2, 1}}, []uint8{63, 64}, "area 64"},
		{"areas missing", [][3]int32{{0, 1, 2}}, nil, "0 areas for 1 triangles"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 10, 10, 1, 1, 10)
			err := hf.RasterizeTriangles(vertices, tt.triangles, tt.areas, 1)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Equal(t, 0, hf.SpanCount(), "nothing rasterized")
		})
	}
	hf := newTestHeightfield(t, 10, 10, 1, 1, 10)
	assert.ErrorContains(t, hf.RasterizeTriangle(vertices[0], vertices[1], vertices[3], 1, 1), "not finite")
	assert.ErrorContains(t, hf.RasterizeTriangle(vertices[0], vertices[1], vertices[2], 64, 1), "area")
	assert.Equal(t, 0, hf.SpanCount())
}

func TestDividePoly(t *testing.T) {
	square := []mgl32.Vec3{{0, 0, 0}, {2, 1, 0}, {2, 1, 2}, {0, 0, 2}}
	var below, above clipPolygon

	t.Run("cut through the middle", func(t *testing.T) {
		nb, na := dividePoly(square, &below, &above, 1, 0)
		require.Equal(t, 4, nb)
		require.Equal(t, 4, na)
		assert.ElementsMatch(t, []mgl32.Vec3{{0, 0, 0}, {1, 0.5, 0}, {1, 0.5, 2}, {0, 0, 2}}, below[:nb])
		assert.ElementsMatch(t, []mgl32.Vec3{{1, 0.5, 0}, {2, 1, 0}, {2, 1, 2}, {1, 0.5, 2}}, above[:na])
	})
	t.Run("corners on the plane go to both sides", func(t *testing.T) {
		nb, na := dividePoly(square, &below, &above, 2, 0)
		assert.Equal(t, 4, nb)
		assert.Equal(t, 2, na)
		assert.ElementsMatch(t, []mgl32.Vec3{{2, 1, 0}, {2, 1, 2}}, above[:na])
	})
	t.Run("all on one side", func(t *testing.T) {
		nb, na := dividePoly(square, &below, &above, 5, 2)
		assert.Equal(t, 4, nb)
		assert.Equal(t, 0, na)
		nb, na = dividePoly(square, &below, &above, -1, 2)
		assert.Equal(t, 0, nb)
		assert.Equal(t, 4, na)
	})
	t.Run("output is bounded", func(t *testing.T) {
		// A polygon zigzagging across the plane (not convex) would need more
		// corners than the buffers hold; the extra ones are dropped.
		var zigzag []mgl32.Vec3
		for i := range maxClipVertices {
			x := float32(-1)
			if i%2 == 1 {
				x = 1
			}
			zigzag = append(zigzag, mgl32.Vec3{x, 0, float32(i)})
		}
		nb, na := dividePoly(zigzag, &below, &above, 0, 0)
		assert.Equal(t, maxClipVertices, nb)
		assert.Equal(t, maxClipVertices, na)
	})
}

// BenchmarkRasterize times a new heightfield, walkable-triangle marking and
// rasterization of every triangle (the C++ rasterize timer covers the last).
func BenchmarkRasterize(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			s := prepareStages(b, mesh)
			g, cfg := s.geometry, s.config
			areas := make([]uint8, len(g.Triangles))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				hf, err := NewHeightfield(cfg.Width, cfg.Height, cfg.BMin, cfg.BMax, cfg.CellSize, cfg.CellHeight)
				if err != nil {
					b.Fatal(err)
				}
				clear(areas)
				if err := MarkWalkableTriangles(cfg.WalkableSlopeAngle, g.Vertices, g.Triangles, areas); err != nil {
					b.Fatal(err)
				}
				if err := hf.RasterizeTriangles(g.Vertices, g.Triangles, areas, cfg.WalkableClimb); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// checkColumns asserts the heightfield invariants: in every column spans are
// non-empty, within the height range, sorted bottom to top and separated by
// at least one cell.
func checkColumns(t *testing.T, hf *Heightfield) {
	t.Helper()
	for column, first := range hf.Columns {
		previousTop := -1
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			span := hf.Pool[s]
			require.Less(t, span.Min, span.Max, "column %d", column)
			require.LessOrEqual(t, int(span.Max), MaxSpanHeight, "column %d", column)
			require.Greater(t, int(span.Min), previousTop, "column %d", column)
			require.LessOrEqual(t, span.Area, uint8(MaxAreaID))
			previousTop = int(span.Max)
		}
	}
}

// TestRasterizeExtremeTriangles throws random triangles of every scale at a
// small field, far outside it, huge, tiny and tall ones included: nothing
// may panic and the column invariants must hold.
func TestRasterizeExtremeTriangles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	scales := []float32{1e-6, 0.01, 1, 30, 1e4, 1e9, 1e30}
	for _, cellHeight := range []float32{0.001, 0.2} {
		hf, err := NewHeightfield(20, 20, mgl32.Vec3{-3, -3, -3}, mgl32.Vec3{3, 3, 3}, 0.3, cellHeight)
		require.NoError(t, err)
		for range 5000 {
			scale := scales[rng.IntN(len(scales))]
			var v [3]mgl32.Vec3
			for i := range v {
				for c := range 3 {
					v[i][c] = float32((float32(float32(rng.Float32())*2) - 1) * scale)
				}
			}
			area := uint8(rng.IntN(MaxAreaID + 1))
			require.NoError(t, hf.RasterizeTriangle(v[0], v[1], v[2], area, rng.IntN(4)))
		}
		checkColumns(t, hf)
		assert.Positive(t, hf.SpanCount())
	}
}
