package tilecache

import (
	"errors"
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
)

// ObstacleShape tells the kinds of Obstacle apart.
type ObstacleShape uint8

// Obstacle shapes.
const (
	// ShapeCylinder is an upright cylinder (dtObstacleCylinder).
	ShapeCylinder ObstacleShape = iota + 1
	// ShapeBox is an axis-aligned box (dtObstacleBox).
	ShapeBox
	// ShapeOrientedBox is a box turned about the y axis
	// (dtObstacleOrientedBox).
	ShapeOrientedBox
	// ShapePrism is a convex polygon in xz extruded over a y range; the
	// C++ has none.
	ShapePrism
)

// String returns the shape's name: "cylinder", "box", "orientedbox",
// "prism" (the CSV type names of navtool tilecache).
func (s ObstacleShape) String() string {
	switch s {
	case ShapeCylinder:
		return "cylinder"
	case ShapeBox:
		return "box"
	case ShapeOrientedBox:
		return "orientedbox"
	case ShapePrism:
		return "prism"
	}
	return fmt.Sprintf("ObstacleShape(%d)", uint8(s))
}

// MaxPrismPoints is the most corners a prism obstacle's polygon has.
const MaxPrismPoints = 16

// ErrInvalidObstacle is wrapped for an Obstacle whose numbers are not
// finite, negative where a size is asked, an unknown shape, a prism that is
// not convex or an area above 63.
var ErrInvalidObstacle = errors.New("tilecache: invalid obstacle")

// Obstacle is a temporary obstacle (dtTileCacheObstacle): a shape that,
// with Area NullArea, carves the cells of the layers it covers out of the
// navmesh, or, with another Area, gives those cells that area (a runtime
// modifier volume: mud, a closed door); the mesh process turns areas into
// polygon flags. Which cells a shape covers follows the C++: a cell is
// marked when its floor height lies in the shape's y range and, in xz, its
// centre lies within the cylinder's radius plus half a cell, any part of it
// lies in the box, or its lower corner lies in the oriented box; for a
// prism, when any part of it overlaps the polygon. Obstacles are not
// widened by the agent radius: make them as large as the agents must keep
// away. Build one with Cylinder, Box, OrientedBox or Prism.
type Obstacle struct {
	// Shape is the kind of obstacle.
	Shape ObstacleShape
	// Position is a cylinder's base centre or an oriented box's centre
	// [Units: world units].
	Position mgl32.Vec3
	// Radius and Height size a cylinder [Limit: Radius > 0, Height >= 0]
	// [Units: world units].
	Radius, Height float32
	// Min and Max bound a box [Limit: Min < Max in x and z, Min <= Max in
	// y]; for a prism only their y values count, the prism's y range
	// [Units: world units].
	Min, Max mgl32.Vec3
	// HalfExtents are an oriented box's half sizes along its own axes
	// [Limit: > 0 in x and z, >= 0 in y] [Units: world units].
	HalfExtents mgl32.Vec3
	// Yaw turns an oriented box about +y [Units: radians].
	Yaw float32
	// Points are a prism's corners in xz (x, z), convex, either winding;
	// the first PointCount are used [Units: world units].
	Points [MaxPrismPoints]mgl32.Vec2
	// PointCount is the number of corners of a prism; Prism sets it to the
	// number of points it was given, of which Points holds the first
	// MaxPrismPoints [Limit: 3..MaxPrismPoints].
	PointCount int
	// Area is NullArea to carve, or the area id the covered cells get
	// [Limit: 0..63].
	Area uint8
}

// Cylinder returns an upright cylinder obstacle standing on base
// (dtTileCache::addObstacle).
func Cylinder(base mgl32.Vec3, radius, height float32) Obstacle {
	return Obstacle{Shape: ShapeCylinder, Position: base, Radius: radius, Height: height}
}

// Box returns an axis-aligned box obstacle (dtTileCache::addBoxObstacle).
func Box(min, max mgl32.Vec3) Obstacle {
	return Obstacle{Shape: ShapeBox, Min: min, Max: max}
}

// OrientedBox returns a box obstacle turned by yaw radians about +y
// (the rotated dtTileCache::addBoxObstacle).
func OrientedBox(center, halfExtents mgl32.Vec3, yaw float32) Obstacle {
	return Obstacle{Shape: ShapeOrientedBox, Position: center, HalfExtents: halfExtents, Yaw: yaw}
}

