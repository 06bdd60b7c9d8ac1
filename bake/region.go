package bake

import (
	"errors"
	"fmt"
	"slices"
)

// Watershed settings of rcBuildRegions.
const (
	// watershedExpandIterations bounds how far regions grow into each new
	// level before new regions are flooded.
	watershedExpandIterations = 8
	// levelStackBits is log2 of the number of level stacks; each stack holds
	// the spans of 1<<levelsPerStackShift distance levels.
	levelStackBits      = 3
	levelStackCount     = 1 << levelStackBits
	levelsPerStackShift = 1
)

// errRegionIDOverflow is returned when a partition needs more than 65535 ids.
var errRegionIDOverflow = errors.New("region id overflow: more than 65535 regions")

// levelStackEntry is a span waiting to be assigned a region: its cell
// (x + y*width) and span index, both below 2^32 (CompactCell.Index).
type levelStackEntry struct {
	cell, index uint32
}

// dirtyEntry is a region assignment computed in one expansion round and
// applied after it, so that the round sees a consistent field.
type dirtyEntry struct {
	index    uint32
	region   uint16
	distance uint16
}

// BuildRegions partitions the walkable spans of chf into regions with the
// watershed method (rcBuildRegions): regions grow outward from the spans
// farthest from any border, which gives the best regions for tessellation
// at the cost of needing the distance field from BuildDistanceField first.
//
// borderSize is the width of the tile border whose spans get BorderRegion
// ids [Limit: >= 0] [Units: cells]. Connected groups of regions smaller than
// minRegionArea spans that do not touch the tile border are removed
// [Limit: >= 0] [Units: spans]. Regions of at most mergeRegionArea spans are
// merged into a neighbour when possible [Limit: >= 0] [Units: spans].
//
// The result is written to the Region of every span, chf.MaxRegions (all
// region ids are below it) and chf.BorderSize. If merging
// finds regions that overlap themselves vertically the partition is kept
// and a warning is appended to chf.Warnings, as the C++ logs and goes on.
// On error chf is left unchanged.
func BuildRegions(chf *CompactHeightfield, borderSize, minRegionArea, mergeRegionArea int) error {
	var buffers regionBuffers
	return buffers.watershed(chf, borderSize, minRegionArea, mergeRegionArea)
}

// regionBuffers keeps the working memory of region partitioning between
// builds.
type regionBuffers struct {
	// regions and distances hold, per span, the region being grown and the
	// distance to its seed.
	regions, distances []uint16
	levelStacks        [levelStackCount][]levelStackEntry
	stack, waiting     []levelStackEntry
	dirty              []dirtyEntry
	merger             regionMerger
}

// spanRegions returns the regions buffer sized for chf and cleared.
func (b *regionBuffers) spanRegions(chf *CompactHeightfield) []uint16 {
	b.regions = resize(b.regions, len(chf.Spans))
	clear(b.regions)
	return b.regions
}

// watershed is BuildRegions on the buffers' memory.
func (b *regionBuffers) watershed(chf *CompactHeightfield, borderSize, minRegionArea, mergeRegionArea int) (err error) {
	defer recoverMalformedField("build regions", &err)
	if err := checkRegionInput(chf, borderSize); err != nil {
		return fmt.Errorf("bake: build regions: %w", err)
	}
	if len(chf.Dist) != len(chf.Spans) {
		return fmt.Errorf("bake: build regions: distance field has %d values for %d spans (run BuildDistanceField first)", len(chf.Dist), len(chf.Spans))
	}

	regions := b.spanRegions(chf)
	b.distances = resize(b.distances, len(chf.Spans))
	distances := b.distances
	clear(distances)
	levelStacks := &b.levelStacks
	for i := range levelStacks {
		levelStacks[i] = slices.Grow(levelStacks[i][:0], 256)
	}
	stack := slices.Grow(b.stack[:0], 256)
	dirty := b.dirty[:0]

	regionID := uint16(1)
	level := uint16((int(chf.MaxDistance) + 1) &^ 1)
	if borderSize > 0 {
		regionID = paintBorderRegions(chf, borderSize, regions, regionID)
	}
	waiting := walkableSpans(chf, regions, slices.Grow(b.waiting[:0], len(chf.Areas)))

	stackIndex := -1
	for level > 0 {
		if level >= 2 {
			level -= 2
		} else {
			level = 0
		}
		stackIndex = (stackIndex + 1) & (levelStackCount - 1)
		if stackIndex == 0 {
			waiting = sortCellsByLevel(level, chf, regions, waiting, levelStacks[:], levelsPerStackShift)
		} else {
			levelStacks[stackIndex] = appendStacks(levelStacks[stackIndex-1], levelStacks[stackIndex], regions)
		}

		levelStacks[stackIndex], dirty = expandRegions(watershedExpandIterations, level, chf, regions, distances, levelStacks[stackIndex], false, dirty)

		for _, current := range levelStacks[stackIndex] {
			if regions[current.index] != 0 {
				continue
			}
			var flooded bool
			flooded, stack = floodRegion(int(current.cell), int(current.index), level, regionID, chf, regions, distances, stack)
			if flooded {
				if regionID == 0xffff {
					return fmt.Errorf("bake: build regions: %w", errRegionIDOverflow)
				}
				regionID++
			}
		}
	}

	// Grow the regions over whatever is left, without an iteration limit.
	stack = append(stack[:0], waitingSpans(regions, waiting)...)
	stack, dirty = expandRegions(watershedExpandIterations*8, 0, chf, regions, distances, stack, true, dirty)
	b.stack, b.waiting, b.dirty = stack, waiting, dirty

	maxRegionID := regionID
	overlaps := b.merger.mergeAndFilter(minRegionArea, mergeRegionArea, &maxRegionID, chf, regions)
	if len(overlaps) > 0 {
		chf.Warnings = append(chf.Warnings, fmt.Sprintf("bake: build regions: %d overlapping regions", len(overlaps)))
	}

	storeRegions(chf, regions, borderSize, maxRegionID)
	return nil
}

