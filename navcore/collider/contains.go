package collider

import "github.com/archenav/archenav/navcore/geom"

// Contains reports whether point q lies in the placed shape, its surface
// included: the plain point-in-shape test the rasterization is checked
// against. A convex hull takes q inside when it lies on the inner side of
// every triangle's plane, within a millionth of the hull's size; a
// triangle mesh has no inside and contains nothing.
func (p *Placed) Contains(q geom.Vec3) bool {
	switch p.shape.Kind {
	case TriangleMesh:
		return false
	case ConvexHull:
		return p.hullContains(q)
	}
	prim := &p.top
	switch prim.kind {
	case OrientedBox:
		offset := sub(q, prim.center)
		for k := range 3 {
			if d := dot(offset, prim.axes[k]); d < -prim.half[k] || d > prim.half[k] {
				return false
			}
		}
		return true
	case Capsule:
		return distanceToSegmentSqr(q, prim.a, prim.b) <= float32(prim.radius*prim.radius)
	case Cylinder:
		offset := sub(q, prim.a)
		along := dot(offset, prim.axis)
		if along < 0 || along > prim.length {
			return false
		}
		radial := addScaled(offset, prim.axis, -along)
		return dot(radial, radial) <= float32(prim.radius*prim.radius)
	}
	return false
}

// hullContains is Contains for a convex hull.
func (p *Placed) hullContains(q geom.Vec3) bool {
	m := p.shape.Mesh
	size := max(p.bmax[0]-p.bmin[0], p.bmax[1]-p.bmin[1], p.bmax[2]-p.bmin[2], 1)
	for _, t := range m.Triangles {
		v0 := p.ToWorld(m.Vertices[t[0]])
		n := normalize(cross(sub(p.ToWorld(m.Vertices[t[1]]), v0), sub(p.ToWorld(m.Vertices[t[2]]), v0)))
		if dot(n, sub(q, v0)) > 1e-6*size {
			return false
		}
	}
	return true
}

// distanceToSegmentSqr returns the squared distance from q to segment ab.
func distanceToSegmentSqr(q, a, b geom.Vec3) float32 {
	ab := sub(b, a)
	t := float32(0)
	if length := dot(ab, ab); length > 0 {
		t = min(max(dot(sub(q, a), ab)/length, 0), 1)
	}
	d := sub(q, addScaled(a, ab, t))
	return dot(d, d)
}
