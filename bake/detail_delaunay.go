package bake

import "github.com/archenav/archenav/navcore/geom"

// Delaunay triangulation of a point set inside a fixed hull, by completing
// the facet on the open side of each edge in turn (delaunayHull).
//
// Edges are four ints: the two end points and the faces on their left and
// right, each a face index or edgeUndefined / edgeHull.

const (
	edgeUndefined = -1
	edgeHull      = -2
)

// delaunay holds the edge list of one triangulation. It is reused from one
// triangulation to the next to keep its buffers.
type delaunay struct {
	edges    []int // 4 per edge, len == 4*maxEdges
	count    int
	maxEdges int
	faces    int
	log      *buildLog
	// pairs maps the point pair (s, t), s < t < pairTableSide, to its edge
	// index + 1. An edge list holds at most one edge per pair, so this finds
	// the same edge as scanning the list, which is what Recast does.
	pairs []int16
}

// pairTableSide bounds the points whose edges are found through the pair
// table; maxDetailVerts points always are.
const pairTableSide = maxDetailVerts + 1

func pairKey(s, t int) int {
	if s > t {
		s, t = t, s
	}
	return s*pairTableSide + t
}

// findEdge returns the index of the edge between s and t, either way round,
// or edgeUndefined.
func (d *delaunay) findEdge(s, t int) int {
	if d.pairs != nil {
		return int(d.pairs[pairKey(s, t)]) - 1
	}
	for i := 0; i < d.count; i++ {
		e := d.edges[i*4 : i*4+4]
		if (e[0] == s && e[1] == t) || (e[0] == t && e[1] == s) {
			return i
		}
	}
	return edgeUndefined
}

// addEdge appends the edge s→t with faces left and right unless it exists.
func (d *delaunay) addEdge(s, t, left, right int) int {
	if d.count >= d.maxEdges {
		d.log.warnf("build detail mesh: too many edges (%d/%d)", d.count, d.maxEdges)
		return edgeUndefined
	}
	if d.findEdge(s, t) != edgeUndefined {
		return edgeUndefined
	}
	e := d.edges[d.count*4 : d.count*4+4]
	e[0], e[1], e[2], e[3] = s, t, left, right
	d.count++
	if d.pairs != nil {
		d.pairs[pairKey(s, t)] = int16(d.count)
	}
	return d.count - 1
}

// updateLeftFace sets the face on the left of s→t of edge e if unset.
func (d *delaunay) updateLeftFace(e, s, t, face int) {
	edge := d.edges[e*4 : e*4+4]
	if edge[0] == s && edge[1] == t && edge[2] == edgeUndefined {
		edge[2] = face
	} else if edge[1] == s && edge[0] == t && edge[3] == edgeUndefined {
		edge[3] = face
	}
}

// segmentsOverlap2 reports whether segments ab and cd cross in xz.
func segmentsOverlap2(a, b, c, dd *geom.Vec3) bool {
	a1 := cross2(a, b, dd)
	a2 := cross2(a, b, c)
	if a1*a2 < 0 {
		a3 := cross2(c, dd, a)
		a4 := a3 + a2 - a1
		if a3*a4 < 0 {
			return true
		}
	}
	return false
}

// overlapsEdges reports whether segment s1-t1 crosses an edge that shares
// no end point with it.
func (d *delaunay) overlapsEdges(pts []geom.Vec3, s1, t1 int) bool {
	for i := 0; i < d.count; i++ {
		s0 := d.edges[i*4]
		t0 := d.edges[i*4+1]
		if s0 == s1 || s0 == t1 || t0 == s1 || t0 == t1 {
			continue
		}
		if segmentsOverlap2(&pts[s0], &pts[t0], &pts[s1], &pts[t1]) {
			return true
		}
	}
	return false
}

