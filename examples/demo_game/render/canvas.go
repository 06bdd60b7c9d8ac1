// Package render is the demo's drawing layer: one small Canvas interface
// (lines, filled polygons, circles, text) that the scene code draws through,
// a pure-Go raster implementation of it for headless frames, and an animated
// GIF recorder. The interactive window implements the same Canvas on top of
// ebiten, so both show exactly the same scene.
package render

import "image/color"

// Point is a position on the canvas [Units: pixels, origin top-left, y down].
type Point struct{ X, Y float32 }

// Canvas is a surface the scene draws on. Colors are alpha-premultiplied
// (color.RGBA); an alpha below 255 blends over what is already drawn.
type Canvas interface {
	// Size returns the canvas size [Units: pixels].
	Size() (width, height int)
	// Clear fills the whole canvas with c.
	Clear(c color.RGBA)
	// Line draws a segment from a to b, width pixels wide [Limit: > 0].
	Line(a, b Point, width float32, c color.RGBA)
	// Polygon fills the polygon through points (at least 3, any winding; a
	// self-intersecting outline fills by the even-odd rule).
	Polygon(points []Point, c color.RGBA)
	// Circle draws a circle of the given radius around center: filled when
	// stroke <= 0, otherwise a ring stroke pixels wide inside the radius.
	Circle(center Point, radius, stroke float32, c color.RGBA)
	// Text writes s with its top-left corner at at, in the package's fixed
	// bitmap font scaled by scale (1: 6×8 pixel cells).
	Text(at Point, s string, scale int, c color.RGBA)
}

// FillRect fills the axis-aligned rectangle from (x0, y0) to (x1, y1) on c.
func FillRect(c Canvas, x0, y0, x1, y1 float32, col color.RGBA) {
	c.Polygon([]Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}, col)
}
