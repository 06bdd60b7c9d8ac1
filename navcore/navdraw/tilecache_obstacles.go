package navdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

// TileCacheObstacles draws the obstacles of a tile cache
// (tilecache.Cache.Obstacles) in their own shapes, filled by status as
// RecastDemo's TempObstacles sample colours them (Style.ObstaclePending,
// ObstacleBuilding, ObstacleUpToDate, ObstacleRemoving) and edged with the
// fill darkened, Style.ObstacleWidth wide. An area obstacle's fill is
// blended half way to its area's colour. See Obstacle for the shapes.
func TileCacheObstacles(d debugdraw.Drawer, obstacles []tilecache.ObstacleInfo, style Style) {
	if d == nil {
		return
	}
	for i := range obstacles {
		info := &obstacles[i]
		var fill color.NRGBA
		switch info.Status {
		case tilecache.ObstaclePending:
			fill = style.ObstaclePending
		case tilecache.ObstacleBuilding:
			fill = style.ObstacleBuilding
		case tilecache.ObstacleRemoving:
			fill = style.ObstacleRemoving
		default:
			fill = style.ObstacleUpToDate
		}
		if area := info.Obstacle.Area; area != tilecache.NullArea {
			fill = debugdraw.Lerp(fill, style.areaColor(area, fill.A), 0.5)
		}
		Obstacle(d, &info.Obstacle, fill, debugdraw.Darken(fill), style.ObstacleWidth)
	}
}

// Obstacle draws one tile cache obstacle in its shape: a cylinder as
// debugdraw.Cylinder and CylinderWire, a box as debugdraw.Prism and BoxWire,
// an oriented box (turned as the cache marks it) and a prism as
// debugdraw.Prism and PrismWire, filled with fill and edged with stroke.
// An obstacle of an unknown shape or a prism of fewer than three corners
// draws nothing.
func Obstacle(d debugdraw.Drawer, o *tilecache.Obstacle, fill, stroke color.NRGBA, width float32) {
	if d == nil || o == nil {
		return
	}
	switch o.Shape {
	case tilecache.ShapeCylinder:
		bmin := mgl32.Vec3{o.Position[0] - o.Radius, o.Position[1], o.Position[2] - o.Radius}
		bmax := mgl32.Vec3{o.Position[0] + o.Radius, o.Position[1] + o.Height, o.Position[2] + o.Radius}
		debugdraw.Cylinder(d, bmin, bmax, fill)
		debugdraw.CylinderWire(d, bmin, bmax, width, stroke)
	case tilecache.ShapeBox:
		// As a prism, without the bottom face, so that every shape seen
		// from above shows its fill once.
		outline := [4]mgl32.Vec2{{o.Min[0], o.Min[2]}, {o.Max[0], o.Min[2]}, {o.Max[0], o.Max[2]}, {o.Min[0], o.Max[2]}}
		debugdraw.Prism(d, outline[:], o.Min[1], o.Max[1], fill)
		debugdraw.BoxWire(d, o.Min, o.Max, width, stroke)
	case tilecache.ShapeOrientedBox:
		// The cache marks a cell whose offset (dx, dz) from the centre,
		// turned by -yaw, lies within the half sizes: so a corner at local
		// (lx, lz) lies at (cos·lx + sin·lz, −sin·lx + cos·lz).
		cos, sin := geom.Cos(o.Yaw), geom.Sin(o.Yaw)
		c, h := o.Position, o.HalfExtents
		var outline [4]mgl32.Vec2
		for i, corner := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			lx, lz := corner[0]*h[0], corner[1]*h[2]
			outline[i] = mgl32.Vec2{c[0] + float32(cos*lx) + float32(sin*lz), c[2] - float32(sin*lx) + float32(cos*lz)}
		}
		debugdraw.Prism(d, outline[:], c[1]-h[1], c[1]+h[1], fill)
		debugdraw.PrismWire(d, outline[:], c[1]-h[1], c[1]+h[1], width, stroke)
	case tilecache.ShapePrism:
		if o.PointCount < 3 || o.PointCount > tilecache.MaxPrismPoints {
			return
		}
		outline := o.Points[:o.PointCount]
		debugdraw.Prism(d, outline, o.Min[1], o.Max[1], fill)
		debugdraw.PrismWire(d, outline, o.Min[1], o.Max[1], width, stroke)
	}
}
