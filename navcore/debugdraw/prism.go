package debugdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"
)

// Prism fills the upright prism over the convex polygon outline (x, z, in
// order around it, either winding) from minY to maxY: its top with a fan
// of len(outline)-2 triangles and each side with two, the sides darker as
// ShadedBox shades them. Fewer than three corners draw nothing.
//
// minY, maxY [Units: world units]
func Prism(d Drawer, outline []mgl32.Vec2, minY, maxY float32, fill color.NRGBA) {
	if d == nil {
		return
	}
	if len(outline) < 3 {
		return
	}
	at := func(i int, y float32) mgl32.Vec3 {
		p := outline[i%len(outline)]
		return mgl32.Vec3{p[0], y, p[1]}
	}
	side := Scale(fill, 200.0/256)
	for i := range outline {
		Quad(d, at(i, minY), at(i+1, minY), at(i+1, maxY), at(i, maxY), side)
	}
	top := Scale(fill, 250.0/256)
	for i := 2; i < len(outline); i++ {
		d.Triangle(at(0, maxY), at(i-1, maxY), at(i, maxY), top)
	}
}

// PrismWire draws the edges of the prism Prism fills: the outline at minY
// and at maxY and an upright line at every corner (3·len(outline) lines).
// Fewer than two corners draw nothing.
func PrismWire(d Drawer, outline []mgl32.Vec2, minY, maxY, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	if len(outline) < 2 {
		return
	}
	for i, p := range outline {
		q := outline[(i+1)%len(outline)]
		d.Line(mgl32.Vec3{p[0], minY, p[1]}, mgl32.Vec3{q[0], minY, q[1]}, width, stroke)
		d.Line(mgl32.Vec3{p[0], maxY, p[1]}, mgl32.Vec3{q[0], maxY, q[1]}, width, stroke)
		d.Line(mgl32.Vec3{p[0], minY, p[1]}, mgl32.Vec3{p[0], maxY, p[1]}, width, stroke)
	}
}

// Cylinder fills the upright cylinder inside the box bmin..bmax: its top
// with CircleSegments triangles fanned from the centre and its side with
// two per segment, darker (duAppendCylinder without the bottom, which no
// view from above shows).
func Cylinder(d Drawer, bmin, bmax mgl32.Vec3, fill color.NRGBA) {
	if d == nil {
		return
	}
	center := mgl32.Vec3{(bmin[0] + bmax[0]) / 2, bmax[1], (bmin[2] + bmax[2]) / 2}
	radiusX, radiusZ := (bmax[0]-bmin[0])/2, (bmax[2]-bmin[2])/2
	at := func(i int, y float32) mgl32.Vec3 {
		dir := circleDirections[i%CircleSegments]
		return mgl32.Vec3{center[0] + float32(dir[0]*radiusX), y, center[2] + float32(dir[1]*radiusZ)}
	}
	side := Scale(fill, 200.0/256)
	for i := range CircleSegments {
		Quad(d, at(i, bmin[1]), at(i+1, bmin[1]), at(i+1, bmax[1]), at(i, bmax[1]), side)
	}
	top := Scale(fill, 250.0/256)
	for i := range CircleSegments {
		d.Triangle(center, at(i, bmax[1]), at(i+1, bmax[1]), top)
	}
}
