// Package svg writes debugdraw primitives as an SVG image, seen through a
// debugdraw.View from above or at an angle.
//
// # Start here
//
// New a Canvas for a debugdraw.View (debugdraw.FitView frames what a
// debugdraw.Recorder holds; TopView and IsoView frame a box), draw into it
// as into any debugdraw.Drawer (navdraw, bakedraw and crowddraw draw
// through one, or Replay a Recorder), then WriteTo a file.
// docs/debugging.md is the guide; Example
// (navcore/debugdraw/svg/example_test.go) draws a triangle from above.
//
//	canvas, err := svg.New(scene.FitView(debugdraw.IsoYaw, debugdraw.IsoPitch, 640, 480, 8), svg.Options{})
//	scene.Replay(canvas)
//	_, err = canvas.WriteTo(file)
//
// SVG has no depth buffer, so the canvas keeps every primitive and sorts
// them far to near before writing (the painter's algorithm, by the depth of
// each triangle's farthest corner, each line's middle and each point: a line
// or a point lying on a triangle is never farther than it); primitives at
// the same depth keep the order they were drawn in, and lines and points
// are moved towards the viewer by Options.DepthBias so that edges lying on a
// surface are drawn after it. Neighbouring primitives of one colour and
// width become one SVG path, which keeps files small and hides the hairline
// seams renderers show between separate shapes.
package svg
