package bake

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spanSpec is a span as tests describe it: bottom, top, area.
type spanSpec struct {
	Min, Max uint16
	Area     uint8
}

// columnSpans returns the spans of column (x, z) bottom to top.
func columnSpans(hf *Heightfield, x, z int) []spanSpec {
	var spans []spanSpec
	for s := hf.Columns[x+z*hf.Width]; s != noSpan; s = hf.Pool[s].Next {
		spans = append(spans, spanSpec{hf.Pool[s].Min, hf.Pool[s].Max, hf.Pool[s].Area})
	}
	return spans
}

// setColumn replaces the spans of column (x, z), chaining new pool entries
// directly as the C++ filter tests do.
func setColumn(hf *Heightfield, x, z int, spans ...spanSpec) {
	next := int32(noSpan)
	for i := len(spans) - 1; i >= 0; i-- {
		index := hf.allocSpan()
		hf.Pool[index] = Span{Min: spans[i].Min, Max: spans[i].Max, Area: spans[i].Area, Next: next}
		next = index
	}
	hf.Columns[x+z*hf.Width] = next
}

func newTestHeightfield(t testing.TB, width, height int, cellSize, cellHeight float32, ySize int) *Heightfield {
	t.Helper()
	bmax := mgl32.Vec3{cellSize * float32(width), cellHeight * float32(ySize), cellSize * float32(height)}
	hf, err := NewHeightfield(width, height, mgl32.Vec3{}, bmax, cellSize, cellHeight)
	require.NoError(t, err)
	return hf
}

// TestNewHeightfieldFromRecastTests ports rcCreateHeightfield's test.
func TestNewHeightfieldFromRecastTests(t *testing.T) {
	g := Geometry{Vertices: []mgl32.Vec3{{1, 2, 3}, {0, 2, 6}}}
	bmin, bmax := g.Bounds()
	assert.Equal(t, mgl32.Vec3{0, 2, 3}, bmin)
	assert.Equal(t, mgl32.Vec3{1, 2, 6}, bmax)
	width, height := CalcGridSize(bmin, bmax, 1.5)
	hf, err := NewHeightfield(width, height, bmin, bmax, 1.5, 2)
	require.NoError(t, err)
	assert.Equal(t, width, hf.Width)
	assert.Equal(t, height, hf.Height)
	assert.Equal(t, bmin, hf.BMin)
	assert.Equal(t, bmax, hf.BMax)
	assert.Equal(t, float32(1.5), hf.CellSize)
	assert.Equal(t, float32(2), hf.CellHeight)
	assert.Len(t, hf.Columns, width*height)
	for _, c := range hf.Columns {
		assert.Equal(t, int32(noSpan), c)
	}
	assert.Empty(t, hf.Pool)
	assert.Equal(t, int32(noSpan), hf.FreeList)
	assert.Equal(t, 0, hf.SpanCount())
}

func TestNewHeightfieldRejectsBadInput(t *testing.T) {
	tests := []struct {
		name          string
		width, height int
		bmin, bmax    mgl32.Vec3
		cs, ch        float32
	}{
		{"zero width", 0, 4, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 1, 1},
		{"negative height", 4, -1, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 1, 1},
		{"inverted bounds", 4, 4, mgl32.Vec3{2, 0, 0}, mgl32.Vec3{1, 1, 1}, 1, 1},
		{"zero cell size", 4, 4, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 0, 1},
		{"NaN cell height", 4, 4, mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 1, float32(math.NaN())},
	}
	for _, tt := range tests {
		_, err := NewHeightfield(tt.width, tt.height, tt.bmin, tt.bmax, tt.cs, tt.ch)
		assert.Error(t, err, tt.name)

		// Reset rejects the same input and leaves the field alone.
		hf, err := NewHeightfield(3, 2, mgl32.Vec3{}, mgl32.Vec3{3, 1, 2}, 1, 0.5)
		require.NoError(t, err)
		require.NoError(t, hf.AddSpan(1, 1, 0, 4, WalkableArea, 1))
		err = hf.Reset(tt.width, tt.height, tt.bmin, tt.bmax, tt.cs, tt.ch)
		assert.ErrorContains(t, err, "bake: reset heightfield", tt.name)
		assert.Equal(t, 3, hf.Width, tt.name)
		assert.Equal(t, []spanSpec{{0, 4, WalkableArea}}, columnSpans(hf, 1, 1), tt.name)
	}
}

