package bake

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
)

// fnv1a is a plain FNV-1a 64 over bytes, to check the fingerprints' layout.
func fnv1a(data []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, b := range data {
		h ^= uint64(b)
		h *= 0x100000001b3
	}
	return h
}

func TestPolyMeshFingerprintLayout(t *testing.T) {
	mesh := &PolyMesh{
		Verts:           [][3]uint16{{1, 2, 3}, {0x0102, 5, 6}, {7, 8, 9}},
		Polys:           rows(0, 1, 2, -1, -1, 0x8001),
		Regions:         []uint16{0x0a0b},
		Flags:           []uint16{0xffff}, // not part of the fingerprint
		Areas:           []uint8{63},
		PolyCount:       1,
		MaxVertsPerPoly: 3,
	}
	bytes := []byte{
		1, 0, 2, 0, 3, 0, 2, 1, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, // verts
		0, 0, 1, 0, 2, 0, 0xff, 0xff, 0xff, 0xff, 0x01, 0x80, // polys
		0x0b, 0x0a, // regions
		63, // areas
	}
	assert.Equal(t, fnv1a(bytes), PolyMeshFingerprint(mesh))
	mesh.Flags[0] = 1
	assert.Equal(t, fnv1a(bytes), PolyMeshFingerprint(mesh), "flags are ignored")
}

func TestDetailMeshFingerprintLayout(t *testing.T) {
	detail := &PolyMeshDetail{
		Meshes: [][4]uint32{{1, 2, 3, 0x01020304}},
		Verts:  []mgl32.Vec3{{1, -2, 0.5}},
		Tris:   [][4]uint8{{0, 1, 2, 0x15}},
	}
	bytes := []byte{
		1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 3, 2, 1,
		0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3f,
		0, 1, 2, 0x15,
	}
	assert.Equal(t, fnv1a(bytes), DetailMeshFingerprint(detail))
	assert.Equal(t, fnv1a(nil), DetailMeshFingerprint(&PolyMeshDetail{}))
}
