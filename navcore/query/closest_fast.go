package query

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// closestOnPoly is navmesh.Tile.ClosestPointOnPoly for the nearest-polygon
// search, where it takes most of the time: the same float32 operations in
// the same order (TestClosestOnPolyMatchesNavmesh compares every bit),
// written on register-friendly points instead of arrays. ip is the polygon's
// index in tile.
func closestOnPoly(tile *navmesh.Tile, ip uint32, pos point) (closest point, posOverPoly bool) {
	poly := &tile.Polys[ip]
	verts := tile.Verts
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		v0 := toPoint(verts[poly.Verts[0]])
		v1 := toPoint(verts[poly.Verts[1]])
		_, t := distancePtSegSqr2D(pos, v0, v1)
		return lerpPoint(v0, v1, t), false
	}
	indices := poly.Verts[:min(int(poly.VertCount), len(poly.Verts))]
	if pointInPoly(pos, verts, indices) {
		pos.y = heightInside(tile, ip, poly, pos)
		return pos, true
	}
	return closestOnDetailEdges(tile, ip, poly, pos, true), false
}

// pointInPoly is geom.PointInPolygon on the polygon with the given vertex
// indices.
func pointInPoly(pt point, verts []geom.Vec3, indices []uint16) bool {
	inside := false
	n := len(indices)
	if n == 0 {
		return false
	}
	vj := toPoint(verts[indices[n-1]])
	for _, idx := range indices {
		vi := toPoint(verts[idx])
		if (vi.z > pt.z) != (vj.z > pt.z) &&
			pt.x < (vj.x-vi.x)*(pt.z-vi.z)/(vj.z-vi.z)+vi.x {
			inside = !inside
		}
		vj = vi
	}
	return inside
}

// detailVertex returns vertex i of one of poly's detail triangles.
func detailVertex(tile *navmesh.Tile, poly *navmesh.Poly, detail *navmesh.PolyDetail, i uint8) point {
	if i < poly.VertCount {
		return toPoint(tile.Verts[poly.Verts[i]])
	}
	return toPoint(tile.DetailVerts[detail.VertBase+uint32(i-poly.VertCount)])
}

// heightInside is the detail height at pos, known to lie inside poly seen
// from above (dtNavMesh::getPolyHeight after its inside test).
func heightInside(tile *navmesh.Tile, ip uint32, poly *navmesh.Poly, pos point) float32 {
	detail := &tile.DetailMeshes[ip]
	tris := tile.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)]
	for i := range tris {
		tri := &tris[i]
		a := detailVertex(tile, poly, detail, tri[0])
		b := detailVertex(tile, poly, detail, tri[1])
		c := detailVertex(tile, poly, detail, tri[2])
		if h, ok := closestHeightOnTriangle(pos, a, b, c); ok {
			return h
		}
	}
	// Every triangle missed (degenerate or huge coordinates): pos is on an
	// edge; take the nearest one's height.
	return closestOnDetailEdges(tile, ip, poly, pos, false).y
}

// closestHeightOnTriangle is geom.ClosestHeightOnTriangle on points.
func closestHeightOnTriangle(p, a, b, c point) (float32, bool) {
	const eps = float32(1e-6)
	v0x, v0y, v0z := c.x-a.x, c.y-a.y, c.z-a.z
	v1x, v1y, v1z := b.x-a.x, b.y-a.y, b.z-a.z
	v2x, v2z := p.x-a.x, p.z-a.z
	denom := v0x*v1z - v0z*v1x
	if geom.Abs(denom) < eps {
		return 0, false
	}
	u := v1z*v2x - v1x*v2z
	v := v0x*v2z - v0z*v2x
	if denom < 0 {
		denom, u, v = -denom, -u, -v
	}
	if u >= 0 && v >= 0 && u+v <= denom {
		return a.y + (v0y*u+v1y*v)/denom, true
	}
	return 0, false
}

// anyBoundaryEdge selects detail triangles with an edge on the polygon
// boundary.
const anyBoundaryEdge = navmesh.DetailEdgeBoundary | navmesh.DetailEdgeBoundary<<2 | navmesh.DetailEdgeBoundary<<4

// closestOnDetailEdges is the point of poly's detail edges (only those on
// the polygon boundary with onlyBoundary) closest to pos seen from above;
// pos itself when there are none.
func closestOnDetailEdges(tile *navmesh.Tile, ip uint32, poly *navmesh.Poly, pos point, onlyBoundary bool) point {
	detail := &tile.DetailMeshes[ip]
	tris := tile.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)]
	minDistSqr := float32(math.MaxFloat32)
	var minT float32
	var segStart, segEnd point
	found := false
	for i := range tris {
		tri := &tris[i]
		if onlyBoundary && tri[3]&anyBoundaryEdge == 0 {
			continue
		}
		v := [3]point{
			detailVertex(tile, poly, detail, tri[0]),
			detailVertex(tile, poly, detail, tri[1]),
			detailVertex(tile, poly, detail, tri[2]),
		}
		for k, j := 0, 2; k < 3; j, k = k, k+1 {
			if (tri[3]>>(j*2))&navmesh.DetailEdgeBoundary == 0 && (onlyBoundary || tri[j] < tri[k]) {
				continue
			}
			d, t := distancePtSegSqr2D(pos, v[j], v[k])
			if d < minDistSqr {
				minDistSqr = d
				minT = t
				segStart, segEnd = v[j], v[k]
				found = true
			}
		}
	}
	if !found {
		return pos
	}
	return lerpPoint(segStart, segEnd, minT)
}

// distancePtSegSqr2D is geom.DistancePtSegSqr2D on points.
func distancePtSegSqr2D(pt, p, q point) (distSqr, t float32) {
	pqx := q.x - p.x
	pqz := q.z - p.z
	dx := pt.x - p.x
	dz := pt.z - p.z
	d := pqx*pqx + pqz*pqz
	t = pqx*dx + pqz*dz
	if d > 0 {
		t /= d
	}
	if t < 0 {
		t = 0
	} else if t > 1 {
		t = 1
	}
	dx = p.x + t*pqx - pt.x
	dz = p.z + t*pqz - pt.z
	return dx*dx + dz*dz, t
}

// lerpPoint is dtVlerp on points.
func lerpPoint(a, b point, t float32) point {
	return point{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t, a.z + (b.z-a.z)*t}
}
