// Package blocks builds the small examples' levels out of axis-aligned
// floor rectangles and boxes, so that the examples need no level file.
package blocks

import (
	"github.com/archenav/archenav/bake"
	"github.com/go-gl/mathgl/mgl32"
)

// Level is a level being built; Geometry returns it for a bake.
type Level struct {
	geometry bake.Geometry
}

// Floor adds a walkable rectangle from (x0, z0) to (x1, z1) at height y
// [Units: world units].
func (l *Level) Floor(x0, z0, x1, z1, y float32) *Level {
	l.quad(mgl32.Vec3{x0, y, z0}, mgl32.Vec3{x0, y, z1}, mgl32.Vec3{x1, y, z1}, mgl32.Vec3{x1, y, z0})
	return l
}

// Box adds a solid box from (x0, y0, z0) to (x1, y1, z1): its top is walkable
// when agents fit there, its sides are walls [Units: world units].
func (l *Level) Box(x0, y0, z0, x1, y1, z1 float32) *Level {
	// Top, facing up, then the four sides facing out.
	l.quad(mgl32.Vec3{x0, y1, z0}, mgl32.Vec3{x0, y1, z1}, mgl32.Vec3{x1, y1, z1}, mgl32.Vec3{x1, y1, z0})
	l.quad(mgl32.Vec3{x0, y0, z0}, mgl32.Vec3{x0, y1, z0}, mgl32.Vec3{x1, y1, z0}, mgl32.Vec3{x1, y0, z0})
	l.quad(mgl32.Vec3{x1, y0, z1}, mgl32.Vec3{x1, y1, z1}, mgl32.Vec3{x0, y1, z1}, mgl32.Vec3{x0, y0, z1})
	l.quad(mgl32.Vec3{x0, y0, z1}, mgl32.Vec3{x0, y1, z1}, mgl32.Vec3{x0, y1, z0}, mgl32.Vec3{x0, y0, z0})
	l.quad(mgl32.Vec3{x1, y0, z0}, mgl32.Vec3{x1, y1, z0}, mgl32.Vec3{x1, y1, z1}, mgl32.Vec3{x1, y0, z1})
	return l
}

// Area marks the walkable surface inside the rectangle from (x0, z0) to
// (x1, z1), between heights minY and maxY, with area id (bake's convex
// volume) [Units: world units].
func (l *Level) Area(x0, z0, x1, z1, minY, maxY float32, area uint8) *Level {
	l.geometry.ConvexVolumes = append(l.geometry.ConvexVolumes, bake.ConvexVolume{
		Vertices: []mgl32.Vec3{{x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}},
		MinY:     minY,
		MaxY:     maxY,
		Area:     area,
	})
	return l
}

// Link adds an off-mesh connection (a jump, a ladder) from start to end.
func (l *Level) Link(link bake.OffMeshConnection) *Level {
	l.geometry.OffMeshConnections = append(l.geometry.OffMeshConnections, link)
	return l
}

// Geometry returns the level built so far (sharing its slices).
func (l *Level) Geometry() *bake.Geometry { return &l.geometry }

// quad adds the quad a, b, c, d as two triangles wound like it: a floor's
// corners go counter-clockwise seen from above (x right, z down).
func (l *Level) quad(a, b, c, d mgl32.Vec3) {
	base := int32(len(l.geometry.Vertices))
	l.geometry.Vertices = append(l.geometry.Vertices, a, b, c, d)
	l.geometry.Triangles = append(l.geometry.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
}