func TestHeightfieldReset(t *testing.T) {
	hf, err := NewHeightfield(4, 4, mgl32.Vec3{}, mgl32.Vec3{4, 2, 4}, 1, 0.5)
	require.NoError(t, err)
	for x := range 4 {
		require.NoError(t, hf.AddSpan(x, x, 0, 3, WalkableArea, 1))
		require.NoError(t, hf.AddSpan(x, x, 5, 8, 7, 1))
	}
	require.Equal(t, 8, hf.SpanCount())
	pool := &hf.Pool[:1][0]

	require.NoError(t, hf.Reset(2, 3, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{3, 2, 4}, 1, 0.25))
	fresh, err := NewHeightfield(2, 3, mgl32.Vec3{1, 1, 1}, mgl32.Vec3{3, 2, 4}, 1, 0.25)
	require.NoError(t, err)
	assert.Equal(t, fresh.Width, hf.Width)
	assert.Equal(t, fresh.Height, hf.Height)
	assert.Equal(t, fresh.BMin, hf.BMin)
	assert.Equal(t, fresh.BMax, hf.BMax)
	assert.Equal(t, fresh.CellHeight, hf.CellHeight)
	assert.Equal(t, fresh.Columns, hf.Columns)
	assert.Zero(t, hf.SpanCount())
	assert.Empty(t, hf.Pool)
	assert.Equal(t, int32(noSpan), hf.FreeList)

	require.NoError(t, hf.AddSpan(1, 2, 2, 6, 9, 1))
	assert.Same(t, pool, &hf.Pool[0], "the span pool's memory is reused")
	assert.Equal(t, []spanSpec{{2, 6, 9}}, columnSpans(hf, 1, 2))
}

// TestAddSpanFromRecastTests ports the rcAddSpan cases of
// Tests_RecastRasterization.cpp.
func TestAddSpanFromRecastTests(t *testing.T) {
	const area, threshold = 42, 1
	type add struct {
		min, max uint16
		area     uint8
	}
	tests := []struct {
		name string
		adds []add
		want []spanSpec
	}{
		{"a span in an empty column", []add{{0, 1, area}}, []spanSpec{{0, 1, area}}},
		{"zero size is ignored", []add{{0, 0, area}}, nil},
		{"inverted is ignored", []add{{1, 0, area}}, nil},
		{"separate spans stay apart", []add{{0, 1, area}, {2, 3, area}}, []spanSpec{{0, 1, area}, {2, 3, area}}},
		{"within the merge threshold the higher area wins", []add{{0, 1, 42}, {1, 2, 24}}, []spanSpec{{0, 2, 42}}},
		{"beyond the merge threshold the new area wins", []add{{0, 1, 42}, {1, 8, 24}}, []spanSpec{{0, 8, 24}}},
		{"touching spans merge", []add{{0, 1, area}, {1, 2, area}}, []spanSpec{{0, 2, area}}},
		{"a span bridging two merges all three", []add{{0, 1, area}, {2, 3, area}, {1, 2, area}}, []spanSpec{{0, 3, area}}},
		{"spans are sorted bottom to top", []add{{2, 3, area}, {0, 1, area}, {6, 7, area}}, []spanSpec{{0, 1, area}, {2, 3, area}, {6, 7, area}}},
		{"a span inside another merges", []add{{0, 8, area}, {2, 3, area}}, []spanSpec{{0, 8, area}}},
		{"overlapping spans merge", []add{{0, 4, area}, {2, 6, area}}, []spanSpec{{0, 6, area}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 4, 4, 1, 2, 10)
			for _, a := range tt.adds {
				require.NoError(t, hf.AddSpan(0, 0, a.min, a.max, a.area, threshold))
			}
			assert.Equal(t, tt.want, columnSpans(hf, 0, 0))
			assert.Equal(t, len(tt.want), hf.SpanCount())
		})
	}
}

