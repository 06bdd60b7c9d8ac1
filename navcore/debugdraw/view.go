package debugdraw

import (
	"github.com/archenav/archenav/internal/detmath"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// The camera angles of IsoView: the true isometric view, the three axes
// equally foreshortened [Units: degrees].
const (
	IsoYaw   = 45
	IsoPitch = 35.264389682754654 // atan(1/√2)
)

// View is an orthographic camera over an image: it maps a world position to
// a pixel (x right, y down, origin at the image's top-left corner) and a
// depth (larger is farther from the viewer). Adapters project with it; make
// one with TopView, IsoView, FitView or NewView. The zero View maps
// everything to the origin.
type View struct {
	right, up, forward mgl32.Vec3 // unit camera axes in world space
	scale              float32    // pixels per world unit
	originX, originY   float32    // the pixel of the world origin
	width, height      int
	yaw, pitch         float32
}

// cameraAxes returns the camera's right, up and forward axes for yaw and
// pitch in degrees: at yaw 0 the camera looks towards -z with x to the right;
// yaw turns it clockwise seen from above; pitch is the angle below the
// horizon, 90 straight down.
func cameraAxes(yaw, pitch float32) (right, up, forward mgl32.Vec3) {
	y, p := float64(yaw)*math.Pi/180, float64(pitch)*math.Pi/180
	siny, cosy := detmath.Sincos(y)
	sinp, cosp := detmath.Sincos(p)
	horizontal := mgl32.Vec3{float32(-siny), 0, float32(-cosy)}
	right = mgl32.Vec3{float32(cosy), 0, float32(-siny)}
	forward = mgl32.Vec3{float32(horizontal[0] * float32(cosp)), float32(-sinp), float32(horizontal[2] * float32(cosp))}
	up = mgl32.Vec3{float32(horizontal[0] * float32(sinp)), float32(cosp), float32(horizontal[2] * float32(sinp))}
	return right, up, forward
}

// finiteOr returns v, or fallback when v is not finite.
func finiteOr(v, fallback float32) float32 {
	if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
		return fallback
	}
	return v
}

// NewView returns the camera at yaw and pitch (see FitView) that shows center
// in the middle of a width×height image, scale pixels per world unit.
// Non-finite angles count as 0, a scale that is not positive and finite as 1,
// sizes below 1 as 1.
func NewView(yaw, pitch, scale float32, center mgl32.Vec3, width, height int) View {
	yaw, pitch = finiteOr(yaw, 0), finiteOr(pitch, 0)
	if scale = finiteOr(scale, 1); !(scale > 0) {
		scale = 1
	}
	width, height = max(width, 1), max(height, 1)
	v := View{scale: scale, width: width, height: height, yaw: yaw, pitch: pitch}
	v.right, v.up, v.forward = cameraAxes(yaw, pitch)
	v.originX = float32(float32(width)/2) - float32(geom.Dot(center, v.right)*scale)
	v.originY = float32(float32(height)/2) + float32(geom.Dot(center, v.up)*scale)
	return v
}

// FitView returns the camera at yaw and pitch [Units: degrees] that shows
// the box bmin..bmax as large as fits a width×height image with margin
// pixels free on every side, centred. At yaw 0 the camera looks towards -z
// with x to the right, and yaw turns it clockwise seen from above; pitch is
// the angle below the horizon: 90 looks straight down (TopView), 0 from the
// side. A box with no extent on screen gets 1 pixel per world unit.
func FitView(yaw, pitch float32, bmin, bmax mgl32.Vec3, width, height int, margin float32) View {
	yaw, pitch = finiteOr(yaw, 0), finiteOr(pitch, 0)
	corners := boxCorners(bmin, bmax)
	return fitExtent(yaw, pitch, projectExtent(yaw, pitch, corners[:]), width, height, margin)
}

// extent is a box in camera coordinates: along the camera's right and up
// axes [Units: world units].
type extent struct{ minX, maxX, minY, maxY float32 }

// projectExtent returns the extent of points seen at yaw and pitch; an
// empty one when points is.
func projectExtent(yaw, pitch float32, points []mgl32.Vec3) extent {
	right, up, _ := cameraAxes(yaw, pitch)
	e := extent{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Inf(1)), float32(math.Inf(-1))}
	for _, p := range points {
		x, y := geom.Dot(p, right), geom.Dot(p, up)
		e.minX, e.maxX = min(e.minX, x), max(e.maxX, x)
		e.minY, e.maxY = min(e.minY, y), max(e.maxY, y)
	}
	return e
}

