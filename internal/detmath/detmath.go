// Package detmath holds the few elementary functions archenav evaluates at
// run time (sine, cosine, arctangent, arcsine, arccosine) written so that
// they give the same bits on every architecture.
//
// Package math computes these in Go code that the compiler fuses into
// multiply-add instructions on arm64, ppc64le, s390x, riscv64 and on amd64
// built with GOAMD64=v3, so their last bit, and now and then the float32
// they are converted to, depends on the CPU (docs/determinism.md). The
// functions here follow package math's own algorithms (Cephes polynomials,
// the three-part π/4 reduction) with every product rounded on its own
// before it meets an addition. On amd64 without FMA, 386 and WebAssembly,
// where package math rounds every operation, they give exactly package
// math's bits (TestMatchesPackageMath); on every architecture they give the
// hashes committed in TestGoldenHashes.
//
// The one departure: Sin and Cos of |x| >= 2^29, where package math turns to
// Payne-Hanek reduction, reduce x by whole turns of 2π instead (exact
// remainder, then the low part of 2π): the same bits everywhere, within about
// 10^-15 of the true value up to |x| = 2^52.
package detmath

import "math"

// Cephes coefficients of sin and cos on [-π/4, π/4], highest power first
// (package math's _sin and _cos).
var (
	sinCoefficients = [6]float64{
		1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1,
	}
	cosCoefficients = [6]float64{
		-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2,
	}
)

// reduceLimit is where package math switches to Payne-Hanek reduction.
const reduceLimit = 1 << 29

// 2π as the sum of two float64 values, for arguments beyond reduceLimit.
const (
	twoPiHigh = 0x1.921fb54442d18p2
	twoPiLow  = 0x1.1a62633145c07p-52
)

// Sin returns the sine of x [Units: radians]: math.Sin's value, the same
// bits on every architecture. Sin(±0) = ±0, Sin(±Inf) = Sin(NaN) = NaN.
func Sin(x float64) float64 {
	switch {
	case x == 0 || math.IsNaN(x):
		return x
	case math.IsInf(x, 0):
		return math.NaN()
	case math.Abs(x) >= reduceLimit:
		x = reduceTurns(x)
	}
	negative := x < 0
	z, octant := reduceOctant(math.Abs(x))
	if octant > 3 {
		negative = !negative
		octant -= 4
	}
	var y float64
	if octant == 1 || octant == 2 {
		y = cosPoly(float64(z * z))
	} else {
		y = sinPoly(z, float64(z*z))
	}
	if negative {
		return -y
	}
	return y
}

// Cos returns the cosine of x [Units: radians]: math.Cos's value, the same
// bits on every architecture. Cos(±Inf) = Cos(NaN) = NaN.
func Cos(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.NaN()
	case math.Abs(x) >= reduceLimit:
		x = reduceTurns(x)
	}
	z, octant := reduceOctant(math.Abs(x))
	negative := false
	if octant > 3 {
		octant -= 4
		negative = true
	}
	if octant > 1 {
		negative = !negative
	}
	var y float64
	if octant == 1 || octant == 2 {
		y = sinPoly(z, float64(z*z))
	} else {
		y = cosPoly(float64(z * z))
	}
	if negative {
		return -y
	}
	return y
}

// Sincos returns Sin(x) and Cos(x).
func Sincos(x float64) (sin, cos float64) { return Sin(x), Cos(x) }

// reduceOctant returns x >= 0 reduced to [-π/4, π/4] and its octant
// (0..7), the even octant above x/(π/4) when that is odd.
func reduceOctant(x float64) (z float64, octant uint64) {
	const (
		pi4A = 7.85398125648498535156e-1 // π/4 in three parts
		pi4B = 3.77489470793079817668e-8
		pi4C = 2.69515142907905952645e-15
	)
	octant = uint64(x * (4 / math.Pi))
	y := float64(octant)
	if octant&1 == 1 {
		octant++
		y++
	}
	z = ((x - float64(y*pi4A)) - float64(y*pi4B)) - float64(y*pi4C)
	return z, octant & 7
}

// reduceTurns returns x minus the whole turns nearest it, in [-π, π] up to
// rounding: math.Remainder is exact and the low part of 2π times the turns
// is rounded before it is subtracted. Beyond |x| = 2^52 only the exact
// remainder is taken (the turns would no longer be exact).
func reduceTurns(x float64) float64 {
	rest := math.Remainder(x, twoPiHigh)
	if math.Abs(x) > 0x1p52 {
		return rest
	}
	turns := math.Round((x - rest) / twoPiHigh)
	return rest - float64(turns*twoPiLow)
}

