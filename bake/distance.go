package bake

import (
	"errors"
	"fmt"
	"runtime"
)

// distanceUnset is the initial distance of a span before the two sweeps.
const distanceUnset = 0xffff

// BuildDistanceField computes, for every span of chf, an estimate of its
// distance to the nearest border of the walkable area (a span with a missing
// or different-area neighbour) and stores it in chf.Dist, smoothed by a 3×3
// box blur (rcBuildDistanceField). chf.MaxDistance receives the largest
// distance before the blur. Distances are in half cells: a straight step
// counts 2 and a diagonal step 3 [Limit: 0..65535].
//
// The field is required by BuildRegions. A previous chf.Dist is replaced. On
// error chf is left unchanged.
func BuildDistanceField(chf *CompactHeightfield) error {
	var buffers distanceBuffers
	return buffers.build(chf)
}

// distanceBuffers keeps the two distance arrays of BuildDistanceField
// between builds.
type distanceBuffers struct {
	raw, blurred []uint16
}

// build is BuildDistanceField on the buffers' memory: chf.Dist becomes the
// blurred buffer, so the field must be done with it before the next build.
func (b *distanceBuffers) build(chf *CompactHeightfield) (err error) {
	defer recoverMalformedField("build distance field", &err)
	if err := checkCompactLayout(chf); err != nil {
		return fmt.Errorf("bake: build distance field: %w", err)
	}
	spanCount := len(chf.Spans)
	b.raw = resize(b.raw, spanCount)
	b.blurred = resize(b.blurred, spanCount)

	maxDistance := calculateDistanceField(chf, b.raw)
	boxBlur(chf, 1, b.raw, b.blurred)

	chf.MaxDistance = maxDistance
	chf.Dist = b.blurred
	return nil
}

// checkCompactLayout verifies the sizes a region or contour stage relies on,
// so that a malformed field gives an error instead of an index panic.
func checkCompactLayout(chf *CompactHeightfield) error {
	if chf == nil {
		return errors.New("nil compact heightfield")
	}
	if chf.Width < 0 || chf.Height < 0 {
		return fmt.Errorf("negative grid size %d×%d", chf.Width, chf.Height)
	}
	if len(chf.Cells) != chf.Width*chf.Height {
		return fmt.Errorf("%d cells for a %d×%d grid", len(chf.Cells), chf.Width, chf.Height)
	}
	if len(chf.Areas) != len(chf.Spans) {
		return fmt.Errorf("%d areas for %d spans", len(chf.Areas), len(chf.Spans))
	}
	for i, c := range chf.Cells {
		if uint64(c.Index)+uint64(c.Count) > uint64(len(chf.Spans)) {
			return fmt.Errorf("cell %d holds spans %d..%d of %d", i, c.Index, uint64(c.Index)+uint64(c.Count), len(chf.Spans))
		}
	}
	return nil
}

// recoverMalformedField turns a runtime error (an index out of range) that a
// stage hits on a field whose neighbour connections are inconsistent into
// the stage's error. Checking every connection up front would cost a tenth
// of the stages' time for fields that BuildCompactHeightfield made right;
// since the stages write to the field only after their last read, a stage
// stopped this way leaves the field unchanged.
func recoverMalformedField(stage string, err *error) {
	r := recover()
	if r == nil {
		return
	}
	if runtimeErr, ok := r.(runtime.Error); ok {
		*err = fmt.Errorf("bake: %s: malformed compact heightfield: %w", stage, runtimeErr)
		return
	}
	panic(r)
}

// neighbourSpan returns the index of the span connected to span s of cell
// (x, y) in direction dir; the caller has checked the connection exists.
func neighbourSpan(chf *CompactHeightfield, x, y int, s *CompactSpan, dir int) int {
	ax := x + DirOffsetX(dir)
	ay := y + DirOffsetZ(dir)
	return int(chf.Cells[ax+ay*chf.Width].Index) + s.Connection(dir)
}

// cellOffsets returns, per direction, the step between neighbouring cell
// indices x + y*width.
func cellOffsets(width int) [4]int {
	return [4]int{-1, width, 1, -width}
}

