package geom

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
)

// quatCases are rotations about the three axes and skewed ones, from a
// small turn to more than a whole one, unnormalized ones included.
func quatCases() []mgl32.Quat {
	axes := []Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, Normalize(Vec3{1, 2, 3}), Normalize(Vec3{-0.3, 0.9, -0.1})}
	var qs []mgl32.Quat
	for _, axis := range axes {
		for i := range 41 {
			angle := float32(i-20) * 0.377
			q := QuatRotate(angle, axis)
			qs = append(qs, q, mgl32.Quat{W: q.W * 1.7, V: Scale(q.V, 1.7)})
		}
	}
	return append(qs, mgl32.Quat{}, mgl32.Quat{W: 1})
}

// TestQuatMatchesMathgl: the same values as mgl32's methods, within an ulp
// of float32 (on amd64 without FMA to the bit: TestQuatBitsOnAMD64).
func TestQuatMatchesMathgl(t *testing.T) {
	v := Vec3{0.3, -1.2, 2.5}
	for _, q := range quatCases() {
		for _, r := range quatCases()[:20] {
			assertQuatNear(t, q.Mul(r), QuatMul(q, r))
		}
		assertQuatNear(t, q.Normalize(), QuatNormalize(q))
		unit := QuatNormalize(q)
		got, want := QuatRotateVec(unit, v), unit.Rotate(v)
		for i := range 3 {
			assert.InDelta(t, want[i], got[i], 4e-6, "Rotate(%v)", q)
		}
	}
	for i := range 100 {
		angle := float32(i) * 0.1
		assertQuatNear(t, mgl32.QuatRotate(angle, Vec3{0, 1, 0}), QuatRotate(angle, Vec3{0, 1, 0}))
	}
}

func assertQuatNear(t *testing.T, want, got mgl32.Quat) {
	t.Helper()
	assert.InDelta(t, want.W, got.W, 4e-6)
	for i := range 3 {
		assert.InDelta(t, want.V[i], got.V[i], 4e-6)
	}
}
