package systems

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// pointGrid buckets points (agent positions, xz) into square cells hashed
// into a power-of-two table, rebuilt each Update by a counting sort: each
// point lies in one cell, so there is nothing to deduplicate and nothing to
// allocate once the buffers have grown.
type pointGrid struct {
	cellSize float32
	mask     int32
	start    []int32 // bucket b holds items[start[b]:start[b+1]]
	items    []int32 // point indices, grouped by bucket, ascending within one
	buckets  []int32 // each point's bucket, -1 when left out
}

// build puts points[i] for which include(i) into cells of side cellSize
// [Limit: > 0].
func (g *pointGrid) build(points []geom.Vec3, include []bool, cellSize float32) {
	n := len(points)
	size := int(geom.NextPow2(uint32(max(2*n, 16))))
	if len(g.start) != size+1 {
		g.start = make([]int32, size+1)
	}
	g.cellSize, g.mask = cellSize, int32(size-1)
	if cap(g.buckets) < n {
		g.buckets = make([]int32, n, n+n/2)
		g.items = make([]int32, n, n+n/2)
	}
	g.buckets, g.items = g.buckets[:n], g.items[:0]
	clear(g.start)
	for i, p := range points {
		g.buckets[i] = -1
		if !include[i] {
			continue
		}
		b := g.bucket(g.cell(p[0]), g.cell(p[2]))
		g.buckets[i] = b
		g.start[b+1]++
	}
	for b := 1; b < len(g.start); b++ {
		g.start[b] += g.start[b-1]
	}
	g.items = g.items[:g.start[len(g.start)-1]]
	fill := g.start[:len(g.start)-1]
	for i, b := range g.buckets {
		if b >= 0 {
			g.items[fill[b]] = int32(i)
			fill[b]++
		}
	}
	// fill[b] now equals the old start[b+1]: shift back.
	copy(g.start[1:], g.start[:len(g.start)-1])
	g.start[0] = 0
}

func (g *pointGrid) cell(v float32) int32 {
	f := math.Floor(float64(v / g.cellSize))
	return int32(max(-1<<30, min(1<<30, f)))
}

func (g *pointGrid) bucket(x, y int32) int32 {
	return (x*73856093 ^ y*19349663) & g.mask
}

// cellRange returns the cells that the square of half side reach around pos
// touches.
func (g *pointGrid) cellRange(pos geom.Vec3, reach float32) (x0, y0, x1, y1 int32) {
	return g.cell(pos[0] - reach), g.cell(pos[2] - reach), g.cell(pos[0] + reach), g.cell(pos[2] + reach)
}

// bucketItems returns the points in the bucket of cell (x, y); other cells
// may share it, so callers check distances.
func (g *pointGrid) bucketItems(x, y int32) []int32 {
	b := g.bucket(x, y)
	return g.items[g.start[b]:g.start[b+1]]
}