// checkRegionInput validates what every partition method needs.
func checkRegionInput(chf *CompactHeightfield, borderSize int) error {
	if err := checkCompactLayout(chf); err != nil {
		return err
	}
	if borderSize < 0 {
		return fmt.Errorf("negative border size %d", borderSize)
	}
	return nil
}

// storeRegions writes a finished partition into chf.
func storeRegions(chf *CompactHeightfield, regions []uint16, borderSize int, maxRegionID uint16) {
	for i := range chf.Spans {
		chf.Spans[i].Region = regions[i]
	}
	chf.BorderSize = borderSize
	chf.MaxRegions = maxRegionID
}

// paintBorderRegions gives the walkable spans of the four tile-border strips
// their own BorderRegion ids, starting at id, and returns the next free id.
func paintBorderRegions(chf *CompactHeightfield, borderSize int, regions []uint16, id uint16) uint16 {
	w, h := chf.Width, chf.Height
	bw := min(w, borderSize)
	bh := min(h, borderSize)
	paintRectRegion(0, bw, 0, h, id|BorderRegion, chf, regions)
	id++
	paintRectRegion(w-bw, w, 0, h, id|BorderRegion, chf, regions)
	id++
	paintRectRegion(0, w, 0, bh, id|BorderRegion, chf, regions)
	id++
	paintRectRegion(0, w, h-bh, h, id|BorderRegion, chf, regions)
	id++
	return id
}

// paintRectRegion sets the region of every walkable span in the cell
// rectangle [minX, maxX) × [minY, maxY).
func paintRectRegion(minX, maxX, minY, maxY int, id uint16, chf *CompactHeightfield, regions []uint16) {
	w := chf.Width
	for y := minY; y < maxY; y++ {
		for x := minX; x < maxX; x++ {
			c := chf.Cells[x+y*w]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				if chf.Areas[i] != NullArea {
					regions[i] = id
				}
			}
		}
	}
}

// floodRegion grows the new region id from span i of cell over the
// connected same-area spans at or above level-2 that have no region yet.
// A span next to another region is given back. It reports whether any span
// was kept, and returns the (reused) work stack.
func floodRegion(cell, i int, level, id uint16, chf *CompactHeightfield, regions, distances []uint16, stack []levelStackEntry) (bool, []levelStackEntry) {
	cells, spans, areas, dist := chf.Cells, chf.Spans, chf.Areas, chf.Dist
	offsets := cellOffsets(chf.Width)
	area := areas[i]

	stack = append(stack[:0], levelStackEntry{uint32(cell), uint32(i)})
	regions[i] = id
	distances[i] = 0

	var lowest uint16
	if level >= 2 {
		lowest = level - 2
	}
	count := 0

	for len(stack) > 0 {
		back := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		current, ci := int(back.cell), int(back.index)
		cs := &spans[ci]

		// Give the span back if a neighbour (or the diagonal next to it)
		// already belongs to another region.
		var other uint16
		for dir := 0; dir < 4; dir++ {
			con := cs.Connection(dir)
			if con == NotConnected {
				continue
			}
			ac := current + offsets[dir]
			ai := int(cells[ac].Index) + con
			if areas[ai] != area {
				continue
			}
			neighbour := regions[ai]
			if neighbour&BorderRegion != 0 {
				continue
			}
			if neighbour != 0 && neighbour != id {
				other = neighbour
				break
			}
			diagonalDir := (dir + 1) & 3
			if con := spans[ai].Connection(diagonalDir); con != NotConnected {
				ai2 := int(cells[ac+offsets[diagonalDir]].Index) + con
				if areas[ai2] != area {
					continue
				}
				diagonal := regions[ai2]
				if diagonal != 0 && diagonal != id {
					other = diagonal
					break
				}
			}
		}
		if other != 0 {
			regions[ci] = 0
			continue
		}

		count++

		for dir := 0; dir < 4; dir++ {
			con := cs.Connection(dir)
			if con == NotConnected {
				continue
			}
			ac := current + offsets[dir]
			ai := int(cells[ac].Index) + con
			if areas[ai] != area {
				continue
			}
			if dist[ai] >= lowest && regions[ai] == 0 {
				regions[ai] = id
				distances[ai] = 0
				stack = append(stack, levelStackEntry{uint32(ac), uint32(ai)})
			}
		}
	}
	return count > 0, stack
}

