package scene

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/debugdraw"
)

// Drawer is archenav's debugdraw.Drawer on a render.Canvas seen from above
// through View: the scene draws the navmesh and the crowd's debug state with
// archenav's own drawers (package navdraw) through it, on the headless
// raster and in the ebiten window alike. Height is ignored: what is drawn
// later covers what was drawn before.
type Drawer struct {
	Canvas render.Canvas
	View   View

	triangle [3]render.Point // scratch
}

var _ debugdraw.Drawer = (*Drawer)(nil)

// Triangle fills the triangle seen from above.
func (d *Drawer) Triangle(a, b, c mgl32.Vec3, fill color.NRGBA) {
	d.triangle = [3]render.Point{d.View.ToScreen(a), d.View.ToScreen(b), d.View.ToScreen(c)}
	d.Canvas.Polygon(d.triangle[:], premultiply(fill))
}

// Line draws the segment seen from above.
func (d *Drawer) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) {
	d.Canvas.Line(d.View.ToScreen(a), d.View.ToScreen(b), width, premultiply(stroke))
}

// Point draws a filled circle size pixels across.
func (d *Drawer) Point(p mgl32.Vec3, size float32, fill color.NRGBA) {
	d.Canvas.Circle(d.View.ToScreen(p), size/2, 0, premultiply(fill))
}

// premultiply turns a straight colour into the canvas's premultiplied one.
func premultiply(c color.NRGBA) color.RGBA {
	a := uint32(c.A)
	return color.RGBA{uint8((uint32(c.R)*a + 127) / 255), uint8((uint32(c.G)*a + 127) / 255), uint8((uint32(c.B)*a + 127) / 255), c.A}
}

// straight turns a premultiplied colour into a straight one.
func straight(c color.RGBA) color.NRGBA {
	if c.A == 0 {
		return color.NRGBA{}
	}
	a := uint32(c.A)
	return color.NRGBA{uint8(min((uint32(c.R)*255+a/2)/a, 255)), uint8(min((uint32(c.G)*255+a/2)/a, 255)), uint8(min((uint32(c.B)*255+a/2)/a, 255)), c.A}
}
