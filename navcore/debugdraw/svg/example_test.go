package svg_test

import (
	"image/color"
	"log"
	"os"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/svg"
)

// Draw a triangle and its outline from above as SVG.
func Example() {
	corners := [3]mgl32.Vec3{{0, 0, 0}, {4, 0, 0}, {0, 0, 2}}
	canvas, err := svg.New(debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{4, 0, 2}, 40, 20, 0), svg.Options{})
	if err != nil {
		log.Fatal(err)
	}
	canvas.Triangle(corners[0], corners[1], corners[2], color.NRGBA{0, 192, 255, 128})
	for i := range corners {
		canvas.Line(corners[i], corners[(i+1)%3], 1, color.NRGBA{0, 0, 0, 255})
	}
	if _, err := canvas.WriteTo(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
	// <path d="M0 0L40 0L0 20Z" fill="#00c0ff" fill-opacity="0.502"/>
	// <path d="M0 0L40 0 M40 0L0 20 M0 20L0 0" fill="none" stroke="#000000" stroke-width="1" stroke-linecap="round"/>
	// </svg>
}
