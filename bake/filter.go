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
	for _, first := range hf.Columns {
		previousWalkable := false
		previousArea := NullArea
		previousTop := 0
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			span := &hf.Pool[s]
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
func (hf *Heightfield) FilterLedgeSpans(walkableHeight, walkableClimb int) {
	width, height := hf.Width, hf.Height
	for z := range height {
		for x := range width {
			for s := hf.Columns[x+z*width]; s != noSpan; s = hf.Pool[s].Next {
				span := &hf.Pool[s]
				if span.Area == NullArea {
					continue
				}
				if hf.isLedge(x, z, span, walkableHeight, walkableClimb) {
					span.Area = NullArea
				}
			}
		}
	}
}

// isLedge reports whether the walkable span at column (x, z) is a ledge; see
// FilterLedgeSpans.
func (hf *Heightfield) isLedge(x, z int, span *Span, walkableHeight, walkableClimb int) bool {
	floor := int(span.Max)
	ceiling := openTop
	if span.Next != noSpan {
		ceiling = int(hf.Pool[span.Next].Min)
	}
	// The deepest drop to a neighbour floor the agent fits above.
	lowestDrop := openTop
	// The range of neighbour floors within climbing reach.
	lowestReachable, highestReachable := floor, floor

	for dir := range 4 {
		nx, nz := x+DirOffsetX(dir), z+DirOffsetZ(dir)
		if nx < 0 || nz < 0 || nx >= hf.Width || nz >= hf.Height {
			return true
		}
		neighbour := hf.Columns[nx+nz*hf.Width]
		// The open space below the neighbour column's first span.
		neighbourCeiling := openTop
		if neighbour != noSpan {
			neighbourCeiling = int(hf.Pool[neighbour].Min)
		}
		if min(ceiling, neighbourCeiling)-floor >= walkableHeight {
			return true // the agent can step down past the neighbour's lowest span
		}
		for n := neighbour; n != noSpan; n = hf.Pool[n].Next {
			neighbourFloor := int(hf.Pool[n].Max)
			neighbourCeiling = openTop
			if next := hf.Pool[n].Next; next != noSpan {
				neighbourCeiling = int(hf.Pool[next].Min)
			}
			if min(ceiling, neighbourCeiling)-max(floor, neighbourFloor) < walkableHeight {
				continue // no room to pass between the two spans
			}
			drop := neighbourFloor - floor
			lowestDrop = min(lowestDrop, drop)
			if abs(drop) <= walkableClimb {
				lowestReachable = min(lowestReachable, neighbourFloor)
				highestReachable = max(highestReachable, neighbourFloor)
			} else if drop < -walkableClimb {
				break // already a ledge
			}
		}
	}
	return lowestDrop < -walkableClimb || highestReachable-lowestReachable > walkableClimb
}

// FilterWalkableLowHeightSpans marks spans with less than walkableHeight cells
// of open space above them as not walkable (rcFilterWalkableLowHeightSpans).
func (hf *Heightfield) FilterWalkableLowHeightSpans(walkableHeight int) {
	for _, first := range hf.Columns {
		for s := first; s != noSpan; s = hf.Pool[s].Next {
			span := &hf.Pool[s]
			ceiling := openTop
			if span.Next != noSpan {
				ceiling = int(hf.Pool[span.Next].Min)
			}
			if ceiling-int(span.Max) < walkableHeight {
				span.Area = NullArea
			}
		}
	}
}
