package navmesh

// Ref identifies one polygon of a Mesh (dtPolyRef, 64-bit form): salt in the
// top 16 bits, tile index in the next 28, polygon index in the low 20. The
// zero Ref means "no polygon". The salt changes when a tile slot is reused,
// so a Ref to a removed tile fails validation instead of naming new data.
type Ref uint64

// TileRef identifies one tile of a Mesh: a Ref whose polygon index is 0.
type TileRef = Ref

// Bit widths of the parts of a Ref.
const (
	// SaltBits is the width of the salt, which counts a slot's reuses.
	SaltBits = 16
	// TileBits is the width of the tile-slot index.
	TileBits = 28
	// PolyBits is the width of the polygon index within a tile.
	PolyBits = 20

	saltMask = 1<<SaltBits - 1
	tileMask = 1<<TileBits - 1
	polyMask = 1<<PolyBits - 1
)

// EncodeRef packs a salt, tile index and polygon index into a Ref. Values are
// masked to their bit widths.
func EncodeRef(salt, tileIndex, polyIndex uint32) Ref {
	return Ref(salt&saltMask)<<(PolyBits+TileBits) | Ref(tileIndex&tileMask)<<PolyBits | Ref(polyIndex&polyMask)
}

// Decode returns the salt, tile index and polygon index of r.
func (r Ref) Decode() (salt, tileIndex, polyIndex uint32) {
	return r.Salt(), r.TileIndex(), r.PolyIndex()
}

// Salt returns the salt part of r.
func (r Ref) Salt() uint32 { return uint32(r>>(PolyBits+TileBits)) & saltMask }

// TileIndex returns the tile-slot part of r.
func (r Ref) TileIndex() uint32 { return uint32(r>>PolyBits) & tileMask }

// PolyIndex returns the polygon part of r.
func (r Ref) PolyIndex() uint32 { return uint32(r) & polyMask }
