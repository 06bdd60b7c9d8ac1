package navmesh

import (
	"math"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// nearestPolyCandidates is how many polygons FindNearestPoly considers at
// most, as in dtNavMesh::findNearestPolyInTile.
const nearestPolyCandidates = 128

// anyBoundaryEdge selects detail triangles with at least one edge on the
// polygon boundary.
const anyBoundaryEdge = DetailEdgeBoundary<<0 | DetailEdgeBoundary<<2 | DetailEdgeBoundary<<4

// PolyHeight returns the height of the detail surface of poly at the xz
// position of pos (dtNavMesh::getPolyHeight). ok is false when pos lies
// outside the polygon in the xz-plane, when poly is an off-mesh connection or
// when poly is not one of t.Polys.
func (t *Tile) PolyHeight(poly *Poly, pos mgl32.Vec3) (height float32, ok bool) {
	ip := t.polyIndex(poly)
	if ip < 0 {
		return 0, false
	}
	return t.polyHeight(uint32(ip), fastgeom.FromVec3(pos))
}

// ClosestPointOnDetailEdges returns the point of poly's detail mesh edges
// closest to pos in the xz-plane, with the height of that edge. With
// onlyBoundary only edges on the polygon boundary count. pos is returned
// unchanged when poly has no detail edges or is not one of t.Polys.
func (t *Tile) ClosestPointOnDetailEdges(poly *Poly, pos mgl32.Vec3, onlyBoundary bool) mgl32.Vec3 {
	ip := t.polyIndex(poly)
	if ip < 0 {
		return pos
	}
	return t.closestPointOnDetailEdges(uint32(ip), &t.Polys[ip], fastgeom.FromVec3(pos), onlyBoundary).Vec3()
}

// ClosestPointOnPoly returns the point of poly closest to pos
// (dtNavMesh::closestPointOnPoly): pos at the detail height when it lies
// over the polygon (posOverPoly true), else the closest point on the
// polygon's boundary detail edges, or on the segment of an off-mesh
// connection. pos is returned unchanged when poly is not one of t.Polys.
func (t *Tile) ClosestPointOnPoly(poly *Poly, pos mgl32.Vec3) (closest mgl32.Vec3, posOverPoly bool) {
	ip := t.polyIndex(poly)
	if ip < 0 {
		return pos, false
	}
	p, over := t.closestPointOnPoly(uint32(ip), fastgeom.FromVec3(pos))
	return p.Vec3(), over
}

// QueryPolygons appends to dst the refs of the tile's ground polygons whose
// bounds overlap the box [qmin, qmax] (dtNavMesh::queryPolygonsInTile): a
// walk of the BV tree with the tile's quantised bounds, or a scan of every
// polygon when the tile has no BV tree.
func (t *Tile) QueryPolygons(qmin, qmax mgl32.Vec3, dst []Ref) []Ref {
	return t.queryPolygons(qmin, qmax, dst, math.MaxInt)
}

// FindNearestPoly returns the polygon of this tile nearest to center among
// those overlapping the box center±halfExtents, and the nearest point on it
// (dtNavMesh::findNearestPolyInTile): see NearestAmong for the distance. It
// looks at the first 128 polygons in the box at most, and returns 0 and the
// zero vector when no polygon overlaps the box.
func (t *Tile) FindNearestPoly(center, halfExtents mgl32.Vec3) (Ref, mgl32.Vec3) {
	qmin := geom.Sub(center, halfExtents)
	qmax := geom.Add(center, halfExtents)
	c := fastgeom.FromVec3(center)
	var nearest Ref
	var nearestPoint fastgeom.Point
	nearestDistSqr := float32(math.MaxFloat32)
	candidates := 0
	for ip := range t.overlappingPolys(qmin, qmax) {
		if candidates == nearestPolyCandidates {
			break
		}
		candidates++
		closest, over := t.closestPointOnPoly(uint32(ip), c)
		if d := nearestDistanceSqr(c, closest, over, t.Data.Header.WalkableClimb); d < nearestDistSqr {
			nearestPoint = closest
			nearestDistSqr = d
			nearest = t.PolyRefBase() | Ref(ip)
		}
	}
	return nearest, nearestPoint.Vec3()
}

// NearestAmong returns which of the polygons refs (of this tile) is nearest
// to center, the first one on a tie, with its point closest to center (as
// ClosestPointOnPoly gives it), whether center lies over it, and the squared
// distance it was ranked by [Units: world units²]: from center to that
// point, or, when center lies over the polygon, only the height difference
// beyond the tile's WalkableClimb, so that a polygon under the agent's feet
// counts as touching. Refs whose polygon index is out of range are skipped.
// It returns ref 0 and distSqr math.MaxFloat32 when no ref qualifies.
func (t *Tile) NearestAmong(center mgl32.Vec3, refs []Ref) (ref Ref, closest mgl32.Vec3, posOverPoly bool, distSqr float32) {
	ref, p, posOverPoly, distSqr := t.NearestAmongPoint(fastgeom.FromVec3(center), refs)
	return ref, p.Vec3(), posOverPoly, distSqr
}

// NearestAmongPoint is NearestAmong on fastgeom points, for the
// nearest-polygon search of package query: a geom.Vec3 result is returned
// through memory, written in 4-byte stores that the caller's 8-byte copy
// must wait for, where a Point comes back in registers.
func (t *Tile) NearestAmongPoint(center fastgeom.Point, refs []Ref) (ref Ref, closest fastgeom.Point, posOverPoly bool, distSqr float32) {
	climb := t.Data.Header.WalkableClimb
	distSqr = math.MaxFloat32
	for _, r := range refs {
		ip := r.PolyIndex()
		if ip >= uint32(len(t.Polys)) {
			continue
		}
		p, over := t.closestPointOnPoly(ip, center)
		if d := nearestDistanceSqr(center, p, over, climb); d < distSqr {
			ref, closest, posOverPoly, distSqr = r, p, over, d
		}
	}
	return ref, closest, posOverPoly, distSqr
}

// nearestDistanceSqr is the distance the nearest-polygon searches rank a
// polygon by (see NearestAmong), from center to closest, the polygon's
// point closest to it.
func nearestDistanceSqr(center, closest fastgeom.Point, posOverPoly bool, walkableClimb float32) float32 {
	if posOverPoly {
		// Over the polygon and within climb: as good as touching it.
		d := geom.Abs(center.Y-closest.Y) - walkableClimb
		if d > 0 {
			return d * d
		}
		return 0
	}
	dx := center.X - closest.X
	dy := center.Y - closest.Y
	dz := center.Z - closest.Z
	return float32(dx*dx) + float32(dy*dy) + float32(dz*dz)
}

// detailVertex returns vertex i of a detail triangle of poly: one of the
// polygon's own vertices or one of its extra detail vertices.
func (t *Tile) detailVertex(poly *Poly, detail *PolyDetail, i uint8) fastgeom.Point {
	if i < poly.VertCount {
		return fastgeom.Load(&t.Verts[poly.Verts[i]])
	}
	return fastgeom.Load(&t.Data.DetailVerts[detail.VertBase+uint32(i-poly.VertCount)])
}

// The closest-point functions below are where the nearest-polygon search and
// linking spend their time; they run on fastgeom points, with the float32
// operations of geom.PointInPolygon, geom.ClosestHeightOnTriangle and
// geom.DistancePtSegSqr2D in the same order.

// closestPointOnPoly is ClosestPointOnPoly for polygon ip.
func (t *Tile) closestPointOnPoly(ip uint32, pos fastgeom.Point) (closest fastgeom.Point, posOverPoly bool) {
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection {
		v0 := fastgeom.Load(&t.Verts[poly.Verts[0]])
		v1 := fastgeom.Load(&t.Verts[poly.Verts[1]])
		_, segT := fastgeom.DistancePtSegSqr2D(pos, v0, v1)
		return fastgeom.Lerp(v0, v1, segT), false
	}
	if containsXZ(t.Verts, poly.Verts[:min(int(poly.VertCount), len(poly.Verts))], pos) {
		pos.Y = t.heightInside(ip, poly, pos)
		return pos, true
	}
	return t.closestPointOnDetailEdges(ip, poly, pos, true), false
}

// polyHeight is PolyHeight for polygon ip.
func (t *Tile) polyHeight(ip uint32, pos fastgeom.Point) (float32, bool) {
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection ||
		!containsXZ(t.Verts, poly.Verts[:min(int(poly.VertCount), len(poly.Verts))], pos) {
		return 0, false
	}
	return t.heightInside(ip, poly, pos), true
}

// containsXZ is geom.PointInPolygon on the polygon verts[indices[i]]:
// whether pt lies inside it seen from above.
func containsXZ(verts []mgl32.Vec3, indices []uint16, pt fastgeom.Point) bool {
	if len(indices) == 0 {
		return false
	}
	inside := false
	vj := fastgeom.Load(&verts[indices[len(indices)-1]])
	for _, index := range indices {
		vi := fastgeom.Load(&verts[index])
		if (vi.Z > pt.Z) != (vj.Z > pt.Z) &&
			pt.X < (vj.X-vi.X)*(pt.Z-vi.Z)/(vj.Z-vi.Z)+vi.X {
			inside = !inside
		}
		vj = vi
	}
	return inside
}

// heightInside is the detail height at pos, known to lie inside poly seen
// from above (dtNavMesh::getPolyHeight after its inside test).
func (t *Tile) heightInside(ip uint32, poly *Poly, pos fastgeom.Point) float32 {
	detail := &t.Data.DetailMeshes[ip]
	tris := t.Data.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)]
	for i := range tris {
		tri := &tris[i]
		a := t.detailVertex(poly, detail, tri[0])
		b := t.detailVertex(poly, detail, tri[1])
		c := t.detailVertex(poly, detail, tri[2])
		u, v, denom := fastgeom.TriangleCoords2D(pos, a, b, c)
		if h, ok := fastgeom.TriangleHeight(a, b, c, u, v, denom); ok {
			return h
		}
	}
	// Every triangle test failed (degenerate triangles or large coordinates):
	// pos is on an edge, take the closest edge's height.
	return t.closestPointOnDetailEdges(ip, poly, pos, false).Y
}

