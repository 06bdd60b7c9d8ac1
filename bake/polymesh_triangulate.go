package bake

// Ear-clipping triangulation of contour outlines in cell coordinates
// (RecastMesh.cpp's triangulate and its predicates). Vertices are x, y, z, w
// with only x and z taking part; indices carry a flag bit that marks the
// vertex between them and its next-but-one neighbour as an ear tip.

const (
	// earTipFlag marks an index whose vertex can be clipped: the segment from
	// its previous to its next vertex is a proper diagonal. Bit 30, not the
	// C++'s bit 31, so that the flagged index still fits a 32-bit int.
	earTipFlag = 1 << 30
	// vertexIndexMask strips the flag bits from an index.
	vertexIndexMask = 0x0fffffff
)

// prevIndex and nextIndex step around a ring of n entries (a polygon or
// contour of n vertices).
func prevIndex(i, n int) int {
	if i-1 >= 0 {
		return i - 1
	}
	return n - 1
}

func nextIndex(i, n int) int {
	if i+1 < n {
		return i + 1
	}
	return 0
}

// signedArea2 returns twice the signed xz area of the triangle a, b, c;
// negative when c lies left of the directed line a→b. 32-bit arithmetic as
// in the C++.
func signedArea2(a, b, c *[4]int32) int32 {
	return (b[0]-a[0])*(c[2]-a[2]) - (c[0]-a[0])*(b[2]-a[2])
}

// isLeft reports whether c lies strictly left of the directed line a→b.
func isLeft(a, b, c *[4]int32) bool { return signedArea2(a, b, c) < 0 }

// isLeftOn reports whether c lies left of or on the directed line a→b.
func isLeftOn(a, b, c *[4]int32) bool { return signedArea2(a, b, c) <= 0 }

// isCollinear reports whether a, b and c lie on one line in xz.
func isCollinear(a, b, c *[4]int32) bool { return signedArea2(a, b, c) == 0 }

// intersectProperly reports whether segments ab and cd share a point
// interior to both.
func intersectProperly(a, b, c, d *[4]int32) bool {
	if isCollinear(a, b, c) || isCollinear(a, b, d) || isCollinear(c, d, a) || isCollinear(c, d, b) {
		return false
	}
	return (isLeft(a, b, c) != isLeft(a, b, d)) && (isLeft(c, d, a) != isLeft(c, d, b))
}

// isBetween reports whether c lies on the closed segment ab.
func isBetween(a, b, c *[4]int32) bool {
	if !isCollinear(a, b, c) {
		return false
	}
	if a[0] != b[0] {
		return (a[0] <= c[0] && c[0] <= b[0]) || (a[0] >= c[0] && c[0] >= b[0])
	}
	return (a[2] <= c[2] && c[2] <= b[2]) || (a[2] >= c[2] && c[2] >= b[2])
}

// intersectSegments reports whether segments ab and cd meet, properly or
// not.
func intersectSegments(a, b, c, d *[4]int32) bool {
	if intersectProperly(a, b, c, d) {
		return true
	}
	return isBetween(a, b, c) || isBetween(a, b, d) || isBetween(c, d, a) || isBetween(c, d, b)
}

// sameXZ reports whether a and b have the same x and z.
func sameXZ(a, b *[4]int32) bool { return a[0] == b[0] && a[2] == b[2] }

// outline is the polygon being triangulated: the first n entries of indices
// name vertices of verts (with flag bits).
type outline struct {
	verts   [][4]int32
	indices []int
}

func (o *outline) vertex(i int) *[4]int32 { return &o.verts[o.indices[i]&vertexIndexMask] }

// distanceSqr2D returns the squared xz distance between outline vertices i
// and j.
func (o *outline) distanceSqr2D(i, j int) int32 {
	p, q := o.vertex(i), o.vertex(j)
	dx := q[0] - p[0]
	dz := q[2] - p[2]
	return dx*dx + dz*dz
}

