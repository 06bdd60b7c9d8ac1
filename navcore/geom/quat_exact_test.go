//go:build (amd64 && !amd64.v3) || 386 || wasm

package geom

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
)

// TestQuatBitsOnAMD64: where nothing fuses, the quaternion helpers give
// mgl32's bits exactly, so using them changed no result on amd64.
func TestQuatBitsOnAMD64(t *testing.T) {
	v := Vec3{0.3, -1.2, 2.5}
	for _, q := range quatCases() {
		for _, r := range quatCases() {
			assert.Equal(t, q.Mul(r), QuatMul(q, r))
		}
		assert.Equal(t, q.Normalize(), QuatNormalize(q))
		assert.Equal(t, q.Rotate(v), QuatRotateVec(q, v))
	}
	for i := range 1000 {
		angle := float32(i-500) * 0.0173
		assert.Equal(t, mgl32.QuatRotate(angle, Normalize(Vec3{1, 2, 3})), QuatRotate(angle, Normalize(Vec3{1, 2, 3})))
	}
}