// closestPointOnDetailEdges is ClosestPointOnDetailEdges for poly, polygon
// ip. The three edges of a triangle are visited in the C++ order (c→a, a→b,
// b→c), written out rather than looped: the loop's shifts and index checks
// cost more than the distances in the nearest-polygon search; an edge is kept
// when strictly nearer than the best so far (the first of equals wins, as in
// the C++), compared here rather than in a method, which would not inline
// and would add a call to each edge.
func (t *Tile) closestPointOnDetailEdges(ip uint32, poly *Poly, pos fastgeom.Point, onlyBoundary bool) fastgeom.Point {
	detail := &t.Data.DetailMeshes[ip]
	tris := t.Data.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)]

	best := closestEdge{distSqr: math.MaxFloat32}
	for i := range tris {
		tri := &tris[i]
		flags := tri[3]
		if onlyBoundary && flags&anyBoundaryEdge == 0 {
			continue
		}
		a := t.detailVertex(poly, detail, tri[0])
		b := t.detailVertex(poly, detail, tri[1])
		c := t.detailVertex(poly, detail, tri[2])
		if visitsDetailEdge(flags>>4, tri[2], tri[0], onlyBoundary) {
			s := fastgeom.SegmentParam2D(pos, c, a)
			if d := fastgeom.SegmentDistSqr2D(pos, c, a, s); d < best.distSqr {
				best = closestEdge{d, s, c, a, true}
			}
		}
		if visitsDetailEdge(flags, tri[0], tri[1], onlyBoundary) {
			s := fastgeom.SegmentParam2D(pos, a, b)
			if d := fastgeom.SegmentDistSqr2D(pos, a, b, s); d < best.distSqr {
				best = closestEdge{d, s, a, b, true}
			}
		}
		if visitsDetailEdge(flags>>2, tri[1], tri[2], onlyBoundary) {
			s := fastgeom.SegmentParam2D(pos, b, c)
			if d := fastgeom.SegmentDistSqr2D(pos, b, c, s); d < best.distSqr {
				best = closestEdge{d, s, b, c, true}
			}
		}
	}
	if !best.found {
		return pos
	}
	return fastgeom.Lerp(best.start, best.end, best.t)
}

