package query

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// WallSegment is one piece of a polygon's edge.
type WallSegment struct {
	// Start and End are the segment's ends, in the polygon's winding
	// [Units: world units]
	Start, End geom.Vec3
	// Neighbour is the polygon across the segment for a portal, 0 for a wall.
	Neighbour navmesh.Ref
}

// maxEdgeIntervals bounds how many links along one polygon edge
// PolyWallSegments tells apart (MAX_INTERVAL).
const maxEdgeIntervals = 16

// segmentInterval is the part of an edge one link covers, in 1/255ths.
type segmentInterval struct {
	ref        navmesh.Ref
	tmin, tmax int16
}

// PolyWallSegments writes the wall segments of polygon ref into segments:
// its edges, or the parts of them, with no neighbour that filter passes
// (dtNavMeshQuery::getPolyWallSegments). With withPortals it also writes the
// portals, with their Neighbour set. It returns how many segments it wrote;
// when segments fills up the rest is dropped with StatusBufferTooSmall.
func (q *Query) PolyWallSegments(ref navmesh.Ref, filter *Filter, withPortals bool, segments []WallSegment) (int, Status, error) {
	snap := q.mesh.Snapshot()
	tile, poly, err := snap.TileAndPoly(ref)
	if err != nil {
		return 0, 0, fmt.Errorf("query: poly wall segments: %w", err)
	}
	if err := checkFilter(filter); err != nil {
		return 0, 0, err
	}
	if len(segments) == 0 {
		return 0, 0, fmt.Errorf("query: poly wall segments: empty segment buffer: %w", ErrBufferTooSmall)
	}

	n := 0
	var status Status
	add := func(start, end geom.Vec3, neighbour navmesh.Ref) {
		if n < len(segments) {
			segments[n] = WallSegment{Start: start, End: end, Neighbour: neighbour}
			n++
		} else {
			status |= StatusBufferTooSmall
		}
	}

	var intervals [maxEdgeIntervals]segmentInterval
	links := tile.Links
	nv := int(poly.VertCount)
	for i, j := 0, nv-1; i < nv; j, i = i, i+1 {
		count := 0
		if poly.Neighbours[j]&navmesh.ExternalLink != 0 {
			// A tile border edge: collect the parts its links cover.
			for k := poly.FirstLink; k != navmesh.NullLink; k = links[k].Next {
				link := &links[k]
				if int(link.Edge) != j || link.Ref == 0 {
					continue
				}
				neiTile, neiPoly := snap.TileAndPolyUnchecked(link.Ref)
				if filter.Passes(link.Ref, neiTile, neiPoly) {
					count = insertInterval(&intervals, count, int16(link.BMin), int16(link.BMax), link.Ref)
				}
			}
		} else {
			// An inner edge: all wall or all portal.
			var neiRef navmesh.Ref
			if poly.Neighbours[j] != 0 {
				idx := uint32(poly.Neighbours[j] - 1)
				neiRef = tile.PolyRefBase() | navmesh.Ref(idx)
				if !filter.Passes(neiRef, tile, &tile.Polys[idx]) {
					neiRef = 0
				}
			}
			if neiRef != 0 && !withPortals {
				continue
			}
			add(tile.Verts[poly.Verts[j]], tile.Verts[poly.Verts[i]], neiRef)
			continue
		}

		// Sentinels at both ends, then emit the links and the gaps between.
		count = insertInterval(&intervals, count, -1, 0, 0)
		count = insertInterval(&intervals, count, 255, 256, 0)
		vj := tile.Verts[poly.Verts[j]]
		vi := tile.Verts[poly.Verts[i]]
		for k := 1; k < count; k++ {
			if withPortals && intervals[k].ref != 0 {
				tmin := float32(intervals[k].tmin) / 255
				tmax := float32(intervals[k].tmax) / 255
				add(lerp(vj, vi, tmin), lerp(vj, vi, tmax), intervals[k].ref)
			}
			gapMin := int(intervals[k-1].tmax)
			gapMax := int(intervals[k].tmin)
			if gapMin != gapMax {
				tmin := float32(gapMin) / 255
				tmax := float32(gapMax) / 255
				add(lerp(vj, vi, tmin), lerp(vj, vi, tmax), 0)
			}
		}
	}
	return n, status, nil
}

// insertInterval adds an interval to the list sorted on tmin, dropping it
// when the list is full, and returns the new count.
func insertInterval(intervals *[maxEdgeIntervals]segmentInterval, count int, tmin, tmax int16, ref navmesh.Ref) int {
	if count+1 > maxEdgeIntervals {
		return count
	}
	idx := 0
	for idx < count && tmax > intervals[idx].tmin {
		idx++
	}
	copy(intervals[idx+1:count+1], intervals[idx:count])
	intervals[idx] = segmentInterval{ref: ref, tmin: tmin, tmax: tmax}
	return count + 1
}