// calculateDistanceField fills distances with the two-pass chamfer distance
// to the area border and returns the largest value.
func calculateDistanceField(chf *CompactHeightfield, distances []uint16) uint16 {
	w, h := chf.Width, chf.Height
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	offsets := cellOffsets(w)
	for i := range distances {
		distances[i] = distanceUnset
	}

	// Spans without four same-area neighbours sit on the border.
	for cell, c := range cells {
		for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
			s := &spans[i]
			connected := 0
			for dir := 0; dir < 4; dir++ {
				if con := s.Connection(dir); con != NotConnected {
					if areas[i] == areas[int(cells[cell+offsets[dir]].Index)+con] {
						connected++
					}
				}
			}
			if connected != 4 {
				distances[i] = 0
			}
		}
	}

	// relax lowers the distance of span i of cell through its neighbour in
	// direction dir (cost 2) and that neighbour's neighbour in direction
	// diagonalDir (cost 3). Written out in the sweeps below for speed.
	//
	// Forward sweep: (-1,0) then (-1,-1), (0,-1) then (1,-1).
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cell := x + y*w
			c := cells[cell]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				s := &spans[i]
				if con := s.Connection(0); con != NotConnected {
					ac := cell + offsets[0]
					ai := int(cells[ac].Index) + con
					if int(distances[ai])+2 < int(distances[i]) {
						distances[i] = distances[ai] + 2
					}
					if con := spans[ai].Connection(3); con != NotConnected {
						aai := int(cells[ac+offsets[3]].Index) + con
						if int(distances[aai])+3 < int(distances[i]) {
							distances[i] = distances[aai] + 3
						}
					}
				}
				if con := s.Connection(3); con != NotConnected {
					ac := cell + offsets[3]
					ai := int(cells[ac].Index) + con
					if int(distances[ai])+2 < int(distances[i]) {
						distances[i] = distances[ai] + 2
					}
					if con := spans[ai].Connection(2); con != NotConnected {
						aai := int(cells[ac+offsets[2]].Index) + con
						if int(distances[aai])+3 < int(distances[i]) {
							distances[i] = distances[aai] + 3
						}
					}
				}
			}
		}
	}

	// Backward sweep: (1,0) then (1,1), (0,1) then (-1,1).
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			cell := x + y*w
			c := cells[cell]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				s := &spans[i]
				if con := s.Connection(2); con != NotConnected {
					ac := cell + offsets[2]
					ai := int(cells[ac].Index) + con
					if int(distances[ai])+2 < int(distances[i]) {
						distances[i] = distances[ai] + 2
					}
					if con := spans[ai].Connection(1); con != NotConnected {
						aai := int(cells[ac+offsets[1]].Index) + con
						if int(distances[aai])+3 < int(distances[i]) {
							distances[i] = distances[aai] + 3
						}
					}
				}
				if con := s.Connection(1); con != NotConnected {
					ac := cell + offsets[1]
					ai := int(cells[ac].Index) + con
					if int(distances[ai])+2 < int(distances[i]) {
						distances[i] = distances[ai] + 2
					}
					if con := spans[ai].Connection(0); con != NotConnected {
						aai := int(cells[ac+offsets[0]].Index) + con
						if int(distances[aai])+3 < int(distances[i]) {
							distances[i] = distances[aai] + 3
						}
					}
				}
			}
		}
	}

	var maxDistance uint16
	for _, d := range distances {
		maxDistance = max(maxDistance, d)
	}
	return maxDistance
}

// boxBlur writes into dst the 3×3 average of src around each span whose
// distance exceeds 2*threshold; missing neighbours count as the span itself.
func boxBlur(chf *CompactHeightfield, threshold int, src, dst []uint16) {
	cells, spans := chf.Cells, chf.Spans
	offsets := cellOffsets(chf.Width)
	threshold *= 2
	for cell, c := range cells {
		for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
			center := int(src[i])
			if center <= threshold {
				dst[i] = src[i]
				continue
			}
			s := &spans[i]
			sum := center
			for dir := 0; dir < 4; dir++ {
				con := s.Connection(dir)
				if con == NotConnected {
					sum += center * 2
					continue
				}
				ac := cell + offsets[dir]
				ai := int(cells[ac].Index) + con
				sum += int(src[ai])
				nextDir := (dir + 1) & 3
				if con := spans[ai].Connection(nextDir); con != NotConnected {
					sum += int(src[int(cells[ac+offsets[nextDir]].Index)+con])
				} else {
					sum += center
				}
			}
			dst[i] = uint16((sum + 5) / 9)
		}
	}
}
