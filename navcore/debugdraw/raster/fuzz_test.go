package raster

import (
	"image/color"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
)

// FuzzPrimitives draws primitives at any coordinates, widths and colours
// through top and angled views: nothing panics, and the image keeps its
// size.
func FuzzPrimitives(f *testing.F) {
	f.Add(float32(1), float32(2), float32(3), float32(-4), float32(0.5), float32(9), float32(2), uint8(200))
	f.Add(float32(math.NaN()), float32(0), float32(0), float32(1e30), float32(-1e30), float32(0), float32(0), uint8(255))
	f.Add(float32(5), float32(5), float32(5), float32(5), float32(5), float32(5), float32(1e9), uint8(1))
	f.Add(float32(-100), float32(0), float32(100), float32(100), float32(0), float32(-100), float32(-3), uint8(128))
	views := []debugdraw.View{
		debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 10, 10}, 24, 16, 2),
		debugdraw.IsoView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 10, 10}, 24, 16, 2),
	}
	f.Fuzz(func(t *testing.T, x0, y0, z0, x1, y1, z1, size float32, alpha uint8) {
		for _, v := range views {
			c, err := New(v, Options{Samples: 2})
			if err != nil {
				t.Fatal(err)
			}
			a, b := mgl32.Vec3{x0, y0, z0}, mgl32.Vec3{x1, y1, z1}
			col := color.NRGBA{200, 100, 50, alpha}
			c.Triangle(a, b, mgl32.Vec3{x0, y1, z1}, col)
			c.Line(a, b, size, col)
			c.Point(a, size, col)
			if got := c.Image().Bounds().Size(); got.X != 24 || got.Y != 16 {
				t.Fatalf("image %v", got)
			}
		}
	})
}
