package tilecache

import "fmt"

// Poly mesh layout: per polygon maxPolyVerts vertex indices then as many
// neighbour codes, nullIndex-padded (dtTileCachePolyMesh with nvp 6).
const (
	maxPolyVerts = 6
	polyStride   = 2 * maxPolyVerts
	nullIndex    = 0xffff
	// maxRemovedEdges bounds the edges around a removed vertex
	// (MAX_REM_EDGES).
	maxRemovedEdges = 48
	// vertexBuckets is the size of the vertex hash (VERTEX_BUCKET_COUNT2).
	vertexBuckets = 1 << 8
)

// vertexHash is computeVertexHash2 with y = 0.
func vertexHash(x, z uint16) int {
	const h1, h3 = 0x8da6b343, 0xcb1ab31f
	return int((h1*uint32(x) + h3*uint32(z)) & (vertexBuckets - 1))
}

// addVertex returns the index of the mesh vertex at (x, z) with a height
// within 2 of y, adding it when there is none (addVertex).
func (b *builder) addVertex(x, y, z uint16) uint16 {
	bucket := vertexHash(x, z)
	for i := b.firstVert[bucket]; i != nullIndex; i = b.nextVert[i] {
		v := b.meshVerts[i]
		if v[0] == x && v[2] == z {
			if d := int(v[1]) - int(y); d <= 2 && d >= -2 {
				return i
			}
		}
	}
	i := uint16(len(b.meshVerts))
	b.meshVerts = append(b.meshVerts, [3]uint16{x, y, z})
	b.nextVert[i] = b.firstVert[bucket]
	b.firstVert[bucket] = i
	return i
}

// countPolyVerts returns the used vertex slots of a polygon's first
// maxPolyVerts entries.
func countPolyVerts(p []uint16) int {
	for i := range maxPolyVerts {
		if p[i] == nullIndex {
			return i
		}
	}
	return maxPolyVerts
}

// uleft reports whether c is strictly left of a→b in xz.
func uleft(a, b, c [3]uint16) bool {
	return (int(b[0])-int(a[0]))*(int(c[2])-int(a[2]))-(int(c[0])-int(a[0]))*(int(b[2])-int(a[2])) < 0
}

// polyMergeValue returns the squared length of the edge pa and pb share
// when merging them gives a convex polygon of at most maxPolyVerts
// vertices, and -1 otherwise, with the shared edge in each
// (getPolyMergeValue).
func polyMergeValue(pa, pb []uint16, verts [][3]uint16) (value, ea, eb int) {
	pa, pb = pa[:maxPolyVerts], pb[:maxPolyVerts]
	na, nb := countPolyVerts(pa), countPolyVerts(pb)
	if na+nb-2 > maxPolyVerts {
		return -1, 0, 0
	}
	ea, eb = -1, -1
	for i := range na {
		next := i + 1
		if next == na {
			next = 0
		}
		va0, va1 := pa[i], pa[next]
		if va0 > va1 {
			va0, va1 = va1, va0
		}
		for j := range nb {
			nextB := j + 1
			if nextB == nb {
				nextB = 0
			}
			vb0, vb1 := pb[j], pb[nextB]
			if vb0 > vb1 {
				vb0, vb1 = vb1, vb0
			}
			if va0 == vb0 && va1 == vb1 {
				ea, eb = i, j
				break
			}
		}
	}
	if ea == -1 || eb == -1 {
		return -1, ea, eb
	}
	if !uleft(verts[pa[(ea+na-1)%na]], verts[pa[ea]], verts[pb[(eb+2)%nb]]) {
		return -1, ea, eb
	}
	if !uleft(verts[pb[(eb+nb-1)%nb]], verts[pb[eb]], verts[pa[(ea+2)%na]]) {
		return -1, ea, eb
	}
	va, vb := verts[pa[ea]], verts[pa[(ea+1)%na]]
	dx, dz := int(va[0])-int(vb[0]), int(va[2])-int(vb[2])
	return dx*dx + dz*dz, ea, eb
}

// mergePolys writes the union of pa and pb, joined at edges ea and eb, into
// pa (mergePolys).
func mergePolys(pa, pb []uint16, ea, eb int) {
	var tmp [maxPolyVerts]uint16
	for i := range tmp {
		tmp[i] = nullIndex
	}
	na, nb := countPolyVerts(pa), countPolyVerts(pb)
	n := 0
	for i := range na - 1 {
		tmp[n] = pa[(ea+1+i)%na]
		n++
	}
	for i := range nb - 1 {
		tmp[n] = pb[(eb+1+i)%nb]
		n++
	}
	copy(pa[:maxPolyVerts], tmp[:])
}

