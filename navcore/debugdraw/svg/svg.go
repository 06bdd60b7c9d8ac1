package svg

import (
	"bufio"
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
)

// DefaultDepthBiasPixels is the default Options.DepthBias, in pixels of the
// view's scale.
const DefaultDepthBiasPixels = 4

// MaxPrimitives is the most primitives a Canvas keeps; later ones are
// dropped and counted (see Dropped).
const MaxPrimitives = 1 << 22

// Options tune a Canvas. The zero value gives the defaults.
type Options struct {
	// DepthBias is how far lines and points are moved towards the viewer
	// before sorting; 0 means DefaultDepthBiasPixels / view scale
	// [Limit: >= 0] [Units: world units]
	DepthBias float32
	// Background fills the image before any primitive; a zero alpha leaves
	// it transparent.
	Background color.NRGBA
}

// Canvas is a debugdraw.Drawer that collects primitives for an SVG image.
// It is not safe for concurrent use.
type Canvas struct {
	view       debugdraw.View
	bias       float32
	background color.NRGBA
	items      []item
	dropped    int
}

var _ debugdraw.Drawer = (*Canvas)(nil)

// item is one projected primitive.
type item struct {
	kind   debugdraw.Kind
	points [3][2]float32 // pixels
	depth  float32       // sort key, larger is farther
	size   float32       // line width or dot diameter [Units: pixels]
	color  color.NRGBA
	order  int // drawing order
}

// New returns an empty canvas of the view's size. It fails when the options
// are out of their limits.
func New(view debugdraw.View, options Options) (*Canvas, error) {
	if !(options.DepthBias >= 0) || math.IsInf(float64(options.DepthBias), 0) {
		return nil, fmt.Errorf("svg: depth bias %v is not finite and >= 0", options.DepthBias)
	}
	bias := options.DepthBias
	if bias == 0 && view.Scale() > 0 {
		bias = DefaultDepthBiasPixels / view.Scale()
	}
	return &Canvas{view: view, bias: bias, background: options.Background}, nil
}

// View returns the view the canvas was made with.
func (c *Canvas) View() debugdraw.View { return c.view }

// Len returns the number of primitives kept.
func (c *Canvas) Len() int { return len(c.items) }

// Dropped returns how many primitives were dropped: not finite, or beyond
// MaxPrimitives.
func (c *Canvas) Dropped() int { return c.dropped }

// Reset forgets every primitive.
func (c *Canvas) Reset() {
	c.items = c.items[:0]
	c.dropped = 0
}

func (c *Canvas) add(it item) {
	for _, p := range it.points[:vertexCount(it.kind)] {
		if !finite(p[0]) || !finite(p[1]) {
			c.dropped++
			return
		}
	}
	if !finite(it.depth) || len(c.items) >= MaxPrimitives {
		c.dropped++
		return
	}
	it.order = len(c.items)
	c.items = append(c.items, it)
}

func vertexCount(k debugdraw.Kind) int {
	switch k {
	case debugdraw.KindPoint:
		return 1
	case debugdraw.KindLine:
		return 2
	}
	return 3
}

// Triangle keeps a triangle.
func (c *Canvas) Triangle(a, b, e mgl32.Vec3, fill color.NRGBA) {
	if fill.A == 0 {
		return
	}
	it := item{kind: debugdraw.KindTriangle, color: fill, depth: float32(math.Inf(-1))}
	for i, p := range [3]mgl32.Vec3{a, b, e} {
		x, y, depth := c.view.Project(p)
		it.points[i] = [2]float32{x, y}
		it.depth = max(it.depth, depth)
	}
	// One winding (clockwise on screen) for all, so that triangles of one
	// colour merged into a path fill their overlaps under the nonzero rule.
	p := it.points
	if float32((p[1][0]-p[0][0])*(p[2][1]-p[0][1]))-float32((p[1][1]-p[0][1])*(p[2][0]-p[0][0])) < 0 {
		it.points[1], it.points[2] = p[2], p[1]
	}
	c.add(it)
}

// Line keeps a line width pixels wide (at least 1).
func (c *Canvas) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	if stroke.A == 0 {
		return
	}
	ax, ay, da := c.view.Project(a)
	bx, by, db := c.view.Project(b)
	c.add(item{kind: debugdraw.KindLine, points: [3][2]float32{{ax, ay}, {bx, by}}, depth: float32((da+db)/2) - c.bias, size: atLeastOne(width), color: stroke})
}

