// Package raster draws debugdraw primitives into an image: a pure-Go
// rasterizer with a depth buffer, seen through a debugdraw.View from above
// (TopView) or at an angle (IsoView, FitView), so a level with floors above
// floors can be looked at in 3D. Encode the result as PNG with
// image/png or Canvas.EncodePNG.
//
// # Start here
//
// New a Canvas for a debugdraw.View (debugdraw.FitView frames what a
// debugdraw.Recorder holds; TopView and IsoView frame a box), draw into it
// as into any debugdraw.Drawer (navdraw, bakedraw and crowddraw draw
// through one, or Replay a Recorder), then EncodePNG. docs/debugging.md is
// the guide; Example (navcore/debugdraw/raster/example_test.go) draws a
// floor in an isometric view.
//
//	canvas, err := raster.New(scene.FitView(debugdraw.IsoYaw, debugdraw.IsoPitch, 640, 480, 8), raster.Options{Samples: 2})
//	scene.Replay(canvas)
//	err = canvas.EncodePNG(file)
//
// Every primitive is depth-tested (a pixel is drawn when it is at least as
// near as what is there) and writes its depth, translucent ones included:
// a translucent floor drawn over a lower one blends over it, a lower one
// drawn later is hidden. Lines and points are moved towards the viewer by
// Options.DepthBias, so edges lying on a surface show over it. Pixels are
// sampled once at their centre (no anti-aliasing) unless Options.Samples
// asks for more; triangles follow the top-left rule, so the triangles of a
// mesh cover every pixel once and translucent meshes show no seams.
package raster
