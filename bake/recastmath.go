package bake

import "math"

// Directions index the four axis neighbours of a cell: 0 is -x, 1 is +z,
// 2 is +x and 3 is -z (Recast's order, counter-clockwise seen from above).
var (
	dirOffsetX = [4]int{-1, 0, 1, 0}
	dirOffsetZ = [4]int{0, 1, 0, -1}
	offsetDirs = [5]int{3, 0, -1, 2, 1}
)

// DirOffsetX returns the x step of direction dir (rcGetDirOffsetX); only the
// low two bits of dir are used.
func DirOffsetX(dir int) int { return dirOffsetX[dir&3] }

// DirOffsetZ returns the z step of direction dir (rcGetDirOffsetY); only the
// low two bits of dir are used.
func DirOffsetZ(dir int) int { return dirOffsetZ[dir&3] }

// DirForOffset returns the direction of the axis step (dx, dz)
// (rcGetDirForOffset), or -1 for (0, 0). Exactly one of dx and dz must be
// ±1 and the other 0.
func DirForOffset(dx, dz int) int { return offsetDirs[((dz+1)<<1)+dx] }

// Connection returns the index, within the neighbour column in direction dir,
// of the span this one connects to, or NotConnected (rcGetCon); only the low
// two bits of dir are used.
func (s *CompactSpan) Connection(dir int) int {
	return int(s.packed>>(uint(dir&3)*6)) & NotConnected
}

// SetConnection stores the neighbour index for direction dir (rcSetCon);
// index must be 0..NotConnected and only the low two bits of dir are used.
func (s *CompactSpan) SetConnection(dir, index int) {
	shift := uint(dir&3) * 6
	s.packed = s.packed&^(NotConnected<<shift) | uint32(index&NotConnected)<<shift
}

// Connections returns the four neighbour indices packed 6 bits each,
// direction 0 in the low bits: 0xffffff when the span has no neighbour.
func (s *CompactSpan) Connections() uint32 { return s.packed & connectionsMask }

// SetConnections replaces the four neighbour indices by connections, packed
// as Connections returns them; bits above the 24th are ignored.
func (s *CompactSpan) SetConnections(connections uint32) {
	s.packed = s.packed&^connectionsMask | connections&connectionsMask
}

// Height returns the height of the open space above the span, clamped to
// 255 [Units: cells]
func (s *CompactSpan) Height() int { return int(s.packed >> 24) }

// SetHeight stores the height of the open space [Limit: 0..255]
// [Units: cells]
func (s *CompactSpan) SetHeight(height uint8) {
	s.packed = s.packed&connectionsMask | uint32(height)<<24
}

// connectionsMask selects the neighbour links of a packed CompactSpan.
const connectionsMask = 1<<24 - 1

// minFloat and maxFloat are rcMin and rcMax: on ties and NaNs they return
// the second argument, unlike the built-ins. std::min(a, b) and
// std::max(a, b), which RecastDemo uses, are minFloat(b, a) and
// maxFloat(b, a).
func minFloat(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func maxFloat(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}

// cInt converts f to an integer the way x86-64 C code compiled by gcc does it
// for (int)f: truncation toward zero, and INT_MIN for NaN and for values that
// do not fit in 32 bits. Go leaves out-of-range conversions unspecified, so
// the pipeline uses this wherever the reference casts a float to int.
func cInt(f float32) int {
	if !(f > -2147483904 && f < 2147483648) { // the float32 neighbours of the int32 range
		return math.MinInt32
	}
	return int(f)
}
