package collider

import "github.com/archenav/archenav/navcore/geom"

// The helpers below round every product before it is added (an explicit
// conversion, per the Go spec), so that no CPU fuses them into a
// multiply-add and every machine gets the same bits.

func sub(a, b geom.Vec3) geom.Vec3 { return geom.Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

func add(a, b geom.Vec3) geom.Vec3 { return geom.Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func scale(v geom.Vec3, s float32) geom.Vec3 { return geom.Vec3{v[0] * s, v[1] * s, v[2] * s} }

// addScaled returns a + b·s.
func addScaled(a, b geom.Vec3, s float32) geom.Vec3 {
	return geom.Vec3{a[0] + float32(b[0]*s), a[1] + float32(b[1]*s), a[2] + float32(b[2]*s)}
}

func dot(a, b geom.Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

func cross(a, b geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		float32(a[1]*b[2]) - float32(a[2]*b[1]),
		float32(a[2]*b[0]) - float32(a[0]*b[2]),
		float32(a[0]*b[1]) - float32(a[1]*b[0]),
	}
}

func normalize(v geom.Vec3) geom.Vec3 {
	length := geom.Sqrt(dot(v, v))
	if length == 0 {
		return v
	}
	return scale(v, 1/length)
}

// matrix is a 3×3 rotation, row-major.
type matrix [9]float32

// rotationMatrix returns q's rotation (unit q; the zero quaternion is no
// rotation).
func rotationMatrix(q [4]float32) matrix {
	w, x, y, z := q[0], q[1], q[2], q[3]
	norm := float32(w*w) + float32(x*x) + float32(y*y) + float32(z*z)
	if norm == 0 {
		return matrix{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	inv := 1 / geom.Sqrt(norm)
	w, x, y, z = w*inv, x*inv, y*inv, z*inv
	xx, yy, zz := float32(x*x), float32(y*y), float32(z*z)
	xy, xz, yz := float32(x*y), float32(x*z), float32(y*z)
	wx, wy, wz := float32(w*x), float32(w*y), float32(w*z)
	return matrix{
		1 - 2*(yy+zz), 2 * (xy - wz), 2 * (xz + wy),
		2 * (xy + wz), 1 - 2*(xx+zz), 2 * (yz - wx),
		2 * (xz - wy), 2 * (yz + wx), 1 - 2*(xx+yy),
	}
}

// apply returns m·v.
func (m *matrix) apply(v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		float32(m[0]*v[0]) + float32(m[1]*v[1]) + float32(m[2]*v[2]),
		float32(m[3]*v[0]) + float32(m[4]*v[1]) + float32(m[5]*v[2]),
		float32(m[6]*v[0]) + float32(m[7]*v[1]) + float32(m[8]*v[2]),
	}
}

// column returns column i of m: where the local axis i points.
func (m *matrix) column(i int) geom.Vec3 { return geom.Vec3{m[i], m[3+i], m[6+i]} }

func (m *matrix) isIdentity() bool { return *m == matrix{1, 0, 0, 0, 1, 0, 0, 0, 1} }
