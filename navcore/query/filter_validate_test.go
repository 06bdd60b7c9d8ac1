package query

import (
	"math"
	"testing"
)

// TestValidatePairwise checks Validate's two-at-a-time check against the
// plain rule, for every area and a set of edge values.
func TestValidatePairwise(t *testing.T) {
	values := []float32{0, float32(math.Copysign(0, -1)), 1, math.MaxFloat32, math.SmallestNonzeroFloat32,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), -1, -math.SmallestNonzeroFloat32,
		math.Float32frombits(0x7f7fffff), math.Float32frombits(0x7fffffff), math.Float32frombits(0xffffffff)}
	for area := range len(Filter{}.AreaCost) {
		for _, v := range values {
			f := NewFilter()
			f.AreaCost[area] = v
			want := validCost(v) || math.Float32bits(v) == 0x80000000
			if got := f.Validate() == nil; got != want {
				t.Fatalf("area %d cost %v (%#x): valid %v, want %v", area, v, math.Float32bits(v), got, want)
			}
		}
	}
}