// mergeAll merges the polygons polys[:n·maxPolyVerts] greedily, longest
// shared edge first, and returns how many remain; areas, when given, follow
// the polygons. Each round merges the first pair (in index order) with the
// best value, as the C++ does; the values of the pairs a merge leaves alone
// are kept in values (n×n, reused) instead of computed again, which turns
// the C++'s O(n³) into O(n²) with the same result.
func mergeAll(polys []uint16, n int, verts [][3]uint16, areas []uint8, values *[]int32) int {
	stride := n
	if cap(*values) < n*n {
		*values = make([]int32, n*n)
	}
	vals := (*values)[:n*n]
	poly := func(i int) []uint16 { return polys[i*maxPolyVerts : (i+1)*maxPolyVerts] }
	pair := func(j, k int) {
		v, _, _ := polyMergeValue(poly(j), poly(k), verts)
		vals[j*stride+k] = int32(v)
	}
	for j := 0; j < n-1; j++ {
		for k := j + 1; k < n; k++ {
			pair(j, k)
		}
	}
	for {
		best, bestA, bestB := int32(0), 0, 0
		for j := 0; j < n-1; j++ {
			row := vals[j*stride : j*stride+n]
			for k := j + 1; k < n; k++ {
				if row[k] > best {
					best, bestA, bestB = row[k], j, k
				}
			}
		}
		if best <= 0 {
			return n
		}
		pa, pb := poly(bestA), poly(bestB)
		_, ea, eb := polyMergeValue(pa, pb, verts)
		mergePolys(pa, pb, ea, eb)
		copy(pb, poly(n-1))
		if areas != nil {
			areas[bestB] = areas[n-1]
		}
		n--
		// Only the pairs with the merged polygon and with the one moved
		// into bestB changed.
		for _, changed := range [2]int{bestA, bestB} {
			if changed >= n {
				continue
			}
			for i := range n {
				switch {
				case i < changed:
					pair(i, changed)
				case i > changed:
					pair(changed, i)
				}
			}
		}
	}
}

// buildPolyMesh triangulates each contour, merges its triangles into convex
// polygons, removes the vertices the contours marked removable and links
// neighbouring polygons and portal edges (dtBuildTileCachePolyMesh).
func (b *builder) buildPolyMesh() error {
	maxVertices, maxTris, maxVertsPerCont := 0, 0, 0
	for _, c := range b.contours {
		if c.count < 3 {
			continue
		}
		maxVertices += c.count
		maxTris += c.count - 2
		maxVertsPerCont = max(maxVertsPerCont, c.count)
	}
	b.maxTris = maxTris
	b.vertFlags = grow(b.vertFlags, maxVertices)
	clear(b.vertFlags)
	if cap(b.meshVerts) < maxVertices {
		b.meshVerts = make([][3]uint16, 0, maxVertices)
	}
	b.meshVerts = b.meshVerts[:0]
	b.meshPolys = growU16(b.meshPolys, maxTris*polyStride)
	fill(b.meshPolys, nullIndex)
	b.meshAreas = grow(b.meshAreas, maxTris)
	clear(b.meshAreas)
	b.polyCount = 0
	for i := range b.firstVert {
		b.firstVert[i] = nullIndex
	}
	b.nextVert = growU16(b.nextVert, maxVertices)
	clear(b.nextVert)
	b.indices = growU16(b.indices, maxVertsPerCont)
	b.tris = growU16(b.tris, maxVertsPerCont*3)
	b.polys = growU16(b.polys, maxVertsPerCont*maxPolyVerts)

	for _, c := range b.contours {
		if c.count < 3 {
			continue
		}
		verts := b.contourVerts[c.start : c.start+4*c.count]
		indices := b.indices[:c.count]
		for j := range indices {
			indices[j] = uint16(j)
		}
		ntris := triangulate(c.count, verts, indices, b.tris)
		if ntris < 0 {
			ntris = -ntris
		}
		for j := range c.count {
			v := verts[j*4 : j*4+4]
			indices[j] = b.addVertex(uint16(v[0]), uint16(v[1]), uint16(v[2]))
			if v[3]&removableVertex != 0 {
				b.vertFlags[indices[j]] = 1
			}
		}
		polys := b.polys[:maxVertsPerCont*maxPolyVerts]
		fill(polys, nullIndex)
		n := 0
		for j := range ntris {
			t := b.tris[j*3 : j*3+3]
			if t[0] != t[1] && t[0] != t[2] && t[1] != t[2] {
				p := polys[n*maxPolyVerts:]
				p[0], p[1], p[2] = indices[t[0]], indices[t[1]], indices[t[2]]
				n++
			}
		}
		if n == 0 {
			continue
		}
		n = mergeAll(polys, n, b.meshVerts, nil, &b.mergeValues)
		for j := range n {
			p := b.meshPolys[b.polyCount*polyStride:]
			copy(p[:maxPolyVerts], polys[j*maxPolyVerts:(j+1)*maxPolyVerts])
			b.meshAreas[b.polyCount] = c.area
			b.polyCount++
		}
	}

	// Remove the vertices on straight portal edges.
	for i := 0; i < len(b.meshVerts); i++ {
		if b.vertFlags[i] == 0 || !b.canRemoveVertex(uint16(i)) {
			continue
		}
		if err := b.removeVertex(uint16(i)); err != nil {
			return err
		}
		copy(b.vertFlags[i:], b.vertFlags[i+1:len(b.meshVerts)+1])
		i--
	}
	b.buildAdjacency()
	return nil
}

