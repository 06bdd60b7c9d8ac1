package scene

import (
	"image/color"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"

	"github.com/archenav/archenav/examples/demo_game/render"
)

func TestDrawerProjectsOntoTheCanvas(t *testing.T) {
	canvas := render.NewRaster(20, 20)
	canvas.Clear(Background)
	view := View{Scale: 2, OffsetX: 0, OffsetY: 0}
	d := &Drawer{Canvas: canvas, View: view}
	opaque := color.NRGBA{200, 100, 50, 255}
	d.Triangle(mgl32.Vec3{0, 5, 0}, mgl32.Vec3{5, 5, 0}, mgl32.Vec3{0, 5, 5}, opaque) // height ignored
	assert.Equal(t, premultiply(opaque), canvas.Image().RGBAAt(2, 2))
	d.Line(mgl32.Vec3{0, 0, 8}, mgl32.Vec3{9, 0, 8}, 2, opaque)
	assert.Equal(t, premultiply(opaque), canvas.Image().RGBAAt(10, 16))
	d.Point(mgl32.Vec3{8, 0, 2}, 4, opaque)
	assert.Equal(t, premultiply(opaque), canvas.Image().RGBAAt(16, 4))

	for _, c := range []color.NRGBA{{1, 2, 3, 255}, {255, 255, 255, 255}, {0, 0, 0, 0}, {250, 10, 128, 128}} {
		back := straight(premultiply(c))
		assert.InDelta(t, c.R, back.R, 2, "%v", c)
		assert.InDelta(t, c.G, back.G, 2)
		assert.InDelta(t, c.B, back.B, 2)
		assert.Equal(t, c.A, back.A)
	}
	assert.Equal(t, color.RGBA{1, 2, 3, 255}, premultiply(color.NRGBA{1, 2, 3, 255}), "opaque colours pass unchanged")
}