// Prism returns a prism obstacle: the convex polygon points (x, z) over
// minY..maxY. A polygon of more than MaxPrismPoints corners is refused when
// added, as is one that is not convex.
func Prism(points []mgl32.Vec2, minY, maxY float32) Obstacle {
	o := Obstacle{Shape: ShapePrism, PointCount: len(points)}
	copy(o.Points[:], points)
	o.Min[1], o.Max[1] = minY, maxY
	return o
}

// WithArea returns o marking area instead of carving (area NullArea
// carves).
func (o Obstacle) WithArea(area uint8) Obstacle {
	o.Area = area
	return o
}

// check reports why o cannot be added, nil when it can: the one set of
// rules for obstacles, which the crowd's obstacle components
// (components.Obstacle.Validate) and navtool's obstacle files apply too.
func (o *Obstacle) check() error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("tilecache: %s obstacle: %s: %w", o.Shape, fmt.Sprintf(format, args...), ErrInvalidObstacle)
	}
	if o.Area > WalkableArea {
		return fail("area %d, limit %d", o.Area, WalkableArea)
	}
	switch o.Shape {
	case ShapeCylinder:
		switch {
		case !geom.IsFinite(o.Position):
			return fail("base %v is not finite", o.Position)
		case !(o.Radius > 0) || !finite(o.Radius):
			return fail("radius %v, want a finite number > 0", o.Radius)
		case !(o.Height >= 0) || !finite(o.Height):
			return fail("height %v, want a finite number >= 0", o.Height)
		}
	case ShapeBox:
		if !geom.IsFinite(o.Min) || !geom.IsFinite(o.Max) {
			return fail("bounds %v..%v are not finite", o.Min, o.Max)
		}
		for axis, name := range "xyz" {
			empty := o.Min[axis] >= o.Max[axis]
			if axis == 1 {
				empty = o.Min[axis] > o.Max[axis] // a flat box still marks floors at its height
			}
			if empty {
				return fail("min %c %v is not below max %c %v", name, o.Min[axis], name, o.Max[axis])
			}
		}
	case ShapeOrientedBox:
		switch {
		case !geom.IsFinite(o.Position) || !finite(o.Yaw):
			return fail("centre %v or yaw %v is not finite", o.Position, o.Yaw)
		case !geom.IsFinite(o.HalfExtents) || !(o.HalfExtents[0] > 0) || !(o.HalfExtents[1] >= 0) || !(o.HalfExtents[2] > 0):
			return fail("half extents %v, want finite numbers > 0 in x and z, >= 0 in y", o.HalfExtents)
		}
	case ShapePrism:
		if o.PointCount < 3 || o.PointCount > MaxPrismPoints {
			return fail("%d corners, want 3..%d", o.PointCount, MaxPrismPoints)
		}
		if !finite(o.Min[1]) || !finite(o.Max[1]) || o.Min[1] > o.Max[1] {
			return fail("y range %v..%v must be finite and ordered", o.Min[1], o.Max[1])
		}
		if err := checkConvex(o.Points[:o.PointCount]); err != nil {
			return fail("%v", err)
		}
	default:
		return fail("unknown shape")
	}
	return nil
}

// checkConvex reports whether points form a convex polygon with a non-zero
// area, in either winding.
func checkConvex(points []mgl32.Vec2) error {
	for i, p := range points {
		if !finite(p[0]) || !finite(p[1]) {
			return fmt.Errorf("corner %d is %v, not finite", i, p)
		}
	}
	n := len(points)
	sign := 0
	for i := range n {
		a, b, c := points[i], points[(i+1)%n], points[(i+2)%n]
		cross := float64(float64(b[0]-a[0])*float64(c[1]-b[1])) - float64(float64(b[1]-a[1])*float64(c[0]-b[0]))
		switch {
		case cross > 0 && sign >= 0:
			sign = 1
		case cross < 0 && sign <= 0:
			sign = -1
		case cross != 0:
			return fmt.Errorf("not convex at corner %d", (i+1)%n)
		}
	}
	if sign == 0 {
		return fmt.Errorf("the corners are collinear")
	}
	return nil
}

// placedObstacle is an Obstacle with what marking needs precomputed: its
// bounds and, for an oriented box, the C++'s rotation terms.
type placedObstacle struct {
	Obstacle
	bmin, bmax mgl32.Vec3
	// rotAux is {cos(yaw/2)·sin(-yaw/2), cos²(yaw/2) − 1/2} as
	// addBoxObstacle computes it with cosf and sinf.
	rotAux [2]float32
}

