package crowd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestImpactCutoffMatchesFormula checks the cutoff against the reference's
// early-out formula for the presets' parameters and random ones, at the
// limit and one float either side of it, and at random remaining penalties
// of every sign and size.
func TestImpactCutoffMatchesFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	params := [][2]float32{{2.5, 2.5}, {0, 2.5}, {1, 1}, {0.001, 100}, {1000, 0.01}}
	for range 200 {
		params = append(params, [2]float32{rng.Float32() * 10, float32(rng.Float32()*10) + 0.001})
	}
	var c impactCutoff
	for _, p := range params {
		weight, horizon := p[0], p[1]
		c.update(weight, horizon)
		check := func(remaining float32) {
			require.Equal(t, cutoffExits(weight, horizon, remaining), c.exits(remaining),
				"weight %v horizon %v remaining %v (limit %v)", weight, horizon, remaining, c.limit)
		}
		inf := float32(math.Inf(1))
		for _, r := range []float32{c.limit, math.Nextafter32(c.limit, inf), math.Nextafter32(c.limit, 0),
			0, float32(math.Copysign(0, -1)), -1, inf, -inf, float32(math.NaN()), math.SmallestNonzeroFloat32, math.MaxFloat32} {
			check(r)
		}
		for range 300 {
			r := math.Float32frombits(rng.Uint32())
			check(r)
			check(c.limit * (0.5 + float32(rng.Float32())))
		}
	}
}
