package bake

import "fmt"

// noSweepNeighbour marks a row run that touches more than one region of the
// previous row (RC_NULL_NEI).
const noSweepNeighbour = 0xffff

// sweepSpan is a run of connected spans in one row of a monotone sweep.
type sweepSpan struct {
	// id is the region the run finally gets.
	id uint16
	// samples counts the spans of the run whose -z neighbour is in
	// neighbour.
	samples uint16
	// neighbour is the one region of the previous row the run touches, 0
	// for none, noSweepNeighbour for several.
	neighbour uint16
}

// BuildRegionsMonotone partitions the walkable spans of chf into regions by
// sweeping rows (rcBuildRegionsMonotone): fast and free of holes and
// overlaps, but it can produce long thin regions. It needs no distance field.
//
// borderSize, minRegionArea and mergeRegionArea mean what they mean for
// BuildRegions [Limit: >= 0] [Units: cells, spans, spans]. The result is
// written to the Region of every span, chf.MaxRegions and chf.BorderSize.
// On error chf is left unchanged.
func BuildRegionsMonotone(chf *CompactHeightfield, borderSize, minRegionArea, mergeRegionArea int) error {
	var buffers regionBuffers
	return buffers.monotone(chf, borderSize, minRegionArea, mergeRegionArea)
}

// monotone is BuildRegionsMonotone on the buffers' memory.
func (b *regionBuffers) monotone(chf *CompactHeightfield, borderSize, minRegionArea, mergeRegionArea int) (err error) {
	defer recoverMalformedField("build monotone regions", &err)
	if err := checkRegionInput(chf, borderSize); err != nil {
		return fmt.Errorf("bake: build monotone regions: %w", err)
	}
	regions := b.spanRegions(chf)
	maxRegionID := sweepMonotoneRegions(chf, borderSize, regions)

	// Sweeping never makes a region overlap itself, so overlaps are ignored.
	b.merger.mergeAndFilter(minRegionArea, mergeRegionArea, &maxRegionID, chf, regions)

	storeRegions(chf, regions, borderSize, maxRegionID)
	return nil
}

// sweepMonotoneRegions paints the border regions (when borderSize > 0) and
// then assigns row runs to regions, joining a run to the region of the
// previous row when it is the only region the run touches and the run is the
// only one touching it. It returns the next free region id.
func sweepMonotoneRegions(chf *CompactHeightfield, borderSize int, regions []uint16) uint16 {
	w, h := chf.Width, chf.Height
	id := uint16(1)
	if borderSize > 0 {
		id = paintBorderRegions(chf, borderSize, regions, id)
	}

	sweeps := make([]sweepSpan, max(w, h))
	previousRowCounts := make([]int, 0, 256)

	for y := borderSize; y < h-borderSize; y++ {
		if cap(previousRowCounts) < int(id)+1 {
			previousRowCounts = make([]int, int(id)+1, 2*(int(id)+1))
		}
		previousRowCounts = previousRowCounts[:int(id)+1]
		clear(previousRowCounts)
		runID := uint16(1)

		for x := borderSize; x < w-borderSize; x++ {
			c := chf.Cells[x+y*w]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				s := &chf.Spans[i]
				if chf.Areas[i] == NullArea {
					continue
				}

				// Continue the run of the -x neighbour.
				var run uint16
				if s.Connection(0) != NotConnected {
					ai := neighbourSpan(chf, x, y, s, 0)
					if regions[ai]&BorderRegion == 0 && chf.Areas[i] == chf.Areas[ai] {
						run = regions[ai]
					}
				}
				if run == 0 {
					run = runID
					runID++
					if int(run) >= len(sweeps) {
						sweeps = append(sweeps, make([]sweepSpan, int(run)+1-len(sweeps))...)
					}
					sweeps[run].samples = 0
					sweeps[run].neighbour = 0
				}

				// Note the region of the -z neighbour.
				if s.Connection(3) != NotConnected {
					ai := neighbourSpan(chf, x, y, s, 3)
					below := regions[ai]
					if below != 0 && below&BorderRegion == 0 && chf.Areas[i] == chf.Areas[ai] {
						sweep := &sweeps[run]
						if sweep.neighbour == 0 || sweep.neighbour == below {
							sweep.neighbour = below
							sweep.samples++
							previousRowCounts[below]++
						} else {
							sweep.neighbour = noSweepNeighbour
						}
					}
				}

				regions[i] = run
			}
		}

		// A run inherits its neighbour's id when it is the neighbour's only
		// contact with this row; every other run starts a new region.
		for i := 1; i < int(runID); i++ {
			sweep := &sweeps[i]
			if sweep.neighbour != noSweepNeighbour && sweep.neighbour != 0 &&
				previousRowCounts[sweep.neighbour] == int(sweep.samples) {
				sweep.id = sweep.neighbour
			} else {
				sweep.id = id
				id++
			}
		}

		for x := borderSize; x < w-borderSize; x++ {
			c := chf.Cells[x+y*w]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				if regions[i] > 0 && regions[i] < runID {
					regions[i] = sweeps[regions[i]].id
				}
			}
		}
	}
	return id
}