// diagonalClear reports whether segment (i, j) crosses no edge of the
// outline that is not incident to i or j. When loose, edges merely touching
// the segment do not block it.
func (o *outline) diagonalClear(i, j, n int, loose bool) bool {
	d0 := o.vertex(i)
	d1 := o.vertex(j)
	for k := 0; k < n; k++ {
		k1 := nextIndex(k, n)
		if k == i || k1 == i || k == j || k1 == j {
			continue
		}
		p0 := o.vertex(k)
		p1 := o.vertex(k1)
		if sameXZ(d0, p0) || sameXZ(d1, p0) || sameXZ(d0, p1) || sameXZ(d1, p1) {
			continue
		}
		if loose {
			if intersectProperly(d0, d1, p0, p1) {
				return false
			}
		} else if intersectSegments(d0, d1, p0, p1) {
			return false
		}
	}
	return true
}

// inCone reports whether the diagonal (i, j) leaves vertex i into the
// interior of the outline. When loose, a diagonal along an edge counts.
func (o *outline) inCone(i, j, n int, loose bool) bool {
	pi := o.vertex(i)
	pj := o.vertex(j)
	pNext := o.vertex(nextIndex(i, n))
	pPrev := o.vertex(prevIndex(i, n))
	if isLeftOn(pPrev, pi, pNext) {
		if loose {
			return isLeftOn(pi, pj, pPrev) && isLeftOn(pj, pi, pNext)
		}
		return isLeft(pi, pj, pPrev) && isLeft(pj, pi, pNext)
	}
	return !(isLeftOn(pi, pj, pNext) && isLeftOn(pj, pi, pPrev))
}

// isDiagonal reports whether (i, j) is a proper internal diagonal.
func (o *outline) isDiagonal(i, j, n int) bool {
	return o.inCone(i, j, n, false) && o.diagonalClear(i, j, n, false)
}

// isLooseDiagonal is isDiagonal with the relaxed tests used to recover from
// outlines with overlapping segments.
func (o *outline) isLooseDiagonal(i, j, n int) bool {
	return o.inCone(i, j, n, true) && o.diagonalClear(i, j, n, true)
}

// triangulate clips ears off the outline of len(indices) vertices (at least
// 3) and appends the triangles (three vertex indices each) to tris. indices
// is overwritten. complete is false when the outline could not be fully
// triangulated; tris then holds the triangles made so far.
func triangulate(verts [][4]int32, indices []int, tris []int) (out []int, complete bool) {
	o := outline{verts: verts, indices: indices}
	n := len(indices)
	for i := 0; i < n; i++ {
		i1 := nextIndex(i, n)
		i2 := nextIndex(i1, n)
		if o.isDiagonal(i, i2, n) {
			indices[i1] |= earTipFlag
		}
	}

	for n > 3 {
		minLength := int32(-1)
		best := -1
		for i := 0; i < n; i++ {
			i1 := nextIndex(i, n)
			if indices[i1]&earTipFlag == 0 {
				continue
			}
			length := o.distanceSqr2D(i, nextIndex(i1, n))
			if minLength < 0 || length < minLength {
				minLength = length
				best = i
			}
		}

		if best == -1 {
			// Overlapping segments can hide every ear; retry with the
			// relaxed diagonal test. The C++ measures this candidate up to
			// the vertex after i2, which is kept here as it decides ties.
			minLength = -1
			for i := 0; i < n; i++ {
				i1 := nextIndex(i, n)
				i2 := nextIndex(i1, n)
				if !o.isLooseDiagonal(i, i2, n) {
					continue
				}
				length := o.distanceSqr2D(i, nextIndex(i2, n))
				if minLength < 0 || length < minLength {
					minLength = length
					best = i
				}
			}
			if best == -1 {
				return tris, false
			}
		}

		i := best
		i1 := nextIndex(i, n)
		i2 := nextIndex(i1, n)
		tris = append(tris, indices[i]&vertexIndexMask, indices[i1]&vertexIndexMask, indices[i2]&vertexIndexMask)

		// Drop vertex i1.
		n--
		copy(indices[i1:n], indices[i1+1:n+1])
		if i1 >= n {
			i1 = 0
		}
		i = prevIndex(i1, n)
		if o.isDiagonal(prevIndex(i, n), i1, n) {
			indices[i] |= earTipFlag
		} else {
			indices[i] &= vertexIndexMask
		}
		if o.isDiagonal(i, nextIndex(i1, n), n) {
			indices[i1] |= earTipFlag
		} else {
			indices[i1] &= vertexIndexMask
		}
	}

	tris = append(tris, indices[0]&vertexIndexMask, indices[1]&vertexIndexMask, indices[2]&vertexIndexMask)
	return tris, true
}
