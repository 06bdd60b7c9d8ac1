package query

import (
	"math"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// RaycastOptions tune Raycast.
type RaycastOptions uint8

const (
	// RaycastUseCosts makes Raycast add up the filter cost along the ray
	// into RaycastHit.PathCost (DT_RAYCAST_USE_COSTS).
	RaycastUseCosts RaycastOptions = 0x01
)

// RaycastHit is the answer of Raycast (dtRaycastHit).
type RaycastHit struct {
	// T is where the ray stopped as a fraction of start→end: the wall hit
	// is at start + (end-start)*T. It is math.MaxFloat32 when the ray reached
	// the end position without hitting a wall, 0 when the start position is
	// outside the start polygon.
	T float32
	// HitNormal is the unit normal of the wall hit, in the xz-plane; zero
	// when nothing was hit.
	HitNormal geom.Vec3
	// HitEdgeIndex is the edge of the last polygon visited through which the
	// ray left it, -1 when it ended inside it.
	HitEdgeIndex int
	// PathCount is how many polygons were written into the path buffer.
	PathCount int
	// PathCost is the filter cost along the ray, with RaycastUseCosts.
	PathCost float32
}

// Raycast walks the polygons under the segment startPos→endPos, seen from
// above, from startRef until it reaches endPos or hits a wall or a polygon
// filter rejects (dtNavMeshQuery::raycast, 1.6.0 form). It is meant for short
// line-of-sight checks on the surface, not for a 3D ray: heights are
// ignored.
//
// The polygons crossed are written into path, and len(path) bounds the walk:
// when the buffer is full the ray stops there with StatusBufferTooSmall and
// StatusPartial, so an empty buffer checks the start polygon only. prevRef,
// when not 0, is the polygon before startRef, for the cost of the first step.
//
// The hit is written in place into the named result: a local hit copied out
// at the return would read its 4-byte fields back with 16-byte moves, a
// store-forwarding stall on every call.
func (q *Query) Raycast(startRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, options RaycastOptions, prevRef navmesh.Ref, path []navmesh.Ref) (hit RaycastHit, status Status, err error) {
	snap := q.mesh.Snapshot()
	tile, poly, err := snap.TileAndPoly(startRef)
	if err != nil {
		return RaycastHit{}, 0, checkRef(snap, "raycast: start ref", startRef)
	}
	if prevRef != 0 {
		if err := checkRef(snap, "raycast: previous ref", prevRef); err != nil {
			return RaycastHit{}, 0, err
		}
	}
	if !geom.IsFinite(startPos) {
		return RaycastHit{}, 0, checkPos("raycast: start position", startPos) // only here: checkPos is too big to inline
	}
	if !geom.IsFinite(endPos) {
		return RaycastHit{}, 0, checkPos("raycast: end position", endPos) // only here: checkPos is too big to inline
	}
	// Only costs read the area costs; otherwise the filter just must be
	// there (checkFilter, called only to build its error: no call a ray).
	if options&RaycastUseCosts != 0 {
		if err := checkCostFilter(filter); err != nil {
			return RaycastHit{}, 0, err
		}
	} else if filter == nil {
		return RaycastHit{}, 0, checkFilter(filter)
	}
	status = q.raycastFrom(&hit, snap, tile, poly, startRef, startPos, endPos, filter, options, path, prevRef)
	return hit, status, nil
}

// raycast is Raycast after validation of the positions and filter. Invalid
// refs give an empty hit.
func (q *Query) raycast(snap *navmesh.Snapshot, startRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, options RaycastOptions, path []navmesh.Ref, prevRef navmesh.Ref) (hit RaycastHit, status Status) {
	tile, poly, err := snap.TileAndPoly(startRef)
	if err != nil {
		return RaycastHit{HitEdgeIndex: -1}, 0
	}
	status = q.raycastFrom(&hit, snap, tile, poly, startRef, startPos, endPos, filter, options, path, prevRef)
	return hit, status
}

// raycastFrom is raycast from startRef's tile and polygon, already looked
// up, writing the hit into *hit (a pointer: the hit is large, and it saves
// a copy on the way out). The hit's fields live in locals during the walk
// and are written once, field by field, at the end: no stores and loads
// through the pointer a polygon, and no wide copy of narrow stores.
func (q *Query) raycastFrom(hit *RaycastHit, snap *navmesh.Snapshot, tile *navmesh.Tile, poly *navmesh.Poly, startRef navmesh.Ref, startPos, endPos geom.Vec3, filter *Filter, options RaycastOptions, path []navmesh.Ref, prevRef navmesh.Ref) Status {
	if prevRef != 0 && !snap.IsValid(prevRef) {
		*hit = RaycastHit{HitEdgeIndex: -1}
		return 0
	}

	// The ray's start and direction in the xz-plane as scalars, passed to
	// the clip in registers rather than read from the arrays.
	sx, sz := startPos[0], startPos[2]
	dx, dz := endPos[0]-sx, endPos[2]-sz

	n := 0
	var status Status
	hitT, hitEdge, pathCost := float32(0), -1, float32(0)
	var normalX, normalY, normalZ float32
	curPos := startPos

	curRef := startRef
	flat := snap.TileSlots()
	prevTile, prevPoly := tile, poly
	nextTile, nextPoly := tile, poly
	if prevRef != 0 {
		prevTile, prevPoly = snap.TileAndPolyUnchecked(prevRef)
	}

	for curRef != 0 {
		// Clip the ray against the current polygon.
		nv := int(poly.VertCount)
		if nv < 3 || nv > len(poly.Verts) {
			break
		}
		// The polygon's first link is copied before the clip, which does not
		// need it: on a large level the link array is often not in the
		// cache, and the miss then overlaps the clip's arithmetic instead
		// of starting after it.
		links, first := tile.Links, poly.FirstLink
		var head navmesh.Link
		if first != navmesh.NullLink {
			head = links[first]
		}
		tMax, segMax, ok := clipXZ(poly.Verts[:nv], tile.Verts, sx, sz, dx, dz)
		if !ok {
			break
		}
		hitEdge = segMax
		if tMax > hitT {
			hitT = tMax
		}
		if n < len(path) {
			path[n] = curRef
			n++
		} else {
			status |= StatusBufferTooSmall
		}

		if segMax == -1 {
			// The ray ends inside this polygon.
			hitT = math.MaxFloat32
			if options&RaycastUseCosts != 0 {
				pathCost += filter.cost(&curPos, &endPos, prevRef, prevTile, prevPoly, curRef, tile, poly, curRef, tile, poly)
			}
			break
		}

		// Follow the link across the exit edge, if any.
		var nextRef navmesh.Ref
		for i, link := first, &head; i != navmesh.NullLink; link = nil {
			if link == nil {
				link = &links[i]
			}
			i = link.Next
			if int(link.Edge) != segMax || link.Ref == 0 {
				continue
			}
			// Most links stay in the tile: no lookup needed then (links only
			// name polygons of their own snapshot).
			if link.Ref.TileIndex() == curRef.TileIndex() {
				nextTile, nextPoly = tile, &tile.Polys[link.Ref.PolyIndex()]
			} else if nextTile = flatTile(flat, link.Ref); nextTile != nil && link.Ref.PolyIndex() < uint32(len(nextTile.Polys)) {
				nextPoly = &nextTile.Polys[link.Ref.PolyIndex()]
			} else {
				nextTile, nextPoly = snap.TileAndPolyUnchecked(link.Ref)
			}
			if nextPoly.Type() == navmesh.PolyTypeOffMeshConnection {
				continue
			}
			if filter.Custom != nil {
				if !filter.Passes(link.Ref, nextTile, nextPoly) {
					continue
				}
			} else if nextPoly.Flags&filter.IncludeFlags == 0 || nextPoly.Flags&filter.ExcludeFlags != 0 {
				continue
			}
			// Inside the tile, and whole-edge border links, always lead on.
			if link.Side == 0xff || (link.BMin == 0 && link.BMax == 255) {
				nextRef = link.Ref
				break
			}
			// A partial border link leads on only where the ray crosses it.
			v0 := poly.Verts[link.Edge]
			v1 := poly.Verts[nextVert(int(link.Edge), int(poly.VertCount))]
			left := tile.Verts[v0]
			right := tile.Verts[v1]
			// Sides 0 and 4 (x borders) bound the link along z, 2 and 6 along x.
			var axis int
			switch link.Side {
			case 0, 4:
				axis = 2
			case 2, 6:
				axis = 0
			default:
				continue
			}
			const s = float32(1.0 / 255.0)
			lmin := left[axis] + float32((right[axis]-left[axis])*(float32(link.BMin)*s))
			lmax := left[axis] + float32((right[axis]-left[axis])*(float32(link.BMax)*s))
			if lmin > lmax {
				lmin, lmax = lmax, lmin
			}
			// nextRef is set only on the way out: not carried round the loop.
			if c := startPos[axis] + float32((endPos[axis]-startPos[axis])*tMax); c >= lmin && c <= lmax {
				nextRef = link.Ref
				break
			}
		}

		if options&RaycastUseCosts != 0 {
			// The cost of the step to the exit point, at the edge's height.
			lastPos := curPos
			curPos = geom.Vec3{sx + float32(dx*hitT), startPos[1] + float32((endPos[1]-startPos[1])*hitT), sz + float32(dz*hitT)}
			e1 := fastgeom.Load(&tile.Verts[poly.Verts[segMax]])
			e2 := fastgeom.Load(&tile.Verts[poly.Verts[nextVert(segMax, nv)]])
			eDirX, eDirY, eDirZ := e2.X-e1.X, e2.Y-e1.Y, e2.Z-e1.Z
			var s float32
			if eDirX*eDirX > eDirZ*eDirZ {
				s = (curPos[0] - e1.X) / eDirX
			} else {
				s = (curPos[2] - e1.Z) / eDirZ
			}
			curPos[1] = e1.Y + float32(eDirY*s)
			pathCost += filter.cost(&lastPos, &curPos, prevRef, prevTile, prevPoly, curRef, tile, poly, nextRef, nextTile, nextPoly)
		}

		if nextRef == 0 {
			// Hit a wall: report the edge's normal.
			a := segMax
			b := 0
			if segMax+1 < nv {
				b = segMax + 1
			}
			va := &tile.Verts[poly.Verts[a]]
			vb := &tile.Verts[poly.Verts[b]]
			ex := vb[0] - va[0]
			ez := vb[2] - va[2]
			normalX, normalY, normalZ = normalize3(ez, 0, -ex)
			break
		}

		prevRef, curRef = curRef, nextRef
		prevTile, tile = tile, nextTile
		prevPoly, poly = poly, nextPoly

		if status&StatusBufferTooSmall != 0 {
			status |= StatusPartial
			break
		}
	}
	hit.T = hitT
	hit.HitNormal[0], hit.HitNormal[1], hit.HitNormal[2] = normalX, normalY, normalZ
	hit.HitEdgeIndex = hitEdge
	hit.PathCount = n
	hit.PathCost = pathCost
	return status
}

// clipXZ clips the ray from (sx, sz) along (dx, dz) against the polygon of
// the vertices verts[idx[i]], seen from above: Detour's
// dtIntersectSegmentPoly2D, the same float32 values, reading the vertices in
// place and leaving out what Raycast does not read (the entry edge). It
// returns the exit parameter, the exit edge (-1 when the ray ends inside)
// and false when the ray misses the polygon (starts outside it). idx has at
// least 3 entries.
//
// Whether an edge is entered, left or parallel to the ray is the sign of
// den, which no branch predictor guesses (it depends on the ray's
// direction): so the loop has no branch on it. Each edge's t goes into
// both bounds through masks, as a value that changes nothing where it does
// not apply, and the two ways Detour gives up early (a parallel edge with
// the start outside, tMin past tMax) are tested once at the end, which is
// the same answer since tMin only grows and tMax only shrinks. Both bounds
// are kept as the bits of an int32, whose order is the floats' order for
// floats >= +0, with every negative float (-0 included) below them:
//   - tMin = max(tMin, t) over entering edges (+0 elsewhere): tMin >= +0,
//     and a t below it changes it in neither order;
//   - tMax = min(tMax, t) over leaving edges (+Inf elsewhere), and the exit
//     edge where t < tMax, Detour's compare; t + 0 turns -0 into +0, which
//     compares the same as floats and keeps the int32 order right. A
//     negative tMax means the ray misses (tMin >= 0 is past it), and it
//     stays negative, so the order among negatives never matters.
func clipXZ(idx []uint16, verts []geom.Vec3, sx, sz, dx, dz float32) (tMax float32, segMax int, ok bool) {
	const eps = float32(0.000001)
	const inf = 0x7f800000 // +Inf's bits
	nv := len(idx)
	tMinBits, tMaxBits := int32(0), int32(math.Float32bits(1))
	// exit is 1 + the index of the vertex that ends the exit edge (the
	// edge from vertex exit-2, or nv-1 for exit 1), 0 for none.
	exit := 0
	var outside uint32 // a parallel edge with the start on its outer side
	vj := &verts[idx[nv-1]]
	vjx, vjz := vj[0], vj[2]
	for i, k := range idx {
		vi := &verts[k]
		vix, viz := vi[0], vi[2]
		edgeX, edgeZ := vix-vjx, viz-vjz
		diffX, diffZ := sx-vjx, sz-vjz
		vjx, vjz = vix, viz
		num := float32(edgeZ*diffX) - float32(edgeX*diffZ)
		den := float32(dz*edgeX) - float32(dx*edgeZ)
		t := math.Float32bits(num/den + 0)
		var enter, leave, parallel uint32
		if den <= -eps {
			enter = ^uint32(0)
		}
		if den >= eps {
			leave = ^uint32(0)
		}
		// A NaN t (a far start: both of num's products overflow) fails
		// Detour's compares of t, so it must change neither bound, whatever
		// its bits say as an int32: nan is all ones for one (its bits
		// without the sign are above +Inf's), found without a branch.
		nan := uint32(int32(inf-t&^(1<<31)) >> 31)
		enter &^= nan
		leave &^= nan
		// Detour's |den| < eps, which a NaN den (a far end: both products
		// overflow) fails as it fails the two compares above: no change.
		if math.Float32frombits(math.Float32bits(den)&^(1<<31)) < eps && num < 0 {
			parallel = 1
		}
		outside |= parallel
		tMinBits = max(tMinBits, int32(t&enter))
		if tOut := int32(t&leave | inf&^leave); tOut < tMaxBits {
			tMaxBits = tOut
			exit = i + 1
		}
	}
	tMax = math.Float32frombits(uint32(tMaxBits))
	if outside != 0 || math.Float32frombits(uint32(tMinBits)) > tMax {
		return 0, 0, false
	}
	switch exit {
	case 0:
		segMax = -1
	case 1:
		segMax = nv - 1
	default:
		segMax = exit - 2
	}
	return tMax, segMax, true
}

// normalize3 is dtVnormalize on the components of a vector: scalars in
// registers, not an array built in memory and read back.
func normalize3(x, y, z float32) (float32, float32, float32) {
	d := 1 / geom.Sqrt(float32(x*x)+float32(y*y)+float32(z*z))
	return x * d, y * d, z * d
}

// normalize is dtVnormalize.
func normalize(v geom.Vec3) geom.Vec3 {
	x, y, z := normalize3(v[0], v[1], v[2])
	return geom.Vec3{x, y, z}
}
