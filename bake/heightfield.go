package bake

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"
)

// noSpan is the pool index that ends a span chain and marks an empty column.
const noSpan = -1

// NewHeightfield returns an empty width × height heightfield over
// [bmin, bmax] (rcCreateHeightfield).
func NewHeightfield(width, height int, bmin, bmax mgl32.Vec3, cellSize, cellHeight float32) (*Heightfield, error) {
	if err := checkHeightfieldGrid(width, height, bmin, bmax, cellSize, cellHeight); err != nil {
		return nil, fmt.Errorf("bake: new heightfield: %w", err)
	}
	hf := &Heightfield{}
	hf.reset(width, height, bmin, bmax, cellSize, cellHeight)
	return hf, nil
}

// Reset empties the field and gives it a new grid and bounds, keeping the
// memory of its columns and span pool for the spans to come
// (rcCreateHeightfield on reused memory). On error the field is unchanged.
func (hf *Heightfield) Reset(width, height int, bmin, bmax mgl32.Vec3, cellSize, cellHeight float32) error {
	if err := checkHeightfieldGrid(width, height, bmin, bmax, cellSize, cellHeight); err != nil {
		return fmt.Errorf("bake: reset heightfield: %w", err)
	}
	hf.reset(width, height, bmin, bmax, cellSize, cellHeight)
	return nil
}

// checkHeightfieldGrid checks the arguments of NewHeightfield.
func checkHeightfieldGrid(width, height int, bmin, bmax mgl32.Vec3, cellSize, cellHeight float32) error {
	if err := validateGrid(width, height); err != nil {
		return err
	}
	if err := validateBounds(bmin, bmax); err != nil {
		return err
	}
	if !finite(cellSize) || cellSize <= 0 || !finite(cellHeight) || cellHeight <= 0 {
		return fmt.Errorf("cell size %v × %v must be positive and finite", cellSize, cellHeight)
	}
	return nil
}

// reset is Reset with checked arguments.
func (hf *Heightfield) reset(width, height int, bmin, bmax mgl32.Vec3, cellSize, cellHeight float32) {
	cells := width * height
	hf.Width, hf.Height = width, height
	hf.BMin, hf.BMax = bmin, bmax
	hf.CellSize, hf.CellHeight = cellSize, cellHeight
	hf.Columns = resize(hf.Columns, cells)
	for i := range hf.Columns {
		hf.Columns[i] = noSpan
	}
	// Level geometry gives about one span per column; reserving that saves
	// most of the pool's regrowth.
	if cap(hf.Pool) < cells {
		hf.Pool = make([]Span, 0, cells)
	}
	hf.Pool = hf.Pool[:0]
	hf.FreeList = noSpan
	hf.ClampedSpans = 0
}

// ClampWarning returns the warning of a bake whose heightfield clamped
// spans (ClampedSpans > 0), "" when it clamped none: how many, at which
// height, and the CellHeight that would keep the level's height range.
func (hf *Heightfield) ClampWarning() string {
	if hf.ClampedSpans == 0 {
		return ""
	}
	limit := float32(MaxSpanHeight) * hf.CellHeight
	needed := (hf.BMax[1] - hf.BMin[1]) / (MaxSpanHeight - 1)
	return fmt.Sprintf("%d spans reach above the span height limit of %d cells and were clamped to it, "+
		"%.6g world units above the level's bottom at y %.6g (cell height %.6g), as Recast does: "+
		"the level is %.6g world units high; a CellHeight of %.3g or more bakes all of it",
		hf.ClampedSpans, MaxSpanHeight, limit, hf.BMin[1], hf.CellHeight, hf.BMax[1]-hf.BMin[1], needed)
}

// resize returns s with length n, reusing its array when it is large
// enough; the contents are left as they are.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// SpanCount returns the number of spans in the field, walkable or not.
func (hf *Heightfield) SpanCount() int {
	n := 0
	for _, first := range hf.Columns {
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			n++
		}
	}
	return n
}

// WalkableSpanCount returns the number of spans whose area is not NullArea
// (rcGetHeightFieldSpanCount): the span count of the compact heightfield.
func (hf *Heightfield) WalkableSpanCount() int {
	_, walkable := hf.spanCounts()
	return walkable
}