// horner evaluates the polynomial with coefficients c (highest power
// first) at x, rounding each product.
func horner(c *[6]float64, x float64) float64 {
	p := c[0]
	for _, k := range c[1:] {
		p = float64(p*x) + k
	}
	return p
}

// sinPoly is sin(z) for z in [-π/4, π/4], zz = z².
func sinPoly(z, zz float64) float64 {
	return z + float64(float64(z*zz)*horner(&sinCoefficients, zz))
}

// cosPoly is cos(z) for z in [-π/4, π/4] from zz = z².
func cosPoly(zz float64) float64 {
	return 1.0 - float64(0.5*zz) + float64(float64(zz*zz)*horner(&cosCoefficients, zz))
}

// Atan returns the arctangent of x [Units: radians], in [-π/2, π/2]:
// math.Atan's value, the same bits on every architecture.
func Atan(x float64) float64 {
	switch {
	case x == 0:
		return x
	case x > 0:
		return atanPositive(x)
	default:
		return -atanPositive(-x)
	}
}

// Atan2 returns the arctangent of y/x [Units: radians], in [-π, π], using
// the signs of both to find the quadrant: math.Atan2's value with its
// special cases, the same bits on every architecture.
func Atan2(y, x float64) float64 {
	switch {
	case math.IsNaN(y) || math.IsNaN(x):
		return math.NaN()
	case y == 0:
		if x >= 0 && !math.Signbit(x) {
			return math.Copysign(0, y)
		}
		return math.Copysign(math.Pi, y)
	case x == 0:
		return math.Copysign(math.Pi/2, y)
	case math.IsInf(x, 0):
		switch {
		case math.IsInf(x, 1) && math.IsInf(y, 0):
			return math.Copysign(math.Pi/4, y)
		case math.IsInf(x, 1):
			return math.Copysign(0, y)
		case math.IsInf(y, 0):
			return math.Copysign(3*math.Pi/4, y)
		default:
			return math.Copysign(math.Pi, y)
		}
	case math.IsInf(y, 0):
		return math.Copysign(math.Pi/2, y)
	}
	q := Atan(y / x)
	if x < 0 {
		if q <= 0 {
			return q + math.Pi
		}
		return q - math.Pi
	}
	return q
}

// Asin returns the arcsine of x [Units: radians], in [-π/2, π/2]:
// math.Asin's value, the same bits on every architecture. Asin(x) = NaN for
// |x| > 1.
func Asin(x float64) float64 {
	if x == 0 {
		return x
	}
	negative := x < 0
	x = math.Abs(x)
	if x > 1 || math.IsNaN(x) {
		return math.NaN()
	}
	root := math.Sqrt(1 - float64(x*x))
	var y float64
	if x > 0.7 {
		y = math.Pi/2 - atanPositive(root/x)
	} else {
		y = atanPositive(x / root)
	}
	if negative {
		return -y
	}
	return y
}

// Acos returns the arccosine of x [Units: radians], in [0, π]: math.Acos's
// value, the same bits on every architecture. Acos(x) = NaN for |x| > 1.
func Acos(x float64) float64 { return math.Pi/2 - Asin(x) }

// atanPositive is the arctangent of x > 0, reduced to [0, 0.66] first
// (package math's satan).
func atanPositive(x float64) float64 {
	const (
		moreBits      = 6.123233995736765886130e-17 // π/2 = Pi/2 + moreBits
		tanThreePiBy8 = 2.41421356237309504880
	)
	switch {
	case x <= 0.66:
		return atanReduced(x)
	case x > tanThreePiBy8:
		return math.Pi/2 - atanReduced(1/x) + moreBits
	default:
		return math.Pi/4 + atanReduced((x-1)/(x+1)) + 0.5*moreBits
	}
}

// atanReduced is the arctangent of x in [0, 0.66] by Cephes' rational
// approximation (package math's xatan), every product rounded.
func atanReduced(x float64) float64 {
	const (
		p0 = -8.750608600031904122785e-01
		p1 = -1.615753718733365076637e+01
		p2 = -7.500855792314704667340e+01
		p3 = -1.228866684490136173410e+02
		p4 = -6.485021904942025371773e+01
		q0 = +2.485846490142306297962e+01
		q1 = +1.650270098316988542046e+02
		q2 = +4.328810604912902668951e+02
		q3 = +4.853903996359136964868e+02
		q4 = +1.945506571482613964425e+02
	)
	z := float64(x * x) // kept apart: z + q0 below must not fuse
	num := float64(p0*z) + p1
	num = float64(num*z) + p2
	num = float64(num*z) + p3
	num = float64(num*z) + p4
	den := z + q0
	den = float64(den*z) + q1
	den = float64(den*z) + q2
	den = float64(den*z) + q3
	den = float64(den*z) + q4
	z = float64(z*num) / den
	return float64(x*z) + x
}
