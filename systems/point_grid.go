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
	start    []int32   // bucket b holds items[start[b]:start[b+1]]
	items    []int32   // point indices, grouped by bucket, ascending within one
	xs, zs   []float32 // the items' coordinates, in the same order
	buckets  []int32   // each point's bucket, -1 when left out
}

// size is the bucket table's size for n points: a power of two, at least
// twice n.
func (g *pointGrid) size(n int) int {
	return int(geom.NextPow2(uint32(max(2*n, 16))))
}

// reserve grows the buffers for n points, so that build allocates nothing
// for up to n of them: the per-point buffers with half as much again as
// room, the bucket table exactly, as build needs it.
func (g *pointGrid) reserve(n int) {
	if size := g.size(n); len(g.start) != size+1 {
		g.start = make([]int32, size+1)
	}
	if cap(g.buckets) < n {
		g.buckets = make([]int32, n, n+n/2)
		g.items = make([]int32, n, n+n/2)
		g.xs = make([]float32, n, n+n/2)
		g.zs = make([]float32, n, n+n/2)
	}
}

// build puts points[i] for which include(i) into cells of side cellSize
// [Limit: > 0].
func (g *pointGrid) build(points []geom.Vec3, include []bool, cellSize float32) {
	n := len(points)
	size := g.size(n)
	g.cellSize, g.mask = cellSize, int32(size-1)
	g.reserve(n)
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
	count := g.start[len(g.start)-1]
	g.items, g.xs, g.zs = g.items[:count], g.xs[:count], g.zs[:count]
	fill := g.start[:len(g.start)-1]
	for i, b := range g.buckets {
		if b >= 0 {
			at := fill[b]
			g.items[at] = int32(i)
			g.xs[at], g.zs[at] = points[i][0], points[i][2]
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

// bucketItems returns the points in the bucket of cell (x, y), and their x
// and z; other cells may share the bucket, so callers check distances.
func (g *pointGrid) bucketItems(x, y int32) (items []int32, xs, zs []float32) {
	b := g.bucket(x, y)
	lo, hi := g.start[b], g.start[b+1]
	return g.items[lo:hi], g.xs[lo:hi], g.zs[lo:hi]
}
