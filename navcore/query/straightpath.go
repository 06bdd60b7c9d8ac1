package query

import (
	"fmt"
	"math"

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
func pullString(snap *navmesh.Snapshot, closestStartPos, closestEndPos, endPos geom.Vec3, path []navmesh.Ref, points []StraightPathPoint, options StraightPathOptions) (int, Status, error) {
	var err error
	sp := straightPath{points: points, snap: snap, path: path, options: options}
	if sp.appendVertex(closestStartPos, StraightPathStart, path[0]) {
		return sp.n, sp.status, nil
	}

	portals := portalLookup{snap: snap}
	crossings := options&(StraightPathAreaCrossings|StraightPathAllCrossings) != 0
	if len(path) > 1 {
		apex := fastgeom.FromVec3(closestStartPos)
		f := funnel{apex: apex,
			right: funnelSide{end: apex, ref: path[0]},
			left:  funnelSide{end: apex, ref: path[0]}}

		for i := 0; i < len(path); i++ {
			// The portal into the next polygon, or the goal.
			step := funnelSide{index: i}
			var leftEnd, rightEnd fastgeom.Point
			if i+1 < len(path) {
				portalLeftEnd, portalRightEnd, polyType, ok := portals.portalAt(path, i)
				if !ok {
					// The corridor breaks off here: end at the point of
					// path[i] closest to the goal.
					closestEndPos, err = closestPointOnPolyBoundary(snap, path[i], endPos)
					if err != nil {
						return 0, 0, fmt.Errorf("query: find straight path: corridor polygon %d: %w", i, err)
					}
					if crossings {
						// Detour ignores whether this filled the buffer.
						sp.appendPortals(f.apexIndex, i, closestEndPos)
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
					if d, _ := fastgeom.DistancePtSegSqr2D(f.apex, portalLeftEnd, portalRightEnd); d < minPortalDist*minPortalDist {
						continue
					}
				}
				leftEnd, rightEnd = portalLeftEnd, portalRightEnd
				step.ref, step.polyType = path[i+1], polyType
			} else {
				// The end point closes the funnel.
				leftEnd = fastgeom.FromVec3(closestEndPos)
				rightEnd = leftEnd
			}

			// Tighten the right side, then the left. A side that crosses the
			// other makes the other's end the next corner, and the funnel
			// starts again from there.
			step.end = rightEnd
			corner := f.narrow(&f.right, &f.left, &step, 1)
			if corner == nil {
				step.end = leftEnd
				corner = f.narrow(&f.left, &f.right, &step, -1)
			}
			if corner == nil {
				continue
			}
			if crossings && sp.appendPortals(f.apexIndex, corner.index, corner.end.Vec3()) {
				return sp.result()
			}
			f.restartAt(*corner)
			if sp.appendVertex(f.apex.Vec3(), cornerFlags(corner.ref, corner.polyType), corner.ref) {
				return sp.result()
			}
			i = f.apexIndex
		}

		if crossings && sp.appendPortals(f.apexIndex, len(path)-1, closestEndPos) {
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

// funnel is the string-pulling state of FindStraightPath: the last corner
// (the apex) and the current ends of the funnel's two sides.
type funnel struct {
	apex        fastgeom.Point
	apexIndex   int
	left, right funnelSide
}

// funnelSide is the end of one side of the funnel and the corridor step
// that put it there.
type funnelSide struct {
	end      fastgeom.Point
	ref      navmesh.Ref      // the polygon entered at end, 0 at the goal
	polyType navmesh.PolyType // its type
	index    int              // the corridor index of the portal
}

// narrow moves side (the right one with sign 1, the left one with sign -1)
// to step when step.end does not widen the funnel. It returns nil, or other
// when step.end crosses over other: other's end is then the next corner.
func (f *funnel) narrow(side, other, step *funnelSide, sign float32) *funnelSide {
	if !(sign*fastgeom.TriArea2D(f.apex, side.end, step.end) <= 0) {
		return nil // widens the funnel (or NaN): keep the side
	}
	if fastgeom.Equal(f.apex, side.end) || sign*fastgeom.TriArea2D(f.apex, other.end, step.end) > 0 {
		*side = *step
		return nil
	}
	return other
}

// restartAt makes corner the apex and closes both sides onto it.
func (f *funnel) restartAt(corner funnelSide) {
	f.apex, f.apexIndex = corner.end, corner.index
	f.left.end, f.left.index = f.apex, f.apexIndex
	f.right.end, f.right.index = f.apex, f.apexIndex
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

// portalLookup finds the portals between consecutive corridor polygons,
// remembering the last two polygons it resolved: walking the corridor, each
// step's "to" is the next step's "from".
//
// It also keeps the last portals it found by corridor index: after each
// corner the funnel walks again from the corner's portal, over portals it
// has just found.
type portalLookup struct {
	snap     *navmesh.Snapshot
	from, to resolvedPoly
	cache    [portalCacheSize]cachedPortal
}

// portalCacheSize is how many portals portalLookup keeps (a power of two).
const portalCacheSize = 16

// cachedPortal is the portal of one corridor step.
type cachedPortal struct {
	left, right fastgeom.Point
	// step is the corridor index+1 of the portal's "from" polygon, 0 for
	// an empty entry.
	step   int32
	toType navmesh.PolyType
}

// portalAt is portal(path[i], path[i+1]), from the cache when it holds
// step i.
func (l *portalLookup) portalAt(path []navmesh.Ref, i int) (left, right fastgeom.Point, toType navmesh.PolyType, ok bool) {
	c := &l.cache[i&(portalCacheSize-1)]
	if int(c.step) == i+1 {
		return c.left, c.right, c.toType, true
	}
	left, right, toType, ok = l.portal(path[i], path[i+1])
	if ok && i < math.MaxInt32 {
		*c = cachedPortal{left: left, right: right, step: int32(i + 1), toType: toType}
	}
	return left, right, toType, ok
}

// resolvedPoly is a polygon reference with its tile and polygon.
type resolvedPoly struct {
	ref  navmesh.Ref
	tile *navmesh.Tile
	poly *navmesh.Poly
}

// resolve returns the tile and polygon of ref, reusing a remembered one.
func (l *portalLookup) resolve(ref navmesh.Ref) (resolvedPoly, bool) {
	switch {
	case ref == 0:
		return resolvedPoly{}, false
	case ref == l.to.ref:
		return l.to, true
	case ref == l.from.ref:
		return l.from, true
	}
	tile, poly, err := l.snap.TileAndPoly(ref)
	if err != nil {
		return resolvedPoly{}, false
	}
	return resolvedPoly{ref, tile, poly}, true
}

// portal is getPortalPoints by reference: the portal from from into to and
// the type of to. ok is false when either ref is invalid or they are not
// linked.
func (l *portalLookup) portal(from, to navmesh.Ref) (left, right fastgeom.Point, toType navmesh.PolyType, ok bool) {
	f, ok := l.resolve(from)
	if !ok {
		return left, right, 0, false
	}
	t, ok := l.resolve(to)
	if !ok {
		return left, right, 0, false
	}
	l.from, l.to = f, t
	left, right, ok = portal(from, f.poly, f.tile, to, t.poly, t.tile)
	return left, right, t.poly.Type(), ok
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
	sp.points[sp.n] = StraightPathPoint{Pos: pos, Flags: flags, Ref: ref}
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
