package crowd

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// MaxProximityGridCapacity is the largest item pool a ProximityGrid accepts.
const MaxProximityGridCapacity = 1 << 24

// maxGridCell bounds cell coordinates so that cell arithmetic never leaves
// int32 and float-to-int conversions stay defined.
const maxGridCell = 1 << 30

// noItem ends a bucket's item chain.
const noItem = -1

// gridItem is one (id, cell) entry of a ProximityGrid. An id covering k cells
// owns k items, each of which knows the lowest cell of the id's rectangle.
type gridItem struct {
	id             uint32
	x, y           int32
	next           int32
	firstX, firstY int32
}

// ProximityGrid is a hashed uniform grid of axis-aligned rectangles (agent
// bounds on the xz-plane), used to find the agents near a point
// (dtProximityGrid). Each rectangle is stored once per grid cell it touches;
// cells hash into a power-of-two bucket table with the reference's spatial
// hash, so results, including their order, match the reference.
//
// The item pool has a fixed capacity chosen at construction: Add reports
// ErrCapacity instead of silently dropping cells. Clear, Add and QueryItems
// allocate nothing; Index, which speeds up the queries of a grid filled
// once and queried many times, only when its index outgrows every earlier
// one.
//
// Unlike the reference, cell coordinates are kept in 32 bits (the reference
// truncates them to 16, losing items more than 32767 cells from the origin)
// and the pool is not limited to 65535 items.
type ProximityGrid struct {
	cellSize    float32
	invCellSize float32
	items       []gridItem // the pool; len(items) items are in use
	buckets     []int32    // head item of each bucket's chain, noItem if empty
	bounds      [4]int32   // min x, min y, max x, max y over every Add, in cells

	// Whether every Add since Clear had a greater id than the one before;
	// then every id has a single rectangle, and a query recognizes an id's
	// first item from the rectangle alone (see QueryItems).
	increasingIDs bool
	nextID        uint64 // the least id that keeps increasingIDs

	// The cell index Index builds, valid while indexed (until the next Add
	// or Clear): the items sorted by cell, row by row, the newest first
	// within a cell, and where each cell's run of them starts. Cell
	// (x, y) is number c = (y-bounds[1])*indexWidth + x-bounds[0]; its
	// items are sorted[cellStart[c+1]:cellStart[c+2]].
	indexed    bool
	indexWidth int32
	cellStart  []int32
	sorted     []indexedItem
}

// indexedItem is a gridItem in the cell index: its cell's row is implied.
type indexedItem struct {
	id             uint32
	x              int32
	firstX, firstY int32
}

// maxIndexCellsPerItem bounds the cell index: Index declines bounds of
// more cells than this many per item of the pool's capacity (plus
// minIndexCells), so that the index takes at most 4 bytes times that per
// item.
const (
	maxIndexCellsPerItem = 16
	minIndexCells        = 4096
)

// NewProximityGrid returns an empty grid with room for capacity (id, cell)
// items and square cells of side cellSize.
//
// capacity [Limit: 1..MaxProximityGridCapacity]; a crowd whose cells are three
// agent radii wide needs 4 items per agent.
// cellSize [Limit: > 0, finite] [Units: world units]
func NewProximityGrid(capacity int, cellSize float32) (*ProximityGrid, error) {
	if capacity < 1 || capacity > MaxProximityGridCapacity {
		return nil, fmt.Errorf("crowd: proximity grid capacity %d not in 1..%d: %w",
			capacity, MaxProximityGridCapacity, ErrInvalidParam)
	}
	if !(cellSize > 0) || math.IsInf(float64(cellSize), 0) {
		return nil, fmt.Errorf("crowd: proximity grid cell size %v not positive and finite: %w",
			cellSize, ErrInvalidParam)
	}
	g := &ProximityGrid{
		cellSize:    cellSize,
		invCellSize: 1 / cellSize,
		items:       make([]gridItem, 0, capacity),
		buckets:     make([]int32, geom.NextPow2(uint32(capacity))),
	}
	g.Clear()
	return g, nil
}

