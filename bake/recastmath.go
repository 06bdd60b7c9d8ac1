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
func (s *CompactSpan) Connection(dir int) int { return int(s.links[dir&3] & linkMask) }

// SetConnection stores the neighbour index for direction dir (rcSetCon);
// index must be 0..NotConnected (only its low 12 bits are kept) and only the
// low two bits of dir are used.
func (s *CompactSpan) SetConnection(dir, index int) {
	l := &s.links[dir&3]
	*l = *l&^linkMask | uint16(index)&linkMask
}

// Connections returns the four neighbour indices, NotConnected where the
// span has no neighbour.
func (s *CompactSpan) Connections() [4]uint16 {
	return [4]uint16{s.links[0] & linkMask, s.links[1] & linkMask, s.links[2] & linkMask, s.links[3] & linkMask}
}

// SetConnections replaces the four neighbour indices (their low 12 bits).
func (s *CompactSpan) SetConnections(links [4]uint16) {
	for dir, index := range links {
		s.links[dir] = s.links[dir]&^linkMask | index&linkMask
	}
}

// Height returns the height of the open space above the span, clamped to
// 255 [Units: cells]
func (s *CompactSpan) Height() int { return int(s.links[0]>>12 | s.links[1]>>12<<4) }

// SetHeight stores the height of the open space [Limit: 0..255]
// [Units: cells]
func (s *CompactSpan) SetHeight(height uint8) {
	s.links[0] = s.links[0]&linkMask | uint16(height&0xf)<<12
	s.links[1] = s.links[1]&linkMask | uint16(height>>4)<<12
}

// linkMask selects the neighbour index of a CompactSpan link.
const linkMask = 0xfff

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
