package bigworld

import "math"

// The generator's trigonometry, written out so that it gives the same bits
// on every architecture: package math computes Sin, Cos and Hypot in Go code
// that the compiler may fuse into multiply-adds on arm64 (and amd64 has its
// own assembly Hypot), so a level built there could differ in the last bit.
// These follow package math's pure-Go algorithms (Cephes polynomials,
// three-part π/4 reduction) with every product rounded on its own, which
// gives exactly math.Sin, math.Cos and math.Hypot of an amd64 build for
// finite arguments below 2^29 (TestTrigIsPackageMathOnAMD64); larger ones,
// far beyond any level, fall back to package math.

// Cephes coefficients of sin and cos on [-π/4, π/4], highest power first.
var (
	sinCoefficients = [...]float64{
		1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1,
	}
	cosCoefficients = [...]float64{
		-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2,
	}
)

// trigReduceLimit is where package math switches to Payne-Hanek reduction.
const trigReduceLimit = 1 << 29

// reduceOctant returns |x| reduced to [-π/4, π/4] and its octant (0..7),
// the even octant above x/(π/4) when it is odd.
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
	return z + float64(z*zz*horner(&sinCoefficients, zz))
}

// cosPoly is cos(z) for z in [-π/4, π/4], zz = z².
func cosPoly(zz float64) float64 {
	return 1.0 - float64(0.5*zz) + float64(zz*zz*horner(&cosCoefficients, zz))
}

// sin is math.Sin with the same bits everywhere (see the file comment).
func sin(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= trigReduceLimit {
		return math.Sin(x)
	}
	negative := x < 0
	z, octant := reduceOctant(math.Abs(x))
	if octant > 3 {
		negative = !negative
		octant -= 4
	}
	var y float64
	if octant == 1 || octant == 2 {
		y = cosPoly(z * z)
	} else {
		y = sinPoly(z, z*z)
	}
	if negative {
		return -y
	}
	return y
}

// cos is math.Cos with the same bits everywhere (see the file comment).
func cos(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) >= trigReduceLimit {
		return math.Cos(x)
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
		y = sinPoly(z, z*z)
	} else {
		y = cosPoly(z * z)
	}
	if negative {
		return -y
	}
	return y
}

// hypot is math.Hypot with the same bits everywhere: the larger magnitude
// times √(1 + (smaller/larger)²), as amd64's assembly computes it.
func hypot(p, q float64) float64 {
	p, q = math.Abs(p), math.Abs(q)
	if math.IsInf(p, 0) || math.IsInf(q, 0) || math.IsNaN(p) || math.IsNaN(q) {
		return math.Hypot(p, q)
	}
	p, q = max(p, q), min(p, q)
	if p == 0 {
		return 0
	}
	q /= p
	return p * math.Sqrt(1+float64(q*q))
}
