package bake

import "fmt"

// CarveSpan removes the solid cells [spanMin, spanMax) from column (x, z):
// the spans inside go, a span reaching in from above keeps its part above
// spanMax with its own area, and a span reaching in from below keeps its
// part below spanMin, whose top is now the floor of the carved space and
// takes floorArea (NullArea for a floor nobody may walk on). A span
// reaching through is cut in two. A range with spanMin >= spanMax carves
// nothing. This is the opposite of AddSpan, for shapes that cut the
// solid away (bake/dynamic's carving colliders).
func (hf *Heightfield) CarveSpan(x, z int, spanMin, spanMax uint16, floorArea uint8) error {
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return fmt.Errorf("bake: carve span: column (%d, %d) outside the %d×%d field", x, z, hf.Width, hf.Height)
	}
	if spanMax > MaxSpanHeight {
		return fmt.Errorf("bake: carve span: top %d above %d", spanMax, MaxSpanHeight)
	}
	if floorArea > MaxAreaID {
		return fmt.Errorf("bake: carve span: area %d above %d", floorArea, MaxAreaID)
	}
	if spanMin >= spanMax {
		return nil
	}
	hf.carveSpan(x+z*hf.Width, spanMin, spanMax, floorArea)
	return nil
}

// carveSpan is CarveSpan with checked arguments.
func (hf *Heightfield) carveSpan(column int, spanMin, spanMax uint16, floorArea uint8) {
	previous := int32(noSpan)
	current := hf.Columns[column]
	for current != noSpan {
		span := &hf.Pool[current]
		if span.Min >= spanMax {
			return // the rest of the column lies above
		}
		if span.Max <= spanMin {
			previous, current = current, span.Next
			continue
		}
		below := span.Min < spanMin
		above := span.Max > spanMax
		switch {
		case below && above:
			// Cut in two: the span keeps its lower part, a new one takes
			// the upper part with the span's area.
			upper := hf.allocSpan()
			span = &hf.Pool[current] // the pool may have moved
			hf.Pool[upper] = Span{Min: spanMax, Max: span.Max, Area: span.Area, Next: span.Next}
			span.Max, span.Area, span.Next = spanMin, floorArea, upper
			return
		case below:
			span.Max, span.Area = spanMin, floorArea
			previous, current = current, span.Next
		case above:
			span.Min = spanMax
			return
		default:
			next := span.Next
			hf.freeSpan(current)
			if previous != noSpan {
				hf.Pool[previous].Next = next
			} else {
				hf.Columns[column] = next
			}
			current = next
		}
	}
}

// WalkableSlopeThreshold returns the smallest y of a unit surface normal
// that counts as walkable at maxSlope degrees, exclusive:
// cosf(maxSlope/180·π) computed as Recast computes it, the threshold
// MarkWalkableTriangles compares triangle normals with. Surfaces that are
// not triangles (bake/dynamic's analytic colliders) use it to agree with
// the triangles.
func WalkableSlopeThreshold(maxSlope float32) float32 { return walkableThreshold(maxSlope) }