// canRemoveVertex reports whether removing vertex rem leaves a fillable
// hole: enough edges left and at most two open edges around it
// (canRemoveVertex of DetourTileCacheBuilder.cpp, which differs from
// Recast's).
func (b *builder) canRemoveVertex(rem uint16) bool {
	touched, remaining := 0, 0
	for i := range b.polyCount {
		p := b.meshPolys[i*polyStride:]
		nv := countPolyVerts(p)
		removed := 0
		for j := range nv {
			if p[j] == rem {
				touched++
				removed++
			}
		}
		if removed > 0 {
			remaining += nv - (removed + 1)
		}
	}
	if remaining <= 2 {
		return false
	}
	if touched*2 > maxRemovedEdges {
		return false
	}
	// The edges touching rem, with rem first, and how many polygons share
	// each. The C++ keeps them in an array of 48 values, 3 per edge, that
	// overflows past 16 edges; here it has room for all 48.
	var edges [maxRemovedEdges][3]uint16
	nedges := 0
	for i := range b.polyCount {
		p := b.meshPolys[i*polyStride:]
		nv := countPolyVerts(p)
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if p[j] != rem && p[k] != rem {
				continue
			}
			a, bv := p[j], p[k]
			if bv == rem {
				a, bv = bv, a
			}
			exists := false
			for m := range nedges {
				if edges[m][1] == bv {
					edges[m][2]++
					exists = true
				}
			}
			if !exists {
				edges[nedges] = [3]uint16{a, bv, 1}
				nedges++
			}
		}
	}
	open := 0
	for _, e := range edges[:nedges] {
		if e[2] < 2 {
			open++
		}
	}
	return open <= 2
}

