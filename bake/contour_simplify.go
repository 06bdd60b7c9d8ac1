package bake

// simplifyContour appends to simplified a simplification of the raw outline
// points (as walkContour makes them): every vertex where the neighbour region
// or area border changes is kept; wall and area edges are then refined until
// no raw vertex lies farther than maxError from them, and edges selected by
// flags are split until no longer than maxEdgeLen. While it works the fourth
// value of a simplified vertex is the index of its raw vertex; on return it
// holds the neighbour region and flags.
func simplifyContour(points, simplified [][4]int32, maxError float32, maxEdgeLen int, flags ContourBuildFlags) [][4]int32 {
	hasConnections := false
	for _, p := range points {
		if p[3]&ContourRegionMask != 0 {
			hasConnections = true
			break
		}
	}

	pointCount := len(points)
	if hasConnections {
		// Keep every vertex where the portal to another region changes.
		for i := range pointCount {
			next := (i + 1) % pointCount
			differentRegions := points[i][3]&ContourRegionMask != points[next][3]&ContourRegionMask
			areaBorders := points[i][3]&AreaBorder != points[next][3]&AreaBorder
			if differentRegions || areaBorders {
				simplified = append(simplified, [4]int32{points[i][0], points[i][1], points[i][2], int32(i)})
			}
		}
	}

	if len(simplified) == 0 {
		// A closed wall: seed with the lower-left and upper-right vertices.
		lowerLeft, upperRight := 0, 0
		for i, p := range points {
			ll, ur := points[lowerLeft], points[upperRight]
			if p[0] < ll[0] || (p[0] == ll[0] && p[2] < ll[2]) {
				lowerLeft = i
			}
			if p[0] > ur[0] || (p[0] == ur[0] && p[2] > ur[2]) {
				upperRight = i
			}
		}
		ll, ur := points[lowerLeft], points[upperRight]
		simplified = append(simplified,
			[4]int32{ll[0], ll[1], ll[2], int32(lowerLeft)},
			[4]int32{ur[0], ur[1], ur[2], int32(upperRight)})
	}

	// Add the raw vertex farthest from each wall or area edge until all lie
	// within maxError of the simplified outline.
	maxErrorSqr := maxError * maxError
	for i := 0; i < len(simplified); {
		next := (i + 1) % len(simplified)
		ax, az, ai := int(simplified[i][0]), int(simplified[i][2]), int(simplified[i][3])
		bx, bz, bi := int(simplified[next][0]), int(simplified[next][2]), int(simplified[next][3])

		// Walk the raw vertices in lexicographic order of the end points so
		// that both sides of a shared edge measure the same deviation.
		var ci, step, endIndex int
		if bx > ax || (bx == ax && bz > az) {
			step = 1
			ci = (ai + step) % pointCount
			endIndex = bi
		} else {
			step = pointCount - 1
			ci = (bi + step) % pointCount
			endIndex = ai
			ax, bx = bx, ax
			az, bz = bz, az
		}

		var maxDistance float32
		farthest := -1
		if points[ci][3]&ContourRegionMask == 0 || points[ci][3]&AreaBorder != 0 {
			for ci != endIndex {
				d := distancePointSegmentSqr2D(int(points[ci][0]), int(points[ci][2]), ax, az, bx, bz)
				if d > maxDistance {
					maxDistance = d
					farthest = ci
				}
				ci = (ci + step) % pointCount
			}
		}

		if farthest != -1 && maxDistance > maxErrorSqr {
			simplified = insertRawVertex(simplified, i+1, points, farthest)
		} else {
			i++
		}
	}

	// Split long edges at their middle raw vertex.
	if maxEdgeLen > 0 && flags&(TessellateWallEdges|TessellateAreaEdges) != 0 {
		for i := 0; i < len(simplified); {
			next := (i + 1) % len(simplified)
			ax, az, ai := int(simplified[i][0]), int(simplified[i][2]), int(simplified[i][3])
			bx, bz, bi := int(simplified[next][0]), int(simplified[next][2]), int(simplified[next][3])

			split := -1
			ci := (ai + 1) % pointCount
			tessellate := flags&TessellateWallEdges != 0 && points[ci][3]&ContourRegionMask == 0 ||
				flags&TessellateAreaEdges != 0 && points[ci][3]&AreaBorder != 0
			if tessellate {
				dx, dz := bx-ax, bz-az
				if dx*dx+dz*dz > maxEdgeLen*maxEdgeLen {
					// Round by the lexicographic order of the end points so
					// that both sides of a shared edge split alike.
					n := bi - ai
					if bi < ai {
						n = bi + pointCount - ai
					}
					if n > 1 {
						if bx > ax || (bx == ax && bz > az) {
							split = (ai + n/2) % pointCount
						} else {
							split = (ai + (n+1)/2) % pointCount
						}
					}
				}
			}

			if split != -1 {
				simplified = insertRawVertex(simplified, i+1, points, split)
			} else {
				i++
			}
		}
	}

	// The border-vertex flag comes from a vertex's own raw vertex, the
	// neighbour region and area border from the next raw vertex.
	for i := range simplified {
		ai := (int(simplified[i][3]) + 1) % pointCount
		bi := int(simplified[i][3])
		simplified[i][3] = points[ai][3]&(ContourRegionMask|AreaBorder) | points[bi][3]&BorderVertex
	}
	return simplified
}

// insertRawVertex inserts raw vertex index of points at position at of
// simplified, its fourth value set to index.
func insertRawVertex(simplified [][4]int32, at int, points [][4]int32, index int) [][4]int32 {
	p := points[index]
	simplified = append(simplified, [4]int32{})
	copy(simplified[at+1:], simplified[at:])
	simplified[at] = [4]int32{p[0], p[1], p[2], int32(index)}
	return simplified
}

// distancePointSegmentSqr2D returns the squared xz distance from (x, z) to
// the segment (px, pz)–(qx, qz), in float32 as the C++ computes it.
func distancePointSegmentSqr2D(x, z, px, pz, qx, qz int) float32 {
	pqx := float32(qx - px)
	pqz := float32(qz - pz)
	dx := float32(x - px)
	dz := float32(z - pz)
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
	dx = float32(px) + float32(t*pqx) - float32(x)
	dz = float32(pz) + float32(t*pqz) - float32(z)
	return float32(dx*dx) + float32(dz*dz)
}

// removeDegenerateSegments removes vertices equal in xz to the next one,
// which would confuse triangulation. Like the C++ it does not recheck the
// position after a removal.
func removeDegenerateSegments(simplified [][4]int32) [][4]int32 {
	count := len(simplified)
	for i := 0; i < count; i++ {
		next := nextIndex(i, count)
		if simplified[i][0] == simplified[next][0] && simplified[i][2] == simplified[next][2] {
			simplified = append(simplified[:i], simplified[i+1:]...)
			count--
		}
	}
	return simplified
}
