package query

import (
	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// FindLocalNeighbourhood finds the polygons near startRef whose portals
// touch the circle center/radius and that do not overlap each other seen
// from above, for local steering (dtNavMeshQuery::findLocalNeighbourhood). It
// looks at no more than 64 polygons. It writes the polygons into refs and,
// when not nil, the polygon each was reached from into parents (at least as
// long as refs). When refs fills up the rest is dropped with
// StatusBufferTooSmall.
//
// radius [Limit: >= 0] [Units: world units]
func (q *Query) FindLocalNeighbourhood(startRef navmesh.Ref, center geom.Vec3, radius float32, filter *Filter, refs, parents []navmesh.Ref) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if err := checkRef(snap, "find local neighbourhood: start ref", startRef); err != nil {
		return 0, 0, err
	}
	if err := checkPos("find local neighbourhood: center", center); err != nil {
		return 0, 0, err
	}
	if err := checkRadius("find local neighbourhood: radius", radius); err != nil {
		return 0, 0, err
	}
	if err := checkFilter(filter); err != nil {
		return 0, 0, err
	}
	if err := checkResultBuffers("find local neighbourhood", refs, parents, nil); err != nil {
		return 0, 0, err
	}

	pool := q.tinyNodes
	queue := q.startLocalSearch(startRef)

	radiusSqr := radius * radius
	centerPoint := fastgeom.FromVec3(center)
	var pa, pb [navmesh.MaxVertsPerPoly]fastgeom.Point
	var status Status

	n := 0
	refs[n] = startRef
	if parents != nil {
		parents[n] = 0
	}
	n++

	for !queue.empty() {
		curNode := queue.pop()

		curRef := curNode.ref
		curTile, curPoly := snap.TileAndPolyUnchecked(curRef)
		links := curTile.Links
		for i := curPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			neighbourRef := links[i].Ref
			if neighbourRef == 0 {
				continue
			}
			neighbourNode := pool.get(neighbourRef, 0)
			if neighbourNode == nil || neighbourNode.flags&nodeClosed != 0 {
				continue
			}
			neighbourTile, neighbourPoly := snap.TileAndPolyUnchecked(neighbourRef)
			if neighbourPoly.Type() == navmesh.PolyTypeOffMeshConnection {
				continue
			}
			if !filter.Passes(neighbourRef, neighbourTile, neighbourPoly) {
				continue
			}
			va, vb, ok := portal(curRef, curPoly, curTile, neighbourRef, neighbourPoly, neighbourTile)
			if !ok {
				continue
			}
			if d, _ := fastgeom.DistancePtSegSqr2D(centerPoint, va, vb); d > radiusSqr {
				continue
			}
			// Mark visited before the overlap test so a rejected polygon is
			// not tried again.
			neighbourNode.flags |= nodeClosed
			neighbourNode.parent = curNode.index

			// Skip polygons overlapping one already found (other than those
			// linked to the current one), as on a multi-level mesh.
			npa := int(neighbourPoly.VertCount)
			for k := 0; k < npa; k++ {
				pa[k] = fastgeom.Load(&neighbourTile.Verts[neighbourPoly.Verts[k]])
			}
			overlap := false
			for j := 0; j < n; j++ {
				pastRef := refs[j]
				connected := false
				for k := curPoly.FirstLink; k != navmesh.NullLink; k = links[k].Next {
					if links[k].Ref == pastRef {
						connected = true
						break
					}
				}
				if connected {
					continue
				}
				pastTile, pastPoly := snap.TileAndPolyUnchecked(pastRef)
				npb := int(pastPoly.VertCount)
				for k := 0; k < npb; k++ {
					pb[k] = fastgeom.Load(&pastTile.Verts[pastPoly.Verts[k]])
				}
				if fastgeom.OverlapPolyPoly2D(pa[:npa], pb[:npb]) {
					overlap = true
					break
				}
			}
			if overlap {
				continue
			}

			if n < len(refs) {
				refs[n] = neighbourRef
				if parents != nil {
					parents[n] = curRef
				}
				n++
			} else {
				status |= StatusBufferTooSmall
			}
			queue.push(neighbourNode)
		}
	}
	return n, status, nil
}