// hashCell is the reference's spatial hash of cell (x, y) into n buckets (n a
// power of two), with the same 32-bit wrap-around.
func hashCell(x, y int32, n int) int {
	return int((x*73856093)^(y*19349663)) & (n - 1)
}

// Clear removes every item and resets the bounds.
func (g *ProximityGrid) Clear() {
	for i := range g.buckets {
		g.buckets[i] = noItem
	}
	g.items = g.items[:0]
	g.indexed = false
	g.bounds = [4]int32{0xffff, 0xffff, -0xffff, -0xffff}
	g.increasingIDs = true
	g.nextID = 0
}

// cellOf returns floor(v / cellSize) as a cell coordinate, the way the
// reference computes it (float32 product, then floorf). ok is false for NaN
// and for values beyond ±2^30 cells.
func (g *ProximityGrid) cellOf(v float32) (cell int32, ok bool) {
	f := math.Floor(float64(v * g.invCellSize))
	if !(f >= -maxGridCell && f <= maxGridCell) {
		return 0, false
	}
	return int32(f), true
}

// clampedCellOf is cellOf saturated to ±2^30; NaN gives ok false.
func (g *ProximityGrid) clampedCellOf(v float32) (cell int32, ok bool) {
	f := math.Floor(float64(v * g.invCellSize))
	switch {
	case f != f:
		return 0, false
	case f < -maxGridCell:
		return -maxGridCell, true
	case f > maxGridCell:
		return maxGridCell, true
	}
	return int32(f), true
}

// Add stores id in every cell the rectangle [minX, maxX] × [minY, maxY]
// touches (on the xz-plane: pass x and z). An id may be added several times;
// queries report it once.
//
// It returns an ErrInvalidParam error for a NaN or out-of-range coordinate and
// an ErrCapacity error when the pool cannot hold all the rectangle's cells;
// in both cases the grid is left unchanged (the reference would store the
// cells that still fit). An inverted rectangle (min > max) stores nothing but,
// as in the reference, widens the bounds.
func (g *ProximityGrid) Add(id uint32, minX, minY, maxX, maxY float32) error {
	iminx, ok1 := g.cellOf(minX)
	iminy, ok2 := g.cellOf(minY)
	imaxx, ok3 := g.cellOf(maxX)
	imaxy, ok4 := g.cellOf(maxY)
	if !(ok1 && ok2 && ok3 && ok4) {
		return fmt.Errorf("crowd: proximity grid add id %d: rectangle (%v, %v)-(%v, %v) not finite or too far out: %w",
			id, minX, minY, maxX, maxY, ErrInvalidParam)
	}
	var cells int64
	if imaxx >= iminx && imaxy >= iminy {
		cells = (int64(imaxx) - int64(iminx) + 1) * (int64(imaxy) - int64(iminy) + 1)
	}
	if free := int64(cap(g.items) - len(g.items)); cells > free {
		return fmt.Errorf("crowd: proximity grid add id %d: %d cells, %d free of %d: %w",
			id, cells, free, cap(g.items), ErrCapacity)
	}

	g.indexed = false
	if uint64(id) < g.nextID {
		g.increasingIDs = false
	}
	g.nextID = uint64(id) + 1
	g.bounds[0] = min(g.bounds[0], iminx)
	g.bounds[1] = min(g.bounds[1], iminy)
	g.bounds[2] = max(g.bounds[2], imaxx)
	g.bounds[3] = max(g.bounds[3], imaxy)

	for y := iminy; y <= imaxy; y++ {
		for x := iminx; x <= imaxx; x++ {
			h := hashCell(x, y, len(g.buckets))
			index := int32(len(g.items))
			g.items = append(g.items, gridItem{id: id, x: x, y: y, next: g.buckets[h], firstX: iminx, firstY: iminy})
			g.buckets[h] = index
		}
	}
	return nil
}

