package query

import "github.com/archenav/archenav/navcore/geom"

// point is a position for the hot loops. Unlike geom.Vec3 (an array, which
// the Go compiler keeps in memory) a small struct lives in registers.
type point struct{ x, y, z float32 }

func toPoint(v geom.Vec3) point { return point{v[0], v[1], v[2]} }

func (p point) vec() geom.Vec3 { return geom.Vec3{p.x, p.y, p.z} }

// triArea2D is geom.TriArea2D on points.
func triArea2D(a, b, c point) float32 {
	abx, abz := b.x-a.x, b.z-a.z
	acx, acz := c.x-a.x, c.z-a.z
	return acx*abz - abx*acz
}

// samePoint is geom.Equal on points: closer than 1/16384.
func samePoint(a, b point) bool {
	dx, dy, dz := b.x-a.x, b.y-a.y, b.z-a.z
	const threshold = float32(1.0/16384.0) * float32(1.0/16384.0)
	return dx*dx+dy*dy+dz*dz < threshold
}