// place computes the bounds (dtTileCache::getObstacleBounds) and rotation
// of o, which must have passed check.
func place(o Obstacle) placedObstacle {
	p := placedObstacle{Obstacle: o}
	switch o.Shape {
	case ShapeCylinder:
		p.bmin = mgl32.Vec3{o.Position[0] - o.Radius, o.Position[1], o.Position[2] - o.Radius}
		p.bmax = mgl32.Vec3{o.Position[0] + o.Radius, o.Position[1] + o.Height, o.Position[2] + o.Radius}
	case ShapeBox:
		p.bmin, p.bmax = o.Min, o.Max
	case ShapeOrientedBox:
		maxr := float32(1.41 * max(o.HalfExtents[0], o.HalfExtents[2]))
		c, h := o.Position, o.HalfExtents
		p.bmin = mgl32.Vec3{c[0] - maxr, c[1] - h[1], c[2] - maxr}
		p.bmax = mgl32.Vec3{c[0] + maxr, c[1] + h[1], c[2] + maxr}
		cosHalf := geom.Cos(0.5 * o.Yaw)
		sinHalf := geom.Sin(-0.5 * o.Yaw)
		p.rotAux = [2]float32{cosHalf * sinHalf, float32(cosHalf*cosHalf) - 0.5}
	case ShapePrism:
		p.bmin = mgl32.Vec3{o.Points[0][0], o.Min[1], o.Points[0][1]}
		p.bmax = mgl32.Vec3{o.Points[0][0], o.Max[1], o.Points[0][1]}
		for _, pt := range o.Points[1:o.PointCount] {
			p.bmin[0], p.bmax[0] = min(p.bmin[0], pt[0]), max(p.bmax[0], pt[0])
			p.bmin[2], p.bmax[2] = min(p.bmin[2], pt[1]), max(p.bmax[2], pt[1])
		}
	}
	return p
}

// cellIndex floors a cell coordinate and clamps it to ±2^30, where the
// C++'s (int)floorf would be undefined.
func cellIndex(f float32) int {
	const limit = 1 << 30
	f = geom.Floor(f)
	switch {
	case f < -limit:
		return -limit
	case f > limit:
		return limit
	}
	return int(f)
}

// cellRange clamps the cell rectangle [minx, maxx]×[minz, maxz] to a w×h
// grid; ok is false when it misses the grid.
func cellRange(minx, maxx, minz, maxz, w, h int) (x0, x1, z0, z1 int, ok bool) {
	if maxx < 0 || minx >= w || maxz < 0 || minz >= h {
		return 0, 0, 0, 0, false
	}
	return max(minx, 0), min(maxx, w-1), max(minz, 0), min(maxz, h-1), true
}