// Index sorts the items by cell, so that QueryItems reads the cells of a
// row from one place instead of walking hash chains full of other cells'
// items: much faster once the items spread over many cells. Call it once
// after the Adds, before the queries; the next Add or Clear drops the index
// (queries then walk the chains again). Results, their order included, are
// the same either way. It reports whether it built the index: it does not
// for an empty grid, nor when the bounds of the Adds span more than 16
// cells per item of the pool's capacity (plus 4096), which bounds the
// index's memory. It allocates only when the index outgrows every earlier
// one.
func (g *ProximityGrid) Index() bool {
	g.indexed = false
	if len(g.items) == 0 {
		return false
	}
	width := int64(g.bounds[2]) - int64(g.bounds[0]) + 1
	height := int64(g.bounds[3]) - int64(g.bounds[1]) + 1
	limit := int64(cap(g.items))*maxIndexCellsPerItem + minIndexCells
	if width <= 0 || height <= 0 || width > limit || height > limit || width*height > limit {
		return false
	}
	cells := int(width * height)
	if cap(g.cellStart) < cells+2 {
		g.cellStart = make([]int32, cells+2, cells+cells/4+2)
	}
	if cap(g.sorted) < len(g.items) {
		g.sorted = make([]indexedItem, len(g.items), cap(g.items))
	}
	start := g.cellStart[:cells+2]
	sorted := g.sorted[:len(g.items)]
	clear(start)
	minX, minY, w := g.bounds[0], g.bounds[1], int32(width)
	// Count each cell's items into start[c+1], sum them up so that
	// start[c+1] is where cell c ends, then place the items from the
	// oldest, each at the end of its cell's free run: start[c+1] ends up
	// where cell c begins, and the newest item comes first.
	for i := range g.items {
		item := &g.items[i]
		start[(item.y-minY)*w+item.x-minX+1]++
	}
	for c := 1; c <= cells; c++ {
		start[c] += start[c-1]
	}
	for i := range g.items {
		item := &g.items[i]
		c := (item.y-minY)*w + item.x - minX + 1
		start[c]--
		sorted[start[c]] = indexedItem{id: item.id, x: item.x, firstX: item.firstX, firstY: item.firstY}
	}
	start[cells+1] = int32(len(g.items))
	g.cellStart, g.sorted, g.indexWidth = start, sorted, w
	g.indexed = true
	return true
}

// ReserveIndex grows the buffers Index uses so that indexing items within
// the rectangle [minX, maxX] × [minY, maxY] (on the xz-plane, as for Add)
// allocates nothing: call it outside the time-critical loop, for instance
// when a crowd is spawned, instead of letting the first Index after it grow
// them. Bounds Index would decline (see Index) and NaN or out-of-range
// coordinates reserve only the sorted items.
func (g *ProximityGrid) ReserveIndex(minX, minY, maxX, maxY float32) {
	if cap(g.sorted) < cap(g.items) {
		g.sorted = make([]indexedItem, 0, cap(g.items))
	}
	iminx, ok1 := g.cellOf(minX)
	iminy, ok2 := g.cellOf(minY)
	imaxx, ok3 := g.cellOf(maxX)
	imaxy, ok4 := g.cellOf(maxY)
	if !(ok1 && ok2 && ok3 && ok4) {
		return
	}
	width := int64(imaxx) - int64(iminx) + 1
	height := int64(imaxy) - int64(iminy) + 1
	limit := int64(cap(g.items))*maxIndexCellsPerItem + minIndexCells
	if width <= 0 || height <= 0 || width > limit || height > limit || width*height > limit {
		return
	}
	if cells := int(width * height); cap(g.cellStart) < cells+2 {
		g.cellStart = make([]int32, 0, cells+cells/4+2)
	}
}

