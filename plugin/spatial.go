package plugin

import (
	"cmp"
	"math"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
)

// hilbertBits is the resolution of spatialOrder's curve: the points'
// bounding box is cut into 2^hilbertBits × 2^hilbertBits cells.
const hilbertBits = 16

// spatialOrder returns the indices of points (xz) along a Hilbert curve
// over their bounding box, ties in index order: points near each other on
// the ground come near each other in the order. Non-finite coordinates
// count as the box's low corner.
func spatialOrder(points []geom.Vec3) []int {
	order := make([]int, len(points))
	for i := range order {
		order[i] = i
	}
	if len(points) < 2 {
		return order
	}
	minX, minZ := float32(math.Inf(1)), float32(math.Inf(1))
	maxX, maxZ := float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, p := range points {
		if geom.IsFinite2D(p) {
			minX, maxX = min(minX, p[0]), max(maxX, p[0])
			minZ, maxZ = min(minZ, p[2]), max(maxZ, p[2])
		}
	}
	if !(maxX >= minX) {
		return order // no finite point
	}
	const cells = 1 << hilbertBits
	extent := max(maxX-minX, maxZ-minZ)
	scale := float32(0)
	if extent > 0 {
		scale = (cells - 1) / extent
	}
	cell := func(v, low float32) uint32 {
		c := (v - low) * scale
		if !(c > 0) {
			return 0
		}
		return min(uint32(c), cells-1)
	}
	keys := make([]uint64, len(points))
	for i, p := range points {
		keys[i] = hilbertIndex(cell(p[0], minX), cell(p[2], minZ))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	return order
}

// hilbertIndex returns the distance along the Hilbert curve of order
// hilbertBits to cell (x, y) [Limit: x, y < 2^hilbertBits].
func hilbertIndex(x, y uint32) uint64 {
	var d uint64
	for s := uint32(1) << (hilbertBits - 1); s > 0; s >>= 1 {
		var rx, ry uint32
		if x&s != 0 {
			rx = 1
		}
		if y&s != 0 {
			ry = 1
		}
		d += uint64(s) * uint64(s) * uint64((3*rx)^ry)
		// Turn the quadrant so that the curve's pieces join (the bits
		// above s, which the flip changes too, are read no more).
		if ry == 0 {
			if rx == 1 {
				x, y = 1<<hilbertBits-1-x, 1<<hilbertBits-1-y
			}
			x, y = y, x
		}
	}
	return d
}
