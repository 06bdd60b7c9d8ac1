package render

import (
	"image/color"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	black = color.RGBA{0, 0, 0, 255}
	white = color.RGBA{255, 255, 255, 255}
	red   = color.RGBA{255, 0, 0, 255}
)

func countColor(r *Raster, c color.RGBA) int {
	n := 0
	img := r.Image()
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == c.R && img.Pix[i+1] == c.G && img.Pix[i+2] == c.B && img.Pix[i+3] == c.A {
			n++
		}
	}
	return n
}

func TestPolygonCoversPixelCentres(t *testing.T) {
	tests := []struct {
		name   string
		points []Point
		want   int
	}{
		{"axis-aligned square", []Point{{2, 2}, {6, 2}, {6, 6}, {2, 6}}, 16},
		{"same square, other winding", []Point{{2, 2}, {2, 6}, {6, 6}, {6, 2}}, 16},
		{"right triangle", []Point{{0, 0}, {4, 0}, {0, 4}}, 6},
		{"degenerate line", []Point{{0, 0}, {5, 5}, {10, 10}}, 0},
		{"two points", []Point{{0, 0}, {5, 5}}, 0},
		{"clipped at the border", []Point{{-5, -5}, {3, -5}, {3, 3}, {-5, 3}}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRaster(10, 10)
			r.Clear(black)
			r.Polygon(tt.points, white)
			assert.Equal(t, tt.want, countColor(r, white))
		})
	}
}

func TestAdjacentPolygonsNeitherOverlapNorLeaveGaps(t *testing.T) {
	r := NewRaster(20, 20)
	r.Clear(black)
	half := color.RGBA{0, 0, 128, 128}
	// Two triangles sharing a diagonal: blended twice would show as a
	// different color, missed pixels stay black.
	r.Polygon([]Point{{1.3, 1.7}, {18.2, 2.1}, {17.6, 18.4}}, half)
	r.Polygon([]Point{{1.3, 1.7}, {17.6, 18.4}, {2.4, 17.9}}, half)
	img := r.Image()
	for y := 4; y < 16; y++ {
		for x := 4; x < 16; x++ {
			assert.Equal(t, color.RGBA{0, 0, 128, 255}, img.RGBAAt(x, y), "pixel %d,%d", x, y)
		}
	}
}

func TestLineIsContinuousAndOfWidth(t *testing.T) {
	r := NewRaster(40, 40)
	r.Clear(black)
	r.Line(Point{5, 5}, Point{35, 25}, 1, white)
	// Every column the line spans holds one run of 1 or 2 lit pixels (its
	// vertical thickness is 1/cos(angle) = 1.2), and the runs follow the line.
	img := r.Image()
	for x := 5; x < 35; x++ {
		first, lit := -1, 0
		for y := 0; y < 40; y++ {
			if img.RGBAAt(x, y) == white {
				if first < 0 {
					first = y
				}
				lit++
			}
		}
		assert.True(t, lit == 1 || lit == 2, "column %d has %d pixels", x, lit)
		wantY := 5 + (float64(x)+0.5-5)*20/30
		assert.InDelta(t, wantY, float64(first)+float64(float64(lit)/2), 1, "column %d", x)
	}

	r.Clear(black)
	r.Line(Point{10, 20.5}, Point{30, 20.5}, 4, white)
	assert.Equal(t, 20*4, countColor(r, white))

	r.Clear(black)
	r.Line(Point{10, 10}, Point{10, 10}, 3, white)
	assert.Positive(t, countColor(r, white), "a zero-length line still leaves a dot")
}

func TestCircleFilledAndRing(t *testing.T) {
	r := NewRaster(40, 40)
	r.Clear(black)
	r.Circle(Point{20, 20}, 10, 0, red)
	area := countColor(r, red)
	assert.InDelta(t, 314, area, 12, "filled disc area close to pi*r*r")
	assert.Equal(t, red, r.Image().RGBAAt(20, 20))
	assert.Equal(t, black, r.Image().RGBAAt(20, 31))

	r.Clear(black)
	r.Circle(Point{20, 20}, 10, 2, red)
	ring := countColor(r, red)
	assert.InDelta(t, 314-201, ring, 12, "ring area close to pi*(10^2-8^2)")
	assert.Equal(t, black, r.Image().RGBAAt(20, 20), "a ring leaves its middle alone")

	r.Clear(black)
	r.Circle(Point{7.9, 3.2}, 0.2, 0, red)
	assert.Equal(t, 1, countColor(r, red), "a tiny disc shows as one pixel")
	assert.Equal(t, red, r.Image().RGBAAt(7, 3))
}

func TestBlendingHalfTransparent(t *testing.T) {
	r := NewRaster(4, 4)
	r.Clear(white)
	r.Polygon([]Point{{0, 0}, {4, 0}, {4, 4}, {0, 4}}, color.RGBA{0, 0, 0, 128})
	got := r.Image().RGBAAt(1, 1)
	assert.InDelta(t, 127, int(got.R), 1)
	assert.Equal(t, uint8(255), got.A)
}

func TestNonFiniteShapesDrawNothing(t *testing.T) {
	r := NewRaster(8, 8)
	r.Clear(black)
	nan := float32(0)
	nan /= nan
	r.Polygon([]Point{{0, 0}, {nan, 5}, {5, 5}}, white)
	r.Circle(Point{nan, 2}, 3, 0, white)
	r.Line(Point{0, 0}, Point{8, nan}, 2, white)
	assert.Zero(t, countColor(r, white))
}

func TestTextPixelsMatchGlyphs(t *testing.T) {
	r := NewRaster(40, 20)
	r.Clear(black)
	r.Text(Point{1, 2}, "1", 1, white)
	// The glyph of '1' lights 10 font pixels; the stem is column 2.
	assert.Equal(t, 10, countColor(r, white))
	for row := 0; row < 7; row++ {
		assert.Equal(t, white, r.Image().RGBAAt(1+2, 2+row), "stem row %d", row)
	}
	r.Clear(black)
	r.Text(Point{0, 0}, "1", 2, white)
	assert.Equal(t, 40, countColor(r, white), "scale 2 lights 4 pixels per font pixel")

	w, h := TextSize("ab\ncde")
	assert.Equal(t, 3*GlyphWidth, w)
	assert.Equal(t, 2*GlyphHeight, h)
	lower, upper := 0, 0
	EachGlyphPixel("abc", func(int, int) { lower++ })
	EachGlyphPixel("ABC", func(int, int) { upper++ })
	require.Equal(t, upper, lower, "lower case prints as upper case")
}
