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
// follows the same algorithm up to |x| < 120. Beyond that x is first reduced
// modulo 2π (math.Remainder, in float64, and a correction for the low part of
// 2π), which keeps the result within an ulp of the true cosine up to
// |x| = 10¹². Cos gives the same bits on every architecture; ±Inf and NaN give
// NaN.
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
		return cosReduced(float64(x))
	case isFinite(x):
		return cosReduced(reduceTurns(float64(x)))
	default:
		return float32(math.NaN())
	}
}

// Sin returns the sine of x rounded to float32 exactly as glibc's sinf (2.28
// and later) rounds it, the counterpart of Cos: DetourTileCache turns an
// oriented box's yaw into its rotation with cosf and sinf. It follows glibc's
// algorithm up to |x| < 120 (checked against it for every float32 in
// [-4, 4]) and reduces larger arguments as Cos does. Sin gives the same bits
// on every architecture; ±Inf and NaN give NaN.
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
		return sinReduced(float64(x))
	case isFinite(x):
		return sinReduced(reduceTurns(float64(x)))
	default:
		return float32(math.NaN())
	}
}

// 2π as the sum of two float64 values: the large-argument reduction removes
// whole turns of twoPiHigh exactly, then their twoPiLow part.
const (
	twoPiHigh = 0x1.921fb54442d18p2
	twoPiLow  = 0x1.1a62633145c07p-52
)

// reduceTurns returns d minus the whole turns nearest it, in [-π, π] up to
// rounding: math.Remainder is exact, and the low part of 2π times the turns
// is rounded before it is subtracted, so the result is the same on every
// architecture. Beyond |d| = 2^40 only the exact remainder is taken.
func reduceTurns(d float64) float64 {
	rest := math.Remainder(d, twoPiHigh)
	if math.Abs(d) > 0x1p40 {
		return rest // float32 arguments 2^17 apart: no angle left to be exact about
	}
	turns := math.Round((d - rest) / twoPiHigh)
	return rest - float64(turns*twoPiLow)
}

// cosReduced is cos(d) for |d| < 120 by glibc's fast reduction: d minus the
// nearest multiple n of π/2, then ±cos or ±sin of the rest.
func cosReduced(d float64) float32 {
	r, quadrant := reduceQuarterTurns(d)
	if quadrant&1 != 0 {
		if q := quadrant & 3; q == 1 || q == 2 {
			return sinPolynomial(-r, r*r) // cos(x) = ∓sin(x - nπ/2) for odd n
		}
		return sinPolynomial(r, r*r)
	}
	return cosPolynomial(r*r, quadrantSign(quadrant))
}

// sinReduced is sin(d) for |d| < 120, the counterpart of cosReduced.
func sinReduced(d float64) float32 {
	r, quadrant := reduceQuarterTurns(d)
	if quadrant&1 != 0 {
		return cosPolynomial(r*r, quadrantSign(quadrant)) // sin(x) = ±cos(x - nπ/2) for odd n
	}
	if q := quadrant & 3; q == 1 || q == 2 {
		return sinPolynomial(-r, r*r)
	}
	return sinPolynomial(r, r*r)
}

// reduceQuarterTurns returns d - n·π/2 and n for the n nearest d/(π/2), the
// product rounded before the subtraction as in glibc.
func reduceQuarterTurns(d float64) (rest float64, quadrant int) {
	quadrant = (int(int32(d*cosQuadrantScale)) + 0x800000) >> 24
	return d - float64(float64(quadrant)*halfPi), quadrant
}

// quadrantSign is -1 for the quadrants 2 and 3 (mod 4) of a reduction.
func quadrantSign(quadrant int) float64 {
	if quadrant&2 != 0 {
		return -1
	}
	return 1
}

// exponentTop returns the exponent and top three mantissa bits of |x|.
func exponentTop(x float32) uint32 { return math.Float32bits(x) >> 20 & 0x7ff }

// cosPolynomial evaluates sign·cos on [-π/4, π/4] from x².
func cosPolynomial(x2, sign float64) float32 {
	x4 := x2 * x2
	c2 := float64(sign*cosC3) + float64(x2*(sign*cosC4))
	c1 := float64(sign*cosC0) + float64(x2*(sign*cosC1))
	x6 := x4 * x2
	c := c1 + float64(x4*(sign*cosC2))
	return float32(c + float64(x6*c2))
}

// sinPolynomial evaluates sin on [-π/4, π/4].
func sinPolynomial(x, x2 float64) float32 {
	x3 := x * x2
	s1 := sinS2 + float64(x2*sinS3)
	x7 := x3 * x2
	s := x + float64(x3*sinS1)
	return float32(s + float64(x7*s1))
}
