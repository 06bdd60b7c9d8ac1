package debugdraw

import (
	"image/color"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// Translate returns a Drawer that moves every primitive by offset before
// passing it to d: to lift paths over a surface, or to draw a level a little
// under the navmesh that rests on it. For a nil d it returns Discard.
func Translate(d Drawer, offset mgl32.Vec3) Drawer {
	if d == nil {
		return Discard
	}
	return translated{d, offset}
}

type translated struct {
	d      Drawer
	offset mgl32.Vec3
}

func (t translated) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA) {
	t.d.Triangle(a.Add(t.offset), b.Add(t.offset), c.Add(t.offset), fill)
}

func (t translated) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	t.d.Line(a.Add(t.offset), b.Add(t.offset), width, stroke)
}

func (t translated) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	t.d.Point(p.Add(t.offset), size, fill)
}

// CullBackFaces returns a Drawer that passes lines and points to d but only
// the triangles that face a viewer looking along forward (View.Forward):
// those whose normal (b-a)×(c-a) points against it. A closed level — rooms
// with ceilings, corridors with walls all round — then shows its insides
// from any angle, as with OpenGL's back-face culling. Recast's walkable side
// (corners clockwise seen from above) is the front. Triangles seen edge-on
// are dropped too. For a nil d it returns Discard.
func CullBackFaces(d Drawer, forward mgl32.Vec3) Drawer {
	if d == nil {
		return Discard
	}
	return culled{d, forward}
}

type culled struct {
	d       Drawer
	forward mgl32.Vec3
}

func (c culled) Triangle(a, b, e mgl32.Vec3, fill color.NRGBA) {
	// Edge-on within a millionth of a radian counts as edge-on, so that
	// rounding in the camera axes cannot decide.
	normal := geom.Cross(b.Sub(a), e.Sub(a))
	if geom.Dot(normal, c.forward) < -1e-6*geom.Len(normal) {
		c.d.Triangle(a, b, e, fill)
	}
}

func (c culled) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	c.d.Line(a, b, width, stroke)
}

func (c culled) Point(p mgl32.Vec3, size float32, fill color.NRGBA) { c.d.Point(p, size, fill) }