// completeFacet closes the open side of edge e with the point whose
// circumcircle with the edge is empty, or marks the side as hull.
func (d *delaunay) completeFacet(pts []geom.Vec3, e int) {
	const eps float32 = 1e-5
	const tolerance float32 = 0.001

	edge := d.edges[e*4 : e*4+4]
	var s, t int
	switch {
	case edge[2] == edgeUndefined:
		s, t = edge[0], edge[1]
	case edge[3] == edgeUndefined:
		s, t = edge[1], edge[0]
	default:
		return
	}

	npts := len(pts)
	best := npts
	var center geom.Vec3
	radius := float32(-1)
	for u := 0; u < npts; u++ {
		if u == s || u == t {
			continue
		}
		if !(cross2(&pts[s], &pts[t], &pts[u]) > eps) {
			continue
		}
		if radius < 0 {
			best = u
			center, radius, _ = circumCircle(&pts[s], &pts[t], &pts[u])
			continue
		}
		// geom.Dist2D written out: it would copy the vectors through memory.
		dx, dz := pts[u][0]-center[0], pts[u][2]-center[2]
		dist := geom.Sqrt(float32(dx*dx) + float32(dz*dz))
		switch {
		case dist > radius*(1+tolerance):
			// Outside the circle.
			continue
		case dist < radius*(1-tolerance):
			best = u
			center, radius, _ = circumCircle(&pts[s], &pts[t], &pts[u])
		default:
			// On the circle within tolerance: take it only if the new
			// edges would not cross existing ones.
			if d.overlapsEdges(pts, s, u) || d.overlapsEdges(pts, t, u) {
				continue
			}
			best = u
			center, radius, _ = circumCircle(&pts[s], &pts[t], &pts[u])
		}
	}

	if best >= npts {
		d.updateLeftFace(e, s, t, edgeHull)
		return
	}
	d.updateLeftFace(e, s, t, d.faces)
	if other := d.findEdge(best, s); other == edgeUndefined {
		d.addEdge(best, s, d.faces, edgeUndefined)
	} else {
		d.updateLeftFace(other, best, s, d.faces)
	}
	if other := d.findEdge(t, best); other == edgeUndefined {
		d.addEdge(t, best, d.faces, edgeUndefined)
	} else {
		d.updateLeftFace(other, t, best, d.faces)
	}
	d.faces++
}

// triangulate builds the Delaunay triangulation of pts inside the hull
// (indices into pts) and returns the triangles, 4 ints each (the fourth is
// left for flags), in tris[:0] (delaunayHull).
func (d *delaunay) triangulate(pts []geom.Vec3, hull []int, tris []int) []int {
	maxEdges := len(pts) * 10
	if cap(d.edges) < maxEdges*4 {
		d.edges = make([]int, maxEdges*4)
	}
	d.edges = d.edges[:maxEdges*4]
	d.maxEdges, d.count, d.faces = maxEdges, 0, 0
	if len(pts) <= pairTableSide {
		if d.pairs == nil {
			d.pairs = make([]int16, pairTableSide*pairTableSide)
		}
	} else {
		d.pairs = nil
	}
	defer d.clearPairs()

	for i, j := 0, len(hull)-1; i < len(hull); j, i = i, i+1 {
		d.addEdge(hull[j], hull[i], edgeHull, edgeUndefined)
	}
	for current := 0; current < d.count; current++ {
		if d.edges[current*4+2] == edgeUndefined {
			d.completeFacet(pts, current)
		}
		if d.edges[current*4+3] == edgeUndefined {
			d.completeFacet(pts, current)
		}
	}

	tris = tris[:0]
	for i := 0; i < d.faces*4; i++ {
		tris = append(tris, -1)
	}
	for i := 0; i < d.count; i++ {
		e := d.edges[i*4 : i*4+4]
		if e[3] >= 0 {
			addTriangleEdge(tris[e[3]*4:e[3]*4+4], e[0], e[1])
		}
		if e[2] >= 0 {
			addTriangleEdge(tris[e[2]*4:e[2]*4+4], e[1], e[0])
		}
	}

	for i := 0; i < len(tris)/4; i++ {
		t := tris[i*4 : i*4+4]
		if t[0] == -1 || t[1] == -1 || t[2] == -1 {
			d.log.warnf("build detail mesh: removing dangling face %d [%d,%d,%d]", i, t[0], t[1], t[2])
			copy(t, tris[len(tris)-4:])
			tris = tris[:len(tris)-4]
			i--
		}
	}
	return tris
}

// clearPairs resets the pair table entries of the current edges.
func (d *delaunay) clearPairs() {
	if d.pairs == nil {
		return
	}
	for i := 0; i < d.count; i++ {
		d.pairs[pairKey(d.edges[i*4], d.edges[i*4+1])] = 0
	}
}

// addTriangleEdge records in triangle t (three vertex slots, -1 while
// unknown) its edge from vertex from to vertex to: the edge fills the first
// two slots of an empty triangle, or gives the third vertex of a triangle
// whose first edge it follows or precedes.
func addTriangleEdge(t []int, from, to int) {
	switch {
	case t[0] == -1:
		t[0], t[1] = from, to
	case t[0] == to:
		t[2] = from
	case t[1] == from:
		t[2] = to
	}
}