func (e extent) span() (x, y float32) {
	if !(e.maxX >= e.minX) || !(e.maxY >= e.minY) {
		return 0, 0
	}
	return e.maxX - e.minX, e.maxY - e.minY
}

// fitExtent returns the view at yaw and pitch showing e as large as fits.
func fitExtent(yaw, pitch float32, e extent, width, height int, margin float32) View {
	spanX, spanY := e.span()
	availableX, availableY := float32(width)-float32(2*margin), float32(height)-float32(2*margin)
	scale := float32(math.Inf(1))
	if spanX > 0 && availableX > 0 {
		scale = availableX / spanX
	}
	if spanY > 0 && availableY > 0 {
		scale = min(scale, availableY/spanY)
	}
	var center mgl32.Vec3
	if e.maxX >= e.minX && e.maxY >= e.minY {
		right, up, _ := cameraAxes(yaw, pitch)
		center = right.Mul((e.minX + e.maxX) / 2).Add(up.Mul((e.minY + e.maxY) / 2))
	}
	return NewView(yaw, pitch, scale, center, width, height)
}

// TopView returns the view from straight above that fits bmin..bmax (see
// FitView): x to the right, z down the image, height hidden.
func TopView(bmin, bmax mgl32.Vec3, width, height int, margin float32) View {
	return FitView(0, 90, bmin, bmax, width, height, margin)
}

// IsoView returns the isometric view that fits bmin..bmax (see FitView),
// looking down at IsoPitch from the +x, +z corner.
func IsoView(bmin, bmax mgl32.Vec3, width, height int, margin float32) View {
	return FitView(IsoYaw, IsoPitch, bmin, bmax, width, height, margin)
}

// FitSize returns an image size for the box bmin..bmax seen at yaw and
// pitch (see FitView): longSide pixels on its long side, the other side in
// proportion, at least minSide, plus margin pixels on every side; a box
// with no extent on screen gets a square.
func FitSize(yaw, pitch float32, bmin, bmax mgl32.Vec3, longSide, minSide int, margin float32) (width, height int) {
	yaw, pitch = finiteOr(yaw, 0), finiteOr(pitch, 0)
	corners := boxCorners(bmin, bmax)
	return fitSize(projectExtent(yaw, pitch, corners[:]), longSide, minSide, margin)
}

func fitSize(e extent, longSide, minSide int, margin float32) (width, height int) {
	spanX, spanY := e.span()
	extra := int(math.Ceil(float64(2 * max(margin, 0))))
	longSide = max(longSide, 1)
	switch {
	case !(spanX > 0) && !(spanY > 0), math.IsInf(float64(spanX+spanY), 0), spanX != spanX || spanY != spanY:
		width, height = longSide, longSide
	case spanX >= spanY:
		width, height = longSide, int(float32(longSide)*spanY/spanX+0.5)
	default:
		width, height = int(float32(longSide)*spanX/spanY+0.5), longSide
	}
	return max(width, minSide, 1) + extra, max(height, minSide, 1) + extra
}

// Project returns the pixel of world position p and its depth along the
// view direction (larger is farther) [Units: pixels; depth in world units].
func (v View) Project(p mgl32.Vec3) (x, y, depth float32) {
	return v.originX + float32(geom.Dot(p, v.right)*v.scale), v.originY - float32(geom.Dot(p, v.up)*v.scale), geom.Dot(p, v.forward)
}

// Unproject returns the world position at pixel x, y and depth: the inverse
// of Project.
func (v View) Unproject(x, y, depth float32) mgl32.Vec3 {
	if v.scale == 0 {
		return mgl32.Vec3{}
	}
	sx, sy := (x-v.originX)/v.scale, (v.originY-y)/v.scale
	return v.right.Mul(sx).Add(v.up.Mul(sy)).Add(v.forward.Mul(depth))
}

// Scale returns how many pixels one world unit spans.
func (v View) Scale() float32 { return v.scale }

// Size returns the image size the view was made for [Units: pixels].
func (v View) Size() (width, height int) { return v.width, v.height }

// Angles returns the camera's yaw and pitch [Units: degrees].
func (v View) Angles() (yaw, pitch float32) { return v.yaw, v.pitch }

// Forward returns the unit direction the camera looks in.
func (v View) Forward() mgl32.Vec3 { return v.forward }

// Enlarged returns the view of an image factor times as wide and as high
// showing the same: for drawing at a higher resolution and scaling down.
// Factors below 1 count as 1.
func (v View) Enlarged(factor int) View {
	factor = max(factor, 1)
	f := float32(factor)
	v.scale *= f
	v.originX *= f
	v.originY *= f
	v.width *= factor
	v.height *= factor
	return v
}