// removeVertex removes vertex rem and the polygons around it, then fills
// the hole with new polygons (removeVertex).
func (b *builder) removeVertex(rem uint16) error {
	var edges [maxRemovedEdges][3]uint16
	nedges := 0
	for i := 0; i < b.polyCount; i++ {
		p := b.meshPolys[i*polyStride : (i+1)*polyStride]
		nv := countPolyVerts(p)
		hasRem := false
		for j := range nv {
			if p[j] == rem {
				hasRem = true
			}
		}
		if !hasRem {
			continue
		}
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if p[j] != rem && p[k] != rem {
				if nedges >= maxRemovedEdges {
					return errTooManyEdges
				}
				edges[nedges] = [3]uint16{p[k], p[j], uint16(b.meshAreas[i])}
				nedges++
			}
		}
		// Remove the polygon: the last one takes its place.
		last := b.meshPolys[(b.polyCount-1)*polyStride:]
		copy(p[:maxPolyVerts], last[:maxPolyVerts])
		for j := maxPolyVerts; j < polyStride; j++ {
			p[j] = nullIndex
		}
		b.meshAreas[i] = b.meshAreas[b.polyCount-1]
		b.polyCount--
		i--
	}

	// Remove the vertex and renumber.
	copy(b.meshVerts[rem:], b.meshVerts[rem+1:])
	b.meshVerts = b.meshVerts[:len(b.meshVerts)-1]
	for i := range b.polyCount {
		p := b.meshPolys[i*polyStride:]
		nv := countPolyVerts(p)
		for j := range nv {
			if p[j] > rem {
				p[j]--
			}
		}
	}
	for i := range nedges {
		if edges[i][0] > rem {
			edges[i][0]--
		}
		if edges[i][1] > rem {
			edges[i][1]--
		}
	}
	if nedges == 0 {
		return nil
	}

	// Chain the edges into the hole's outline.
	var hole, holeAreas [maxRemovedEdges]uint16
	hole[0], holeAreas[0] = edges[0][0], edges[0][2]
	nhole := 1
	for nedges > 0 {
		match := false
		for i := 0; i < nedges; i++ {
			ea, eb, a := edges[i][0], edges[i][1], edges[i][2]
			add := false
			if hole[0] == eb {
				if nhole >= maxRemovedEdges {
					return errTooManyEdges
				}
				copy(hole[1:nhole+1], hole[:nhole])
				copy(holeAreas[1:nhole+1], holeAreas[:nhole])
				hole[0], holeAreas[0] = ea, a
				nhole++
				add = true
			} else if hole[nhole-1] == ea {
				if nhole >= maxRemovedEdges {
					return errTooManyEdges
				}
				hole[nhole], holeAreas[nhole] = eb, a
				nhole++
				add = true
			}
			if add {
				edges[i] = edges[nedges-1]
				nedges--
				match = true
				i--
			}
		}
		if !match {
			break
		}
	}
	if nhole < 3 {
		// The C++ triangulates garbage here; there is nothing to fill.
		return nil
	}

	var tverts [maxRemovedEdges * 4]byte
	var tpoly [maxRemovedEdges]uint16
	var tris [maxRemovedEdges * 3]uint16
	for i := range nhole {
		v := b.meshVerts[hole[i]]
		tverts[i*4], tverts[i*4+1], tverts[i*4+2], tverts[i*4+3] = byte(v[0]), byte(v[1]), byte(v[2]), 0
		tpoly[i] = uint16(i)
	}
	ntris := triangulate(nhole, tverts[:], tpoly[:], tris[:])
	if ntris < 0 {
		ntris = -ntris
	}
	if ntris > maxRemovedEdges {
		return errTooManyEdges
	}

	var polys [maxRemovedEdges * maxPolyVerts]uint16
	var areas [maxRemovedEdges]uint8
	for i := range polys[:ntris*maxPolyVerts] {
		polys[i] = nullIndex
	}
	npolys := 0
	for j := range ntris {
		t := tris[j*3 : j*3+3]
		if t[0] != t[1] && t[0] != t[2] && t[1] != t[2] {
			p := polys[npolys*maxPolyVerts:]
			p[0], p[1], p[2] = hole[t[0]], hole[t[1]], hole[t[2]]
			areas[npolys] = uint8(holeAreas[t[0]])
			npolys++
		}
	}
	if npolys == 0 {
		return nil
	}
	npolys = mergeAll(polys[:], npolys, b.meshVerts, areas[:], &b.mergeValues)

	for i := range npolys {
		if b.polyCount >= b.maxTris {
			break
		}
		p := b.meshPolys[b.polyCount*polyStride : (b.polyCount+1)*polyStride]
		for j := range p {
			p[j] = nullIndex
		}
		copy(p[:maxPolyVerts], polys[i*maxPolyVerts:(i+1)*maxPolyVerts])
		b.meshAreas[b.polyCount] = areas[i]
		b.polyCount++
	}
	return nil
}

var errTooManyEdges = fmt.Errorf("tilecache: build poly mesh: more than %d edges around a removed vertex: %w", maxRemovedEdges, ErrLayerTooComplex)

// meshEdge is one polygon edge for the adjacency search (rcEdge).
type meshEdge struct {
	vert     [2]uint16
	polyEdge [2]uint16
	poly     [2]uint16
}

