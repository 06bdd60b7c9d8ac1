package bake

import (
	"errors"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
)

// unsetHeight marks a height patch cell with no height yet.
const unsetHeight = 0xffff

// heightPatch holds the floor heights (in cells) of the compact heightfield
// under one polygon's bounds, gathered from the polygon's own region.
type heightPatch struct {
	data                      []uint16
	xMin, zMin, width, height int
}

// errNoSeedSpan is returned when no span lies near any vertex of a polygon
// whose region gave no heights.
var errNoSeedSpan = errors.New("no span near the polygon's vertices")

// gatherHeights fills the patch with the heights under a polygon: first the
// spans of the polygon's region, then a breadth-first flood from the region's
// edges (or from the polygon centre when the region gave nothing) over the
// rest of the patch (getHeightData).
func (b *detailBuilder) gatherHeights(poly []uint16, verts [][3]uint16, region uint16) error {
	chf := b.chf
	hp := &b.patch
	bs := chf.BorderSize
	queue := b.queue[:0]
	// Filled by doubling copies, which run at memmove speed.
	if len(hp.data) > 0 {
		hp.data[0] = unsetHeight
		for filled := 1; filled < len(hp.data); filled *= 2 {
			copy(hp.data[filled:], hp.data[:filled])
		}
	}

	empty := true
	cells, spans, fieldWidth := chf.Cells, chf.Spans, chf.Width
	offsets := cellOffsets(fieldWidth)
	// A polygon merged from several regions could overlap other polygons
	// of those regions, so it is filled from its centre only.
	if region != multipleRegions {
		// The region's spans, in span order, which is column order: one
		// walk along each patch row with a cursor into them finds each
		// column's first span of the region without visiting the other
		// spans of the column (floors stacked above would make that
		// quadratic).
		regionSpans := b.spansOfRegion(region)
		for hz := 0; hz < hp.height && len(regionSpans) > 0; hz++ {
			z := hp.zMin + hz + bs
			row := hp.data[hz*hp.width : (hz+1)*hp.width]
			firstColumn := hp.xMin + bs + z*fieldWidth
			rowCells := cells[firstColumn : firstColumn+len(row)]
			next := 0
			for hx := range rowCells {
				cell := &rowCells[hx]
				if cell.Count == 0 {
					continue
				}
				if next < len(regionSpans) && regionSpans[next] < cell.Index {
					skip, _ := slices.BinarySearch(regionSpans[next:], cell.Index)
					next += skip
				}
				end := cell.Index + cell.Count
				if next >= len(regionSpans) {
					break
				}
				if regionSpans[next] >= end {
					continue
				}
				i := int(regionSpans[next])
				for next < len(regionSpans) && regionSpans[next] < end {
					next++
				}
				s := &spans[i]
				row[hx] = s.Y
				empty = false
				if onRegionEdge(chf, firstColumn+hx, s, region) {
					queue = append(queue, hp.xMin+hx+bs, z, i)
				}
			}
		}
	}

	if empty {
		var err error
		if queue, err = b.seedFromPolyCenter(poly, verts, queue); err != nil {
			return err
		}
	}

	// The flood works in patch coordinates.
	originX, originZ := hp.xMin+bs, hp.zMin+bs
	for head := 0; head+2 < len(queue); head += 3 {
		cx, cz, ci := queue[head], queue[head+1], queue[head+2]
		s := &spans[ci]
		column := cx + cz*fieldWidth
		for dir := 0; dir < 4; dir++ {
			con := s.Connection(dir)
			if con == NotConnected {
				continue
			}
			hx := cx + dirOffsetX[dir] - originX
			hz := cz + dirOffsetZ[dir] - originZ
			if uint(hx) >= uint(hp.width) || uint(hz) >= uint(hp.height) {
				continue
			}
			patchIndex := hx + hz*hp.width
			if hp.data[patchIndex] != unsetHeight {
				continue
			}
			ai := int(cells[column+offsets[dir]].Index) + con
			hp.data[patchIndex] = spans[ai].Y
			queue = append(queue, cx+dirOffsetX[dir], cz+dirOffsetZ[dir], ai)
		}
	}
	b.queue = queue[:0]
	return nil
}

