package bake

import (
	"encoding/binary"
	"math"

	"github.com/archenav/archenav/navcore/navmesh"
)

// Fingerprints are FNV-1a 64 hashes over a build product's data as
// little-endian bytes, laid out like the C++ arrays, so that a Go bake can be
// compared with a recastnavigation bake without the data itself. The tile
// data fingerprint is navmesh.TileDataFingerprint.

// PolyMeshFingerprint hashes a poly mesh: the vertices (3 uint16 each), the
// polygon rows (2*MaxVertsPerPoly uint16 each), the regions (uint16) and the
// areas (uint8). Flags are not included.
func PolyMeshFingerprint(m *PolyMesh) uint64 {
	h := navmesh.Fingerprint(nil)
	for _, v := range m.Verts {
		h = fingerprintUint16s(h, v[:])
	}
	h = fingerprintUint16s(h, m.Polys[:m.PolyCount*2*m.MaxVertsPerPoly])
	h = fingerprintUint16s(h, m.Regions[:m.PolyCount])
	return navmesh.FingerprintAppend(h, m.Areas[:m.PolyCount])
}

// DetailMeshFingerprint hashes a detail mesh: the sub-mesh records (4
// uint32 each), the vertices (3 float32 each) and the triangles (4 bytes
// each).
func DetailMeshFingerprint(d *PolyMeshDetail) uint64 {
	h := navmesh.Fingerprint(nil)
	var buf [16]byte
	for _, m := range d.Meshes {
		for i, x := range m {
			binary.LittleEndian.PutUint32(buf[i*4:], x)
		}
		h = navmesh.FingerprintAppend(h, buf[:16])
	}
	for _, v := range d.Verts {
		for i, x := range v {
			binary.LittleEndian.PutUint32(buf[i*4:], math.Float32bits(x))
		}
		h = navmesh.FingerprintAppend(h, buf[:12])
	}
	for _, t := range d.Tris {
		h = navmesh.FingerprintAppend(h, t[:])
	}
	return h
}

// fingerprintUint16s continues the FNV-1a state h with values as
// little-endian bytes.
func fingerprintUint16s(h uint64, values []uint16) uint64 {
	var buf [256]byte
	for len(values) > 0 {
		n := min(len(values), len(buf)/2)
		for i, v := range values[:n] {
			binary.LittleEndian.PutUint16(buf[i*2:], v)
		}
		h = navmesh.FingerprintAppend(h, buf[:n*2])
		values = values[n:]
	}
	return h
}
