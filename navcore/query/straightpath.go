package query

import (
	"fmt"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// StraightPathOptions add points to a straight path.
type StraightPathOptions uint8

const (
	// StraightPathAreaCrossings adds a point wherever the path crosses into
	// a polygon of another area (DT_STRAIGHTPATH_AREA_CROSSINGS).
	StraightPathAreaCrossings StraightPathOptions = 0x01
	// StraightPathAllCrossings adds a point at every polygon edge the path
	// crosses (DT_STRAIGHTPATH_ALL_CROSSINGS).
	StraightPathAllCrossings StraightPathOptions = 0x02
)

// StraightPathFlags describe one point of a straight path.
type StraightPathFlags uint8

const (
	// StraightPathStart marks the start point (DT_STRAIGHTPATH_START).
	StraightPathStart StraightPathFlags = 0x01
	// StraightPathEnd marks the end point (DT_STRAIGHTPATH_END).
	StraightPathEnd StraightPathFlags = 0x02
	// StraightPathOffMeshConnection marks the start of an off-mesh
	// connection (DT_STRAIGHTPATH_OFFMESH_CONNECTION).
	StraightPathOffMeshConnection StraightPathFlags = 0x04
)

// StraightPathPoint is one corner of a straight path.
type StraightPathPoint struct {
	// Pos is the corner [Units: world units]
	Pos geom.Vec3
	// Flags say whether it is the start, the end or an off-mesh connection
	// start.
	Flags StraightPathFlags
	// Ref is the polygon the path enters at this point, 0 at the end.
	Ref navmesh.Ref
}

// FindStraightPath pulls the string through the polygon corridor path, from
// startPos to endPos, and writes the corners into points
// (dtNavMeshQuery::findStraightPath, the funnel algorithm). startPos and
// endPos are first moved onto the corridor's first and last polygon. It
// returns how many points it wrote.
//
// A corridor that breaks off (two polygons not linked) gives the path to the
// point of the last reachable polygon closest to endPos, with StatusPartial.
// When points fills up, the path is cut there with StatusBufferTooSmall.
func (q *Query) FindStraightPath(startPos, endPos geom.Vec3, path []navmesh.Ref, points []StraightPathPoint, options StraightPathOptions) (int, Status, error) {
	snap := q.mesh.Snapshot()
	if !geom.IsFinite(startPos) {
		return 0, 0, checkPos("find straight path: start position", startPos) // only here: checkPos is too big to inline
	}
	if !geom.IsFinite(endPos) {
		return 0, 0, checkPos("find straight path: end position", endPos) // only here: checkPos is too big to inline
	}
	if len(path) == 0 || path[0] == 0 {
		return 0, 0, fmt.Errorf("query: find straight path: empty corridor: %w", ErrInvalidParam)
	}
	if len(points) == 0 {
		return 0, 0, fmt.Errorf("query: find straight path: empty point buffer: %w", ErrBufferTooSmall)
	}
	closestStartPos, err := closestPointOnPolyBoundary(snap, path[0], startPos)
	if err != nil {
		return 0, 0, fmt.Errorf("query: find straight path: corridor start: %w", err)
	}
	closestEndPos, err := closestPointOnPolyBoundary(snap, path[len(path)-1], endPos)
	if err != nil {
		return 0, 0, fmt.Errorf("query: find straight path: corridor end: %w", err)
	}
	return pullString(snap, closestStartPos, closestEndPos, endPos, path, points, options)
}

// FindStraightPathOnCorridor is FindStraightPath for a caller that already
// moved its end points onto the corridor: closestStart and closestEnd must
// be what ClosestPointOnPolyBoundary returns, with the mesh as it is now,
// for the start on path[0] and for endPos on path[len(path)-1]. endPos
// itself is still needed for a corridor that breaks off. The result is
// FindStraightPath's, without its two polygon lookups: a crowd that steers
// each agent every tick knows both points from the tick before (the end
// does not move, and the start is a position its last move left inside the
// first polygon).
func (q *Query) FindStraightPathOnCorridor(closestStart, closestEnd, endPos geom.Vec3, path []navmesh.Ref, points []StraightPathPoint, options StraightPathOptions) (int, Status, error) {
	snap := q.mesh.Snapshot()
	for _, p := range []geom.Vec3{closestStart, closestEnd, endPos} {
		if err := checkPos("find straight path on corridor: position", p); err != nil {
			return 0, 0, err
		}
	}
	if len(path) == 0 || !snap.IsValid(path[0]) || !snap.IsValid(path[len(path)-1]) {
		return 0, 0, fmt.Errorf("query: find straight path on corridor: empty corridor or invalid end polygon: %w", ErrInvalidParam)
	}
	if len(points) == 0 {
		return 0, 0, fmt.Errorf("query: find straight path on corridor: empty point buffer: %w", ErrBufferTooSmall)
	}
	return pullString(snap, closestStart, closestEnd, endPos, path, points, options)
}

// pullString is the funnel algorithm of FindStraightPath, from closestStartPos
// on path[0] to closestEndPos on the last polygon (endPos's closest point
// there).
//
// The funnel is the last corner (the apex) and the ends of its two sides,
// each with the corridor step that put it there. Each step's portal (or, at
// the end, the goal) tightens the right side, then the left: a side that
// would cross the other makes the other's end the next corner, and the walk
// starts again from that corner's step. The two sides are written out here
// rather than in one helper taking them by pointer: this is the query's
// hot loop, and the call and the pointer indirections cost more than the
// funnel's own arithmetic.
func pullString(snap *navmesh.Snapshot, closestStartPos, closestEndPos, endPos geom.Vec3, path []navmesh.Ref, points []StraightPathPoint, options StraightPathOptions) (int, Status, error) {
	var err error
	// Set field by field: a composite literal is built in a temporary and
	// copied in 16-byte moves, whose loads wait for its 8-byte stores.
	var sp straightPath
	sp.points, sp.snap, sp.path, sp.options = points, snap, path, options
	if sp.appendVertex(closestStartPos, StraightPathStart, path[0]) {
		return sp.n, sp.status, nil
	}

	if len(path) > 1 {
		portals := portalLookup{snap: snap, last: -1}
		crossings := options&(StraightPathAreaCrossings|StraightPathAllCrossings) != 0
		goal := fastgeom.FromVec3(closestEndPos)
		apex, apexIndex := fastgeom.FromVec3(closestStartPos), 0
		left := funnelSide{end: apex, ref: path[0]}
		right := left

		for i := 0; i < len(path); i++ {
			// The portal into the next polygon, or the goal.
			leftEnd, rightEnd := goal, goal
			var ref navmesh.Ref
			var polyType navmesh.PolyType
			if i+1 < len(path) {
				p := portals.at(path, i)
				if p == nil {
					// The corridor breaks off here: end at the point of
					// path[i] closest to the goal.
					closestEndPos, err = closestPointOnPolyBoundary(snap, path[i], endPos)
					if err != nil {
						return 0, 0, fmt.Errorf("query: find straight path: corridor polygon %d: %w", i, err)
					}
					if crossings {
						// Detour ignores whether this filled the buffer.
						sp.appendPortals(apexIndex, i, closestEndPos)
					}
					sp.appendVertex(closestEndPos, 0, path[i])
					status := sp.status | StatusPartial
					if sp.n >= len(points) {
						status |= StatusBufferTooSmall
					}
					return sp.n, status, nil
				}
				// Skip a first portal right at the start point.
				if i == 0 {
					t := fastgeom.SegmentParam2D(apex, p.left, p.right)
					if fastgeom.SegmentDistSqr2D(apex, p.left, p.right, t) < minPortalDist*minPortalDist {
						continue
					}
				}
				leftEnd, rightEnd, ref, polyType = p.left, p.right, path[i+1], p.toType
			}

			// Tighten the right side, then the left (the sides' tests
			// mirrored: left is right with the areas' signs flipped).
			var corner *funnelSide
			if fastgeom.TriArea2D(apex, right.end, rightEnd) <= 0 {
				if fastgeom.Equal(apex, right.end) || fastgeom.TriArea2D(apex, left.end, rightEnd) > 0 {
					right.end, right.ref, right.polyType, right.index = rightEnd, ref, polyType, i
				} else {
					corner = &left
				}
			}
			if corner == nil && fastgeom.TriArea2D(apex, left.end, leftEnd) >= 0 {
				if fastgeom.Equal(apex, left.end) || fastgeom.TriArea2D(apex, right.end, leftEnd) < 0 {
					left.end, left.ref, left.polyType, left.index = leftEnd, ref, polyType, i
				} else {
					corner = &right
				}
			}
			if corner == nil {
				continue
			}

			// The other side's end is the next corner: restart from it.
			if crossings && sp.appendPortals(apexIndex, corner.index, corner.end.Vec3()) {
				return sp.result()
			}
			apex, apexIndex = corner.end, corner.index
			left.end, left.index = apex, apexIndex
			right.end, right.index = apex, apexIndex
			if sp.appendVertex(apex.Vec3(), cornerFlags(corner.ref, corner.polyType), corner.ref) {
				return sp.result()
			}
			i = apexIndex
		}

		if crossings && sp.appendPortals(apexIndex, len(path)-1, closestEndPos) {
			return sp.result()
		}
	}

	sp.appendVertex(closestEndPos, StraightPathEnd, 0)
	status := sp.status &^ StatusBufferTooSmall
	if sp.n >= len(points) {
		status |= StatusBufferTooSmall
	}
	return sp.n, status, nil
}

// funnelSide is the end of one side of the funnel and the corridor step
// that put it there.
type funnelSide struct {
	end      fastgeom.Point
	ref      navmesh.Ref      // the polygon entered at end, 0 at the goal
	polyType navmesh.PolyType // its type
	index    int              // the corridor index of the portal
}

// minPortalDist: a first portal closer than this to the start point is
// skipped [Units: world units]
const minPortalDist = float32(0.001)

// cornerFlags returns the flags of a funnel corner that enters polygon ref
// of type polyType (0 ref: the end point).
func cornerFlags(ref navmesh.Ref, polyType navmesh.PolyType) StraightPathFlags {
	switch {
	case ref == 0:
		return StraightPathEnd
	case polyType == navmesh.PolyTypeOffMeshConnection:
		return StraightPathOffMeshConnection
	}
	return 0
}

// portalLookup finds the portals between consecutive corridor polygons for
// the funnel, which walks the corridor forwards and, after each corner,
// again from the corner's step over portals it has just found. It keeps the
// portals of the last portalCacheSize steps up to the furthest one found,
// and the polygon that step leads into: the next step starts there.
type portalLookup struct {
	snap  *navmesh.Snapshot
	last  int          // the furthest corridor step found, -1 before the first
	to    resolvedPoly // the polygon step last leads into
	spare cachedPortal // a portal found again behind the cache
	cache [portalCacheSize]cachedPortal
}

// portalCacheSize is how many portals portalLookup keeps (a power of two).
const portalCacheSize = 16

// cachedPortal is the portal of one corridor step: its ends, and the type
// of the polygon it leads into.
type cachedPortal struct {
	left, right fastgeom.Point
	toType      navmesh.PolyType
}

// at returns the portal from path[i] into path[i+1] (getPortalPoints), nil
// when either polygon is invalid or they are not linked. The funnel calls
// it with i at most one past the furthest step found so far.
func (l *portalLookup) at(path []navmesh.Ref, i int) *cachedPortal {
	if uint(l.last-i) < portalCacheSize {
		return &l.cache[uint(i)%portalCacheSize]
	}
	return l.find(path, i)
}

// find is at for a portal not kept.
func (l *portalLookup) find(path []navmesh.Ref, i int) *cachedPortal {
	c := &l.spare
	if i == l.last+1 {
		c = &l.cache[uint(i)%portalCacheSize]
	}
	from, to := path[i], path[i+1]
	f := l.to
	if from != f.ref || f.tile == nil {
		tile, poly, err := l.snap.TileAndPoly(from)
		if err != nil {
			return nil
		}
		f = resolvedPoly{from, tile, poly}
	}
	t := resolvedPoly{ref: to}
	if ip := to.PolyIndex(); (from^to)>>navmesh.PolyBits == 0 && to != 0 && ip < uint32(len(f.tile.Polys)) {
		// The same tile, salt and all: TileAndPoly's checks hold.
		t.tile, t.poly = f.tile, &f.tile.Polys[ip]
	} else {
		tile, poly, err := l.snap.TileAndPoly(to)
		if err != nil {
			return nil
		}
		t.tile, t.poly = tile, poly
	}
	left, right, ok := portal(from, f.poly, f.tile, to, t.poly, t.tile)
	if !ok {
		return nil
	}
	*c = cachedPortal{left: left, right: right, toType: t.poly.Type()}
	if c != &l.spare {
		l.last, l.to = i, t
	}
	return c
}

// resolvedPoly is a polygon reference with its tile and polygon.
type resolvedPoly struct {
	ref  navmesh.Ref
	tile *navmesh.Tile
	poly *navmesh.Poly
}

// straightPath accumulates the points of FindStraightPath.
type straightPath struct {
	points  []StraightPathPoint
	n       int
	status  Status
	err     error
	snap    *navmesh.Snapshot
	path    []navmesh.Ref
	options StraightPathOptions
}

// appendVertex adds a point, or updates the last one when pos is the same
// place. It returns true when the path is finished: the buffer is full
// (StatusBufferTooSmall set) or the end point was added.
func (sp *straightPath) appendVertex(pos geom.Vec3, flags StraightPathFlags, ref navmesh.Ref) bool {
	if sp.n >= len(sp.points) {
		// Only reachable after a partial corridor filled the buffer, where
		// Detour writes past its end.
		sp.status |= StatusBufferTooSmall
		return true
	}
	if sp.n > 0 && geom.Equal(sp.points[sp.n-1].Pos, pos) {
		sp.points[sp.n-1].Flags = flags
		sp.points[sp.n-1].Ref = ref
		return false
	}
	p := &sp.points[sp.n] // field by field: see pullString's sp
	p.Pos, p.Flags, p.Ref = pos, flags, ref
	sp.n++
	if sp.n >= len(sp.points) {
		sp.status |= StatusBufferTooSmall
		return true
	}
	return flags == StraightPathEnd
}

// result returns what FindStraightPath returns when appendPortals stops it.
func (sp *straightPath) result() (int, Status, error) {
	if sp.err != nil {
		return 0, 0, sp.err
	}
	return sp.n, sp.status, nil
}

// appendPortals adds the crossings of the corridor edges path[startIdx] →
// path[endIdx] with the segment from the last point to endPos. It returns
// true when the path is finished (buffer full, or a corridor polygon was
// invalid, which sets err).
func (sp *straightPath) appendPortals(startIdx, endIdx int, endPos geom.Vec3) bool {
	startPos := sp.points[sp.n-1].Pos
	for i := startIdx; i < endIdx; i++ {
		from := sp.path[i]
		fromTile, fromPoly, err := sp.snap.TileAndPoly(from)
		if err != nil {
			sp.err = fmt.Errorf("query: find straight path: corridor polygon %d: %w", i, err)
			return true
		}
		to := sp.path[i+1]
		toTile, toPoly, err := sp.snap.TileAndPoly(to)
		if err != nil {
			sp.err = fmt.Errorf("query: find straight path: corridor polygon %d: %w", i+1, err)
			return true
		}
		left, right, ok := portalPoints(from, fromPoly, fromTile, to, toPoly, toTile)
		if !ok {
			break
		}
		if sp.options&StraightPathAreaCrossings != 0 && fromPoly.Area() == toPoly.Area() {
			continue
		}
		if _, t, ok := geom.IntersectSegSeg2D(startPos, endPos, left, right); ok {
			if sp.appendVertex(lerp(left, right, t), 0, to) {
				return true
			}
		}
	}
	return false
}