// onRegionEdge reports whether span s of column has a linked neighbour
// outside region.
func onRegionEdge(chf *CompactHeightfield, column int, s *CompactSpan, region uint16) bool {
	cells, spans := chf.Cells, chf.Spans
	for dir, step := range cellOffsets(chf.Width) {
		con := s.Connection(dir)
		if con != NotConnected && spans[int(cells[column+step].Index)+con].Region != region {
			return true
		}
	}
	return false
}

// seedFromPolyCenter finds the span nearest in height to one of the
// polygon's vertices, walks depth-first from it to the polygon's centre
// cell and returns the queue holding that one seed, with the patch reset to
// unset except for the seed's height (seedArrayWithPolyCenter).
func (b *detailBuilder) seedFromPolyCenter(poly []uint16, verts [][3]uint16, stack []int) ([]int, error) {
	chf := b.chf
	hp := &b.patch
	bs := chf.BorderSize
	offsets := [9][2]int{{0, 0}, {-1, -1}, {0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}}

	startX, startZ, startSpan := 0, 0, -1
	dmin := unsetHeight
	for j := 0; j < len(poly) && dmin > 0; j++ {
		v := &verts[poly[j]]
		for k := 0; k < 9 && dmin > 0; k++ {
			ax := int(v[0]) + offsets[k][0]
			ay := int(v[1])
			az := int(v[2]) + offsets[k][1]
			if ax < hp.xMin || ax >= hp.xMin+hp.width || az < hp.zMin || az >= hp.zMin+hp.height {
				continue
			}
			cell := chf.Cells[(ax+bs)+(az+bs)*chf.Width]
			for i, end := int(cell.Index), int(cell.Index+cell.Count); i < end && dmin > 0; i++ {
				d := ay - int(chf.Spans[i].Y)
				if d < 0 {
					d = -d
				}
				if d < dmin {
					startX, startZ, startSpan, dmin = ax, az, i, d
				}
			}
		}
	}
	if startSpan == -1 {
		return stack, errNoSeedSpan
	}

	centerX, centerZ := 0, 0
	for _, vi := range poly {
		centerX += int(verts[vi][0])
		centerZ += int(verts[vi][2])
	}
	centerX /= len(poly)
	centerZ /= len(poly)

	stack = append(stack[:0], startX, startZ, startSpan)
	dirs := [4]int{0, 1, 2, 3}
	for i := range hp.data {
		hp.data[i] = 0
	}
	// Depth-first: a straight walk to the centre can get stuck on
	// simplified contours, so the visited cells are kept.
	cx, cz, ci := -1, -1, -1
	for {
		if len(stack) < 3 {
			b.log.warnf("build detail mesh: walk towards polygon center failed to reach center")
			break
		}
		n := len(stack)
		cx, cz, ci = stack[n-3], stack[n-2], stack[n-1]
		stack = stack[:n-3]
		if cx == centerX && cz == centerZ {
			break
		}

		// Try the direction straight towards the centre first: it goes
		// last on the stack.
		var direct int
		if cx == centerX {
			direct = DirForOffset(0, sign(centerZ-cz))
		} else {
			direct = DirForOffset(sign(centerX-cx), 0)
		}
		dirs[direct], dirs[3] = dirs[3], dirs[direct]

		s := &chf.Spans[ci]
		for _, dir := range dirs {
			con := s.Connection(dir)
			if con == NotConnected {
				continue
			}
			nx := cx + DirOffsetX(dir)
			nz := cz + DirOffsetZ(dir)
			px := nx - hp.xMin
			pz := nz - hp.zMin
			if px < 0 || px >= hp.width || pz < 0 || pz >= hp.height {
				continue
			}
			if hp.data[px+pz*hp.width] != 0 {
				continue
			}
			hp.data[px+pz*hp.width] = 1
			stack = append(stack, nx, nz, int(chf.Cells[(nx+bs)+(nz+bs)*chf.Width].Index)+con)
		}

		dirs[direct], dirs[3] = dirs[3], dirs[direct]
	}

	stack = append(stack[:0], cx+bs, cz+bs, ci)
	// Filled by doubling copies, which run at memmove speed.
	if len(hp.data) > 0 {
		hp.data[0] = unsetHeight
		for filled := 1; filled < len(hp.data); filled *= 2 {
			copy(hp.data[filled:], hp.data[:filled])
		}
	}
	hp.data[cx-hp.xMin+(cz-hp.zMin)*hp.width] = chf.Spans[ci].Y
	return stack, nil
}