// walkableSpans lists the walkable spans without a region, in span order.
// The watershed keeps this list instead of rescanning the field: a span
// that gets a region never loses it once a flood is over, so the list only
// shrinks.
// The list is appended to waiting.
func walkableSpans(chf *CompactHeightfield, regions []uint16, waiting []levelStackEntry) []levelStackEntry {
	areas := chf.Areas
	for cell, c := range chf.Cells {
		for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
			if areas[i] != NullArea && regions[i] == 0 {
				waiting = append(waiting, levelStackEntry{uint32(cell), uint32(i)})
			}
		}
	}
	return waiting
}

// waitingSpans drops from waiting, in place, the spans that got a region,
// and returns the rest.
func waitingSpans(regions []uint16, waiting []levelStackEntry) []levelStackEntry {
	kept := 0
	for _, entry := range waiting {
		if regions[entry.index] == 0 {
			waiting[kept] = entry
			kept++
		}
	}
	return waiting[:kept]
}

// expandRegions grows existing regions into the spans of stack, one ring per
// round, for at most maxIterations rounds when level > 0 and until nothing
// changes otherwise. Each span joins the neighbouring region whose seed is
// nearest. If filled is false, stack entries that already have a region are
// dropped first; if true, stack holds only spans without a region.
//
// Unlike the C++, which marks handled entries -1 and rescans them every
// round, handled entries are dropped from stack as it goes: the callers
// skip such entries anyway, so the result is the same, with less work. It
// returns the shortened stack and the dirty buffer for reuse.
func expandRegions(maxIterations int, level uint16, chf *CompactHeightfield, regions, distances []uint16, stack []levelStackEntry, filled bool, dirty []dirtyEntry) ([]levelStackEntry, []dirtyEntry) {
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	offsets := cellOffsets(chf.Width)
	if !filled {
		kept := 0
		for _, entry := range stack {
			if regions[entry.index] == 0 {
				stack[kept] = entry
				kept++
			}
		}
		stack = stack[:kept]
	}

	iteration := 0
	for len(stack) > 0 {
		dirty = dirty[:0]
		kept := 0
		for _, entry := range stack {
			cell, i := int(entry.cell), int(entry.index)
			region := regions[i]
			bestDistance := uint16(0xffff)
			area := areas[i]
			s := &spans[i]
			for dir := 0; dir < 4; dir++ {
				con := s.Connection(dir)
				if con == NotConnected {
					continue
				}
				ai := int(cells[cell+offsets[dir]].Index) + con
				if areas[ai] != area {
					continue
				}
				if neighbour := regions[ai]; neighbour > 0 && neighbour&BorderRegion == 0 {
					if int(distances[ai])+2 < int(bestDistance) {
						region = neighbour
						bestDistance = distances[ai] + 2
					}
				}
			}
			if region != 0 {
				dirty = append(dirty, dirtyEntry{uint32(i), region, bestDistance})
			} else {
				stack[kept] = entry
				kept++
			}
		}
		stack = stack[:kept]

		for _, d := range dirty {
			regions[d.index] = d.region
			distances[d.index] = d.distance
		}

		if len(dirty) == 0 {
			break
		}
		if level > 0 {
			iteration++
			if iteration >= maxIterations {
				break
			}
		}
	}
	return stack, dirty
}

// sortCellsByLevel distributes the walkable spans still without a region
// over the level stacks: stack k gets the spans whose distance level is k
// steps of 1<<shift below startLevel; spans farther down are left out and
// spans above go to stack 0. The spans come from waiting, in span order
// like the C++ scan of the field; waiting is returned without the spans
// that got a region since the last call.
func sortCellsByLevel(startLevel uint16, chf *CompactHeightfield, regions []uint16, waiting []levelStackEntry, stacks [][]levelStackEntry, shift uint) []levelStackEntry {
	dist := chf.Dist
	start := int(startLevel >> shift)
	for j := range stacks {
		stacks[j] = stacks[j][:0]
	}
	kept := 0
	for _, entry := range waiting {
		i := entry.index
		if regions[i] != 0 {
			continue
		}
		waiting[kept] = entry
		kept++
		stackIndex := start - int(dist[i]>>shift)
		if stackIndex >= len(stacks) {
			continue
		}
		if stackIndex < 0 {
			stackIndex = 0
		}
		stacks[stackIndex] = append(stacks[stackIndex], entry)
	}
	return waiting[:kept]
}

// appendStacks appends to dst the entries of src still waiting for a region.
func appendStacks(src, dst []levelStackEntry, regions []uint16) []levelStackEntry {
	for _, entry := range src {
		if regions[entry.index] == 0 {
			dst = append(dst, entry)
		}
	}
	return dst
}
