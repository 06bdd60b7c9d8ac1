package query

import (
	"fmt"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// ClosestPointOnPoly returns the point of polygon ref closest to pos, on the
// detail surface, and whether pos lies over the polygon (inside it seen from
// above; the point then keeps pos's x and z).
func (q *Query) ClosestPointOnPoly(ref navmesh.Ref, pos geom.Vec3) (closest geom.Vec3, posOverPoly bool, err error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "closest point on poly: ref", ref); err != nil {
		return geom.Vec3{}, false, err
	}
	if err := checkPos("closest point on poly: position", pos); err != nil {
		return geom.Vec3{}, false, err
	}
	tile, poly := snap.TileAndPolyUnchecked(ref)
	closest, posOverPoly = tile.ClosestPointOnPoly(poly, pos)
	return closest, posOverPoly, nil
}

// ClosestPointOnPolyBoundary returns pos itself when it lies inside polygon
// ref seen from above, else the closest point on the polygon's edges. It
// works on the polygon's own vertices, ignoring the detail mesh, which makes
// it much cheaper than ClosestPointOnPoly.
func (q *Query) ClosestPointOnPolyBoundary(ref navmesh.Ref, pos geom.Vec3) (geom.Vec3, error) {
	return closestPointOnPolyBoundary(q.mesh.Snapshot(), ref, pos)
}

func closestPointOnPolyBoundary(snap *navmesh.Snapshot, ref navmesh.Ref, pos geom.Vec3) (geom.Vec3, error) {
	tile, poly, err := snap.TileAndPoly(ref)
	if err != nil {
		return geom.Vec3{}, fmt.Errorf("query: closest point on poly boundary: %w", err)
	}
	if err := checkPos("closest point on poly boundary: position", pos); err != nil {
		return geom.Vec3{}, err
	}
	return boundaryPoint(tile, poly, pos), nil
}

// boundaryPoint is the body of closestPointOnPolyBoundary for a known
// polygon (geom.DistancePtPolyEdgesSqr and the pick of the nearest edge).
func boundaryPoint(tile *navmesh.Tile, poly *navmesh.Poly, pos geom.Vec3) geom.Vec3 {
	var verts [navmesh.MaxVertsPerPoly]fastgeom.Point
	var edgeDistSqr, edgeT [navmesh.MaxVertsPerPoly]float32
	nv := min(int(poly.VertCount), navmesh.MaxVertsPerPoly)
	if nv == 0 {
		return pos
	}
	for i := 0; i < nv; i++ {
		verts[i] = fastgeom.Load(&tile.Verts[poly.Verts[i]])
	}
	pt := fastgeom.FromVec3(pos)
	inside := false
	for i, j := 0, nv-1; i < nv; j, i = i, i+1 {
		vi, vj := verts[i], verts[j]
		if (vi.Z > pt.Z) != (vj.Z > pt.Z) &&
			pt.X < (vj.X-vi.X)*(pt.Z-vi.Z)/(vj.Z-vi.Z)+vi.X {
			inside = !inside
		}
		edgeDistSqr[j], edgeT[j] = fastgeom.DistancePtSegSqr2D(pt, vj, vi)
	}
	if inside {
		return pos
	}
	dmin := edgeDistSqr[0]
	imin := 0
	for i := 1; i < nv; i++ {
		if edgeDistSqr[i] < dmin {
			dmin = edgeDistSqr[i]
			imin = i
		}
	}
	return fastgeom.Lerp(verts[imin], verts[nextVert(imin, nv)], edgeT[imin]).Vec3()
}

// PolyHeight returns the height of polygon ref's detail surface at pos's x
// and z. For an off-mesh connection it interpolates between its end points.
// A position outside the polygon, seen from above, is ErrInvalidParam; that
// error is prepared once, so asking about such positions does not allocate.
func (q *Query) PolyHeight(ref navmesh.Ref, pos geom.Vec3) (float32, error) {
	snap := q.mesh.Snapshot()
	tile, poly, err := snap.TileAndPoly(ref)
	if err != nil {
		return 0, fmt.Errorf("query: poly height: %w", err)
	}
	if !geom.IsFinite2D(pos) {
		return 0, fmt.Errorf("query: poly height: position %v is not finite: %w", pos, ErrInvalidParam)
	}
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		v0 := tile.Verts[poly.Verts[0]]
		v1 := tile.Verts[poly.Verts[1]]
		_, t := geom.DistancePtSegSqr2D(pos, v0, v1)
		return v0[1] + float32((v1[1]-v0[1])*t), nil
	}
	h, ok := tile.PolyHeight(poly, pos)
	if !ok {
		return 0, errOutsidePoly
	}
	return h, nil
}

// errOutsidePoly is PolyHeight's error for a position outside the polygon.
var errOutsidePoly = fmt.Errorf("query: poly height: position outside the polygon: %w", ErrInvalidParam)

// lerp is dtVlerp: a + (b-a)*t per component.
func lerp(a, b geom.Vec3, t float32) geom.Vec3 {
	return geom.Vec3{a[0] + float32((b[0]-a[0])*t), a[1] + float32((b[1]-a[1])*t), a[2] + float32((b[2]-a[2])*t)}
}
