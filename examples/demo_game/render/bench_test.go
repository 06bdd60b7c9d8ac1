package render

import (
	"image/color"
	"testing"
)

func BenchmarkPolygon(b *testing.B) {
	r := NewRaster(640, 480)
	hexagon := []Point{{100, 50}, {300, 60}, {420, 200}, {310, 400}, {120, 380}, {40, 220}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Polygon(hexagon, color.RGBA{10, 20, 30, 255})
	}
}

func BenchmarkCircleAndLine(b *testing.B) {
	r := NewRaster(640, 480)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r.Circle(Point{320, 240}, 5, 0, color.RGBA{255, 0, 0, 255})
		r.Circle(Point{320, 240}, 5, 1.2, color.RGBA{0, 0, 0, 255})
		r.Line(Point{320, 240}, Point{330, 236}, 1, color.RGBA{255, 255, 255, 255})
	}
}
