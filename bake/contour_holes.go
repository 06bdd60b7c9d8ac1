package bake

import (
	"cmp"
	"fmt"

	"github.com/archenav/archenav/internal/glibcsort"
)

// contourHole is a hole contour of a region with its lowest-leftmost vertex.
type contourHole struct {
	contour      int
	minX, minZ   int
	leftmostVert int
}

// contourRegion gathers the outline and holes of one region.
type contourRegion struct {
	outline int // contour index, -1 for none
	holes   []contourHole
}

// potentialDiagonal is an outline vertex a hole could be joined to, with its
// squared xz distance to the hole's vertex.
type potentialDiagonal struct {
	vert     int
	distance int
}

// mergeHoles finds the contours wound clockwise (holes) and merges each into
// the outline of its region, in region order.
func mergeHoles(cset *ContourSet, maxRegions int) {
	if len(cset.Contours) == 0 {
		return
	}
	isHole := make([]bool, len(cset.Contours))
	holeCount := 0
	for i := range cset.Contours {
		if contourArea2D(cset.Contours[i].Verts) < 0 {
			isHole[i] = true
			holeCount++
		}
	}
	if holeCount == 0 {
		return
	}

	regions := make([]contourRegion, maxRegions+1)
	for i := range regions {
		regions[i].outline = -1
	}
	for i := range cset.Contours {
		region := &regions[cset.Contours[i].Region]
		if isHole[i] {
			region.holes = append(region.holes, contourHole{contour: i})
			continue
		}
		if region.outline >= 0 {
			cset.Warnings = append(cset.Warnings, fmt.Sprintf("bake: build contours: multiple outlines for region %d", cset.Contours[i].Region))
		}
		region.outline = i
	}

	for id := range regions {
		region := &regions[id]
		if len(region.holes) == 0 {
			continue
		}
		if region.outline < 0 {
			// The outline became self-overlapping: simplification is too
			// aggressive for this region.
			cset.Warnings = append(cset.Warnings, fmt.Sprintf("bake: build contours: no outline for region %d with %d holes (contour simplification is likely too aggressive)", id, len(region.holes)))
			continue
		}
		mergeRegionHoles(cset, region)
	}
}

// contourArea2D returns the signed xz area of a contour, rounded as the C++
// does; negative for clockwise (hole) contours.
func contourArea2D(verts [][4]int32) int {
	area := 0
	for i, j := 0, len(verts)-1; i < len(verts); j, i = i, i+1 {
		area += int(verts[i][0])*int(verts[j][2]) - int(verts[j][0])*int(verts[i][2])
	}
	return (area + 1) / 2
}

// leftmostVertex returns the lowest-leftmost (smallest x, then z) vertex.
func leftmostVertex(verts [][4]int32) (minX, minZ, index int) {
	minX, minZ = int(verts[0][0]), int(verts[0][2])
	for i := 1; i < len(verts); i++ {
		x, z := int(verts[i][0]), int(verts[i][2])
		if x < minX || (x == minX && z < minZ) {
			minX, minZ, index = x, z, i
		}
	}
	return minX, minZ, index
}

// mergeRegionHoles joins the holes of a region, left to right, into its
// outline, each by the shortest diagonal from one of its vertices (its
// leftmost first) that crosses neither the outline nor a hole still to merge.
func mergeRegionHoles(cset *ContourSet, region *contourRegion) {
	holes := region.holes
	for i := range holes {
		holes[i].minX, holes[i].minZ, holes[i].leftmostVert = leftmostVertex(cset.Contours[holes[i].contour].Verts)
	}
	glibcsort.Sort(holes, nil, func(a, b *contourHole) int {
		if a.minX == b.minX {
			return cmp.Compare(a.minZ, b.minZ)
		}
		return cmp.Compare(a.minX, b.minX)
	})

	outline := &cset.Contours[region.outline]
	maxVerts := len(outline.Verts)
	for _, hole := range holes {
		maxVerts += len(cset.Contours[hole.contour].Verts)
	}
	// One buffer for the whole region, read past its sorted prefix below
	// exactly as the C++ reads it (see skipVert). The C++ buffer starts
	// uninitialised, so where it reads an entry never written its result
	// depends on leftover heap contents. Here such entries hold vertex -1,
	// which skips no edge: that matched the C++ on the test levels and in
	// all but 3 of 2,400 random cross-check runs (and in all of them once
	// the C++ buffer is filled with -1 too).
	diagonals := make([]potentialDiagonal, maxVerts)
	for i := range diagonals {
		diagonals[i].vert = -1
	}
	var sortScratch []potentialDiagonal

	for i := range holes {
		hole := &cset.Contours[holes[i].contour]
		index := -1
		bestVertex := holes[i].leftmostVert
		for range len(hole.Verts) {
			// Candidate outline vertices: those whose cone contains the
			// hole vertex, nearest first.
			corner := hole.Verts[bestVertex]
			diagonalCount := 0
			for j := range outline.Verts {
				if !contourInCone(j, outline.Verts, corner) {
					continue
				}
				dx := int(outline.Verts[j][0]) - int(corner[0])
				dz := int(outline.Verts[j][2]) - int(corner[2])
				if diagonalCount == len(diagonals) {
					diagonals = append(diagonals, potentialDiagonal{})
				}
				diagonals[diagonalCount] = potentialDiagonal{vert: j, distance: dx*dx + dz*dz}
				diagonalCount++
			}
			if len(sortScratch) < diagonalCount {
				sortScratch = make([]potentialDiagonal, len(diagonals))
			}
			glibcsort.Sort(diagonals[:diagonalCount], sortScratch, func(a, b *potentialDiagonal) int {
				return cmp.Compare(a.distance, b.distance)
			})

			index = -1
			for j := range diagonalCount {
				pt := outline.Verts[diagonals[j].vert]
				// The C++ 1.6.0 skips the outline edges next to the vertex
				// of entry i (the hole's rank), not j; kept for identical
				// output.
				skipVert := diagonals[i].vert
				intersects := contourSegmentIntersects(pt, corner, skipVert, outline.Verts)
				for k := i; k < len(holes) && !intersects; k++ {
					intersects = contourSegmentIntersects(pt, corner, -1, cset.Contours[holes[k].contour].Verts)
				}
				if !intersects {
					index = diagonals[j].vert
					break
				}
			}
			if index != -1 {
				break
			}
			bestVertex = (bestVertex + 1) % len(hole.Verts)
		}

		if index == -1 {
			cset.Warnings = append(cset.Warnings, fmt.Sprintf("bake: build contours: no diagonal to merge a hole of region %d into its outline", outline.Region))
			continue
		}
		mergeContours(outline, hole, index, bestVertex)
	}
}

