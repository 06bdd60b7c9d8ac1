package collider

import (
	"github.com/archenav/archenav/navcore/geom"
)

// primitive is a box, sphere, capsule or cylinder in world space, with
// what its column range needs precomputed.
type primitive struct {
	kind Kind
	// Boxes: centre, unit axes, half sizes and corners (corner i has bit k
	// set when it lies on the positive side of axis k).
	center  geom.Vec3
	axes    [3]geom.Vec3
	half    [3]float32
	corners [8]geom.Vec3
	// Spheres, capsules and cylinders: the axis from a to b (a = b for a
	// sphere), unit direction and length, and the radius.
	a, b   geom.Vec3
	axis   geom.Vec3
	length float32
	radius float32
}

// newPrimitive returns the primitive of a placed box, sphere, capsule or
// cylinder.
func newPrimitive(p *Placed) primitive {
	s := &p.shape
	prim := primitive{kind: s.Kind, center: p.position, radius: s.Radius}
	switch s.Kind {
	case Box, OrientedBox:
		prim.kind = OrientedBox
		for k := range 3 {
			prim.axes[k] = p.rotation.column(k)
			prim.half[k] = s.HalfExtents[k]
		}
		prim.setCorners()
	case Sphere:
		prim.kind = Capsule // a capsule of no length
		prim.a, prim.b = p.position, p.position
	case Capsule, Cylinder:
		prim.axis = normalize(p.rotation.column(1))
		prim.length = 2 * s.HalfHeight
		prim.a = addScaled(p.position, prim.axis, -s.HalfHeight)
		prim.b = addScaled(p.position, prim.axis, s.HalfHeight)
	}
	return prim
}

// setCorners computes a box's corners from its centre, axes and half sizes.
func (prim *primitive) setCorners() {
	for i := range prim.corners {
		c := prim.center
		for k := range 3 {
			h := prim.half[k]
			if i&(1<<k) == 0 {
				h = -h
			}
			c = addScaled(c, prim.axes[k], h)
		}
		prim.corners[i] = c
	}
}

// mirrored returns the primitive mirrored in y (y → -y): its highest point
// over a column is the original's lowest, negated.
func (prim primitive) mirrored() primitive {
	flip := func(v *geom.Vec3) { v[1] = -v[1] }
	flip(&prim.center)
	for k := range prim.axes {
		flip(&prim.axes[k])
	}
	for i := range prim.corners {
		flip(&prim.corners[i])
	}
	flip(&prim.a)
	flip(&prim.b)
	flip(&prim.axis)
	return prim
}

// bounds returns the primitive's axis-aligned box.
func (prim *primitive) bounds() (bmin, bmax geom.Vec3) {
	switch prim.kind {
	case OrientedBox:
		bmin, bmax = prim.corners[0], prim.corners[0]
		for _, c := range prim.corners[1:] {
			bmin, bmax = geom.Min(bmin, c), geom.Max(bmax, c)
		}
	case Capsule:
		r := geom.Vec3{prim.radius, prim.radius, prim.radius}
		bmin = sub(geom.Min(prim.a, prim.b), r)
		bmax = add(geom.Max(prim.a, prim.b), r)
	case Cylinder:
		// A cap disc reaches r·sqrt(1 - axis_i²) from its centre along
		// world axis i.
		var r geom.Vec3
		for i := range 3 {
			r[i] = prim.radius * geom.Sqrt(max(0, 1-float32(prim.axis[i]*prim.axis[i])))
		}
		bmin = sub(geom.Min(prim.a, prim.b), r)
		bmax = add(geom.Max(prim.a, prim.b), r)
	}
	return bmin, bmax
}
