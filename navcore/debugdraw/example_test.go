package debugdraw_test

import (
	"fmt"
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
)

// lineCounter is the smallest Drawer: it counts what it is given. A real
// one projects each position with its camera and draws.
type lineCounter struct{ triangles, lines, points int }

func (c *lineCounter) Triangle(a, b, e mgl32.Vec3, fill color.NRGBA)           { c.triangles++ }
func (c *lineCounter) Line(a, b mgl32.Vec3, width float32, stroke color.NRGBA) { c.lines++ }
func (c *lineCounter) Point(p mgl32.Vec3, size float32, fill color.NRGBA)      { c.points++ }

// Implement Drawer in your renderer and every archenav drawer draws into it;
// shapes are made of the three primitives.
func ExampleDrawer() {
	var d lineCounter
	debugdraw.Circle(&d, mgl32.Vec3{0, 0, 0}, 1, 2, color.NRGBA{255, 255, 255, 255})
	debugdraw.Arc(&d, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{4, 1, 0}, 0.25, 0, 0.5, 2, color.NRGBA{255, 0, 0, 255})
	debugdraw.Box(&d, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 1, 1}, debugdraw.ShadedBox(color.NRGBA{200, 200, 200, 255}, color.NRGBA{150, 150, 150, 255}))
	fmt.Printf("%d triangles, %d lines, %d points\n", d.triangles, d.lines, d.points)
	// Output: 12 triangles, 42 lines, 0 points
}

// A Recorder keeps a drawing to replay every frame, and frames it with a
// view that fits what was drawn.
func ExampleRecorder() {
	var scene debugdraw.Recorder
	debugdraw.Quad(&scene, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{10, 0, 5}, mgl32.Vec3{0, 0, 5}, color.NRGBA{0, 192, 255, 128})
	scene.Line(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, 2, color.NRGBA{0, 48, 64, 220})

	width, height := scene.FitSize(0, 90, 200, 32, 10)
	view := scene.FitView(0, 90, width, height, 10)
	x, y, _ := view.Project(mgl32.Vec3{10, 0, 5})
	fmt.Printf("%d primitives in a %d×%d image; (10, 0, 5) at pixel (%.0f, %.0f)\n", scene.Len(), width, height, x, y)
	// Output: 3 primitives in a 220×120 image; (10, 0, 5) at pixel (210, 110)
}

// Views map world positions to pixels and depth: from above, x runs right
// and z down the image.
func ExampleTopView() {
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{100, 10, 50}, 400, 200, 0)
	x, y, depth := view.Project(mgl32.Vec3{25, 10, 40})
	fmt.Printf("pixel (%.0f, %.0f), depth %.0f, %.0f pixels per unit\n", x, y, depth, view.Scale())
	// Output: pixel (100, 160), depth -10, 4 pixels per unit
}
