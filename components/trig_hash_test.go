package components

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
)

// TestTrigUsesHash: DoorBetween's yaw (an arctangent) and a collider's
// PoseDistance (an arccosine of normalized rotations) must have amd64's
// bits on every architecture: .ci/crossarch.sh runs this test on arm64
// under qemu, 386, GOAMD64=v3 and WebAssembly against the hash computed on
// amd64.
func TestTrigUsesHash(t *testing.T) {
	h := fnv.New64a()
	var buf [4]byte
	put := func(f float32) {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(f))
		h.Write(buf[:])
	}
	for i := range 200 {
		for j := range 200 {
			a := geom.Vec3{float32(i-100) * 0.37, 1, float32(j-100) * 0.29}
			b := geom.Vec3{float32(j-100) * 0.23, 1, float32(100-i) * 0.41}
			if a == b {
				continue
			}
			pose, door := DoorBetween(a, b, 0.1, 2, false)
			put(pose.Yaw)
			put(door.HalfExtents[0])
		}
	}
	c := NewCollider(collider.NewCapsule(0.5, 1))
	axis := geom.Normalize(geom.Vec3{0.2, 1, -0.4})
	for i := range 2000 {
		a := ColliderPose{Position: geom.Vec3{1, 0, 2}, Rotation: geom.QuatRotate(float32(i)*0.0031, axis)}
		b := ColliderPose{Position: geom.Vec3{1.5, 0, 2}, Rotation: mgl32.Quat{W: float32(i) * 0.01, V: geom.Vec3{0.3, 0.1, -0.2}}}
		put(c.PoseDistance(a, b))
	}
	assert.Equal(t, "c16cc866c78867da", fmt.Sprintf("%016x", h.Sum64()))
}
