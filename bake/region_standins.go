package bake

// Private stand-ins for the neighbour helpers that recastmath.go (bake-raster)
// will provide. Delete this file once those land on main.

// getCon returns the index of the span connected to s in direction dir
// (0..3: -x, +z, +x, -z) within the neighbour column, or NotConnected.
func getCon(s *CompactSpan, dir int) int {
	return int(s.Connections>>(uint(dir)*6)) & 0x3f
}

// dirOffsetX returns the x step of direction dir.
func dirOffsetX(dir int) int {
	return [4]int{-1, 0, 1, 0}[dir&3]
}

// dirOffsetY returns the z step of direction dir.
func dirOffsetY(dir int) int {
	return [4]int{0, 1, 0, -1}[dir&3]
}

// dirForOffset returns the direction of the step (x, y); one of them must be 0.
func dirForOffset(x, y int) int {
	return [5]int{3, 0, -1, 2, 1}[((y+1)<<1)+x]
}