// sign returns 1 for positive d, -1 otherwise (the centre walk's step).
func sign(d int) int {
	if d > 0 {
		return 1
	}
	return -1
}

// sampleHeight returns the patch height (in cells) under the point fx, fz
// (world units relative to the mesh origin). An unset cell takes the
// height closest to fy from the nearest ring of set cells within radius
// (getHeight).
func (hp *heightPatch) sampleHeight(fx, fy, fz, invCellSize, cellHeight float32, radius int) uint16 {
	ix := cInt(geom.Floor(float32(fx*invCellSize) + 0.01))
	iz := cInt(geom.Floor(float32(fz*invCellSize) + 0.01))
	ix = geom.Clamp(ix-hp.xMin, 0, hp.width-1)
	iz = geom.Clamp(iz-hp.zMin, 0, hp.height-1)
	h := hp.data[ix+iz*hp.width]
	if h != unsetHeight {
		return h
	}

	// Spiral outwards ring by ring; stop at the end of the first ring that
	// gave a height.
	x, z, dx, dz := 1, 0, 1, 0
	maxSize := radius*2 + 1
	maxIter := maxSize*maxSize - 1
	nextRingIterStart := 8
	nextRingIters := 16
	dmin := maxFloat32
	for i := 0; i < maxIter; i++ {
		nx := ix + x
		nz := iz + z
		if nx >= 0 && nz >= 0 && nx < hp.width && nz < hp.height {
			nh := hp.data[nx+nz*hp.width]
			if nh != unsetHeight {
				d := abs32(float32(float32(nh)*cellHeight) - fy)
				if d < dmin {
					h = nh
					dmin = d
				}
			}
		}
		if i+1 == nextRingIterStart {
			if h != unsetHeight {
				break
			}
			nextRingIterStart += nextRingIters
			nextRingIters += 8
		}
		if x == z || (x < 0 && x == -z) || (x > 0 && x == 1-z) {
			dx, dz = -dz, dx
		}
		x += dx
		z += dz
	}
	return h
}

// indexRegions groups the indices of chf's spans by region (0 left out),
// each region's in span order, for spansOfRegion: one pass over the spans
// per detail mesh build.
func (b *detailBuilder) indexRegions(chf *CompactHeightfield) {
	top := 0
	for i := range chf.Spans {
		top = max(top, int(chf.Spans[i].Region))
	}
	start := resize(b.regionStart, top+2)
	clear(start)
	for i := range chf.Spans {
		if r := chf.Spans[i].Region; r != 0 {
			start[int(r)+1]++
		}
	}
	for r := 1; r < len(start); r++ {
		start[r] += start[r-1]
	}
	b.regionSpans = resize(b.regionSpans, int(start[len(start)-1]))
	fill := resize(b.regionFill, len(start))
	copy(fill, start)
	for i := range chf.Spans {
		if r := chf.Spans[i].Region; r != 0 {
			b.regionSpans[fill[r]] = uint32(i)
			fill[r]++
		}
	}
	b.regionStart, b.regionFill = start, fill
}

// spansOfRegion returns the indices of region's spans in span order.
func (b *detailBuilder) spansOfRegion(region uint16) []uint32 {
	r := int(region)
	if r == 0 || r+1 >= len(b.regionStart) {
		return nil
	}
	return b.regionSpans[b.regionStart[r]:b.regionStart[r+1]]
}
