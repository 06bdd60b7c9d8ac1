package raster

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
)

// MaxSamples is the largest Options.Samples.
const MaxSamples = 4

// MaxPixels is the largest image a Canvas draws, Samples included
// [Units: pixels].
const MaxPixels = 1 << 26

// DefaultDepthBiasPixels is the default Options.DepthBias, in pixels of the
// view's scale: lines and points come this many pixels' worth of world
// distance towards the viewer.
const DefaultDepthBiasPixels = 4

// Options tune a Canvas. The zero value gives the defaults.
type Options struct {
	// Samples is the number of samples per pixel along each axis: the
	// canvas draws Samples² times as many pixels and averages them down, for
	// smooth edges. 0 counts as 1 [Limit: 0..MaxSamples]
	Samples int
	// DepthBias is how far lines and points are moved towards the viewer
	// before the depth test; 0 means DefaultDepthBiasPixels / view scale
	// [Limit: >= 0] [Units: world units]
	DepthBias float32
}

// Canvas is a debugdraw.Drawer that rasterizes into an image. It is not safe
// for concurrent use.
type Canvas struct {
	view    debugdraw.View // enlarged by samples
	given   debugdraw.View // as given to New
	samples int
	bias    float32
	width   int
	height  int
	pixels  *image.RGBA // premultiplied, at samples× resolution
	depth   []float32
	out     *image.RGBA // the averaged image when samples > 1
}

var _ debugdraw.Drawer = (*Canvas)(nil)

// New returns a canvas of the view's size, cleared to transparent black. It
// fails when the options are out of their limits or the image would exceed
// MaxPixels.
func New(view debugdraw.View, options Options) (*Canvas, error) {
	samples := max(options.Samples, 1)
	if options.Samples < 0 || samples > MaxSamples {
		return nil, fmt.Errorf("raster: %d samples outside 0..%d", options.Samples, MaxSamples)
	}
	if !(options.DepthBias >= 0) || math.IsInf(float64(options.DepthBias), 0) {
		return nil, fmt.Errorf("raster: depth bias %v is not finite and >= 0", options.DepthBias)
	}
	width, height := view.Size()
	if width*height > MaxPixels/(samples*samples) {
		return nil, fmt.Errorf("raster: %d×%d image at %d samples exceeds %d pixels", width, height, samples, MaxPixels)
	}
	bias := options.DepthBias
	if bias == 0 && view.Scale() > 0 {
		bias = DefaultDepthBiasPixels / view.Scale()
	}
	c := &Canvas{
		view:    view.Enlarged(samples),
		given:   view,
		samples: samples,
		bias:    bias,
		width:   width * samples,
		height:  height * samples,
	}
	c.pixels = image.NewRGBA(image.Rect(0, 0, c.width, c.height))
	c.depth = make([]float32, c.width*c.height)
	c.Clear(color.NRGBA{})
	return c, nil
}

// View returns the view the canvas was made with.
func (c *Canvas) View() debugdraw.View { return c.given }

// Clear fills the image with background and forgets all depths.
func (c *Canvas) Clear(background color.NRGBA) {
	p := premultiply(background)
	pix := c.pixels.Pix
	for i := 0; i < len(pix); i += 4 {
		pix[i], pix[i+1], pix[i+2], pix[i+3] = p[0], p[1], p[2], p[3]
	}
	inf := float32(math.Inf(1))
	for i := range c.depth {
		c.depth[i] = inf
	}
}

// Image returns the drawing at the view's size (averaged down when Samples
// is above 1). The image is the canvas's own: later drawing changes it when
// Samples is 1, and the next call to Image when it is more.
func (c *Canvas) Image() *image.RGBA {
	if c.samples == 1 {
		return c.pixels
	}
	width, height := c.width/c.samples, c.height/c.samples
	if c.out == nil {
		c.out = image.NewRGBA(image.Rect(0, 0, width, height))
	}
	n := uint32(c.samples * c.samples)
	for y := range height {
		for x := range width {
			var sum [4]uint32
			for sy := range c.samples {
				row := c.pixels.Pix[(y*c.samples+sy)*c.pixels.Stride:]
				for sx := range c.samples {
					p := row[4*(x*c.samples+sx):]
					sum[0] += uint32(p[0])
					sum[1] += uint32(p[1])
					sum[2] += uint32(p[2])
					sum[3] += uint32(p[3])
				}
			}
			o := c.out.Pix[y*c.out.Stride+4*x:]
			for k := range 4 {
				o[k] = uint8((sum[k] + n/2) / n)
			}
		}
	}
	return c.out
}

