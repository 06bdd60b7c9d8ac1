package tilecache

// Ear-clipping triangulation of a contour whose vertices are 4-byte
// (x, height, z, flags) records, in integer cell coordinates, as
// DetourTileCacheBuilder.cpp does it. The top bit of an index marks a
// vertex whose ear may be cut.

const earFlag = 0x8000

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

// vertexAt returns the (x, z) of contour vertex index (flag bit cleared).
func vertexAt(verts []byte, index uint16) (x, z int) {
	v := int(index&^earFlag) * 4
	return int(verts[v]), int(verts[v+2])
}

func area2(ax, az, bx, bz, cx, cz int) int {
	return (bx-ax)*(cz-az) - (cx-ax)*(bz-az)
}

func left(ax, az, bx, bz, cx, cz int) bool   { return area2(ax, az, bx, bz, cx, cz) < 0 }
func leftOn(ax, az, bx, bz, cx, cz int) bool { return area2(ax, az, bx, bz, cx, cz) <= 0 }
func collinear(ax, az, bx, bz, cx, cz int) bool {
	return area2(ax, az, bx, bz, cx, cz) == 0
}

// intersectProp reports whether ab and cd cross at a point inside both.
func intersectProp(ax, az, bx, bz, cx, cz, dx, dz int) bool {
	if collinear(ax, az, bx, bz, cx, cz) || collinear(ax, az, bx, bz, dx, dz) ||
		collinear(cx, cz, dx, dz, ax, az) || collinear(cx, cz, dx, dz, bx, bz) {
		return false
	}
	return left(ax, az, bx, bz, cx, cz) != left(ax, az, bx, bz, dx, dz) &&
		left(cx, cz, dx, dz, ax, az) != left(cx, cz, dx, dz, bx, bz)
}

// between reports whether c lies on the closed segment ab.
func between(ax, az, bx, bz, cx, cz int) bool {
	if !collinear(ax, az, bx, bz, cx, cz) {
		return false
	}
	if ax != bx {
		return (ax <= cx && cx <= bx) || (ax >= cx && cx >= bx)
	}
	return (az <= cz && cz <= bz) || (az >= cz && cz >= bz)
}

func intersect(ax, az, bx, bz, cx, cz, dx, dz int) bool {
	return intersectProp(ax, az, bx, bz, cx, cz, dx, dz) ||
		between(ax, az, bx, bz, cx, cz) || between(ax, az, bx, bz, dx, dz) ||
		between(cx, cz, dx, dz, ax, az) || between(cx, cz, dx, dz, bx, bz)
}

// diagonalie reports whether (i, j) crosses no edge of the polygon other
// than those touching i or j.
func diagonalie(i, j, n int, verts []byte, indices []uint16) bool {
	d0x, d0z := vertexAt(verts, indices[i])
	d1x, d1z := vertexAt(verts, indices[j])
	for k := range n {
		k1 := nextIndex(k, n)
		if k == i || k1 == i || k == j || k1 == j {
			continue
		}
		p0x, p0z := vertexAt(verts, indices[k])
		p1x, p1z := vertexAt(verts, indices[k1])
		if (d0x == p0x && d0z == p0z) || (d1x == p0x && d1z == p0z) || (d0x == p1x && d0z == p1z) || (d1x == p1x && d1z == p1z) {
			continue
		}
		if intersect(d0x, d0z, d1x, d1z, p0x, p0z, p1x, p1z) {
			return false
		}
	}
	return true
}

// inCone reports whether (i, j) runs inside the polygon near vertex i.
func inCone(i, j, n int, verts []byte, indices []uint16) bool {
	pix, piz := vertexAt(verts, indices[i])
	pjx, pjz := vertexAt(verts, indices[j])
	pi1x, pi1z := vertexAt(verts, indices[nextIndex(i, n)])
	pin1x, pin1z := vertexAt(verts, indices[prevIndex(i, n)])
	if leftOn(pin1x, pin1z, pix, piz, pi1x, pi1z) {
		return left(pix, piz, pjx, pjz, pin1x, pin1z) && left(pjx, pjz, pix, piz, pi1x, pi1z)
	}
	return !(leftOn(pix, piz, pjx, pjz, pi1x, pi1z) && leftOn(pjx, pjz, pix, piz, pin1x, pin1z))
}

func diagonal(i, j, n int, verts []byte, indices []uint16) bool {
	return inCone(i, j, n, verts, indices) && diagonalie(i, j, n, verts, indices)
}

// triangulate cuts the polygon indices[:n] into triangles written to tris
// (3 indices each, flag bits cleared) and returns their number, negated
// when it got stuck (the triangles so far are kept) (triangulate).
func triangulate(n int, verts []byte, indices, tris []uint16) int {
	count := 0
	out := 0
	for i := range n {
		i1 := nextIndex(i, n)
		i2 := nextIndex(i1, n)
		if diagonal(i, i2, n, verts, indices) {
			indices[i1] |= earFlag
		}
	}
	for n > 3 {
		minLen, mini := -1, -1
		for i := range n {
			i1 := nextIndex(i, n)
			if indices[i1]&earFlag == 0 {
				continue
			}
			p0x, p0z := vertexAt(verts, indices[i])
			p2x, p2z := vertexAt(verts, indices[nextIndex(i1, n)])
			dx, dz := p2x-p0x, p2z-p0z
			if l := dx*dx + dz*dz; minLen < 0 || l < minLen {
				minLen, mini = l, i
			}
		}
		if mini == -1 {
			return -count
		}
		i := mini
		i1 := nextIndex(i, n)
		i2 := nextIndex(i1, n)
		tris[out] = indices[i] &^ earFlag
		tris[out+1] = indices[i1] &^ earFlag
		tris[out+2] = indices[i2] &^ earFlag
		out += 3
		count++

		// Remove vertex i1.
		n--
		copy(indices[i1:n], indices[i1+1:n+1])
		if i1 >= n {
			i1 = 0
		}
		i = prevIndex(i1, n)
		if diagonal(prevIndex(i, n), i1, n, verts, indices) {
			indices[i] |= earFlag
		} else {
			indices[i] &^= earFlag
		}
		if diagonal(i, nextIndex(i1, n), n, verts, indices) {
			indices[i1] |= earFlag
		} else {
			indices[i1] &^= earFlag
		}
	}
	tris[out] = indices[0] &^ earFlag
	tris[out+1] = indices[1] &^ earFlag
	tris[out+2] = indices[2] &^ earFlag
	return count + 1
}
