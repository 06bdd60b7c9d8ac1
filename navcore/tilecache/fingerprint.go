package tilecache

import (
	"encoding/binary"
	"math"

	"github.com/archenav/archenav/navcore/navmesh"
)

// FingerprintAppendLayer continues the FNV-1a 64-bit state h (start from
// navmesh.Fingerprint(nil)) with layer as the reference figures' layerHash
// does: tx, ty, tlayer (int32), bmin, bmax (float32), hmin, hmax (uint16),
// width, height, minx, maxx, miny, maxy (uint8), all little-endian, then
// the heights, areas and cons grids. It does not depend on the compressor.
func FingerprintAppendLayer(h uint64, layer *Layer) uint64 {
	var buf [46]byte
	le := binary.LittleEndian
	hd := &layer.Header
	le.PutUint32(buf[0:], uint32(hd.TX))
	le.PutUint32(buf[4:], uint32(hd.TY))
	le.PutUint32(buf[8:], uint32(hd.TLayer))
	for i := range 3 {
		le.PutUint32(buf[12+4*i:], math.Float32bits(hd.BMin[i]))
		le.PutUint32(buf[24+4*i:], math.Float32bits(hd.BMax[i]))
	}
	le.PutUint16(buf[36:], hd.HMin)
	le.PutUint16(buf[38:], hd.HMax)
	buf[40], buf[41], buf[42], buf[43], buf[44], buf[45] = hd.Width, hd.Height, hd.MinX, hd.MaxX, hd.MinY, hd.MaxY
	h = navmesh.FingerprintAppend(h, buf[:46])
	h = navmesh.FingerprintAppend(h, layer.Heights)
	h = navmesh.FingerprintAppend(h, layer.Areas)
	return navmesh.FingerprintAppend(h, layer.Cons)
}
