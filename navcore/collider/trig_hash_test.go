package collider

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTriangulateHash: the rings of spheres, capsules and cylinders come
// from sines and cosines (internal/detmath), so their vertices must have
// amd64's bits on every architecture: .ci/crossarch.sh runs this test on
// arm64 under qemu, 386, GOAMD64=v3 and WebAssembly against the hash
// computed on amd64.
func TestTriangulateHash(t *testing.T) {
	h := fnv.New64a()
	var buf [4]byte
	for i := range 40 {
		r := float32(float32(i)*0.173) + 0.05
		pose := Pose{Position: geom.Vec3{float32(i) - 20, 3, 0.5}, Rotation: geom.QuatRotate(float32(i)*0.31, geom.Normalize(geom.Vec3{1, 2, 3}))}
		for _, shape := range []Shape{NewSphere(r), NewCapsule(r, 2*r), NewCylinder(r, r)} {
			p, err := Place(shape, pose)
			require.NoError(t, err)
			vertices, _ := p.Triangulate(8+i%24, nil, nil)
			for _, v := range vertices {
				for _, c := range v {
					binary.LittleEndian.PutUint32(buf[:], math.Float32bits(c))
					h.Write(buf[:])
				}
			}
		}
	}
	assert.Equal(t, "42470e4993986943", fmt.Sprintf("%016x", h.Sum64()))
}
