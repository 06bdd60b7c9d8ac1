package components

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPathWaitsQuantile compares the histogram's quantiles with the sorted
// waits (the nearest-rank quantile): below 4.27 s they agree to a 60th of
// a second, never below it; above, to a factor of two; Max and Sum
// exactly.
func TestPathWaitsQuantile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		waits func(r *rand.Rand) float32
		slack func(want float32) float32
	}{
		{"short", func(r *rand.Rand) float32 { return 4 * r.Float32() }, func(float32) float32 { return 1.0 / 60 }},
		{"ticks", func(r *rand.Rand) float32 { return float32(r.IntN(200)) / 60 }, func(float32) float32 { return 1.0 / 60 }},
		{"long", func(r *rand.Rand) float32 { return float32(math.Exp(6 * r.Float64())) }, func(w float32) float32 { return max(w, 1.0/60) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, 2))
			var h PathWaits
			waits := make([]float32, 5000)
			sum := 0.0
			for i := range waits {
				waits[i] = tc.waits(r)
				sum += float64(waits[i])
				h.Add(waits[i])
			}
			slices.Sort(waits)
			assert.Equal(t, len(waits), h.Count)
			assert.Equal(t, waits[len(waits)-1], h.Max)
			assert.InDelta(t, sum, h.Sum, 1e-6*sum)
			for _, q := range []float64{0, 0.1, 0.5, 0.9, 0.99, 0.999, 1} {
				rank := max(1, int(math.Ceil(q*float64(len(waits)))))
				want := waits[rank-1]
				got := h.Quantile(q)
				assert.GreaterOrEqual(t, got, want, "q %v", q)
				assert.LessOrEqual(t, got-want, tc.slack(want)*1.0001, "q %v: %v against %v", q, got, want)
			}
		})
	}
}

func TestPathWaitsEdges(t *testing.T) {
	var h PathWaits
	assert.Zero(t, h.Quantile(0.99), "empty")
	h.Add(float32(math.NaN()))
	h.Add(-3)
	assert.Equal(t, 2, h.Count)
	assert.Zero(t, h.Max)
	assert.Zero(t, h.Quantile(1))
	h.Add(1e12) // beyond the last bucket's lower edge
	assert.Equal(t, float32(1e12), h.Quantile(1))
	assert.Equal(t, float32(1.0/60), h.Quantile(0.5), "rounded up to its bucket's edge")

	var a, b PathWaits
	for i := range 100 {
		w := float32(i) / 10
		if i%2 == 0 {
			a.Add(w)
		} else {
			b.Add(w)
		}
	}
	var all PathWaits
	for i := range 100 {
		all.Add(float32(i) / 10)
	}
	a.Merge(&b)
	require.Equal(t, all.Count, a.Count)
	assert.Equal(t, all.Max, a.Max)
	assert.InDelta(t, all.Sum, a.Sum, 1e-9)
	assert.Equal(t, all, a)
}
