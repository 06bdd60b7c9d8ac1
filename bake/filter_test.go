package bake

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The tests below port Tests_RecastFilter.cpp.

func TestFilterLowHangingWalkableObstaclesFromRecastTests(t *testing.T) {
	const walkableClimb = 5 // the C++ test passes its walkableHeight of 5 as the climb
	tests := []struct {
		name  string
		spans []spanSpec
		want  []uint8
	}{
		{
			"a span with nothing above is unchanged",
			[]spanSpec{{0, 1, 1}},
			[]uint8{1},
		},
		{
			"an obstacle higher than the climb is unchanged",
			[]spanSpec{{0, 1, 1}, {1 + walkableClimb, 2 + walkableClimb, NullArea}},
			[]uint8{1, NullArea},
		},
		{
			"a much higher obstacle is unchanged",
			[]spanSpec{{0, 1, 1}, {11 + walkableClimb, 12 + walkableClimb, NullArea}},
			[]uint8{1, NullArea},
		},
		{
			"a low obstacle within the climb becomes walkable",
			[]spanSpec{{0, 1, 1}, {walkableClimb, walkableClimb + 1, NullArea}},
			[]uint8{1, 1},
		},
		{
			"an obstacle just beyond the climb is unchanged",
			[]spanSpec{{0, 1, 1}, {walkableClimb + 1, walkableClimb + 2, NullArea}},
			[]uint8{1, NullArea},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 1, 1, 1, 1, 1)
			setColumn(hf, 0, 0, tt.spans...)
			hf.FilterLowHangingWalkableObstacles(walkableClimb)
			assert.Equal(t, tt.want, columnAreas(hf, 0, 0))
		})
	}

	t.Run("only the first of stacked low obstacles becomes walkable", func(t *testing.T) {
		hf := newTestHeightfield(t, 1, 1, 1, 1, 1)
		spans := []spanSpec{{0, 1, 1}}
		for range 9 {
			bottom := spans[len(spans)-1].Max + walkableClimb - 1
			spans = append(spans, spanSpec{bottom, bottom + 1, NullArea})
		}
		setColumn(hf, 0, 0, spans...)
		hf.FilterLowHangingWalkableObstacles(walkableClimb)
		want := []uint8{1, 1, 0, 0, 0, 0, 0, 0, 0, 0}
		assert.Equal(t, want, columnAreas(hf, 0, 0))
	})
}

func TestFilterLedgeSpansFromRecastTests(t *testing.T) {
	const walkableClimb, walkableHeight = 5, 10
	hf := newTestHeightfield(t, 10, 10, 1, 1, 1)
	for z := range 10 {
		for x := range 10 {
			setColumn(hf, x, z, spanSpec{0, 1, 1})
		}
	}
	hf.FilterLedgeSpans(walkableHeight, walkableClimb)
	for z := range 10 {
		for x := range 10 {
			want := spanSpec{0, 1, 1}
			if x == 0 || z == 0 || x == 9 || z == 9 {
				want.Area = NullArea // the field's edge is a ledge
			}
			assert.Equal(t, []spanSpec{want}, columnSpans(hf, x, z), "column (%d, %d)", x, z)
		}
	}
}

func TestFilterLedgeSpansDropsAndSlopes(t *testing.T) {
	const walkableClimb, walkableHeight = 2, 4
	tests := []struct {
		name       string
		centre     []spanSpec
		neighbours [4][]spanSpec // -x, +z, +x, -z
		ledge      bool
	}{
		{
			"flat floor",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{{{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			false,
		},
		{
			"a step down within the climb",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{{{0, 3, 1}}, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			false,
		},
		{
			"a drop deeper than the climb",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{{{0, 2, 1}}, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			true,
		},
		{
			"an empty neighbour column is a drop",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{nil, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			true,
		},
		{
			"neighbour floors within climb of the span but not of each other",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{{{0, 3, 1}}, {{0, 7, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			true,
		},
		{
			"a wall is no drop",
			[]spanSpec{{0, 5, 1}},
			[4][]spanSpec{{{0, 20, 1}}, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			false,
		},
		{
			"a drop under a low ceiling is not passable",
			[]spanSpec{{0, 5, 1}, {8, 9, NullArea}},
			[4][]spanSpec{{{0, 1, 1}, {7, 9, NullArea}}, {{0, 5, 1}}, {{0, 5, 1}}, {{0, 5, 1}}},
			false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 3, 3, 1, 1, 30)
			for z := range 3 {
				for x := range 3 {
					setColumn(hf, x, z, spanSpec{0, 5, 1})
				}
			}
			setColumn(hf, 1, 1, tt.centre...)
			for dir, spans := range tt.neighbours {
				setColumn(hf, 1+DirOffsetX(dir), 1+DirOffsetZ(dir), spans...)
			}
			hf.FilterLedgeSpans(walkableHeight, walkableClimb)
			want := tt.centre[0].Area
			if tt.ledge {
				want = NullArea
			}
			assert.Equal(t, want, columnAreas(hf, 1, 1)[0])
		})
	}
}

func TestFilterWalkableLowHeightSpansFromRecastTests(t *testing.T) {
	const walkableHeight = 5
	tests := []struct {
		name  string
		spans []spanSpec
		want  []uint8
	}{
		{"nothing above", []spanSpec{{0, 1, 1}}, []uint8{1}},
		{"lots of room above", []spanSpec{{0, 1, 1}, {10, 11, NullArea}}, []uint8{1, NullArea}},
		{"exactly enough room", []spanSpec{{0, 1, 1}, {6, 7, NullArea}}, []uint8{1, NullArea}},
		{"a low hanging obstacle", []spanSpec{{0, 1, 1}, {3, 4, NullArea}}, []uint8{NullArea, NullArea}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hf := newTestHeightfield(t, 1, 1, 1, 1, 1)
			setColumn(hf, 0, 0, tt.spans...)
			hf.FilterWalkableLowHeightSpans(walkableHeight)
			assert.Equal(t, tt.want, columnAreas(hf, 0, 0))
		})
	}
}

func columnAreas(hf *Heightfield, x, z int) []uint8 {
	var areas []uint8
	for _, s := range columnSpans(hf, x, z) {
		areas = append(areas, s.Area)
	}
	return areas
}

// BenchmarkFilters times the three span filters on a freshly rasterized
// field.
func BenchmarkFilters(b *testing.B) {
	for _, mesh := range benchmarkMeshes {
		b.Run(mesh, func(b *testing.B) {
			s := prepareStages(b, mesh)
			cfg := s.config
			hf := cloneHeightfield(s.rasterized)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				copy(hf.Pool, s.rasterized.Pool)
				b.StartTimer()
				hf.FilterLowHangingWalkableObstacles(cfg.WalkableClimb)
				hf.FilterLedgeSpans(cfg.WalkableHeight, cfg.WalkableClimb)
				hf.FilterWalkableLowHeightSpans(cfg.WalkableHeight)
			}
		})
	}
}
