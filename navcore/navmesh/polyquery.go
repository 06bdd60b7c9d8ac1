package navmesh

import (
	"math"

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
	return t.polyHeight(ip, pos)
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
	return t.closestPointOnDetailEdges(ip, pos, onlyBoundary)
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
	return t.closestPointOnPoly(ip, pos)
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
// (dtNavMesh::findNearestPolyInTile). A point right over a polygon counts
// only its height distance beyond the tile's WalkableClimb. It returns 0 and
// the zero vector when no polygon overlaps the box.
func (t *Tile) FindNearestPoly(center, halfExtents mgl32.Vec3) (Ref, mgl32.Vec3) {
	qmin := geom.Sub(center, halfExtents)
	qmax := geom.Add(center, halfExtents)
	var nearest Ref
	var nearestPoint mgl32.Vec3
	nearestDistSqr := float32(math.MaxFloat32)
	candidates := 0
	for ip := range t.overlappingPolys(qmin, qmax) {
		if candidates == nearestPolyCandidates {
			break
		}
		candidates++
		closest, overPoly := t.closestPointOnPoly(ip, center)
		diff := geom.Sub(center, closest)
		var d float32
		if overPoly {
			d = geom.Abs(diff[1]) - t.Header.WalkableClimb
			if d > 0 {
				d = d * d
			} else {
				d = 0
			}
		} else {
			d = geom.LenSqr(diff)
		}
		if d < nearestDistSqr {
			nearestPoint = closest
			nearestDistSqr = d
			nearest = t.PolyRefBase() | Ref(ip)
		}
	}
	return nearest, nearestPoint
}

// detailVertex returns vertex i of a detail triangle of poly: one of the
// polygon's own vertices or one of its extra detail vertices.
func (t *Tile) detailVertex(poly *Poly, detail *PolyDetail, i uint8) mgl32.Vec3 {
	if i < poly.VertCount {
		return t.Verts[poly.Verts[i]]
	}
	return t.DetailVerts[detail.VertBase+uint32(i-poly.VertCount)]
}

func (t *Tile) polyHeight(ip int, pos mgl32.Vec3) (float32, bool) {
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection {
		return 0, false
	}
	var verts [MaxVertsPerPoly]mgl32.Vec3
	nv := int(poly.VertCount)
	for i := range nv {
		verts[i] = t.Verts[poly.Verts[i]]
	}
	if !geom.PointInPolygon(pos, verts[:nv]) {
		return 0, false
	}

	detail := &t.DetailMeshes[ip]
	for j := range uint32(detail.TriCount) {
		tri := &t.DetailTris[detail.TriBase+j]
		a := t.detailVertex(poly, detail, tri[0])
		b := t.detailVertex(poly, detail, tri[1])
		c := t.detailVertex(poly, detail, tri[2])
		if h, ok := geom.ClosestHeightOnTriangle(pos, a, b, c); ok {
			return h, true
		}
	}
	// Every triangle test failed (degenerate triangles or large coordinates):
	// pos is on an edge, take the closest edge's height.
	closest := t.closestPointOnDetailEdges(ip, pos, false)
	return closest[1], true
}

func (t *Tile) closestPointOnDetailEdges(ip int, pos mgl32.Vec3, onlyBoundary bool) mgl32.Vec3 {
	poly := &t.Polys[ip]
	detail := &t.DetailMeshes[ip]

	minDistSqr := float32(math.MaxFloat32)
	var minT float32
	var segStart, segEnd mgl32.Vec3
	found := false
	for i := range uint32(detail.TriCount) {
		tri := &t.DetailTris[detail.TriBase+i]
		if onlyBoundary && tri[3]&anyBoundaryEdge == 0 {
			continue
		}
		var v [3]mgl32.Vec3
		for j := range 3 {
			v[j] = t.detailVertex(poly, detail, tri[j])
		}
		for k, j := 0, 2; k < 3; j, k = k, k+1 {
			// An inner edge is skipped when only boundary edges count, and
			// otherwise visited once, from its lower vertex index.
			if tri.DetailEdgeFlags(j)&DetailEdgeBoundary == 0 && (onlyBoundary || tri[j] < tri[k]) {
				continue
			}
			d, segT := geom.DistancePtSegSqr2D(pos, v[j], v[k])
			if d < minDistSqr {
				minDistSqr = d
				minT = segT
				segStart, segEnd = v[j], v[k]
				found = true
			}
		}
	}
	if !found {
		return pos
	}
	return geom.Lerp(segStart, segEnd, minT)
}

func (t *Tile) closestPointOnPoly(ip int, pos mgl32.Vec3) (mgl32.Vec3, bool) {
	closest := pos
	if h, ok := t.polyHeight(ip, pos); ok {
		closest[1] = h
		return closest, true
	}
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection {
		v0, v1 := t.Verts[poly.Verts[0]], t.Verts[poly.Verts[1]]
		_, segT := geom.DistancePtSegSqr2D(pos, v0, v1)
		return geom.Lerp(v0, v1, segT), false
	}
	return t.closestPointOnDetailEdges(ip, pos, true), false
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
		if len(t.BVTree) > 0 {
			tbmin, tbmax := t.Header.BMin, t.Header.BMax
			qfac := t.Header.BVQuantFactor
			var bmin, bmax [3]uint16
			for i := range 3 {
				lo := geom.Clamp(qmin[i], tbmin[i], tbmax[i]) - tbmin[i]
				hi := geom.Clamp(qmax[i], tbmin[i], tbmax[i]) - tbmin[i]
				bmin[i] = quantize(qfac*lo) & 0xfffe
				bmax[i] = quantize(qfac*hi+1) | 1
			}
			for i := 0; i < len(t.BVTree); {
				node := &t.BVTree[i]
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
