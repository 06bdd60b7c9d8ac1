package raster_test

import (
	"bytes"
	"fmt"
	"image/color"
	"log"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
)

// Draw a floor with a wall line in an isometric view and encode it as a
// PNG.
func Example() {
	bmin, bmax := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 2, 10}
	canvas, err := raster.New(debugdraw.IsoView(bmin, bmax, 160, 120, 8), raster.Options{Samples: 2})
	if err != nil {
		log.Fatal(err)
	}
	canvas.Clear(color.NRGBA{36, 40, 48, 255})
	debugdraw.Quad(canvas, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{10, 0, 10}, mgl32.Vec3{0, 0, 10}, color.NRGBA{0, 192, 255, 200})
	canvas.Line(mgl32.Vec3{0, 0, 10}, mgl32.Vec3{10, 0, 10}, 3, color.NRGBA{0, 48, 64, 255})
	var png bytes.Buffer
	if err := canvas.EncodePNG(&png); err != nil {
		log.Fatal(err)
	}
	fmt.Println(canvas.Image().Bounds().Size(), png.Len() > 0)
	// Output: (160,120) true
}
