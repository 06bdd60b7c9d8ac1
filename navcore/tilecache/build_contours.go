package tilecache

import "fmt"

// Contour vertex encoding (4 bytes per vertex: x, height, z, flags).
const (
	// portalNone in a vertex's flags: the edge starting there is no
	// portal; 0..3 name the portal direction.
	portalNone = 0x0f
	// removableVertex in a vertex's flags: the poly mesh may remove it.
	removableVertex = 0x80
	// portalRegion is the neighbour code of a portal edge in direction d:
	// portalRegion+d (0xf8..0xfb), above any region id in practice.
	portalRegion = 0xf8
)

// contour is one region's simplified outline (dtTileCacheContour): verts
// [start, start+4·count) of the builder's contour vertex pool.
type contour struct {
	start, count int
	region, area uint8
}

// tempContour is the contour being traced (dtTempContour).
type tempContour struct {
	verts     []byte // 4 per vertex
	vertCount int
	poly      []uint16
	polyCount int
}

var dirOffsetX = [4]int{-1, 0, 1, 0}
var dirOffsetY = [4]int{0, 1, 0, -1}

// appendVertex adds a vertex to the traced contour, or slides the last one
// along when it continues a straight run with the same neighbour. It
// returns false when the contour is full.
func (c *tempContour) appendVertex(x, y, z int, r uint8) bool {
	if c.vertCount > 1 {
		pa := c.verts[(c.vertCount-2)*4:]
		pb := c.verts[(c.vertCount-1)*4:]
		if pb[3] == r {
			if pa[0] == pb[0] && int(pb[0]) == x {
				// Aligned along x: move the last vertex in z.
				pb[1], pb[2] = byte(y), byte(z)
				return true
			}
			if pa[2] == pb[2] && int(pb[2]) == z {
				// Aligned along z: move it in x.
				pb[0], pb[1] = byte(x), byte(y)
				return true
			}
		}
	}
	if (c.vertCount+1)*4 > len(c.verts) {
		return false
	}
	v := c.verts[c.vertCount*4:]
	v[0], v[1], v[2], v[3] = byte(x), byte(y), byte(z), r
	c.vertCount++
	return true
}

// neighbourRegion returns the region across edge dir of cell i: the
// neighbour's region (regs[i+step[dir]]) when connected, portalRegion+dir
// for a portal, noRegion for a wall (getNeighbourReg).
func neighbourRegion(cons, regs []byte, i, dir int, step *[4]int) uint8 {
	c := cons[i]
	mask := uint8(1) << dir
	if c&mask != 0 {
		return regs[i+step[dir]]
	}
	if c>>4&mask != 0 {
		return portalRegion + uint8(dir)
	}
	return noRegion
}

// walkContour traces the outline of the region of cell (x, y) into c
// (walkContour). It returns false when the outline does not fit.
func (b *builder) walkContour(x, y int, c *tempContour) bool {
	l := &b.layer
	w, h := int(l.Header.Width), int(l.Header.Height)
	cons, regs, heights := l.Cons[:w*h], b.regs[:w*h], l.Heights[:w*h]
	step := [4]int{-1, w, 1, -w}
	c.vertCount = 0
	i := x + y*w
	startI, startDir := i, -1
	for k := range 4 {
		dir := (k + 3) & 3
		if neighbourRegion(cons, regs, i, dir, &step) != regs[i] {
			startDir = dir
			break
		}
	}
	if startDir == -1 {
		return true
	}
	dir := startDir
	for iter := 0; iter < w*h; iter++ {
		rn := neighbourRegion(cons, regs, i, dir, &step)
		ni, ndir := i, dir
		if rn != regs[i] {
			// A solid edge: its end vertex.
			px, pz := x, y
			switch dir {
			case 0:
				pz++
			case 1:
				px++
				pz++
			case 2:
				px++
			}
			if !c.appendVertex(px, int(heights[i]), pz, rn) {
				return false
			}
			ndir = (dir + 1) & 3 // turn clockwise
		} else {
			ni = i + step[dir]
			ndir = (dir + 3) & 3 // counter-clockwise
		}
		if iter > 0 && i == startI && dir == startDir {
			break
		}
		if ni != i {
			x += dirOffsetX[dir]
			y += dirOffsetY[dir]
		}
		i, dir = ni, ndir
	}
	// Drop the last vertex when it repeats the first.
	pa := c.verts[(c.vertCount-1)*4:]
	if pa[0] == c.verts[0] && pa[2] == c.verts[2] {
		c.vertCount--
	}
	return true
}

