//go:build amd64 && !amd64.v3

package bigworld

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTrigIsPackageMathOnAMD64: on amd64 without FMA, package math rounds
// every operation, so the generator's sin, cos and hypot must give its bits
// exactly (for 400,000 arguments across the levels' range and beyond); on
// other architectures the level hash of TestGeometryIsDeterministic checks
// them.
func TestTrigIsPackageMathOnAMD64(t *testing.T) {
	for i := range 200000 {
		x := float64(float64(i)*0.00731) - 500
		for _, v := range []float64{x, x * 1e3} {
			sinV, cosV := math.Sincos(v)
			require.Equal(t, math.Float64bits(math.Sin(v)), math.Float64bits(sin(v)), "sin(%v)", v)
			require.Equal(t, math.Float64bits(math.Cos(v)), math.Float64bits(cos(v)), "cos(%v)", v)
			require.Equal(t, math.Float64bits(sinV), math.Float64bits(sin(v)), "Sincos(%v)", v)
			require.Equal(t, math.Float64bits(cosV), math.Float64bits(cos(v)), "Sincos(%v)", v)
			require.Equal(t, math.Float64bits(math.Hypot(v, x+1)), math.Float64bits(hypot(v, x+1)), "hypot(%v, %v)", v, x+1)
		}
	}
}
