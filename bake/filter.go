package bake

// openTop is the ceiling of the open space above a column's highest span
// [Units: cells].
const openTop = 0xffff

// FilterLowHangingWalkableObstacles makes a non-walkable span walkable, with
// the area of the span below it, when that span is walkable and its top is at
// most walkableClimb cells lower (rcFilterLowHangingWalkableObstacles): curbs
// and stair steps become part of the floor. Only the first of several stacked
// obstacles is promoted.
func (hf *Heightfield) FilterLowHangingWalkableObstacles(walkableClimb int) {
	pool := hf.Pool
	for _, first := range hf.Columns {
		previousWalkable := false
		previousArea := NullArea
		previousTop := 0
		for s := first; s != noSpan; {
			span := &pool[s]
			s = span.Next
			walkable := span.Area != NullArea
			if !walkable && previousWalkable && int(span.Max)-previousTop <= walkableClimb {
				span.Area = previousArea
			}
			// Remember the original walkability so a promoted span does not
			// promote the one above it.
			previousWalkable = walkable
			previousArea = span.Area
			previousTop = int(span.Max)
		}
	}
}

// FilterLedgeSpans marks walkable spans next to a ledge as not walkable
// (rcFilterLedgeSpans): a span is a ledge when some neighbour the agent could
// stand in drops more than walkableClimb cells below it (the field's edge
// counts as a drop), or when the reachable neighbour floors differ by more
// than walkableClimb (a steep slope).
//
// The reference compares each span with every span of the neighbour
// columns, which costs the square of a column's height in spans where
// floors stack; only the neighbour spans whose open space overlaps the
// span's by walkableHeight count, and those lie in a window that moves up
// the neighbour column as the span moves up its own, so here each column
// pair is walked once, with the same result.
func (hf *Heightfield) FilterLedgeSpans(walkableHeight, walkableClimb int) {
	width, height := hf.Width, hf.Height
	pool, columns := hf.Pool, hf.Columns
	for z := range height {
		for x := range width {
			column := x + z*width
			edge := x == 0 || z == 0 || x == width-1 || z == height-1
			var ledge ledgeFinder
			if !edge {
				// Neighbour columns in directions 0..3.
				ledge.first = [4]int32{columns[column-1], columns[column+width], columns[column+1], columns[column-width]}
				ledge.window = ledge.first
			}
			for s := columns[column]; s != noSpan; {
				span := &pool[s]
				s = span.Next
				if span.Area == NullArea {
					continue
				}
				if edge {
					span.Area = NullArea // the field's edge is a drop
					continue
				}
				ceiling := openTop
				if s != noSpan {
					ceiling = int(pool[s].Min)
				}
				if ledge.isLedge(pool, int(span.Max), ceiling, walkableHeight, walkableClimb) {
					span.Area = NullArea
				}
			}
		}
	}
}

// ledgeFinder decides FilterLedgeSpans' test for the spans of one column,
// bottom to top, against the four neighbour columns.
type ledgeFinder struct {
	// first is each neighbour column's lowest span, window the first span
	// whose open space can still overlap that of the spans to come.
	first, window [4]int32
}

// isLedge reports whether the walkable span with the given floor and
// ceiling, which is not on the field's edge and lies above the spans asked
// about before, is a ledge; see FilterLedgeSpans.
func (l *ledgeFinder) isLedge(pool []Span, floor, ceiling, walkableHeight, walkableClimb int) bool {
	// The range of neighbour floors within climbing reach.
	lowestReachable, highestReachable := floor, floor
	for dir, first := range l.first {
		// The open space below the neighbour column's first span.
		neighbourCeiling := openTop
		if first != noSpan {
			neighbourCeiling = int(pool[first].Min)
		}
		if min(ceiling, neighbourCeiling)-floor >= walkableHeight {
			return true // the agent can step down past the neighbour's lowest span
		}
		// Spans whose open space ends less than walkableHeight above this
		// floor leave no room to pass, for this span and those above it.
		n := l.window[dir]
		for n != noSpan {
			next := pool[n].Next
			if next == noSpan || int(pool[next].Min)-floor >= walkableHeight {
				break
			}
			n = next
		}
		l.window[dir] = n
		for n != noSpan {
			ns := &pool[n]
			n = ns.Next
			neighbourFloor := int(ns.Max)
			if neighbourFloor > ceiling-walkableHeight {
				break // no room to pass, here or higher up
			}
			neighbourCeiling = openTop
			if n != noSpan {
				neighbourCeiling = int(pool[n].Min)
			}
			if min(ceiling, neighbourCeiling)-max(floor, neighbourFloor) < walkableHeight {
				continue // no room to pass between the two spans
			}
			drop := neighbourFloor - floor
			if drop < -walkableClimb {
				return true // a drop too deep to climb
			}
			if drop <= walkableClimb {
				lowestReachable = min(lowestReachable, neighbourFloor)
				highestReachable = max(highestReachable, neighbourFloor)
			}
		}
	}
	return highestReachable-lowestReachable > walkableClimb
}

// FilterWalkableLowHeightSpans marks spans with less than walkableHeight cells
// of open space above them as not walkable (rcFilterWalkableLowHeightSpans).
func (hf *Heightfield) FilterWalkableLowHeightSpans(walkableHeight int) {
	pool := hf.Pool
	for _, first := range hf.Columns {
		for s := first; s != noSpan; {
			span := &pool[s]
			s = span.Next
			ceiling := openTop
			if s != noSpan {
				ceiling = int(pool[s].Min)
			}
			if ceiling-int(span.Max) < walkableHeight {
				span.Area = NullArea
			}
		}
	}
}
