package geom

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// Vec3 is the vector type used throughout archenav: x, y (up), z.
type Vec3 = mgl32.Vec3

// Add returns a + b.
func Add(a, b Vec3) Vec3 { return Vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

// Sub returns a - b.
func Sub(a, b Vec3) Vec3 { return Vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }

// Scale returns v * s.
func Scale(v Vec3, s float32) Vec3 {
	return Vec3{float32(v[0] * s), float32(v[1] * s), float32(v[2] * s)}
}

// Mad returns a + b*s (multiply-add, rounded after each operation).
func Mad(a, b Vec3, s float32) Vec3 {
	return Vec3{a[0] + float32(b[0]*s), a[1] + float32(b[1]*s), a[2] + float32(b[2]*s)}
}

// Lerp returns a + (b-a)*t.
func Lerp(a, b Vec3, t float32) Vec3 {
	return Vec3{a[0] + float32((b[0]-a[0])*t), a[1] + float32((b[1]-a[1])*t), a[2] + float32((b[2]-a[2])*t)}
}

// Cross returns the cross product a × b.
func Cross(a, b Vec3) Vec3 {
	return Vec3{
		float32(a[1]*b[2]) - float32(a[2]*b[1]),
		float32(a[2]*b[0]) - float32(a[0]*b[2]),
		float32(a[0]*b[1]) - float32(a[1]*b[0]),
	}
}

// Dot returns the dot product a · b.
func Dot(a, b Vec3) float32 {
	return float32(a[0]*b[0]) + float32(a[1]*b[1]) + float32(a[2]*b[2])
}

// Min returns the component-wise minimum of a and b.
func Min(a, b Vec3) Vec3 {
	return Vec3{min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2])}
}

// Max returns the component-wise maximum of a and b.
func Max(a, b Vec3) Vec3 {
	return Vec3{max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2])}
}

// Sqrt returns the square root of x rounded to float32, the same value as C's
// sqrtf.
func Sqrt(x float32) float32 { return float32(math.Sqrt(float64(x))) }

// Len returns the length of v.
func Len(v Vec3) float32 { return Sqrt(LenSqr(v)) }

// LenSqr returns the squared length of v.
func LenSqr(v Vec3) float32 {
	return float32(v[0]*v[0]) + float32(v[1]*v[1]) + float32(v[2]*v[2])
}

// Dist returns the distance between a and b.
func Dist(a, b Vec3) float32 {
	return Sqrt(DistSqr(a, b))
}

// DistSqr returns the squared distance between a and b.
func DistSqr(a, b Vec3) float32 {
	dx, dy, dz := b[0]-a[0], b[1]-a[1], b[2]-a[2]
	return float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
}

// Dist2D returns the distance between a and b in the xz-plane.
func Dist2D(a, b Vec3) float32 {
	return Sqrt(Dist2DSqr(a, b))
}

// Dist2DSqr returns the squared distance between a and b in the xz-plane.
func Dist2DSqr(a, b Vec3) float32 {
	dx, dz := b[0]-a[0], b[2]-a[2]
	return float32(dx*dx) + float32(dz*dz)
}

// Normalize returns v scaled to unit length. A zero vector gives NaNs, as in
// the reference; callers check the length first where it can be zero.
func Normalize(v Vec3) Vec3 {
	return Scale(v, 1/Len(v))
}

// equalThresholdSqr is the squared distance under which two points count as
// the same point: (1/16384)².
const equalThresholdSqr = float32(1.0/16384.0) * float32(1.0/16384.0)

// Equal reports whether a and b are within 1/16384 world units of each other.
func Equal(a, b Vec3) bool { return DistSqr(a, b) < equalThresholdSqr }

// IsFinite reports whether every component of v is neither NaN nor infinite.
func IsFinite(v Vec3) bool {
	// Without a branch a component: a component's exponent bits plus one
	// unit of the lowest exponent bit carry into bit 31 only when they are
	// all ones.
	const exp, carry = 0x7f800000, 0x00800000
	x := (math.Float32bits(v[0])&exp + carry) | (math.Float32bits(v[1])&exp + carry) | (math.Float32bits(v[2])&exp + carry)
	return x&0x80000000 == 0
}

// IsFinite2D reports whether the x and z components of v are finite.
func IsFinite2D(v Vec3) bool { return isFinite(v[0]) && isFinite(v[2]) }

// isFinite tests the exponent bits: all ones is an infinity or a NaN.
func isFinite(f float32) bool { return math.Float32bits(f)&0x7f800000 != 0x7f800000 }

// Dot2D returns the dot product of a and b in the xz-plane.
func Dot2D(a, b Vec3) float32 { return float32(a[0]*b[0]) + float32(a[2]*b[2]) }

// Perp2D returns the xz-plane perp product a.z*b.x - a.x*b.z.
func Perp2D(a, b Vec3) float32 { return float32(a[2]*b[0]) - float32(a[0]*b[2]) }

// TriArea2D returns twice the signed xz-plane area of triangle abc. It is
// positive when c lies to the right of the directed line ab seen from above
// (clockwise winding in Detour's convention).
func TriArea2D(a, b, c Vec3) float32 {
	abx, abz := b[0]-a[0], b[2]-a[2]
	acx, acz := c[0]-a[0], c[2]-a[2]
	return float32(acx*abz) - float32(abx*acz)
}

// OverlapBounds reports whether the boxes [aMin, aMax] and [bMin, bMax]
// overlap; touching boxes overlap.
func OverlapBounds(aMin, aMax, bMin, bMax Vec3) bool {
	return !(aMin[0] > bMax[0] || aMax[0] < bMin[0] ||
		aMin[1] > bMax[1] || aMax[1] < bMin[1] ||
		aMin[2] > bMax[2] || aMax[2] < bMin[2])
}

// OverlapQuantBounds reports whether two boxes in quantised (uint16) units
// overlap; touching boxes overlap.
func OverlapQuantBounds(aMin, aMax, bMin, bMax [3]uint16) bool {
	return !(aMin[0] > bMax[0] || aMax[0] < bMin[0] ||
		aMin[1] > bMax[1] || aMax[1] < bMin[1] ||
		aMin[2] > bMax[2] || aMax[2] < bMin[2])
}

// NextPow2 returns the smallest power of two not below v (0 for 0).
func NextPow2(v uint32) uint32 {
	v--
	v |= v >> 1
	v |= v >> 2
	v |= v >> 4
	v |= v >> 8
	v |= v >> 16
	v++
	return v
}

// Ilog2 returns floor(log2(v)), and 0 for 0.
func Ilog2(v uint32) uint32 {
	var r uint32
	for v > 1 {
		v >>= 1
		r++
	}
	return r
}

// Align4 rounds x up to a multiple of 4.
func Align4(x int) int { return (x + 3) &^ 3 }

// OppositeSide returns the tile side opposite to side (0..7, counter-clockwise
// from +x).
func OppositeSide(side int) int { return (side + 4) & 7 }
