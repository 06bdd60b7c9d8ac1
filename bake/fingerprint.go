package bake

import (
	"encoding/binary"
	"hash"
	"hash/fnv"
	"math"
)

// Fingerprints are FNV-1a 64 hashes over a build product's data as
// little-endian bytes, laid out like the C++ arrays, so that a Go bake can be
// compared with a recastnavigation bake without the data itself. The tile
// data fingerprint is navmesh.TileDataFingerprint.

// PolyMeshFingerprint hashes a poly mesh: the vertices (3 uint16 each), the
// polygon rows (2*MaxVertsPerPoly uint16 each), the regions (uint16) and the
// areas (uint8). Flags are not included.
func PolyMeshFingerprint(m *PolyMesh) uint64 {
	h := fnv.New64a()
	buf := make([]byte, 0, 64)
	for _, v := range m.Verts {
		buf = binary.LittleEndian.AppendUint16(buf[:0], v[0])
		buf = binary.LittleEndian.AppendUint16(buf, v[1])
		buf = binary.LittleEndian.AppendUint16(buf, v[2])
		h.Write(buf)
	}
	writeUint16s(h, m.Polys[:m.PolyCount*2*m.MaxVertsPerPoly])
	writeUint16s(h, m.Regions[:m.PolyCount])
	h.Write(m.Areas[:m.PolyCount])
	return h.Sum64()
}

// DetailMeshFingerprint hashes a detail mesh: the sub-mesh records (4
// uint32 each), the vertices (3 float32 each) and the triangles (4 bytes
// each).
func DetailMeshFingerprint(d *PolyMeshDetail) uint64 {
	h := fnv.New64a()
	buf := make([]byte, 0, 16)
	for _, m := range d.Meshes {
		buf = buf[:0]
		for _, x := range m {
			buf = binary.LittleEndian.AppendUint32(buf, x)
		}
		h.Write(buf)
	}
	for _, v := range d.Verts {
		buf = buf[:0]
		for _, x := range v {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
		h.Write(buf)
	}
	for _, t := range d.Tris {
		h.Write(t[:])
	}
	return h.Sum64()
}

func writeUint16s(h hash.Hash64, values []uint16) {
	var buf [256]byte
	for len(values) > 0 {
		n := min(len(values), len(buf)/2)
		for i, v := range values[:n] {
			binary.LittleEndian.PutUint16(buf[i*2:], v)
		}
		h.Write(buf[:n*2])
		values = values[n:]
	}
}
