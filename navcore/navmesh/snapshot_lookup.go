package navmesh

import (
	"math"

	"github.com/go-gl/mathgl/mgl32"
)

// tileLoc is dtNavMesh::calcTileLoc: the float32 quotient floored, then
// saturated to the int32 range (NaN gives 0).
func tileLoc(p *Params, pos mgl32.Vec3) (tx, ty int) { return tileLocXZ(p, pos[0], pos[2]) }

// tileLocXZ is tileLoc for the position's x and z.
func tileLocXZ(p *Params, x, z float32) (tx, ty int) {
	return floorInt32((x - p.Origin[0]) / p.TileWidth), floorInt32((z - p.Origin[2]) / p.TileHeight)
}

// TileLocXZ is CalcTileLoc for a position given by its x and z, for the
// hot loops that keep positions in registers: a geom.Vec3 argument goes
// through memory, and one just built there by 4-byte stores is read back
// in an 8-byte load that must wait for them (a store-forwarding stall).
func (s *Snapshot) TileLocXZ(x, z float32) (tx, ty int) { return tileLocXZ(&s.params, x, z) }

// floorInt32 is f floored and saturated to the int32 range, 0 for NaN. In
// range, it truncates and steps down for a negative fraction, cheaper than
// math.Floor: float32(i) is exact there (above 2^24 every float32 is an
// integer, so i == f).
func floorInt32(f float32) int {
	if f > math.MinInt32 && f < math.MaxInt32+1 {
		i := int(int32(f))
		if float32(i) > f {
			i--
		}
		return i
	}
	switch {
	case f != f:
		return 0
	case f < 0:
		return math.MinInt32
	}
	return math.MaxInt32
}

// tileEntry is one tile in a position-lookup bucket and the link to the
// next. Entries are immutable once published: a bucket shares its tail with
// the versions before it.
type tileEntry struct {
	x, y, layer int32
	index       uint32
	next        *tileEntry
}

// bucket lists the tiles whose (x, y) hash to one lookup slot, in the order
// of the C++ hash chain: the most recently added tile first. The order of
// tiles at the same (x, y) decides the order layers are linked in. It is a
// persistent list, so adding a tile costs one entry however long the chain
// (a file can put thousands of layers in one column).
type bucket = *tileEntry

// tileHash is the C++ computeTileHash: two large multiplicative constants,
// wrapping 32-bit arithmetic, masked to the lookup size.
func tileHash(x, y int32, mask uint32) uint32 {
	const h1, h2 = 0x8da6b343, 0xd8163841
	return (h1*uint32(x) + h2*uint32(y)) & mask
}

// fitsInt32 reports whether v survives the round trip through int32 (tile
// coordinates are int32 in TileHeader).
func fitsInt32(v int) bool { return v == int(int32(v)) }

// neighbourLocation returns the tile coordinates one step towards side
// (0 = +x, 2 = +y, 4 = -x, 6 = -y, odd values the diagonals between), ok
// false for a side outside 0..7.
func neighbourLocation(x, y, side int) (nx, ny int, ok bool) {
	switch side {
	case 0:
		return x + 1, y, true
	case 1:
		return x + 1, y + 1, true
	case 2:
		return x, y + 1, true
	case 3:
		return x - 1, y + 1, true
	case 4:
		return x - 1, y, true
	case 5:
		return x - 1, y - 1, true
	case 6:
		return x, y - 1, true
	case 7:
		return x + 1, y - 1, true
	}
	return x, y, false
}