// mergeContours appends hole b, starting and ending at vertex ib, to outline
// a after its vertex ia (repeated), and empties b's Verts.
func mergeContours(a, b *Contour, ia, ib int) {
	verts := make([][4]int32, 0, len(a.Verts)+len(b.Verts)+2)
	for i := 0; i <= len(a.Verts); i++ {
		verts = append(verts, a.Verts[(ia+i)%len(a.Verts)])
	}
	for i := 0; i <= len(b.Verts); i++ {
		verts = append(verts, b.Verts[(ib+i)%len(b.Verts)])
	}
	a.Verts = verts
	b.Verts = nil
}

// contourArea2 is twice the signed xz area of the triangle a, b, c.
func contourArea2(a, b, c [4]int32) int {
	return (int(b[0])-int(a[0]))*(int(c[2])-int(a[2])) - (int(c[0])-int(a[0]))*(int(b[2])-int(a[2]))
}

// contourLeft reports whether c is strictly left of the line a→b.
func contourLeft(a, b, c [4]int32) bool { return contourArea2(a, b, c) < 0 }

// contourLeftOn reports whether c is left of or on the line a→b.
func contourLeftOn(a, b, c [4]int32) bool { return contourArea2(a, b, c) <= 0 }

// contourCollinear reports whether a, b and c are on one line.
func contourCollinear(a, b, c [4]int32) bool { return contourArea2(a, b, c) == 0 }

// contourIntersectProper reports whether ab and cd cross at a point interior
// to both.
func contourIntersectProper(a, b, c, d [4]int32) bool {
	if contourCollinear(a, b, c) || contourCollinear(a, b, d) ||
		contourCollinear(c, d, a) || contourCollinear(c, d, b) {
		return false
	}
	return (contourLeft(a, b, c) != contourLeft(a, b, d)) && (contourLeft(c, d, a) != contourLeft(c, d, b))
}

// contourBetween reports whether c lies on the closed segment ab.
func contourBetween(a, b, c [4]int32) bool {
	if !contourCollinear(a, b, c) {
		return false
	}
	if a[0] != b[0] {
		return (a[0] <= c[0] && c[0] <= b[0]) || (a[0] >= c[0] && c[0] >= b[0])
	}
	return (a[2] <= c[2] && c[2] <= b[2]) || (a[2] >= c[2] && c[2] >= b[2])
}

// contourIntersect reports whether segments ab and cd meet at all.
func contourIntersect(a, b, c, d [4]int32) bool {
	if contourIntersectProper(a, b, c, d) {
		return true
	}
	return contourBetween(a, b, c) || contourBetween(a, b, d) ||
		contourBetween(c, d, a) || contourBetween(c, d, b)
}

// contourVertexEqual reports whether a and b share x and z.
func contourVertexEqual(a, b [4]int32) bool { return a[0] == b[0] && a[2] == b[2] }

// contourSegmentIntersects reports whether segment d0d1 meets an edge of the
// contour verts, ignoring the edges at vertex skip and edges sharing an end
// point with the segment.
func contourSegmentIntersects(d0, d1 [4]int32, skip int, verts [][4]int32) bool {
	n := len(verts)
	for k := 0; k < n; k++ {
		k1 := nextIndex(k, n)
		if skip == k || skip == k1 {
			continue
		}
		p0, p1 := verts[k], verts[k1]
		if contourVertexEqual(d0, p0) || contourVertexEqual(d1, p0) || contourVertexEqual(d0, p1) || contourVertexEqual(d1, p1) {
			continue
		}
		if contourIntersect(d0, d1, p0, p1) {
			return true
		}
	}
	return false
}

// contourInCone reports whether pj lies inside the cone of outline vertex i
// (between its two edges, on the inner side).
func contourInCone(i int, verts [][4]int32, pj [4]int32) bool {
	n := len(verts)
	pi := verts[i]
	pi1 := verts[nextIndex(i, n)]
	pin1 := verts[prevIndex(i, n)]
	if contourLeftOn(pin1, pi, pi1) {
		return contourLeft(pi, pj, pin1) && contourLeft(pj, pi, pi1)
	}
	return !(contourLeftOn(pi, pj, pi1) && contourLeftOn(pj, pi, pin1))
}
