package bake

import "fmt"

// Removal of tile-border vertices from a poly mesh under construction: the
// polygons around a removed vertex are deleted and the hole they leave is
// triangulated and merged again (canRemoveVertex / removeVertex).

// canRemoveVertex reports whether removing vertex rem leaves a hole that
// can be filled: enough edges remain and at most two edges around it are
// open (the vertex is not shared by polygons that do not touch each other).
func (b *polyMeshBuilder) canRemoveVertex(rem uint16) bool {
	nvp := b.nvp
	touchedVerts := 0
	remainingEdges := 0
	for i := 0; i < b.polyCount; i++ {
		row := b.poly(i)
		nv := polyVertexCount(row, nvp)
		removed := 0
		for j := 0; j < nv; j++ {
			if row[j] == rem {
				touchedVerts++
				removed++
			}
		}
		if removed > 0 {
			remainingEdges += nv - (removed + 1)
		}
	}
	if remainingEdges <= 2 {
		return false
	}

	// Edges through rem: the other end and how many polygons share it.
	type spoke struct{ other, shares int }
	spokes := make([]spoke, 0, touchedVerts*2)
	for i := 0; i < b.polyCount; i++ {
		row := b.poly(i)
		nv := polyVertexCount(row, nvp)
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if row[j] != rem && row[k] != rem {
				continue
			}
			other := int(row[k])
			if row[k] == rem {
				other = int(row[j])
			}
			exists := false
			for m := range spokes {
				if spokes[m].other == other {
					spokes[m].shares++
					exists = true
				}
			}
			if !exists {
				spokes = append(spokes, spoke{other: other, shares: 1})
			}
		}
	}

	openEdges := 0
	for _, s := range spokes {
		if s.shares < 2 {
			openEdges++
		}
	}
	return openEdges <= 2
}

// holeEdge is a polygon edge on the rim of the hole left by a removed
// vertex, with the region and area of the polygon it came from.
type holeEdge struct {
	from, to int
	region   int
	area     int
}

// removeVertex deletes vertex rem and every polygon using it, then fills
// the hole with new polygons.
func (b *polyMeshBuilder) removeVertex(rem uint16) error {
	nvp := b.nvp

	var rim []holeEdge
	for i := 0; i < b.polyCount; i++ {
		row := b.poly(i)
		nv := polyVertexCount(row, nvp)
		hasRem := false
		for j := 0; j < nv; j++ {
			if row[j] == rem {
				hasRem = true
			}
		}
		if !hasRem {
			continue
		}
		for j, k := 0, nv-1; j < nv; k, j = j, j+1 {
			if row[j] != rem && row[k] != rem {
				rim = append(rim, holeEdge{from: int(row[k]), to: int(row[j]), region: int(b.regions[i]), area: int(b.areas[i])})
			}
		}
		// Replace the polygon by the last one.
		last := b.polyCount - 1
		if i != last {
			copy(row[:nvp], b.poly(last)[:nvp])
		}
		for j := nvp; j < 2*nvp; j++ {
			row[j] = MeshNullIndex
		}
		b.regions[i] = b.regions[last]
		b.areas[i] = b.areas[last]
		b.polyCount--
		i--
	}

	// Drop the vertex and renumber.
	verts := b.welder.verts
	copy(verts[rem:], verts[rem+1:])
	b.welder.verts = verts[:len(verts)-1]
	for i := 0; i < b.polyCount; i++ {
		row := b.poly(i)
		nv := polyVertexCount(row, nvp)
		for j := 0; j < nv; j++ {
			if row[j] > rem {
				row[j]--
			}
		}
	}
	for i := range rim {
		if rim[i].from > int(rem) {
			rim[i].from--
		}
		if rim[i].to > int(rem) {
			rim[i].to--
		}
	}
	if len(rim) == 0 {
		return nil
	}

	// Chain the rim edges into the hole outline, growing it at both ends.
	hole := []int{rim[0].from}
	holeRegions := []int{rim[0].region}
	holeAreas := []int{rim[0].area}
	for len(rim) > 0 {
		matched := false
		for i := 0; i < len(rim); i++ {
			e := rim[i]
			added := false
			if hole[0] == e.to {
				hole = append([]int{e.from}, hole...)
				holeRegions = append([]int{e.region}, holeRegions...)
				holeAreas = append([]int{e.area}, holeAreas...)
				added = true
			} else if hole[len(hole)-1] == e.from {
				hole = append(hole, e.to)
				holeRegions = append(holeRegions, e.region)
				holeAreas = append(holeAreas, e.area)
				added = true
			}
			if added {
				rim[i] = rim[len(rim)-1]
				rim = rim[:len(rim)-1]
				matched = true
				i--
			}
		}
		if !matched {
			break
		}
	}

	holeVerts := make([][4]int32, len(hole))
	holeIndices := make([]int, len(hole))
	for i, vi := range hole {
		v := &b.welder.verts[vi]
		holeVerts[i] = [4]int32{int32(v[0]), int32(v[1]), int32(v[2]), 0}
		holeIndices[i] = i
	}
	var tris []int
	if len(hole) >= 3 {
		var complete bool
		tris, complete = triangulate(holeVerts, holeIndices, make([]int, 0, len(hole)*3))
		if !complete {
			b.log.warnf("build poly mesh: remove vertex: bad triangulation of the hole")
		}
	} else {
		b.log.warnf("build poly mesh: remove vertex: hole of %d vertices", len(hole))
	}

	ntris := len(tris) / 3
	polys := make([]uint16, ntris*nvp)
	for i := range polys {
		polys[i] = MeshNullIndex
	}
	polyRegions := make([]uint16, ntris)
	polyAreas := make([]uint8, ntris)
	count := 0
	for t := 0; t < ntris; t++ {
		a, bb, c := tris[t*3], tris[t*3+1], tris[t*3+2]
		if a == bb || a == c || bb == c {
			continue
		}
		row := polys[count*nvp:]
		row[0] = uint16(hole[a])
		row[1] = uint16(hole[bb])
		row[2] = uint16(hole[c])
		if holeRegions[a] != holeRegions[bb] || holeRegions[bb] != holeRegions[c] {
			polyRegions[count] = multipleRegions
		} else {
			polyRegions[count] = uint16(holeRegions[a])
		}
		polyAreas[count] = uint8(holeAreas[a])
		count++
	}
	if count == 0 {
		return nil
	}
	count = mergeIntoConvex(polys, count, nvp, b.welder.verts, make([]uint16, nvp), polyRegions, polyAreas)

	for i := 0; i < count; i++ {
		if b.polyCount >= b.maxPolys {
			return fmt.Errorf("more than %d polygons: %w", b.maxPolys, ErrTooManyPolygons)
		}
		row := b.poly(b.polyCount)
		for j := range row {
			row[j] = MeshNullIndex
		}
		copy(row[:nvp], polys[i*nvp:(i+1)*nvp])
		b.regions[b.polyCount] = polyRegions[i]
		b.areas[b.polyCount] = polyAreas[i]
		b.polyCount++
	}
	return nil
}