// visitsDetailEdge reports whether closestPointOnDetailEdges measures the
// detail edge from vertex index from to index to, whose edge flags are in
// the low two bits of flags: a boundary edge always; an inner edge only when
// every edge counts, and then once, from the triangle that lists it with
// the higher index first (the other triangle lists it the other way round).
func visitsDetailEdge(flags, from, to uint8, onlyBoundary bool) bool {
	return flags&DetailEdgeBoundary != 0 || !onlyBoundary && from >= to
}

// closestEdge is the edge nearest to a point so far, with the parameter of
// the closest point on it.
type closestEdge struct {
	distSqr, t float32
	start, end fastgeom.Point
	found      bool
}

// queryPolygons appends at most limit refs to dst.
func (t *Tile) queryPolygons(qmin, qmax mgl32.Vec3, dst []Ref, limit int) []Ref {
	base := t.PolyRefBase()
	for ip := range t.overlappingPolys(qmin, qmax) {
		if limit == 0 {
			break
		}
		dst = append(dst, base|Ref(ip))
		limit--
	}
	return dst
}

// overlappingPolys yields, in the C++ order, the indices of the ground
// polygons whose bounds overlap [qmin, qmax]: through the BV tree with
// quantised bounds when the tile has one, else by scanning every polygon.
func (t *Tile) overlappingPolys(qmin, qmax mgl32.Vec3) func(yield func(int) bool) {
	return func(yield func(int) bool) {
		if len(t.Data.BVTree) > 0 {
			tbmin, tbmax := t.Data.Header.BMin, t.Data.Header.BMax
			qfac := t.Data.Header.BVQuantFactor
			var bmin, bmax [3]uint16
			for i := range 3 {
				lo := geom.Clamp(qmin[i], tbmin[i], tbmax[i]) - tbmin[i]
				hi := geom.Clamp(qmax[i], tbmin[i], tbmax[i]) - tbmin[i]
				bmin[i] = quantize(qfac*lo) & 0xfffe
				bmax[i] = quantize(float32(qfac*hi)+1) | 1
			}
			for i := 0; i < len(t.Data.BVTree); {
				node := &t.Data.BVTree[i]
				overlap := geom.OverlapQuantBounds(bmin, bmax, node.BMin, node.BMax)
				leaf := node.Index >= 0
				if leaf && overlap && !yield(int(node.Index)) {
					return
				}
				if overlap || leaf {
					i++
				} else {
					i += int(-node.Index)
				}
			}
			return
		}
		for i := range t.Polys {
			poly := &t.Polys[i]
			if poly.Type() == PolyTypeOffMeshConnection {
				continue
			}
			bmin := t.Verts[poly.Verts[0]]
			bmax := bmin
			for j := 1; j < int(poly.VertCount); j++ {
				v := t.Verts[poly.Verts[j]]
				for k := range 3 {
					bmin[k] = minf(bmin[k], v[k])
					bmax[k] = maxf(bmax[k], v[k])
				}
			}
			if geom.OverlapBounds(qmin, qmax, bmin, bmax) && !yield(i) {
				return
			}
		}
	}
}

// quantize converts a non-negative BV tree coordinate to uint16 the way the
// C++ cast does on x86 (truncate to a 32-bit integer, keep the low 16 bits).
func quantize(f float32) uint16 { return uint16(int32(f)) }

// minf and maxf are dtMin and dtMax: with a NaN they return b, unlike the
// built-in min and max.
func minf(a, b float32) float32 {
	if a < b {
		return a
	}
	return b
}

func maxf(a, b float32) float32 {
	if a > b {
		return a
	}
	return b
}