// buildAdjacency links polygons sharing an edge and marks the edges on
// the contours' portal segments with their direction (buildMeshAdjacency).
func (b *builder) buildAdjacency() {
	npolys, nverts := b.polyCount, len(b.meshVerts)
	maxEdges := npolys * maxPolyVerts
	b.firstEdge = growU16(b.firstEdge, nverts+maxEdges)
	firstEdge, nextEdge := b.firstEdge[:nverts], b.firstEdge[nverts:]
	if cap(b.edges) < maxEdges {
		b.edges = make([]meshEdge, maxEdges)
	}
	edges := b.edges[:maxEdges]
	fill(firstEdge, nullIndex)
	edgeCount := 0
	polyEdgeEnds := func(t []uint16, j int) (v0, v1 uint16) {
		v0 = t[j]
		if j+1 >= maxPolyVerts || t[j+1] == nullIndex {
			return v0, t[0]
		}
		return v0, t[j+1]
	}
	for i := range npolys {
		t := b.meshPolys[i*polyStride:]
		for j := range maxPolyVerts {
			if t[j] == nullIndex {
				break
			}
			v0, v1 := polyEdgeEnds(t, j)
			if v0 < v1 {
				edges[edgeCount] = meshEdge{vert: [2]uint16{v0, v1}, poly: [2]uint16{uint16(i), uint16(i)}, polyEdge: [2]uint16{uint16(j), 0xff}}
				nextEdge[edgeCount] = firstEdge[v0]
				firstEdge[v0] = uint16(edgeCount)
				edgeCount++
			}
		}
	}
	for i := range npolys {
		t := b.meshPolys[i*polyStride:]
		for j := range maxPolyVerts {
			if t[j] == nullIndex {
				break
			}
			v0, v1 := polyEdgeEnds(t, j)
			if v0 <= v1 {
				continue
			}
			found := false
			for e := firstEdge[v1]; e != nullIndex; e = nextEdge[e] {
				edge := &edges[e]
				if edge.vert[1] == v0 && edge.poly[0] == edge.poly[1] {
					edge.poly[1] = uint16(i)
					edge.polyEdge[1] = uint16(j)
					found = true
					break
				}
			}
			if !found {
				// An open edge seen from this side only.
				edges[edgeCount] = meshEdge{vert: [2]uint16{v1, v0}, poly: [2]uint16{uint16(i), uint16(i)}, polyEdge: [2]uint16{uint16(j), 0xff}}
				nextEdge[edgeCount] = firstEdge[v1]
				firstEdge[v1] = uint16(edgeCount)
				edgeCount++
			}
		}
	}

	// Mark the open edges lying on contour portal segments.
	for _, c := range b.contours {
		if c.count < 3 {
			continue
		}
		verts := b.contourVerts[c.start : c.start+4*c.count]
		for j, k := 0, c.count-1; j < c.count; k, j = j, j+1 {
			va, vb := verts[k*4:k*4+4], verts[j*4:j*4+4]
			dir := va[3] & 0xf
			if dir == portalNone {
				continue
			}
			// Portals run along z for directions 0 and 2, along x else.
			axis, along := 0, 2
			if dir != 0 && dir != 2 {
				axis, along = 2, 0
			}
			at := uint16(va[axis])
			lo, hi := uint16(va[along]), uint16(vb[along])
			if lo > hi {
				lo, hi = hi, lo
			}
			for m := range edgeCount {
				e := &edges[m]
				if e.poly[0] != e.poly[1] {
					continue
				}
				eva, evb := b.meshVerts[e.vert[0]], b.meshVerts[e.vert[1]]
				if eva[axis] != at || evb[axis] != at {
					continue
				}
				elo, ehi := eva[along], evb[along]
				if elo > ehi {
					elo, ehi = ehi, elo
				}
				if lo < ehi && hi > elo { // overlapRangeExl
					e.polyEdge[1] = uint16(dir)
				}
			}
		}
	}

	for _, e := range edges[:edgeCount] {
		if e.poly[0] != e.poly[1] {
			b.meshPolys[int(e.poly[0])*polyStride+maxPolyVerts+int(e.polyEdge[0])] = e.poly[1]
			b.meshPolys[int(e.poly[1])*polyStride+maxPolyVerts+int(e.polyEdge[1])] = e.poly[0]
		} else if e.polyEdge[1] != 0xff {
			b.meshPolys[int(e.poly[0])*polyStride+maxPolyVerts+int(e.polyEdge[0])] = 0x8000 | e.polyEdge[1]
		}
	}
}