// QueryItems writes into dst the distinct ids stored in the cells the
// rectangle [minX, maxX] × [minY, maxY] touches, and returns how many it
// wrote. Cells are visited row by row (y outer, x inner) and, within a cell,
// the most recently added item first, as in the reference; the query stops at
// the first new id that does not fit in dst. A NaN coordinate finds nothing.
//
// It only reads the grid: several goroutines may query a grid nobody is
// adding to.
func (g *ProximityGrid) QueryItems(minX, minY, maxX, maxY float32, dst []uint32) int {
	iminx, ok1 := g.clampedCellOf(minX)
	iminy, ok2 := g.clampedCellOf(minY)
	imaxx, ok3 := g.clampedCellOf(maxX)
	imaxy, ok4 := g.clampedCellOf(maxY)
	if !(ok1 && ok2 && ok3 && ok4) {
		return 0
	}
	// Cells outside the bounds of every Add hold no item: skipping them keeps
	// the result and its order, and keeps huge query rectangles cheap.
	iminx, iminy = max(iminx, g.bounds[0]), max(iminy, g.bounds[1])
	imaxx, imaxy = min(imaxx, g.bounds[2]), min(imaxy, g.bounds[3])

	// An id is reported at its first item in the query's cell order. When
	// every id has one rectangle, that is the item in the lowest cell of
	// the rectangle's overlap with the query (every rectangle lies within
	// the bounds, so clamping the query to them changes nothing here);
	// otherwise the ids found so far are searched.
	unique := g.increasingIDs
	if g.indexed {
		return g.queryIndex(iminx, iminy, imaxx, imaxy, unique, dst)
	}
	n := 0
	for y := iminy; y <= imaxy; y++ {
		for x := iminx; x <= imaxx; x++ {
			for index := g.buckets[hashCell(x, y, len(g.buckets))]; index != noItem; {
				item := &g.items[index]
				index = item.next
				if item.x != x || item.y != y {
					continue
				}
				if unique {
					if x != max(item.firstX, iminx) || y != max(item.firstY, iminy) {
						continue
					}
				} else if containsID(dst[:n], item.id) {
					continue
				}
				if n >= len(dst) {
					return n
				}
				dst[n] = item.id
				n++
			}
		}
	}
	return n
}

// queryIndex is QueryItems with the cell index, for a query clamped to the
// bounds: the cells of a row are neighbours in it, so each row is one run.
func (g *ProximityGrid) queryIndex(iminx, iminy, imaxx, imaxy int32, unique bool, dst []uint32) int {
	n := 0
	if iminx > imaxx {
		return 0
	}
	w := g.indexWidth
	for y := iminy; y <= imaxy; y++ {
		row := (y - g.bounds[1]) * w
		begin := g.cellStart[row+iminx-g.bounds[0]+1]
		end := g.cellStart[row+imaxx-g.bounds[0]+2]
		for _, item := range g.sorted[begin:end] {
			if unique {
				if item.x != max(item.firstX, iminx) || y != max(item.firstY, iminy) {
					continue
				}
			} else if containsID(dst[:n], item.id) {
				continue
			}
			if n >= len(dst) {
				return n
			}
			dst[n] = item.id
			n++
		}
	}
	return n
}

func containsID(ids []uint32, id uint32) bool {
	for _, v := range ids {
		if v == id {
			return true
		}
	}
	return false
}

// ItemCountAt returns how many items (ids, with repeats) are stored in cell
// (x, y).
func (g *ProximityGrid) ItemCountAt(x, y int) int {
	if x < -maxGridCell || x > maxGridCell || y < -maxGridCell || y > maxGridCell {
		return 0
	}
	cx, cy := int32(x), int32(y)
	n := 0
	for index := g.buckets[hashCell(cx, cy, len(g.buckets))]; index != noItem; index = g.items[index].next {
		if item := &g.items[index]; item.x == cx && item.y == cy {
			n++
		}
	}
	return n
}

// Bounds returns the cell range covered by every Add since the last Clear.
// After Clear it is (0xffff, 0xffff, -0xffff, -0xffff), an empty range, as in
// the reference.
func (g *ProximityGrid) Bounds() (minX, minY, maxX, maxY int) {
	return int(g.bounds[0]), int(g.bounds[1]), int(g.bounds[2]), int(g.bounds[3])
}

// CellSize returns the side of a grid cell [Units: world units].
func (g *ProximityGrid) CellSize() float32 { return g.cellSize }

// Capacity returns the size of the item pool.
func (g *ProximityGrid) Capacity() int { return cap(g.items) }

// Len returns the number of items in use (one per id per cell).
func (g *ProximityGrid) Len() int { return len(g.items) }
