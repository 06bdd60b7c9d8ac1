// Package scene draws the demo's world — the navmesh, its walls and tile
// borders, the agents with their velocities, targets and paths, and the
// debug overlays; with several agent types the large type's mesh outline,
// the hatching of where only the small type's mesh reaches and a legend —
// through render.Canvas, so the headless GIF writer and the interactive
// window show the same picture.
package scene

import (
	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
)

// View maps the world seen from above (x to the right, z down the screen;
// height ignored) to canvas pixels.
type View struct {
	// MinX and MinZ are the world point drawn at (OffsetX, OffsetY)
	// [Units: world units].
	MinX, MinZ float32
	// Scale is how many pixels one world unit spans [Limit: > 0].
	Scale float32
	// OffsetX and OffsetY place MinX, MinZ on the canvas [Units: pixels].
	OffsetX, OffsetY float32
}

// Fit returns the view that shows the box bmin..bmax as large as possible
// inside a width×height canvas with margin pixels left free on every side,
// centred. A flat or empty box gets a scale of 1.
func Fit(bmin, bmax geom.Vec3, width, height int, margin float32) View {
	spanX, spanZ := bmax[0]-bmin[0], bmax[2]-bmin[2]
	availableX, availableY := float32(width)-float32(2*margin), float32(height)-float32(2*margin)
	scale := float32(1)
	if spanX > 0 && spanZ > 0 && availableX > 0 && availableY > 0 {
		scale = min(availableX/spanX, availableY/spanZ)
	}
	return View{
		MinX:    bmin[0],
		MinZ:    bmin[2],
		Scale:   scale,
		OffsetX: (float32(width) - float32(spanX*scale)) / 2,
		OffsetY: (float32(height) - float32(spanZ*scale)) / 2,
	}
}

// ToScreen returns the canvas point of world position p.
func (v View) ToScreen(p geom.Vec3) render.Point {
	return render.Point{X: float32((p[0]-v.MinX)*v.Scale) + v.OffsetX, Y: float32((p[2]-v.MinZ)*v.Scale) + v.OffsetY}
}

// ToWorld returns the world x and z under canvas point p.
func (v View) ToWorld(p render.Point) (x, z float32) {
	return (p.X-v.OffsetX)/v.Scale + v.MinX, (p.Y-v.OffsetY)/v.Scale + v.MinZ
}

// Pixels converts a world length to pixels.
func (v View) Pixels(length float32) float32 { return float32(length * v.Scale) }
