package bake

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Limits of one polygon's detail mesh.
const (
	// maxDetailVerts is the most vertices a polygon's detail mesh gets.
	maxDetailVerts = 127
	// maxDetailTris is the most triangles kept per polygon.
	maxDetailTris = 255
	// maxVertsPerEdge bounds the samples along one polygon edge.
	maxVertsPerEdge = 32
)

// buildPolyDetail builds the detail mesh of one polygon whose vertices
// (world units relative to the mesh origin) are poly: it samples heights
// along the edges and keeps the samples needed to stay within the error,
// triangulates the resulting hull and then adds the interior samples with
// the largest error one at a time, re-triangulating after each
// (buildPolyDetail). The vertices end in b.verts, the triangles (4 ints:
// three vertex indices and edge flags) in b.tris.
func (b *detailBuilder) buildPolyDetail(poly []geom.Vec3) {
	sampleDist := b.sampleDist
	sampleMaxError := b.sampleMaxError
	cellSize := b.chf.CellSize
	cellHeight := b.chf.CellHeight
	invCellSize := 1 / cellSize
	nin := len(poly)

	verts := append(b.verts[:0], poly...)
	hull := b.hull[:0]
	tris := b.tris[:0]

	minExtent := polyMinExtent(verts)

	if sampleDist > 0 {
		// Tessellate the outline. Each edge is sampled in a fixed
		// direction so that neighbouring polygons get the same samples.
		edge := &b.edgeSamples
		for i, j := 0, nin-1; i < nin; j, i = i, i+1 {
			vj := &poly[j]
			vi := &poly[i]
			swapped := false
			if abs32(vj[0]-vi[0]) < 1e-6 {
				if vj[2] > vi[2] {
					vj, vi = vi, vj
					swapped = true
				}
			} else if vj[0] > vi[0] {
				vj, vi = vi, vj
				swapped = true
			}

			dx := vi[0] - vj[0]
			dy := vi[1] - vj[1]
			dz := vi[2] - vj[2]
			d := geom.Sqrt(float32(dx*dx) + float32(dz*dz))
			nn := 1 + cInt(geom.Floor(d/sampleDist))
			if nn >= maxVertsPerEdge {
				nn = maxVertsPerEdge - 1
			}
			if len(verts)+nn >= maxDetailVerts {
				nn = maxDetailVerts - 1 - len(verts)
			}
			for k := 0; k <= nn; k++ {
				u := float32(k) / float32(nn)
				pos := &edge[k]
				pos[0] = vj[0] + float32(dx*u)
				pos[1] = vj[1] + float32(dy*u)
				pos[2] = vj[2] + float32(dz*u)
				pos[1] = float32(b.patch.sampleHeight(pos[0], pos[1], pos[2], invCellSize, cellHeight, b.heightSearchRadius)) * cellHeight
			}

			// Keep the samples that deviate most until the rest are within
			// the error.
			var idx [maxVertsPerEdge]int
			idx[0], idx[1] = 0, nn
			nidx := 2
			maxErrorSqr := sampleMaxError * sampleMaxError
			for k := 0; k < nidx-1; {
				a := idx[k]
				c := idx[k+1]
				va := &edge[a]
				vc := &edge[c]
				maxDev := float32(0)
				maxIndex := -1
				for m := a + 1; m < c; m++ {
					dev := geom.DistancePtSegSqr(edge[m], *va, *vc)
					if dev > maxDev {
						maxDev = dev
						maxIndex = m
					}
				}
				if maxIndex != -1 && maxDev > maxErrorSqr {
					copy(idx[k+2:nidx+1], idx[k+1:nidx])
					idx[k+1] = maxIndex
					nidx++
				} else {
					k++
				}
			}

			hull = append(hull, j)
			if swapped {
				for k := nidx - 2; k > 0; k-- {
					hull = append(hull, len(verts))
					verts = append(verts, edge[idx[k]])
				}
			} else {
				for k := 1; k < nidx-1; k++ {
					hull = append(hull, len(verts))
					verts = append(verts, edge[idx[k]])
				}
			}
		}
	} else {
		// Recast leaves the hull empty here and then reads past it; the
		// polygon's own outline is the hull it means.
		for i := range nin {
			hull = append(hull, i)
		}
	}

	b.verts, b.hull = verts, hull
	// Slivers and small polygons get no interior samples.
	if minExtent < sampleDist*2 {
		b.tris = triangulateHull(verts, hull, nin, tris)
		setTriangleFlags(b.tris, hull)
		return
	}

	// Triangulate the hull first: for long thin triangles without interior
	// points it does better than the Delaunay pass.
	tris = triangulateHull(verts, hull, nin, tris)
	if len(tris) == 0 {
		b.log.warnf("build detail mesh: could not triangulate polygon (%d verts)", len(verts))
		b.tris = tris
		return
	}

	if sampleDist > 0 {
		bmin, bmax := poly[0], poly[0]
		for i := 1; i < nin; i++ {
			for k := range 3 {
				bmin[k] = minFloat(bmin[k], poly[i][k])
				bmax[k] = maxFloat(bmax[k], poly[i][k])
			}
		}
		x0 := cInt(geom.Floor(bmin[0] / sampleDist))
		x1 := cInt(geom.Ceil(bmax[0] / sampleDist))
		z0 := cInt(geom.Floor(bmin[2] / sampleDist))
		z1 := cInt(geom.Ceil(bmax[2] / sampleDist))
		samples := b.samples[:0]
		midY := (bmax[1] + bmin[1]) * 0.5
		for z := z0; z < z1; z++ {
			for x := x0; x < x1; x++ {
				pt := geom.Vec3{float32(x) * sampleDist, midY, float32(z) * sampleDist}
				// Keep samples away from the edges.
				if signedDistToPoly(poly, &pt) > -sampleDist/2 {
					continue
				}
				height := b.patch.sampleHeight(pt[0], pt[1], pt[2], invCellSize, cellHeight, b.heightSearchRadius)
				samples = append(samples, x, int(height), z, 0)
			}
		}
		b.samples = samples

		// Add the sample with the largest error until all are within the
		// error or the vertex budget is spent.
		nsamples := len(samples) / 4
		b.triBases = prepareTriangles(b.triBases, verts, tris)
		for iter := 0; iter < nsamples; iter++ {
			if len(verts) >= maxDetailVerts {
				break
			}
			var bestPoint geom.Vec3
			bestDist := float32(0)
			bestIndex := -1
			for i := 0; i < nsamples; i++ {
				s := samples[i*4 : i*4+4]
				if s[3] != 0 {
					continue
				}
				// Jitter breaks up triangulations made bad by the grid's
				// symmetry.
				pt := geom.Vec3{
					float32(float32(s[0])*sampleDist) + float32(jitterX(i)*cellSize*0.1),
					float32(s[1]) * cellHeight,
					float32(float32(s[2])*sampleDist) + float32(jitterY(i)*cellSize*0.1),
				}
				if len(tris) == 0 {
					continue
				}
				d := distToTriMesh(&pt, b.triBases)
				if d < 0 {
					continue
				}
				if d > bestDist {
					bestDist = d
					bestIndex = i
					bestPoint = pt
				}
			}
			if bestDist <= sampleMaxError || bestIndex == -1 {
				break
			}
			samples[bestIndex*4+3] = 1
			verts = append(verts, bestPoint)
			tris = b.delaunay.triangulate(verts, hull, tris)
			b.triBases = prepareTriangles(b.triBases, verts, tris)
		}
	}
	b.verts = verts

	if ntris := len(tris) / 4; ntris > maxDetailTris {
		tris = tris[:maxDetailTris*4]
		b.log.warnf("build detail mesh: shrinking triangle count from %d to max %d", ntris, maxDetailTris)
	}
	setTriangleFlags(tris, hull)
	b.tris = tris
}