// EncodePNG writes Image as a PNG.
func (c *Canvas) EncodePNG(w io.Writer) error {
	if w == nil {
		return fmt.Errorf("raster: encode png: nil writer")
	}
	buffered := bufio.NewWriter(w)
	if err := png.Encode(buffered, c.Image()); err != nil {
		return fmt.Errorf("raster: encode png: %w", err)
	}
	if err := buffered.Flush(); err != nil {
		return fmt.Errorf("raster: encode png: %w", err)
	}
	return nil
}

// vertex is a projected position: pixel x, y at the canvas resolution and
// depth.
type vertex struct{ x, y, depth float32 }

func (c *Canvas) project(p mgl32.Vec3) vertex {
	x, y, depth := c.view.Project(p)
	return vertex{x, y, depth}
}

// Triangle fills the triangle a, b, c.
func (c *Canvas) Triangle(a, b, e mgl32.Vec3, fill color.NRGBA) {
	if fill.A == 0 {
		return
	}
	c.fill(c.project(a), c.project(b), c.project(e), premultiply(fill))
}

// Line draws the segment a-b width pixels wide (at least 1) with butt ends.
func (c *Canvas) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	if stroke.A == 0 {
		return
	}
	pa, pb := c.project(a), c.project(b)
	pa.depth -= c.bias
	pb.depth -= c.bias
	half := max(finiteOr(width, 1), 1) * float32(c.samples) / 2
	dx, dy := pb.x-pa.x, pb.y-pa.y
	length := float32(math.Hypot(float64(dx), float64(dy)))
	col := premultiply(stroke)
	if !(length > 1e-3) { // a dot, or nothing when not finite
		c.disc(pa, half, col)
		return
	}
	nx, ny := float32(-dy/length*half), float32(dx/length*half)
	q0 := vertex{pa.x + nx, pa.y + ny, pa.depth}
	q1 := vertex{pb.x + nx, pb.y + ny, pb.depth}
	q2 := vertex{pb.x - nx, pb.y - ny, pb.depth}
	q3 := vertex{pa.x - nx, pa.y - ny, pa.depth}
	c.fill(q0, q1, q2, col)
	c.fill(q0, q2, q3, col)
}

// Point draws a dot size pixels across (at least one pixel).
func (c *Canvas) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	if fill.A == 0 {
		return
	}
	v := c.project(p)
	v.depth -= c.bias
	c.disc(v, max(finiteOr(size, 1), 1)*float32(c.samples)/2, premultiply(fill))
}

// disc fills the pixels whose centres lie within radius of v, or the pixel
// under v when there are none.
func (c *Canvas) disc(v vertex, radius float32, col [4]uint8) {
	if !finite(v.x) || !finite(v.y) || !finite(v.depth) || !finite(radius) {
		return
	}
	x0 := max(int(math.Floor(float64(v.x-radius))), 0)
	x1 := min(int(math.Ceil(float64(v.x+radius))), c.width-1)
	y0 := max(int(math.Floor(float64(v.y-radius))), 0)
	y1 := min(int(math.Ceil(float64(v.y+radius))), c.height-1)
	r2 := radius * radius
	painted := false
	for y := y0; y <= y1; y++ {
		dy := float32(y) + 0.5 - v.y
		for x := x0; x <= x1; x++ {
			dx := float32(x) + 0.5 - v.x
			if float32(dx*dx)+float32(dy*dy) <= r2 {
				c.plot(x, y, v.depth, col)
				painted = true
			}
		}
	}
	if !painted {
		x, y := int(math.Floor(float64(v.x))), int(math.Floor(float64(v.y)))
		if x >= 0 && x < c.width && y >= 0 && y < c.height {
			c.plot(x, y, v.depth, col)
		}
	}
}

// plot blends col over pixel x, y when depth passes the depth test.
func (c *Canvas) plot(x, y int, depth float32, col [4]uint8) {
	i := y*c.width + x
	if !(depth <= c.depth[i]) {
		return
	}
	c.depth[i] = depth
	p := c.pixels.Pix[4*i : 4*i+4 : 4*i+4]
	if col[3] == 255 {
		p[0], p[1], p[2], p[3] = col[0], col[1], col[2], 255
		return
	}
	keep := 255 - uint32(col[3])
	p[0] = col[0] + uint8((uint32(p[0])*keep+127)/255)
	p[1] = col[1] + uint8((uint32(p[1])*keep+127)/255)
	p[2] = col[2] + uint8((uint32(p[2])*keep+127)/255)
	p[3] = col[3] + uint8((uint32(p[3])*keep+127)/255)
}

