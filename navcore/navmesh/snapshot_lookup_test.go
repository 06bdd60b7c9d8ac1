package navmesh

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFloorInt32 checks floorInt32 against math.Floor saturated to int32
// (NaN 0) on edge values and random bit patterns.
func TestFloorInt32(t *testing.T) {
	want := func(f float32) int {
		g := math.Floor(float64(f))
		switch {
		case g != g:
			return 0
		case g <= math.MinInt32:
			return math.MinInt32
		case g >= math.MaxInt32:
			return math.MaxInt32
		}
		return int(g)
	}
	values := []float32{0, float32(math.Copysign(0, -1)), 0.5, -0.5, 1, -1, 1.5, -1.5, -2,
		1 << 24, -(1 << 24), 1<<24 + 2, -(1<<24 + 2), 1 << 31, -(1 << 31), math.MaxInt32 - 127,
		-(math.MaxInt32 - 127), math.MaxFloat32, -math.MaxFloat32, float32(math.Inf(1)),
		float32(math.Inf(-1)), float32(math.NaN()), math.SmallestNonzeroFloat32,
		-math.SmallestNonzeroFloat32, math.Nextafter32(1, 0), -math.Nextafter32(1, 0)}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1 << 20 {
		values = append(values, math.Float32frombits(r.Uint32()))
	}
	for range 1 << 16 {
		values = append(values, float32(r.NormFloat64()*100))
	}
	for _, f := range values {
		if got, w := floorInt32(f), want(f); got != w {
			t.Fatalf("floorInt32(%v) = %d, want %d", f, got, w)
		}
	}
}