// triangulateHull fans the hull into triangles: it starts from the ear
// (with an original polygon vertex as tip) of smallest perimeter and then
// advances whichever side gives the shorter new triangle.
func triangulateHull(verts []geom.Vec3, hull []int, nin int, tris []int) []int {
	nhull := len(hull)
	start, left, right := 0, 1, nhull-1
	dmin := maxFloat32
	for i := 0; i < nhull; i++ {
		if hull[i] >= nin {
			continue // only original vertices make ears
		}
		pi := prevIndex(i, nhull)
		ni := nextIndex(i, nhull)
		pv := &verts[hull[pi]]
		cv := &verts[hull[i]]
		nv := &verts[hull[ni]]
		d := geom.Dist2D(*pv, *cv) + geom.Dist2D(*cv, *nv) + geom.Dist2D(*nv, *pv)
		if d < dmin {
			start, left, right, dmin = i, ni, pi, d
		}
	}

	tris = append(tris, hull[start], hull[left], hull[right], 0)
	for nextIndex(left, nhull) != right {
		nleft := nextIndex(left, nhull)
		nright := prevIndex(right, nhull)
		cvLeft := &verts[hull[left]]
		nvLeft := &verts[hull[nleft]]
		cvRight := &verts[hull[right]]
		nvRight := &verts[hull[nright]]
		dLeft := geom.Dist2D(*cvLeft, *nvLeft) + geom.Dist2D(*nvLeft, *cvRight)
		dRight := geom.Dist2D(*cvRight, *nvRight) + geom.Dist2D(*cvLeft, *nvRight)
		if dLeft < dRight {
			tris = append(tris, hull[left], hull[nleft], hull[right], 0)
			left = nleft
		} else {
			tris = append(tris, hull[left], hull[nright], hull[right], 0)
			right = nright
		}
	}
	return tris
}

// onHull reports whether a→b is an edge of the hull.
func onHull(a, b int, hull []int) bool {
	n := len(hull)
	// Interior samples come after the hull vertices.
	if a >= n || b >= n {
		return false
	}
	for j, i := n-1, 0; i < n; j, i = i, i+1 {
		if a == hull[j] && b == hull[i] {
			return true
		}
	}
	return false
}

// setTriangleFlags stores in each triangle's fourth value two bits per edge,
// navmesh.DetailEdgeBoundary for edges on the hull.
func setTriangleFlags(tris []int, hull []int) {
	for i := 0; i+3 < len(tris); i += 4 {
		a, b, c := tris[i], tris[i+1], tris[i+2]
		flags := 0
		if onHull(a, b, hull) {
			flags |= navmesh.DetailEdgeBoundary
		}
		if onHull(b, c, hull) {
			flags |= navmesh.DetailEdgeBoundary << 2
		}
		if onHull(c, a, hull) {
			flags |= navmesh.DetailEdgeBoundary << 4
		}
		tris[i+3] = flags
	}
}
