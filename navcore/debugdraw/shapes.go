package debugdraw

import (
	"github.com/archenav/archenav/internal/detmath"
	"image/color"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// CircleSegments is how many lines Circle and CylinderWire draw a circle
// with, and how many triangles Disc fills one with.
const CircleSegments = 32

// ArcSegments is how many lines Arc draws an arc with.
const ArcSegments = 8

// circleDirections holds cos and sin of CircleSegments even steps around
// the circle.
var circleDirections = func() (dirs [CircleSegments][2]float32) {
	for i := range dirs {
		angle := float64(float64(i)/CircleSegments) * 2 * math.Pi
		dirs[i] = [2]float32{float32(detmath.Cos(angle)), float32(detmath.Sin(angle))}
	}
	return dirs
}()

// circlePoint returns the point of the horizontal circle around center at
// step i of CircleSegments.
func circlePoint(center mgl32.Vec3, radius float32, i int) mgl32.Vec3 {
	dir := circleDirections[i%CircleSegments]
	return mgl32.Vec3{center[0] + float32(dir[0]*radius), center[1], center[2] + float32(dir[1]*radius)}
}

// Circle draws the horizontal circle of radius around center with
// CircleSegments lines width pixels wide (duAppendCircle).
//
// radius [Units: world units]
func Circle(d Drawer, center mgl32.Vec3, radius, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	previous := circlePoint(center, radius, CircleSegments-1)
	for i := range CircleSegments {
		p := circlePoint(center, radius, i)
		d.Line(previous, p, width, stroke)
		previous = p
	}
}

// Disc fills the horizontal disc of radius around center with
// CircleSegments triangles, fanned from the centre.
//
// radius [Units: world units]
func Disc(d Drawer, center mgl32.Vec3, radius float32, fill color.NRGBA) {
	if d == nil {
		return
	}
	previous := circlePoint(center, radius, CircleSegments-1)
	for i := range CircleSegments {
		p := circlePoint(center, radius, i)
		d.Triangle(center, previous, p, fill)
		previous = p
	}
}

// CylinderWire draws the upright cylinder inside the box bmin..bmax: the
// circles of its bottom and top (CircleSegments lines each) and four
// upright lines (duAppendCylinderWire).
func CylinderWire(d Drawer, bmin, bmax mgl32.Vec3, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	center := mgl32.Vec3{(bmin[0] + bmax[0]) / 2, bmin[1], (bmin[2] + bmax[2]) / 2}
	radiusX, radiusZ := (bmax[0]-bmin[0])/2, (bmax[2]-bmin[2])/2
	at := func(i int, y float32) mgl32.Vec3 {
		dir := circleDirections[i%CircleSegments]
		return mgl32.Vec3{center[0] + float32(dir[0]*radiusX), y, center[2] + float32(dir[1]*radiusZ)}
	}
	for i := range CircleSegments {
		d.Line(at(i, bmin[1]), at(i+1, bmin[1]), width, stroke)
		d.Line(at(i, bmax[1]), at(i+1, bmax[1]), width, stroke)
	}
	for i := 0; i < CircleSegments; i += CircleSegments / 4 {
		d.Line(at(i, bmin[1]), at(i, bmax[1]), width, stroke)
	}
}

// Cross draws three lines through p along x, y and z, each size long
// (duAppendCross).
//
// size [Units: world units]
func Cross(d Drawer, p mgl32.Vec3, size, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	h := float32(size / 2)
	d.Line(mgl32.Vec3{p[0] - h, p[1], p[2]}, mgl32.Vec3{p[0] + h, p[1], p[2]}, width, stroke)
	d.Line(mgl32.Vec3{p[0], p[1] - h, p[2]}, mgl32.Vec3{p[0], p[1] + h, p[2]}, width, stroke)
	d.Line(mgl32.Vec3{p[0], p[1], p[2] - h}, mgl32.Vec3{p[0], p[1], p[2] + h}, width, stroke)
}

// Arrow draws the line from from to to, with an arrow head headFrom long at
// from and one headTo long at to (none when 0); each head is two lines
// (duAppendArrow).
//
// headFrom, headTo [Units: world units]
func Arrow(d Drawer, from, to mgl32.Vec3, headFrom, headTo, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	d.Line(from, to, width, stroke)
	if headFrom > 0 {
		arrowHead(d, from, to, headFrom, width, stroke)
	}
	if headTo > 0 {
		arrowHead(d, to, from, headTo, width, stroke)
	}
}

// Arc draws a parabola from from to to that rises lift times their distance
// above the straight line at its middle (an off-mesh connection, a jump),
// with ArcSegments lines and arrow heads as in Arrow. The arc leaves 5 % of
// its length free at each end, so that its heads stay clear of the marks
// at the end points (duAppendArc).
//
// lift [Limit: >= 0, 0.25 a good start]; headFrom, headTo [Units: world units]
func Arc(d Drawer, from, to mgl32.Vec3, lift, headFrom, headTo, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	const pad = 0.05
	delta := to.Sub(from)
	height := geom.Len(delta) * lift
	at := func(u float32) mgl32.Vec3 {
		bow := 1 - float32((float32(2*u)-1)*(float32(2*u)-1))
		return mgl32.Vec3{from[0] + float32(delta[0]*u), from[1] + float32(delta[1]*u) + float32(height*bow), from[2] + float32(delta[2]*u)}
	}
	previous := at(pad)
	for i := 1; i <= ArcSegments; i++ {
		p := at(pad + float32(float32(i)*(1-2*pad)/ArcSegments))
		d.Line(previous, p, width, stroke)
		previous = p
	}
	if headFrom > 0 {
		arrowHead(d, at(pad), at(pad+0.05), headFrom, width, stroke)
	}
	if headTo > 0 {
		arrowHead(d, at(1-pad), at(1-pad-0.05), headTo, width, stroke)
	}
}

// arrowHead draws the two lines of a head size long with its tip at tip,
// opening towards back.
func arrowHead(d Drawer, tip, back mgl32.Vec3, size, width float32, stroke color.NRGBA) {
	along := back.Sub(tip)
	length := geom.Len(along)
	if !(length > 1e-6) {
		return
	}
	along = along.Mul(1 / length)
	side := geom.Cross(mgl32.Vec3{0, 1, 0}, along)
	if sideLength := geom.Len(side); sideLength > 1e-6 {
		side = side.Mul(1 / sideLength)
	} else { // an upright shaft: open the head along x
		side = mgl32.Vec3{1, 0, 0}
	}
	base := tip.Add(along.Mul(size))
	spread := side.Mul(size / 3)
	d.Line(tip, base.Add(spread), width, stroke)
	d.Line(tip, base.Sub(spread), width, stroke)
}

// BoxWire draws the 12 edges of the box bmin..bmax (duAppendBoxWire).
func BoxWire(d Drawer, bmin, bmax mgl32.Vec3, width float32, stroke color.NRGBA) {
	if d == nil {
		return
	}
	corners := boxCorners(bmin, bmax)
	for _, e := range boxEdges {
		d.Line(corners[e[0]], corners[e[1]], width, stroke)
	}
}

// BoxFaces are the colours of a box's six faces, in the order of the
// Face constants.
type BoxFaces [6]color.NRGBA

// The faces of a box, as BoxFaces indices.
const (
	FaceTop = iota
	FaceBottom
	FacePositiveX
	FaceNegativeX
	FacePositiveZ
	FaceNegativeZ
)

// ShadedBox returns box faces lit from above: top at full brightness, the
// sides darker by how they face (duCalcBoxColors).
func ShadedBox(top, side color.NRGBA) BoxFaces {
	return BoxFaces{
		FaceTop:       Scale(top, 250.0/256),
		FaceBottom:    Scale(side, 140.0/256),
		FacePositiveX: Scale(side, 165.0/256),
		FaceNegativeX: Scale(side, 165.0/256),
		FacePositiveZ: Scale(side, 217.0/256),
		FaceNegativeZ: Scale(side, 217.0/256),
	}
}

// Box fills the six faces of the box bmin..bmax, two triangles each
// (duAppendBox).
func Box(d Drawer, bmin, bmax mgl32.Vec3, faces BoxFaces) {
	if d == nil {
		return
	}
	c := boxCorners(bmin, bmax)
	for face, q := range boxQuads {
		Quad(d, c[q[0]], c[q[1]], c[q[2]], c[q[3]], faces[face])
	}
}

// Quad fills the quadrilateral a, b, c, e (convex, in order around it) with
// two triangles.
func Quad(d Drawer, a, b, c, e mgl32.Vec3, fill color.NRGBA) {
	if d == nil {
		return
	}
	d.Triangle(a, b, c, fill)
	d.Triangle(a, c, e, fill)
}

// boxCorners returns the corners of bmin..bmax: bit 0 of the index picks
// max x, bit 1 max y, bit 2 max z.
func boxCorners(bmin, bmax mgl32.Vec3) (c [8]mgl32.Vec3) {
	for i := range c {
		for axis, bit := range [3]int{1, 2, 4} {
			if i&bit != 0 {
				c[i][axis] = bmax[axis]
			} else {
				c[i][axis] = bmin[axis]
			}
		}
	}
	return c
}

var boxEdges = [12][2]int{
	{0, 1}, {1, 5}, {5, 4}, {4, 0}, // bottom (y min)
	{2, 3}, {3, 7}, {7, 6}, {6, 2}, // top (y max)
	{0, 2}, {1, 3}, {5, 7}, {4, 6}, // uprights
}

// boxQuads lists each face's corners in order around it, by Face index.
var boxQuads = [6][4]int{
	FaceTop:       {2, 6, 7, 3},
	FaceBottom:    {0, 1, 5, 4},
	FacePositiveX: {1, 3, 7, 5},
	FaceNegativeX: {0, 4, 6, 2},
	FacePositiveZ: {4, 5, 7, 6},
	FaceNegativeZ: {0, 2, 3, 1},
}