func TestAddSpanRejectsBadInput(t *testing.T) {
	hf := newTestHeightfield(t, 4, 4, 1, 2, 10)
	assert.ErrorContains(t, hf.AddSpan(4, 0, 0, 1, 1, 1), "outside")
	assert.ErrorContains(t, hf.AddSpan(0, -1, 0, 1, 1, 1), "outside")
	assert.ErrorContains(t, hf.AddSpan(0, 0, 0, MaxSpanHeight+1, 1, 1), "top")
	assert.ErrorContains(t, hf.AddSpan(0, 0, 0, 1, 64, 1), "area")
	assert.Equal(t, 0, hf.SpanCount())
	assert.NoError(t, hf.AddSpan(3, 3, MaxSpanHeight-1, MaxSpanHeight, WalkableArea, 1))
}

// TestSpanPool covers what Tests_Alloc.cpp and the allocSpan test check for
// the C++ span pools: growing past the C++ page size of 2048 spans, and
// merged spans going back to the free list to be reused.
func TestSpanPool(t *testing.T) {
	t.Run("more spans than one C++ pool page", func(t *testing.T) {
		hf := newTestHeightfield(t, 50, 50, 1, 2, 10)
		for x := range 50 {
			for z := range 50 {
				require.NoError(t, hf.AddSpan(x, z, 0, 1, 42, 1))
			}
		}
		assert.Equal(t, 2500, hf.SpanCount())
		assert.Len(t, hf.Pool, 2500)
		assert.Equal(t, int32(noSpan), hf.FreeList)
	})
	t.Run("merged spans are reused", func(t *testing.T) {
		hf := newTestHeightfield(t, 4, 4, 1, 2, 10)
		require.NoError(t, hf.AddSpan(0, 0, 0, 1, 1, 1))
		require.NoError(t, hf.AddSpan(0, 0, 2, 3, 1, 1))
		require.NoError(t, hf.AddSpan(0, 0, 4, 5, 1, 1))
		require.Len(t, hf.Pool, 3)
		// Bridging all three frees them; the merged span takes one back.
		require.NoError(t, hf.AddSpan(0, 0, 1, 4, 1, 1))
		assert.Equal(t, []spanSpec{{0, 5, 1}}, columnSpans(hf, 0, 0))
		assert.Len(t, hf.Pool, 3, "no new pool entries")
		free := 0
		for s := hf.FreeList; s != noSpan; s = hf.Pool[s].Next {
			free++
		}
		assert.Equal(t, 2, free)
		// The next two spans come from the free list, the third grows the pool.
		require.NoError(t, hf.AddSpan(1, 0, 0, 1, 1, 1))
		require.NoError(t, hf.AddSpan(2, 0, 0, 1, 1, 1))
		assert.Len(t, hf.Pool, 3)
		assert.Equal(t, int32(noSpan), hf.FreeList)
		require.NoError(t, hf.AddSpan(3, 0, 0, 1, 1, 1))
		assert.Len(t, hf.Pool, 4)
		assert.Equal(t, 4, hf.SpanCount())
	})
}

func TestSpanCounts(t *testing.T) {
	hf := newTestHeightfield(t, 2, 2, 1, 1, 20)
	setColumn(hf, 0, 0, spanSpec{0, 1, WalkableArea}, spanSpec{5, 6, NullArea}, spanSpec{9, 10, 7})
	setColumn(hf, 1, 1, spanSpec{2, 3, NullArea})
	assert.Equal(t, 4, hf.SpanCount())
	assert.Equal(t, 2, hf.WalkableSpanCount())
}