// distancePtSeg returns the squared distance in xz from (x, z) to the
// segment p..q, in float32 as the C++.
func distancePtSeg(x, z, px, pz, qx, qz int) float32 {
	pqx, pqz := float32(qx-px), float32(qz-pz)
	dx, dz := float32(x-px), float32(z-pz)
	d := float32(pqx*pqx) + float32(pqz*pqz)
	t := float32(pqx*dx) + float32(pqz*dz)
	if d > 0 {
		t /= d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = float32(float32(px)+float32(t*pqx)) - float32(x)
	dz = float32(float32(pz)+float32(t*pqz)) - float32(z)
	return float32(dx*dx) + float32(dz*dz)
}

// simplifyContour keeps the vertices where the neighbour changes and adds
// back the raw vertices farther than maxError from the simplified outline,
// then rewrites c.verts with the kept vertices from the lowest index on
// (simplifyContour).
func simplifyContour(c *tempContour, maxError float32) {
	n := c.vertCount
	verts := c.verts
	c.polyCount = 0
	for i := range n {
		j := (i + 1) % n
		if verts[j*4+3] != verts[i*4+3] {
			c.poly[c.polyCount] = uint16(i)
			c.polyCount++
		}
	}
	if c.polyCount < 2 {
		// No transitions: start from the lower-left and upper-right
		// vertices.
		llx, llz, lli := int(verts[0]), int(verts[2]), 0
		urx, urz, uri := int(verts[0]), int(verts[2]), 0
		for i := 1; i < n; i++ {
			x, z := int(verts[i*4]), int(verts[i*4+2])
			if x < llx || (x == llx && z < llz) {
				llx, llz, lli = x, z, i
			}
			if x > urx || (x == urx && z > urz) {
				urx, urz, uri = x, z, i
			}
		}
		c.poly[0], c.poly[1] = uint16(lli), uint16(uri)
		c.polyCount = 2
	}

	limit := maxError * maxError
	for i := 0; i < c.polyCount; {
		ii := (i + 1) % c.polyCount
		ai, bi := int(c.poly[i]), int(c.poly[ii])
		ax, az := int(verts[ai*4]), int(verts[ai*4+2])
		bx, bz := int(verts[bi*4]), int(verts[bi*4+2])

		// Walk the raw vertices in lexicographic order so that opposite
		// segments find the same point.
		var ci, step, end int
		if bx > ax || (bx == ax && bz > az) {
			step = 1
			ci = (ai + step) % n
			end = bi
		} else {
			step = n - 1
			ci = (bi + step) % n
			end = ai
		}
		maxd := float32(0)
		maxi := -1
		for ci != end {
			d := distancePtSeg(int(verts[ci*4]), int(verts[ci*4+2]), ax, az, bx, bz)
			if d > maxd {
				maxd, maxi = d, ci
			}
			ci = (ci + step) % n
		}
		if maxi != -1 && maxd > limit {
			c.polyCount++
			copy(c.poly[i+2:c.polyCount], c.poly[i+1:c.polyCount-1])
			c.poly[i+1] = uint16(maxi)
		} else {
			i++
		}
	}

	// Start from the kept vertex with the lowest raw index.
	start := 0
	for i := 1; i < c.polyCount; i++ {
		if c.poly[i] < c.poly[start] {
			start = i
		}
	}
	// In place, as the C++: from start on the kept indices only grow, so
	// vertex i is read before it is overwritten.
	for i := range c.polyCount {
		src := int(c.poly[(start+i)%c.polyCount]) * 4
		copy(verts[i*4:i*4+4], verts[src:src+4])
	}
	c.vertCount = c.polyCount
}

// cornerHeight returns the height of the contour vertex at corner (x, z)
// with raw height y: the highest of the up to four cells around it within
// climb, and whether the vertex may be removed (it touches one portal side
// only and one region) (getCornerHeight).
func (b *builder) cornerHeight(x, y, z, climb int) (height uint8, removable bool) {
	l := &b.layer
	w, h := int(l.Header.Width), int(l.Header.Height)
	n := 0
	portal := uint8(0xf)
	prevRegion := uint8(noRegion)
	sameRegion := true
	for dz := -1; dz <= 0; dz++ {
		for dx := -1; dx <= 0; dx++ {
			px, pz := x+dx, z+dz
			if px < 0 || pz < 0 || px >= w || pz >= h {
				continue
			}
			idx := px + pz*w
			lh := int(l.Heights[idx])
			if d := lh - y; d > climb || -d > climb || l.Areas[idx] == NullArea {
				continue
			}
			height = max(height, uint8(lh))
			portal &= l.Cons[idx] >> 4
			if prevRegion != noRegion && prevRegion != b.regs[idx] {
				sameRegion = false
			}
			prevRegion = b.regs[idx]
			n++
		}
	}
	portalCount := 0
	for dir := range 4 {
		if portal&(1<<dir) != 0 {
			portalCount++
		}
	}
	return height, n > 1 && portalCount == 1 && sameRegion
}

// buildContours traces and simplifies one contour per region
// (dtBuildTileCacheContours) into b.contours and b.contourVerts.
func (b *builder) buildContours(climb int, maxError float32) error {
	l := &b.layer
	w, h := int(l.Header.Width), int(l.Header.Height)
	b.contours = b.contours[:0]
	for range b.regionCount {
		b.contours = append(b.contours, contour{})
	}
	b.contourVerts = b.contourVerts[:0]

	maxTempVerts := (w + h) * 2 * 2 // twice around the layer
	temp := &b.temp
	temp.verts = grow(temp.verts, maxTempVerts*4)
	temp.poly = growU16(temp.poly, maxTempVerts)

	for y := range h {
		for x := range w {
			idx := x + y*w
			ri := b.regs[idx]
			if ri == noRegion {
				continue
			}
			cont := &b.contours[ri]
			if cont.count > 0 {
				continue
			}
			cont.region = ri
			cont.area = l.Areas[idx]
			if !b.walkContour(x, y, temp) {
				return fmt.Errorf("tilecache: build contours: the outline of region %d needs more than %d vertices: %w", ri, maxTempVerts, ErrLayerTooComplex)
			}
			simplifyContour(temp, maxError)
			cont.count = temp.vertCount
			if cont.count == 0 {
				continue
			}
			cont.start = len(b.contourVerts)
			for j := range temp.vertCount {
				v := temp.verts[j*4 : j*4+4]
				// The neighbour of edge j sits at its end vertex.
				neighbour := temp.verts[(j+1)%temp.vertCount*4+3]
				lh, removable := b.cornerHeight(int(v[0]), int(v[1]), int(v[2]), climb)
				flags := uint8(portalNone)
				if neighbour != noRegion && neighbour >= portalRegion {
					flags = neighbour - portalRegion
				}
				if removable {
					flags |= removableVertex
				}
				b.contourVerts = append(b.contourVerts, v[0], lh, v[2], flags)
			}
		}
	}
	return nil
}

// fill sets every element of s to v, doubling copies.
func fill[T byte | uint16](s []T, v T) {
	if len(s) == 0 {
		return
	}
	s[0] = v
	for i := 1; i < len(s); i *= 2 {
		copy(s[i:], s[:i])
	}
}

// grow returns s with length n, reusing its memory when it is big enough.
func grow(s []byte, n int) []byte {
	if cap(s) < n {
		return make([]byte, n)
	}
	return s[:n]
}

func growU16(s []uint16, n int) []uint16 {
	if cap(s) < n {
		return make([]uint16, n)
	}
	return s[:n]
}
