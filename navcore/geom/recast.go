package geom

import "math"

// Floor returns the largest integer value not above x, the same value as C's
// floorf.
func Floor(x float32) float32 { return float32(math.Floor(float64(x))) }

// Ceil returns the smallest integer value not below x, the same value as C's
// ceilf.
func Ceil(x float32) float32 { return float32(math.Ceil(float64(x))) }

// Coefficients of glibc's single-precision sine and cosine (2018 "fast
// cosf"): one polynomial pair on [-π/4, π/4], evaluated in float64.
const (
	cosQuadrantScale = 0x1.45F306DC9C883p+23 // 2/π · 2^24
	halfPi           = 0x1.921FB54442D18p0   // π/2
	cosC0            = 0x1p0
	cosC1            = -0x1.ffffffd0c621cp-2
	cosC2            = 0x1.55553e1068f19p-5
	cosC3            = -0x1.6c087e89a359dp-10
	cosC4            = 0x1.99343027bf8c3p-16
	sinS1            = -0x1.555545995a603p-3
	sinS2            = 0x1.1107605230bc4p-7
	sinS3            = -0x1.994eb3774cf24p-13
)

// Cos returns the cosine of x rounded to float32 exactly as glibc's cosf
// (2.28 and later) rounds it, which is not always the correctly rounded value:
// Recast's slope threshold cosf(angle) must be reproduced bit for bit. It is
// exact against glibc for every float32 in [0, π/2] (checked exhaustively) and
// follows the same algorithm up to |x| < 120; beyond that it falls back to the
// correctly rounded cosine.
func Cos(x float32) float32 {
	top := exponentTop(x)
	switch {
	case top < exponentTop(float32(math.Pi/4)):
		if top < exponentTop(0x1p-12) {
			return 1
		}
		d := float64(x)
		return cosPolynomial(d*d, 1)
	case top < exponentTop(120):
		d := float64(x)
		quadrant := (int(int32(d*cosQuadrantScale)) + 0x800000) >> 24
		d -= float64(quadrant) * halfPi
		sign := 1.0
		if q := quadrant & 3; q == 1 || q == 2 {
			sign = -1
		}
		negate := 1.0
		if quadrant&2 != 0 {
			negate = -1
		}
		if quadrant&1 != 0 {
			return sinPolynomial(d*sign, d*d) // cos(x) = ∓sin(x - nπ/2) for odd n
		}
		return cosPolynomial(d*d, negate)
	default:
		return float32(math.Cos(float64(x)))
	}
}

// Sin returns the sine of x rounded to float32 exactly as glibc's sinf (2.28
// and later) rounds it, the counterpart of Cos: DetourTileCache turns an
// oriented box's yaw into its rotation with cosf and sinf. It follows glibc's
// algorithm up to |x| < 120 (checked against it for every float32 in
// [-4, 4]); beyond that it falls back to the correctly rounded sine.
func Sin(x float32) float32 {
	top := exponentTop(x)
	switch {
	case top < exponentTop(float32(math.Pi/4)):
		if top < exponentTop(0x1p-12) {
			return x
		}
		d := float64(x)
		return sinPolynomial(d, d*d)
	case top < exponentTop(120):
		d := float64(x)
		quadrant := (int(int32(d*cosQuadrantScale)) + 0x800000) >> 24
		d -= float64(quadrant) * halfPi
		sign := 1.0
		if q := quadrant & 3; q == 1 || q == 2 {
			sign = -1
		}
		negate := 1.0
		if quadrant&2 != 0 {
			negate = -1
		}
		if quadrant&1 != 0 {
			return cosPolynomial(d*d, negate) // sin(x) = ±cos(x - nπ/2) for odd n
		}
		return sinPolynomial(d*sign, d*d)
	default:
		return float32(math.Sin(float64(x)))
	}
}

// exponentTop returns the exponent and top three mantissa bits of |x|.
func exponentTop(x float32) uint32 { return math.Float32bits(x) >> 20 & 0x7ff }

// cosPolynomial evaluates sign·cos on [-π/4, π/4] from x².
func cosPolynomial(x2, sign float64) float32 {
	x4 := x2 * x2
	c2 := sign*cosC3 + x2*(sign*cosC4)
	c1 := sign*cosC0 + x2*(sign*cosC1)
	x6 := x4 * x2
	c := c1 + x4*(sign*cosC2)
	return float32(c + x6*c2)
}

// sinPolynomial evaluates sin on [-π/4, π/4].
func sinPolynomial(x, x2 float64) float32 {
	x3 := x * x2
	s1 := sinS2 + x2*sinS3
	x7 := x3 * x2
	s := x + x3*sinS1
	return float32(s + x7*s1)
}