// WallHit is the answer of FindDistanceToWall.
type WallHit struct {
	// Distance to the nearest wall, or the search radius when no wall is
	// within it [Units: world units]
	Distance float32
	// Pos is the nearest wall point; zero when no wall is within the radius.
	Pos geom.Vec3
	// Normal points from the wall point towards the center, unit length in
	// 3D; zero when no wall is within the radius.
	Normal geom.Vec3
}

// FindDistanceToWall finds the wall nearest to center, seen from above,
// within maxRadius, searching outwards from startRef through the polygons
// filter passes (dtNavMeshQuery::findDistanceToWall). Edges to polygons
// filter rejects count as walls.
//
// maxRadius [Limit: >= 0] [Units: world units]
func (q *Query) FindDistanceToWall(startRef navmesh.Ref, center geom.Vec3, maxRadius float32, filter *Filter) (WallHit, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find distance to wall: start ref", startRef); err != nil {
		return WallHit{}, 0, err
	}
	if err := checkPos("find distance to wall: center", center); err != nil {
		return WallHit{}, 0, err
	}
	if err := checkRadius("find distance to wall: radius", maxRadius); err != nil {
		return WallHit{}, 0, err
	}
	if err := checkFilter(filter); err != nil {
		return WallHit{}, 0, err
	}

	pool := q.nodes
	open := q.open
	q.startSearch(startRef, center, 0)

	radiusSqr := maxRadius * maxRadius
	var hitPos geom.Vec3
	found := false
	var status Status

	for !open.empty() {
		bestNode := open.closeCheapest()

		bestRef := bestNode.ref
		bestTile, bestPoly := snap.TileAndPolyUnchecked(bestRef)
		parentRef := pool.refAt(bestNode.parent)

		// Test the polygon's walls.
		links := bestTile.Links
		nv := int(bestPoly.VertCount)
		for i, j := 0, nv-1; i < nv; j, i = i, i+1 {
			if bestPoly.Neighbours[j]&navmesh.ExternalLink != 0 {
				// A border edge is solid unless its first link passes.
				solid := true
				for k := bestPoly.FirstLink; k != navmesh.NullLink; k = links[k].Next {
					link := &links[k]
					if int(link.Edge) == j {
						if link.Ref != 0 {
							neiTile, neiPoly := snap.TileAndPolyUnchecked(link.Ref)
							if filter.Passes(link.Ref, neiTile, neiPoly) {
								solid = false
							}
						}
						break
					}
				}
				if !solid {
					continue
				}
			} else if bestPoly.Neighbours[j] != 0 {
				idx := uint32(bestPoly.Neighbours[j] - 1)
				ref := bestTile.PolyRefBase() | navmesh.Ref(idx)
				if filter.Passes(ref, bestTile, &bestTile.Polys[idx]) {
					continue
				}
			}

			vj := bestTile.Verts[bestPoly.Verts[j]]
			vi := bestTile.Verts[bestPoly.Verts[i]]
			distSqr, t := geom.DistancePtSegSqr2D(center, vj, vi)
			if distSqr > radiusSqr {
				continue
			}
			radiusSqr = distSqr
			found = true
			hitPos = geom.Vec3{vj[0] + float32((vi[0]-vj[0])*t), vj[1] + float32((vi[1]-vj[1])*t), vj[2] + float32((vi[2]-vj[2])*t)}
		}

		for i := bestPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			link := &links[i]
			neighbourRef := link.Ref
			if neighbourRef == 0 || neighbourRef == parentRef {
				continue
			}
			neighbourTile, neighbourPoly := snap.TileAndPolyUnchecked(neighbourRef)
			if neighbourPoly.Type() == navmesh.PolyTypeOffMeshConnection {
				continue
			}
			// Expand only through edges within the current radius.
			va := bestTile.Verts[bestPoly.Verts[link.Edge]]
			vb := bestTile.Verts[bestPoly.Verts[nextVert(int(link.Edge), nv)]]
			if distSqr, _ := geom.DistancePtSegSqr2D(center, va, vb); distSqr > radiusSqr {
				continue
			}
			if !filter.Passes(neighbourRef, neighbourTile, neighbourPoly) {
				continue
			}
			neighbourNode := pool.get(neighbourRef, 0)
			if neighbourNode == nil {
				status |= StatusOutOfNodes
				continue
			}
			if neighbourNode.flags&nodeClosed != 0 {
				continue
			}
			if neighbourNode.flags == 0 {
				if mid, ok := edgeMidPoint(bestRef, bestPoly, bestTile, neighbourRef, neighbourPoly, neighbourTile); ok {
					neighbourNode.pos = mid
				}
			}
			total := bestNode.total + dist(bestNode.pos, neighbourNode.pos)
			q.reachAtTotal(neighbourNode, bestNode, total)
		}
	}

	hit := WallHit{Distance: geom.Sqrt(radiusSqr)}
	if found {
		hit.Pos = hitPos
		hit.Normal = normalize(geom.Vec3{center[0] - hitPos[0], center[1] - hitPos[1], center[2] - hitPos[2]})
	}
	return hit, status, nil
}