// Point keeps a dot size pixels across (at least 1).
func (c *Canvas) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	if fill.A == 0 {
		return
	}
	x, y, depth := c.view.Project(p)
	c.add(item{kind: debugdraw.KindPoint, points: [3][2]float32{{x, y}}, depth: depth - c.bias, size: atLeastOne(size), color: fill})
}

func atLeastOne(v float32) float32 {
	if !(v >= 1) || math.IsInf(float64(v), 1) {
		return 1
	}
	return v
}

// WriteTo writes the SVG document: the primitives far to near.
func (c *Canvas) WriteTo(w io.Writer) (int64, error) {
	if w == nil {
		return 0, fmt.Errorf("svg: write: nil writer")
	}
	slices.SortStableFunc(c.items, func(a, b item) int {
		if d := cmp.Compare(b.depth, a.depth); d != 0 {
			return d
		}
		return cmp.Compare(a.order, b.order)
	})
	counter := &countingWriter{w: w}
	out := bufio.NewWriter(counter)
	width, height := c.view.Size()
	fmt.Fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n", width, height, width, height)
	if c.background.A > 0 {
		fmt.Fprintf(out, "<rect width=\"%d\" height=\"%d\"%s/>\n", width, height, paint("fill", c.background))
	}
	var buf []byte
	for start := 0; start < len(c.items); {
		end := start + 1
		for end < len(c.items) && sameStyle(c.items[start], c.items[end]) {
			end++
		}
		buf = appendGroup(buf[:0], c.items[start:end])
		out.Write(buf)
		start = end
	}
	out.WriteString("</svg>\n")
	err := out.Flush()
	if err != nil {
		err = fmt.Errorf("svg: write: %w", err)
	}
	return counter.n, err
}

func sameStyle(a, b item) bool {
	return a.kind == b.kind && a.color == b.color && a.size == b.size
}

// appendGroup appends one SVG element drawing items, all of one kind and
// style.
func appendGroup(buf []byte, items []item) []byte {
	first := items[0]
	switch first.kind {
	case debugdraw.KindTriangle:
		buf = append(buf, `<path d="`...)
		for i, it := range items {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, 'M')
			buf = appendPoint(buf, it.points[0])
			buf = append(buf, 'L')
			buf = appendPoint(buf, it.points[1])
			buf = append(buf, 'L')
			buf = appendPoint(buf, it.points[2])
			buf = append(buf, 'Z')
		}
		buf = append(buf, '"')
		buf = append(buf, paint("fill", first.color)...)
		buf = append(buf, "/>\n"...)
	case debugdraw.KindLine:
		buf = append(buf, `<path d="`...)
		for i, it := range items {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, 'M')
			buf = appendPoint(buf, it.points[0])
			buf = append(buf, 'L')
			buf = appendPoint(buf, it.points[1])
		}
		buf = append(buf, `" fill="none"`...)
		buf = append(buf, paint("stroke", first.color)...)
		buf = append(buf, ` stroke-width="`...)
		buf = appendNumber(buf, first.size)
		buf = append(buf, `" stroke-linecap="round"/>`+"\n"...)
	case debugdraw.KindPoint:
		// Dots as zero-length round-capped lines: one path for many.
		buf = append(buf, `<path d="`...)
		for i, it := range items {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = append(buf, 'M')
			buf = appendPoint(buf, it.points[0])
			buf = append(buf, "h0"...)
		}
		buf = append(buf, `" fill="none"`...)
		buf = append(buf, paint("stroke", first.color)...)
		buf = append(buf, ` stroke-width="`...)
		buf = appendNumber(buf, first.size)
		buf = append(buf, `" stroke-linecap="round"/>`+"\n"...)
	}
	return buf
}

// paint returns the attribute setting colour c (and its opacity when not
// opaque) for attr, "fill" or "stroke".
func paint(attr string, c color.NRGBA) string {
	s := fmt.Sprintf(` %s="#%02x%02x%02x"`, attr, c.R, c.G, c.B)
	if c.A < 255 {
		s += fmt.Sprintf(` %s-opacity="%s"`, attr, strconv.FormatFloat(float64(c.A)/255, 'f', 3, 64))
	}
	return s
}

func appendPoint(buf []byte, p [2]float32) []byte {
	buf = appendNumber(buf, p[0])
	buf = append(buf, ' ')
	return appendNumber(buf, p[1])
}

// appendNumber appends v with at most two decimals, trailing zeros dropped.
func appendNumber(buf []byte, v float32) []byte {
	r := math.Round(float64(v)*100) / 100
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.AppendFloat(buf, r, 'f', -1, 64)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
