package geom

import (
	"math"

	"github.com/archenav/archenav/internal/detmath"
	"github.com/go-gl/mathgl/mgl32"
)

// The quaternion operations archenav applies at run time, with every
// product rounded before it is added: mgl32's methods compute the same on
// amd64, but they fuse multiply-adds on arm64 and with GOAMD64=v3, and
// mgl32.QuatRotate takes package math's sine and cosine, which differ there
// too (docs/determinism.md). These give mgl32's bits of an amd64 build on
// every architecture.

// QuatRotate returns the rotation by angle about axis, mgl32.QuatRotate's
// value. angle [Units: radians]; axis [Limit: a unit vector].
func QuatRotate(angle float32, axis Vec3) mgl32.Quat {
	half := float64(angle / 2)
	return mgl32.Quat{W: float32(detmath.Cos(half)), V: Scale(axis, float32(detmath.Sin(half)))}
}

// QuatMul returns the product a·b (b's rotation first, then a's),
// mgl32.Quat.Mul's value.
func QuatMul(a, b mgl32.Quat) mgl32.Quat {
	return mgl32.Quat{
		W: float32(a.W*b.W) - Dot(a.V, b.V),
		V: Add(Add(Cross(a.V, b.V), Scale(b.V, a.W)), Scale(a.V, b.W)),
	}
}

// QuatRotateVec returns v turned by the unit quaternion q,
// mgl32.Quat.Rotate's value.
func QuatRotateVec(q mgl32.Quat, v Vec3) Vec3 {
	cross := Cross(q.V, v)
	return Add(Add(v, Scale(cross, 2*q.W)), Cross(Scale(q.V, 2), cross))
}

// QuatNormalize returns q scaled to unit length, mgl32.Quat.Normalize's
// value: q itself when its length is within mgl32.Epsilon of 1, the
// identity for the zero quaternion.
func QuatNormalize(q mgl32.Quat) mgl32.Quat {
	norm := float32(q.W*q.W) + float32(q.V[0]*q.V[0]) + float32(q.V[1]*q.V[1]) + float32(q.V[2]*q.V[2])
	length := float32(math.Sqrt(float64(norm)))
	switch {
	case mgl32.FloatEqual(1, length):
		return q
	case length == 0:
		return mgl32.QuatIdent()
	case math.IsInf(float64(length), 1):
		length = mgl32.MaxValue
	}
	return mgl32.Quat{W: q.W * 1 / length, V: Scale(q.V, 1/length)}
}
