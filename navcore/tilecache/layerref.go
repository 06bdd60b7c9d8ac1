package tilecache

import "github.com/archenav/archenav/navcore/geom"

// LayerRef identifies one compressed layer of a Cache
// (dtCompressedTileRef): the salt above the slot index, with the slot taking
// ilog2(nextPow2(MaxTiles)) bits as in the C++, so refs read from and
// written to TSET files keep their C++ values. The zero LayerRef names no
// layer; a removed layer's ref goes stale (its slot's salt changes).
type LayerRef uint32

// layerRefBits is the split of a LayerRef for one MaxTiles.
type layerRefBits struct {
	tileBits, saltBits uint32
}

func newLayerRefBits(maxTiles int32) layerRefBits {
	tileBits := geom.Ilog2(geom.NextPow2(uint32(maxTiles)))
	return layerRefBits{tileBits: tileBits, saltBits: min(31, 32-tileBits)}
}

func (b layerRefBits) encode(salt, index uint32) LayerRef {
	return LayerRef(salt<<b.tileBits | index)
}

func (b layerRefBits) decode(ref LayerRef) (salt, index uint32) {
	return uint32(ref) >> b.tileBits & (1<<b.saltBits - 1), uint32(ref) & (1<<b.tileBits - 1)
}

// nextSalt is the salt a slot gets after removal: one more within the salt
// bits, never 0 (dtTileCache::removeTile).
func (b layerRefBits) nextSalt(salt uint32) uint32 {
	salt = (salt + 1) & (1<<b.saltBits - 1)
	if salt == 0 {
		salt = 1
	}
	return salt
}
