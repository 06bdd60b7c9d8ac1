package render

import (
	"image"
	"image/color"
	"math"
)

// Raster is a Canvas that draws into an *image.RGBA with a small scanline
// rasterizer of its own. Shapes are sampled once per pixel at the pixel's
// centre, without anti-aliasing: frames keep few distinct colors, which keeps
// the GIFs made from them small. A Raster is not safe for concurrent use.
type Raster struct {
	img       *image.RGBA
	crossings []float32 // scratch for Polygon, reused
	quad      [4]Point  // scratch for Line
}

var _ Canvas = (*Raster)(nil)

// NewRaster returns a width×height raster, cleared to transparent black.
// Sizes below 1 are raised to 1.
func NewRaster(width, height int) *Raster {
	width, height = max(width, 1), max(height, 1)
	return &Raster{img: image.NewRGBA(image.Rect(0, 0, width, height))}
}

// Image returns the image drawn into; it stays valid and is updated by later
// drawing.
func (r *Raster) Image() *image.RGBA { return r.img }

// Size returns the raster size [Units: pixels].
func (r *Raster) Size() (width, height int) {
	b := r.img.Bounds()
	return b.Dx(), b.Dy()
}

// Clear fills the whole raster with c (no blending).
func (r *Raster) Clear(c color.RGBA) {
	pix := r.img.Pix
	for i := 0; i < len(pix); i += 4 {
		pix[i], pix[i+1], pix[i+2], pix[i+3] = c.R, c.G, c.B, c.A
	}
}

// span paints pixels [x0, x1) of row y, clipped to the raster.
func (r *Raster) span(y, x0, x1 int, c color.RGBA) {
	width, height := r.Size()
	if y < 0 || y >= height {
		return
	}
	x0, x1 = max(x0, 0), min(x1, width)
	if x0 >= x1 || c.A == 0 {
		return
	}
	row := r.img.Pix[y*r.img.Stride:]
	if c.A == 255 {
		for x := x0; x < x1; x++ {
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 255
		}
		return
	}
	keep := uint32(255 - c.A)
	for x := x0; x < x1; x++ {
		p := row[4*x : 4*x+4 : 4*x+4]
		p[0] = c.R + uint8((uint32(p[0])*keep+127)/255)
		p[1] = c.G + uint8((uint32(p[1])*keep+127)/255)
		p[2] = c.B + uint8((uint32(p[2])*keep+127)/255)
		p[3] = c.A + uint8((uint32(p[3])*keep+127)/255)
	}
}

// firstCentreAtOrAfter returns the first pixel index whose centre (i + 0.5)
// is at or after v.
func firstCentreAtOrAfter(v float32) int {
	return int(math.Ceil(float64(v) - 0.5))
}

// Polygon fills the polygon through points by the even-odd rule; a pixel is
// painted when its centre is inside. Fewer than 3 points draw nothing, and so
// do non-finite coordinates.
func (r *Raster) Polygon(points []Point, c color.RGBA) {
	if len(points) < 3 {
		return
	}
	minY, maxY := points[0].Y, points[0].Y
	for _, p := range points {
		if !finite(p.X) || !finite(p.Y) {
			return
		}
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	_, height := r.Size()
	yStart := max(firstCentreAtOrAfter(minY), 0)
	yEnd := min(firstCentreAtOrAfter(maxY), height) // exclusive
	for y := yStart; y < yEnd; y++ {
		sampleY := float32(y) + 0.5
		xs := r.crossings[:0]
		previous := points[len(points)-1]
		for _, p := range points {
			if (previous.Y <= sampleY) != (p.Y <= sampleY) {
				t := (sampleY - previous.Y) / (p.Y - previous.Y)
				xs = append(xs, previous.X+float32(t*(p.X-previous.X)))
			}
			previous = p
		}
		insertionSort(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			r.span(y, firstCentreAtOrAfter(xs[i]), firstCentreAtOrAfter(xs[i+1]), c)
		}
		r.crossings = xs
	}
}

// Line draws a segment width pixels wide as a filled rectangle around it
// (butt ends). A zero-length segment draws a dot of that width.
func (r *Raster) Line(a, b Point, width float32, c color.RGBA) {
	if width <= 0 {
		return
	}
	dx, dy := b.X-a.X, b.Y-a.Y
	length := float32(math.Hypot(float64(dx), float64(dy)))
	if length < 1e-6 {
		r.Circle(a, width/2, 0, c)
		return
	}
	nx, ny := float32(-dy/length*width/2), float32(dx/length*width/2)
	r.quad = [4]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}}
	r.Polygon(r.quad[:], c)
}

// Circle fills the disc of radius around center, or with stroke > 0 the ring
// between radius-stroke and radius. A filled disc always covers at least the
// pixel holding its centre, so tiny agents stay visible.
func (r *Raster) Circle(center Point, radius, stroke float32, c color.RGBA) {
	if !finite(center.X) || !finite(center.Y) || !finite(radius) || radius <= 0 {
		return
	}
	outer := radius * radius
	inner := float32(-1)
	if stroke > 0 && stroke < radius {
		inner = (radius - stroke) * (radius - stroke)
	}
	width, height := r.Size()
	y0 := max(firstCentreAtOrAfter(center.Y-radius), 0)
	y1 := min(firstCentreAtOrAfter(center.Y+radius)+1, height)
	x0 := max(firstCentreAtOrAfter(center.X-radius), 0)
	x1 := min(firstCentreAtOrAfter(center.X+radius)+1, width)
	painted := false
	for y := y0; y < y1; y++ {
		dy := float32(y) + 0.5 - center.Y
		start := -1
		for x := x0; x <= x1; x++ {
			inside := false
			if x < x1 {
				dx := float32(x) + 0.5 - center.X
				d := float32(dx*dx) + float32(dy*dy)
				inside = d <= outer && d > inner
			}
			switch {
			case inside && start < 0:
				start = x
			case !inside && start >= 0:
				r.span(y, start, x, c)
				painted, start = true, -1
			}
		}
	}
	if !painted && stroke <= 0 {
		x, y := int(math.Floor(float64(center.X))), int(math.Floor(float64(center.Y)))
		r.span(y, x, x+1, c)
	}
}

// Text writes s in the bitmap font, each font pixel a scale×scale square
// (scale below 1 counts as 1). Characters without a glyph show as a box;
// lower case prints as upper case.
func (r *Raster) Text(at Point, s string, scale int, c color.RGBA) {
	scale = max(scale, 1)
	originX, originY := int(math.Round(float64(at.X))), int(math.Round(float64(at.Y)))
	EachGlyphPixel(s, func(col, row int) {
		x, y := originX+col*scale, originY+row*scale
		for dy := 0; dy < scale; dy++ {
			r.span(y+dy, x, x+scale, c)
		}
	})
}

func insertionSort(xs []float32) {
	for i := 1; i < len(xs); i++ {
		v := xs[i]
		j := i - 1
		for j >= 0 && xs[j] > v {
			xs[j+1] = xs[j]
			j--
		}
		xs[j+1] = v
	}
}

func finite(v float32) bool {
	return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
}
