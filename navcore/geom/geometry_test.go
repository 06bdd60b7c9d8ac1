package geom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRandomPointInConvexPolyLastTriangle(t *testing.T) {
	// Port of the Detour unit test: s = 1 must pick the last triangle
	// instead of running past the end.
	pts := []Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}
	areas := make([]float32, len(pts))
	tests := []struct {
		name string
		s, t float32
		want Vec3
	}{
		{"s=0 t=1 first triangle", 0, 1, Vec3{0, 0, 1}},
		{"s=0.5 t=1 middle of far edge", 0.5, 1, Vec3{0.5, 0, 0.5}},
		{"s=1 t=1 last triangle", 1, 1, Vec3{1, 0, 0}},
		{"s=1 t=0 apex", 1, 0, Vec3{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RandomPointInConvexPoly(pts, areas, tt.s, tt.t)
			assert.InDeltaSlice(t, tt.want[:], got[:], 1e-6)
		})
	}
}