// mark gives the cells of layer that o covers the area o.Area
// (dtMarkCylinderArea, dtMarkBoxArea, both forms, and the prism). An area
// obstacle marks only cells that have ground; carving marks every covered
// cell, as the C++ does.
func (o *placedObstacle) mark(layer *Layer, cs, ch float32) {
	orig := layer.Header.BMin
	w, h := int(layer.Header.Width), int(layer.Header.Height)
	ics, ich := 1/cs, 1/ch
	area := o.Area
	set := func(idx int) {
		if area == NullArea || layer.Areas[idx] != NullArea {
			layer.Areas[idx] = area
		}
	}
	switch o.Shape {
	case ShapeCylinder:
		pos := o.Position
		r := o.Radius/cs + 0.5
		r2 := r * r
		px, pz := float32((pos[0]-orig[0])*ics), float32((pos[2]-orig[2])*ics)
		miny := cellIndex((o.bmin[1] - orig[1]) * ich)
		maxy := cellIndex((o.bmax[1] - orig[1]) * ich)
		x0, x1, z0, z1, ok := cellRange(cellIndex((o.bmin[0]-orig[0])*ics), cellIndex((o.bmax[0]-orig[0])*ics),
			cellIndex((o.bmin[2]-orig[2])*ics), cellIndex((o.bmax[2]-orig[2])*ics), w, h)
		if !ok {
			return
		}
		for z := z0; z <= z1; z++ {
			for x := x0; x <= x1; x++ {
				dx := float32(x) + 0.5 - px
				dz := float32(z) + 0.5 - pz
				if float32(dx*dx)+float32(dz*dz) > r2 {
					continue
				}
				if y := int(layer.Heights[x+z*w]); y >= miny && y <= maxy {
					set(x + z*w)
				}
			}
		}
	case ShapeBox:
		miny := cellIndex((o.Min[1] - orig[1]) * ich)
		maxy := cellIndex((o.Max[1] - orig[1]) * ich)
		x0, x1, z0, z1, ok := cellRange(cellIndex((o.Min[0]-orig[0])*ics), cellIndex((o.Max[0]-orig[0])*ics),
			cellIndex((o.Min[2]-orig[2])*ics), cellIndex((o.Max[2]-orig[2])*ics), w, h)
		if !ok {
			return
		}
		for z := z0; z <= z1; z++ {
			for x := x0; x <= x1; x++ {
				if y := int(layer.Heights[x+z*w]); y >= miny && y <= maxy {
					set(x + z*w)
				}
			}
		}
	case ShapeOrientedBox:
		c, half := o.Position, o.HalfExtents
		cx, cz := float32((c[0]-orig[0])*ics), float32((c[2]-orig[2])*ics)
		maxr := 1.41 * max(half[0], half[2])
		miny := cellIndex((c[1] - half[1] - orig[1]) * ich)
		maxy := cellIndex((c[1] + half[1] - orig[1]) * ich)
		x0, x1, z0, z1, ok := cellRange(cellIndex(cx-float32(maxr*ics)), cellIndex(cx+float32(maxr*ics)),
			cellIndex(cz-float32(maxr*ics)), cellIndex(cz+float32(maxr*ics)), w, h)
		if !ok {
			return
		}
		xhalf := float32(half[0]*ics) + 0.5
		zhalf := float32(half[2]*ics) + 0.5
		for z := z0; z <= z1; z++ {
			for x := x0; x <= x1; x++ {
				x2 := float32(2 * (float32(x) - cx))
				z2 := float32(2 * (float32(z) - cz))
				xrot := float32(o.rotAux[1]*x2) + float32(o.rotAux[0]*z2)
				if xrot > xhalf || xrot < -xhalf {
					continue
				}
				zrot := float32(o.rotAux[1]*z2) - float32(o.rotAux[0]*x2)
				if zrot > zhalf || zrot < -zhalf {
					continue
				}
				if y := int(layer.Heights[x+z*w]); y >= miny && y <= maxy {
					set(x + z*w)
				}
			}
		}
	case ShapePrism:
		o.markPrism(layer, ics, ich, set)
	}
}

// markPrism marks the cells whose square overlaps the prism's polygon (a
// separating-axis test in cell units) and whose floor lies in its y range.
func (o *placedObstacle) markPrism(layer *Layer, ics, ich float32, set func(int)) {
	orig := layer.Header.BMin
	w, h := int(layer.Header.Width), int(layer.Header.Height)
	miny := cellIndex((o.Min[1] - orig[1]) * ich)
	maxy := cellIndex((o.Max[1] - orig[1]) * ich)
	x0, x1, z0, z1, ok := cellRange(cellIndex((o.bmin[0]-orig[0])*ics), cellIndex((o.bmax[0]-orig[0])*ics),
		cellIndex((o.bmin[2]-orig[2])*ics), cellIndex((o.bmax[2]-orig[2])*ics), w, h)
	if !ok {
		return
	}
	// The polygon in cell units, each edge's normal and the polygon's
	// extent along it.
	n := o.PointCount
	var pts [MaxPrismPoints][2]float64
	var normals [MaxPrismPoints][2]float64
	var lo, hi [MaxPrismPoints]float64
	for i := range n {
		pts[i] = [2]float64{float64((o.Points[i][0] - orig[0]) * ics), float64((o.Points[i][1] - orig[2]) * ics)}
	}
	for i := range n {
		a, b := pts[i], pts[(i+1)%n]
		normals[i] = [2]float64{b[1] - a[1], a[0] - b[0]}
		lo[i], hi[i] = projectPoints(normals[i], pts[:n])
	}
	for z := z0; z <= z1; z++ {
		for x := x0; x <= x1; x++ {
			if y := int(layer.Heights[x+z*w]); y < miny || y > maxy {
				continue
			}
			square := [4][2]float64{{float64(x), float64(z)}, {float64(x + 1), float64(z)}, {float64(x + 1), float64(z + 1)}, {float64(x), float64(z + 1)}}
			separated := false
			for i := range n {
				sl, sh := projectPoints(normals[i], square[:])
				if sh < lo[i] || sl > hi[i] {
					separated = true
					break
				}
			}
			if !separated {
				set(x + z*w)
			}
		}
	}
}

// projectPoints returns the extent of points along axis.
func projectPoints(axis [2]float64, points [][2]float64) (lo, hi float64) {
	lo = float64(axis[0]*points[0][0]) + float64(axis[1]*points[0][1])
	hi = lo
	for _, p := range points[1:] {
		d := float64(axis[0]*p[0]) + float64(axis[1]*p[1])
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}