// subpixel is the fixed-point precision of triangle vertices: 1/16 pixel.
const subpixel = 16

// maxCoordinate bounds projected coordinates; triangles reaching beyond it
// are not drawn, so the fixed-point edge functions cannot overflow
// [Units: pixels].
const maxCoordinate = 1 << 24

// fill rasterizes a triangle of projected vertices with the top-left rule,
// interpolating depth.
func (c *Canvas) fill(a, b, e vertex, col [4]uint8) {
	for _, v := range [3]vertex{a, b, e} {
		if !(math.Abs(float64(v.x)) < maxCoordinate) || !(math.Abs(float64(v.y)) < maxCoordinate) || !finite(v.depth) {
			return
		}
	}
	fixed := func(f float32) int64 { return int64(math.Round(float64(f) * subpixel)) }
	ax, ay, bx, by, ex, ey := fixed(a.x), fixed(a.y), fixed(b.x), fixed(b.y), fixed(e.x), fixed(e.y)
	area := (bx-ax)*(ey-ay) - (by-ay)*(ex-ax)
	if area == 0 {
		return
	}
	if area < 0 { // make the winding clockwise on screen (y down)
		bx, by, ex, ey = ex, ey, bx, by
		b, e = e, b
		area = -area
	}
	minX := max(int(floorDiv(min(ax, bx, ex), subpixel)), 0)
	maxX := min(int(floorDiv(max(ax, bx, ex), subpixel)), c.width-1)
	minY := max(int(floorDiv(min(ay, by, ey), subpixel)), 0)
	maxY := min(int(floorDiv(max(ay, by, ey), subpixel)), c.height-1)
	if minX > maxX || minY > maxY {
		return
	}
	// Edge function of the edge p->q at s: positive inside. The top-left
	// rule: a pixel centre exactly on an edge belongs to the triangle when
	// the edge is a top edge or a left edge.
	type edge struct {
		stepX, stepY int64 // change per pixel along x and y
		bias         int64 // 0 for top-left edges, -1 otherwise
	}
	makeEdge := func(px, py, qx, qy int64) edge {
		e := edge{stepX: -(qy - py) * subpixel, stepY: (qx - px) * subpixel, bias: -1}
		dy, dx := qy-py, qx-px
		if (dy == 0 && dx > 0) || dy < 0 { // top edge (y down, clockwise) or left edge
			e.bias = 0
		}
		return e
	}
	edges := [3]edge{makeEdge(bx, by, ex, ey), makeEdge(ex, ey, ax, ay), makeEdge(ax, ay, bx, by)}
	at := func(px, py, qx, qy, sx, sy int64) int64 { return (qx-px)*(sy-py) - (qy-py)*(sx-px) }
	sx := int64(minX)*subpixel + subpixel/2
	sy := int64(minY)*subpixel + subpixel/2
	row := [3]int64{at(bx, by, ex, ey, sx, sy), at(ex, ey, ax, ay, sx, sy), at(ax, ay, bx, by, sx, sy)}
	inverseArea := 1 / float64(area)
	for y := minY; y <= maxY; y++ {
		w := row
		for x := minX; x <= maxX; x++ {
			if w[0]+edges[0].bias >= 0 && w[1]+edges[1].bias >= 0 && w[2]+edges[2].bias >= 0 {
				depth := float32((float64(float64(w[0])*float64(a.depth)) + float64(float64(w[1])*float64(b.depth)) + float64(float64(w[2])*float64(e.depth))) * inverseArea)
				c.plot(x, y, depth, col)
			}
			for k := range w {
				w[k] += edges[k].stepX
			}
		}
		for k := range row {
			row[k] += edges[k].stepY
		}
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// premultiply returns c as alpha-premultiplied 8-bit channels.
func premultiply(c color.NRGBA) [4]uint8 {
	a := uint32(c.A)
	return [4]uint8{uint8((uint32(c.R)*a + 127) / 255), uint8((uint32(c.G)*a + 127) / 255), uint8((uint32(c.B)*a + 127) / 255), c.A}
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }

func finiteOr(v, fallback float32) float32 {
	if finite(v) {
		return v
	}
	return fallback
}
