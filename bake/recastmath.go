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

// Connection returns the index, within the neighbour column in direction dir
// (0..3), of the span this one connects to, or NotConnected (rcGetCon).
func (s *CompactSpan) Connection(dir int) int {
	return int(s.Connections>>(uint(dir)*6)) & 0x3f
}

// SetConnection stores the neighbour index for direction dir (0..3); index
// must be 0..NotConnected (rcSetCon).
func (s *CompactSpan) SetConnection(dir, index int) {
	shift := uint(dir) * 6
	s.Connections = s.Connections&^(0x3f<<shift) | uint32(index&0x3f)<<shift
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
