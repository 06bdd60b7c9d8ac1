package bake

import "github.com/archenav/archenav/navcore/navmesh"

// Merging triangles into convex polygons of up to maxVertsPerPoly vertices.
// Polygons here are rows of nvp vertex indices padded with MeshNullIndex.

// polyVertexCount returns the number of used vertex slots of a polygon row.
func polyVertexCount(poly []uint16, nvp int) int {
	for i := 0; i < nvp; i++ {
		if poly[i] == MeshNullIndex {
			return i
		}
	}
	return nvp
}

// isLeftU16 reports whether c lies strictly left of the directed line a→b
// in xz (uleft).
func isLeftU16(a, b, c *[3]uint16) bool {
	return (int32(b[0])-int32(a[0]))*(int32(c[2])-int32(a[2]))-
		(int32(c[0])-int32(a[0]))*(int32(b[2])-int32(a[2])) < 0
}

// sortedEdge returns the ends of edge i of polygon p of n vertices, the
// lower vertex index first.
func sortedEdge(p []uint16, n, i int) (low, high uint16) {
	low, high = p[i], p[0]
	if i+1 < n {
		high = p[i+1]
	}
	if low > high {
		low, high = high, low
	}
	return low, high
}

// mergeValue scores merging polygons a and b of na and nb vertices: the
// squared xz length of the shared edge, or -1 when they share no edge, the
// result would have too many vertices or would not be convex. edgeA and
// edgeB are the shared edge's index in each polygon.
func mergeValue(a, b []uint16, na, nb int, verts [][3]uint16, nvp int) (value, edgeA, edgeB int) {
	if na+nb-2 > nvp {
		return -1, 0, 0
	}

	// b's edges with their ends in ascending order.
	var bLow, bHigh [navmesh.MaxVertsPerPoly]uint16
	for j := 0; j < nb; j++ {
		bLow[j], bHigh[j] = sortedEdge(b, nb, j)
	}
	// The last matching edge of a wins, as in the C++.
	edgeA, edgeB = -1, -1
	for i := 0; i < na; i++ {
		va0, va1 := sortedEdge(a, na, i)
		for j := 0; j < nb; j++ {
			if va0 == bLow[j] && va1 == bHigh[j] {
				edgeA, edgeB = i, j
				break
			}
		}
	}
	if edgeA == -1 {
		return -1, 0, 0
	}

	if !isLeftU16(&verts[a[(edgeA+na-1)%na]], &verts[a[edgeA]], &verts[b[(edgeB+2)%nb]]) {
		return -1, 0, 0
	}
	if !isLeftU16(&verts[b[(edgeB+nb-1)%nb]], &verts[b[edgeB]], &verts[a[(edgeA+2)%na]]) {
		return -1, 0, 0
	}

	va := &verts[a[edgeA]]
	vb := &verts[a[(edgeA+1)%na]]
	dx := int(va[0]) - int(vb[0])
	dz := int(va[2]) - int(vb[2])
	return dx*dx + dz*dz, edgeA, edgeB
}

// mergePolygonVerts replaces a by the union of a and b joined along their
// shared edges edgeA and edgeB. scratch has room for nvp values.
func mergePolygonVerts(a, b []uint16, edgeA, edgeB, nvp int, scratch []uint16) {
	na := polyVertexCount(a, nvp)
	nb := polyVertexCount(b, nvp)
	for i := range scratch[:nvp] {
		scratch[i] = MeshNullIndex
	}
	n := 0
	for i := 0; i < na-1; i++ {
		scratch[n] = a[(edgeA+1+i)%na]
		n++
	}
	for i := 0; i < nb-1; i++ {
		scratch[n] = b[(edgeB+1+i)%nb]
		n++
	}
	copy(a[:nvp], scratch[:nvp])
}

// mergeIntoConvex greedily merges the first count polygon rows of polys
// (nvp values each), always the pair with the longest shared edge, first
// found on ties, until no pair can merge. When regions and areas are given
// they follow the rows; merging two regions gives multipleRegions. It
// returns the new row count.
func mergeIntoConvex(polys []uint16, count, nvp int, verts [][3]uint16, scratch []uint16, regions []uint16, areas []uint8) int {
	if nvp <= 3 {
		return count
	}
	var counts [maxMergeRows]int
	vertexCounts := counts[:0]
	if count > maxMergeRows {
		vertexCounts = make([]int, 0, count)
	}
	for j := 0; j < count; j++ {
		vertexCounts = append(vertexCounts, polyVertexCount(polys[j*nvp:(j+1)*nvp], nvp))
	}
	for {
		bestValue, bestA, bestB, bestEdgeA, bestEdgeB := 0, 0, 0, 0, 0
		for j := 0; j < count-1; j++ {
			pj := polys[j*nvp : (j+1)*nvp]
			nj := vertexCounts[j]
			for k := j + 1; k < count; k++ {
				pk := polys[k*nvp : (k+1)*nvp]
				value, edgeA, edgeB := mergeValue(pj, pk, nj, vertexCounts[k], verts, nvp)
				if value > bestValue {
					bestValue, bestA, bestB, bestEdgeA, bestEdgeB = value, j, k, edgeA, edgeB
				}
			}
		}
		if bestValue <= 0 {
			return count
		}

		pa := polys[bestA*nvp : (bestA+1)*nvp]
		pb := polys[bestB*nvp : (bestB+1)*nvp]
		mergePolygonVerts(pa, pb, bestEdgeA, bestEdgeB, nvp, scratch)
		last := count - 1
		vertexCounts[bestA] += vertexCounts[bestB] - 2
		vertexCounts[bestB] = vertexCounts[last]
		vertexCounts = vertexCounts[:last]
		if regions != nil {
			if regions[bestA] != regions[bestB] {
				regions[bestA] = multipleRegions
			}
			regions[bestB] = regions[last]
			areas[bestB] = areas[last]
		}
		if bestB != last {
			copy(pb, polys[last*nvp:(last+1)*nvp])
		}
		count--
	}
}

// maxMergeRows is how many polygon rows mergeIntoConvex counts without
// allocating.
const maxMergeRows = 256

// multipleRegions is the region id of a polygon made from parts of several
// regions (RC_MULTIPLE_REGS).
const multipleRegions uint16 = 0