// spanCounts returns the number of spans in the field and the number of
// those whose area is not NullArea.
func (hf *Heightfield) spanCounts() (all, walkable int) {
	pool := hf.Pool
	for _, first := range hf.Columns {
		for s := first; s != noSpan; {
			span := &pool[s]
			s = span.Next
			all++
			if span.Area != NullArea {
				walkable++
			}
		}
	}
	return all, walkable
}

// AddSpan adds the solid span [spanMin, spanMax) with the given area to
// column (x, z), merging it with the spans it overlaps or touches (rcAddSpan).
// When the merged span's top lies within mergeThreshold cells of an existing
// span's top, the larger of the two area ids wins; otherwise the new area
// does. A span with spanMin >= spanMax is ignored.
func (hf *Heightfield) AddSpan(x, z int, spanMin, spanMax uint16, area uint8, mergeThreshold int) error {
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return fmt.Errorf("bake: add span: column (%d, %d) outside the %d×%d field", x, z, hf.Width, hf.Height)
	}
	if spanMax > MaxSpanHeight {
		return fmt.Errorf("bake: add span: top %d above %d", spanMax, MaxSpanHeight)
	}
	if area > MaxAreaID {
		return fmt.Errorf("bake: add span: area %d above %d", area, MaxAreaID)
	}
	if spanMin >= spanMax {
		return nil
	}
	hf.addSpan(x+z*hf.Width, spanMin, spanMax, area, mergeThreshold, nil)
	return nil
}

// addSpan inserts a span into a column, merging overlaps, with checked
// arguments. hint, when not nil, holds the column's last insertion point:
// a live span of the column, or noSpan. The walk up the column starts there
// when the new span lies above it, which keeps floors stacked bottom to top
// (or spans clamped to the top) from walking the whole column each time;
// hint is then set to the new insertion point. It returns the number of
// spans it walked past or merged.
func (hf *Heightfield) addSpan(column int, spanMin, spanMax uint16, area uint8, mergeThreshold int, hint *int32) (walked int) {
	previous := int32(noSpan)
	current := hf.Columns[column]
	if hint != nil {
		// The spans below a span lie below its top, and a column's spans
		// neither overlap nor touch: a walk from the bottom would pass every
		// span up to the hint's too.
		if h := *hint; h != noSpan && hf.Pool[h].Max < spanMin {
			previous, current = h, hf.Pool[h].Next
		}
	}
	for current != noSpan {
		span := &hf.Pool[current]
		if span.Min > spanMax {
			break // the rest of the column lies above
		}
		walked++
		if span.Max < spanMin {
			previous = current
			current = span.Next
			continue
		}
		// Overlapping or touching: absorb the existing span.
		spanMin = min(spanMin, span.Min)
		spanMax = max(spanMax, span.Max)
		if abs(int(spanMax)-int(span.Max)) <= mergeThreshold {
			area = max(area, span.Area)
		}
		next := span.Next
		hf.freeSpan(current)
		if previous != noSpan {
			hf.Pool[previous].Next = next
		} else {
			hf.Columns[column] = next
		}
		current = next
	}

	index := hf.allocSpan()
	added := &hf.Pool[index]
	added.Min, added.Max, added.Area = spanMin, spanMax, area
	if previous != noSpan {
		added.Next = hf.Pool[previous].Next
		hf.Pool[previous].Next = index
	} else {
		added.Next = hf.Columns[column]
		hf.Columns[column] = index
	}
	if hint != nil {
		*hint = previous // below the new span, so no later merge frees it first
	}
	return walked
}

// allocSpan returns the index of an unused span: the head of the free list,
// or a new one at the end of the pool.
func (hf *Heightfield) allocSpan() int32 {
	if hf.FreeList != noSpan {
		index := hf.FreeList
		hf.FreeList = hf.Pool[index].Next
		return index
	}
	hf.Pool = append(hf.Pool, Span{})
	return int32(len(hf.Pool) - 1)
}

// freeSpan puts a span at the head of the free list.
func (hf *Heightfield) freeSpan(index int32) {
	hf.Pool[index] = Span{Next: hf.FreeList}
	hf.FreeList = index
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
