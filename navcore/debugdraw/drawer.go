package debugdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"
)

// Drawer receives debug primitives. Positions are in world coordinates
// [Units: world units, y up]; widths and sizes are on screen [Units: pixels].
// Colours are not premultiplied: color.NRGBA{0, 192, 255, 64} is a
// light blue at a quarter opacity. A Drawer is free to ignore widths and
// sizes it cannot show. The drawing functions of this package and of
// navdraw draw nothing on a nil Drawer.
type Drawer interface {
	// Triangle fills the triangle a, b, c (either winding).
	Triangle(a, b, c mgl32.Vec3, fill color.NRGBA)
	// Line draws the segment from a to b, width pixels wide.
	Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA)
	// Point draws a round dot size pixels across, centred on p.
	Point(p mgl32.Vec3, size float32, fill color.NRGBA)
}

// Kind tells the primitives apart.
type Kind uint8

// The primitive kinds.
const (
	// KindPoint is a dot (Drawer.Point).
	KindPoint Kind = iota
	// KindLine is a segment (Drawer.Line).
	KindLine
	// KindTriangle is a filled triangle (Drawer.Triangle).
	KindTriangle
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case KindPoint:
		return "point"
	case KindLine:
		return "line"
	case KindTriangle:
		return "triangle"
	}
	return "unknown"
}

// Primitive is one recorded drawing call.
type Primitive struct {
	// Kind says which call it was.
	Kind Kind
	// Vertices holds the positions: one for a point, two for a line, three
	// for a triangle; the rest are zero [Units: world units]
	Vertices [3]mgl32.Vec3
	// Size is the line width or the dot size, 0 for a triangle
	// [Units: pixels]
	Size float32
	// Color is the fill or stroke colour.
	Color color.NRGBA
}

// Recorder is a Drawer that keeps every primitive it is given, in order: a
// display list to replay each frame into another Drawer (duDisplayList), or
// a record to count and inspect in tests. The zero value is ready to use. A
// Recorder is not safe for concurrent use.
type Recorder struct {
	// Primitives holds the primitives in the order they were drawn.
	Primitives []Primitive
}

var _ Drawer = (*Recorder)(nil)

// Triangle records a triangle.
func (r *Recorder) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA) {
	r.Primitives = append(r.Primitives, Primitive{Kind: KindTriangle, Vertices: [3]mgl32.Vec3{a, b, c}, Color: fill})
}

// Line records a line.
func (r *Recorder) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	r.Primitives = append(r.Primitives, Primitive{Kind: KindLine, Vertices: [3]mgl32.Vec3{a, b}, Size: width, Color: stroke})
}

// Point records a point.
func (r *Recorder) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	r.Primitives = append(r.Primitives, Primitive{Kind: KindPoint, Vertices: [3]mgl32.Vec3{p}, Size: size, Color: fill})
}

// Reset forgets every primitive, keeping the memory for the next recording.
func (r *Recorder) Reset() { r.Primitives = r.Primitives[:0] }

// Len returns the number of primitives recorded.
func (r *Recorder) Len() int { return len(r.Primitives) }

// Count returns how many primitives of kind were recorded.
func (r *Recorder) Count(kind Kind) int {
	n := 0
	for i := range r.Primitives {
		if r.Primitives[i].Kind == kind {
			n++
		}
	}
	return n
}

// Replay draws every recorded primitive into d, in the recorded order.
func (r *Recorder) Replay(d Drawer) {
	if d == nil {
		return
	}
	for i := range r.Primitives {
		p := &r.Primitives[i]
		switch p.Kind {
		case KindPoint:
			d.Point(p.Vertices[0], p.Size, p.Color)
		case KindLine:
			d.Line(p.Vertices[0], p.Vertices[1], p.Size, p.Color)
		case KindTriangle:
			d.Triangle(p.Vertices[0], p.Vertices[1], p.Vertices[2], p.Color)
		}
	}
}

// Bounds returns the box around every recorded vertex; ok is false when
// nothing was recorded.
func (r *Recorder) Bounds() (bmin, bmax mgl32.Vec3, ok bool) {
	for i := range r.Primitives {
		p := &r.Primitives[i]
		for _, v := range p.Vertices[:p.Kind.vertexCount()] {
			if !ok {
				bmin, bmax, ok = v, v, true
				continue
			}
			for k := range 3 {
				bmin[k] = min(bmin[k], v[k])
				bmax[k] = max(bmax[k], v[k])
			}
		}
	}
	return bmin, bmax, ok
}

// vertices returns every recorded vertex.
func (r *Recorder) vertices() []mgl32.Vec3 {
	out := make([]mgl32.Vec3, 0, 3*len(r.Primitives))
	for i := range r.Primitives {
		p := &r.Primitives[i]
		out = append(out, p.Vertices[:p.Kind.vertexCount()]...)
	}
	return out
}

// FitView returns the view at yaw and pitch (see the package's FitView)
// that shows every recorded vertex as large as fits a width×height image
// with margin pixels free on every side: tighter than the bounding box's
// view when the drawing runs diagonally across it. Widths and sizes are not
// counted: the margin should hold half the widest line.
func (r *Recorder) FitView(yaw, pitch float32, width, height int, margin float32) View {
	yaw, pitch = finiteOr(yaw, 0), finiteOr(pitch, 0)
	return fitExtent(yaw, pitch, projectExtent(yaw, pitch, r.vertices()), width, height, margin)
}

// FitSize returns an image size for the recorded vertices seen at yaw and
// pitch, as the package's FitSize does for a box.
func (r *Recorder) FitSize(yaw, pitch float32, longSide, minSide int, margin float32) (width, height int) {
	yaw, pitch = finiteOr(yaw, 0), finiteOr(pitch, 0)
	return fitSize(projectExtent(yaw, pitch, r.vertices()), longSide, minSide, margin)
}

// vertexCount returns how many of Primitive.Vertices the kind uses.
func (k Kind) vertexCount() int {
	switch k {
	case KindPoint:
		return 1
	case KindLine:
		return 2
	case KindTriangle:
		return 3
	}
	return 0
}

// Discard is a Drawer that draws nothing.
var Discard Drawer = discard{}

type discard struct{}

func (discard) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA)           {}
func (discard) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {}
func (discard) Point(p mgl32.Vec3, size float32, fill color.NRGBA)      {}
