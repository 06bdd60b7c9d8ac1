package crowd

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Fixed sizes of the corridor's local searches, as in the reference.
const (
	// corridorMaxVisited bounds the polygons a move along the surface may
	// cross in one call (MAX_VISITED).
	corridorMaxVisited = 16
	// corridorMaxShortcut bounds the polygons of a visibility or topology
	// shortcut (MAX_RES).
	corridorMaxShortcut = 32
	// topologyIterations is the A* budget of OptimizePathTopology (MAX_ITER).
	topologyIterations = 32
	// minCornerDistance: corners closer than this to the agent are dropped
	// (MIN_TARGET_DIST).
	minCornerDistance = float32(0.01)
)

// MinCorridorPath is the smallest path buffer a Corridor accepts: FixPathStart
// may need three polygons.
const MinCorridorPath = 3

// ErrNotInCorridor is returned by MoveOverOffMeshConnection when the
// connection is not on the corridor (or is its last polygon).
var ErrNotInCorridor = errors.New("crowd: polygon not in the corridor")

// Corridor is the polygon corridor an agent follows, from the polygon it
// stands in to its target (dtPathCorridor). The corridor is loaded from a
// path search, then kept valid as the agent and its target move by small
// local searches, and straightened on the way. Nothing allocates after
// NewCorridor. A Corridor is used by one goroutine at a time, with a Query
// of that goroutine.
type Corridor struct {
	// Scratch for the local searches.
	visited  [corridorMaxVisited]navmesh.Ref
	shortcut [corridorMaxShortcut]navmesh.Ref

	validity validityCache
	// The last visibility ray (see OptimizePathVisibilityAfter).
	sight sightLine

	// FindCorners' last answer (see cornerMemo).
	memo cornerMemo

	// What FindCorners remembers of the mesh (see cornerEnds), next to
	// the fields it reads anyway: the position the last move left inside
	// the first polygon, and the target's closest point on the last one.
	inside  insidePoint
	clamped clampedTarget

	// The fields every stage of a crowd's tick reads come last: a corridor
	// of DefaultCorridorPath polygons has its path buffer right after them
	// (see NewCorridor), so that the first polygons share their memory.
	position geom.Vec3
	target   geom.Vec3
	count    int
	path     []navmesh.Ref // the whole buffer; count are in use
	// changes counts the changes of position, target and path; reshapes
	// those of target and path alone (a move that keeps the path is not
	// one).
	changes, reshapes uint64
}

// maxMemoCorners is the most corners FindCorners remembers.
const maxMemoCorners = 4

// cornerMemo is FindCorners' answer for a buffer of size corners, given
// while the corridor's changes counted changes and its reshapes reshapes,
// at position pos, in the mesh state. The zero value remembers nothing
// (size 0 is never asked for).
type cornerMemo struct {
	state             meshState
	changes, reshapes uint64
	pos               geom.Vec3
	size, n           int
	corners           [maxMemoCorners]query.StraightPathPoint
}

// DefaultCorridorPath is the path buffer of the crowd's corridors
// [Units: polygons]
const DefaultCorridorPath = 256

// corridorWithPath is a Corridor of DefaultCorridorPath polygons in one
// block: the path buffer follows the fields that point into it.
type corridorWithPath struct {
	corridor Corridor
	buffer   [DefaultCorridorPath]navmesh.Ref
}

// meshState names one snapshot of a mesh without holding on to it (an
// idle agent's corridor would otherwise keep replaced tiles alive): a
// snapshot never changes, and each publish numbers a new one.
type meshState struct {
	mesh    *navmesh.Mesh
	version uint64
}

// stateOf returns the state of q's mesh now.
func stateOf(q *query.Query) meshState {
	mesh := q.Mesh()
	return meshState{mesh: mesh, version: mesh.Snapshot().Version()}
}

// insidePoint records that pos lay inside polygon ref (seen from above) in
// the mesh state: ClosestPointOnPolyBoundary returns it unchanged.
type insidePoint struct {
	state meshState
	ref   navmesh.Ref
	pos   geom.Vec3
}

// clampedTarget is ClosestPointOnPolyBoundary(ref, target) in the mesh
// state.
type clampedTarget struct {
	state           meshState
	ref             navmesh.Ref
	target, closest geom.Vec3
}

// sightLine records a visibility ray: cast from pos in polygon ref of the
// mesh state towards next. The zero value records none.
type sightLine struct {
	state     meshState
	ref       navmesh.Ref
	pos, next geom.Vec3
}

// NewCorridor returns an empty corridor holding up to maxPath polygons
// [Limit: >= MinCorridorPath]. The crowd uses DefaultCorridorPath, which
// comes in one allocation with the corridor. Call Reset before use.
func NewCorridor(maxPath int) (*Corridor, error) {
	if maxPath < MinCorridorPath {
		return nil, fmt.Errorf("crowd: corridor of %d polygons, need at least %d: %w", maxPath, MinCorridorPath, ErrInvalidParam)
	}
	if maxPath == DefaultCorridorPath {
		block := &corridorWithPath{}
		block.corridor.path = block.buffer[:]
		return &block.corridor, nil
	}
	return &Corridor{path: make([]navmesh.Ref, maxPath)}, nil
}

// Reset makes the corridor the single polygon ref, with position and target
// both at pos.
func (c *Corridor) Reset(ref navmesh.Ref, pos geom.Vec3) {
	c.position = pos
	c.target = pos
	c.path[0] = ref
	c.count = 1
	c.sight = sightLine{}
	c.reshaped()
}

// SetCorridor loads a path (usually from a path search starting at the
// corridor's first polygon) and its target point, which must lie in the
// path's last polygon. path must hold 1..MaxPath() polygons; it is copied.
func (c *Corridor) SetCorridor(target geom.Vec3, path []navmesh.Ref) error {
	if len(path) == 0 || len(path) > len(c.path) {
		return fmt.Errorf("crowd: set corridor: %d polygons, want 1..%d: %w", len(path), len(c.path), ErrInvalidParam)
	}
	c.target = target
	c.count = copy(c.path, path)
	c.sight = sightLine{}
	c.reshaped()
	return nil
}

// reshaped counts a change of the corridor's target or path.
func (c *Corridor) reshaped() {
	c.changes++
	c.reshapes++
}

// FindCorners writes into corners the next corners of the straightened
// corridor (the funnel of query.FindStraightPath from the position to the
// target) and returns how many it wrote, at most len(corners)-1: the first
// point of the straight path, the position itself, is always dropped, along
// with any corner within 0.01 of the position (xz), unless it starts an
// off-mesh connection. The list ends at the first off-mesh connection start.
// When the target is among the corners it is the last one, with Ref 0 and
// query.StraightPathEnd (dtPathCorridor::findCorners). Asked again before
// the corridor changes (its position, target or path) or the mesh does, it
// gives its last answer without searching: a crowd asks every tick, also
// for agents that stand still.
func (c *Corridor) FindCorners(q *query.Query, corners []query.StraightPathPoint) (int, error) {
	return c.FindCornersAfter(q, corners, 0)
}

// FindCornersAfter is FindCorners for an agent that walks a few
// centimetres between calls: it also gives its last answer, without
// searching, while the corridor has only moved (its path and target are
// as they were, in the same mesh snapshot), less than distance (xz) from
// where that answer was found, and the first corner of that answer is
// more than twice distance away (so that an agent never walks past a
// corner it still steers to). The answer is then the one of a position up
// to distance away: the corners of a funnel change with the position only
// where another corner comes into sight, and a later call within distance
// of the corner finds them afresh. distance 0 (or negative, NaN or
// infinite) makes it FindCorners [Units: world units].
func (c *Corridor) FindCornersAfter(q *query.Query, corners []query.StraightPathPoint, distance float32) (int, error) {
	if err := checkQuery("find corners", q); err != nil {
		return 0, err
	}
	if c.count == 0 {
		return 0, fmt.Errorf("crowd: find corners: empty corridor: %w", ErrInvalidParam)
	}
	if len(corners) == 0 {
		return 0, nil
	}
	if !(distance > 0) || math.IsInf(float64(distance), 1) {
		distance = 0
	}
	state := stateOf(q)
	if m := &c.memo; m.size == len(corners) && m.state == state &&
		(m.changes == c.changes || distance > 0 && m.reshapes == c.reshapes && m.n > 0 &&
			geom.Dist2DSqr(m.pos, c.position) < distance*distance &&
			geom.Dist2DSqr(m.corners[0].Pos, m.pos) > 4*distance*distance) {
		copy(corners, m.corners[:m.size])
		return m.n, nil
	}
	n, err := c.findCorners(q, corners)
	if err == nil && len(corners) <= maxMemoCorners && stateOf(q) == state {
		// The whole buffer, as the search leaves it past the n corners too.
		m := &c.memo
		m.state, m.changes, m.reshapes, m.pos, m.size, m.n = state, c.changes, c.reshapes, c.position, len(corners), n
		copy(m.corners[:], corners)
	}
	return n, err
}

// findCorners is FindCorners without its memory.
func (c *Corridor) findCorners(q *query.Query, corners []query.StraightPathPoint) (int, error) {
	start, end, err := c.cornerEnds(q)
	if err != nil {
		return 0, fmt.Errorf("crowd: find corners: %w", err)
	}
	n, _, err := q.FindStraightPathOnCorridor(start, end, c.target, c.path[:c.count], corners, 0)
	if err != nil {
		return 0, fmt.Errorf("crowd: find corners: %w", err)
	}

	// Drop the corners the agent is standing on.
	const minDistSqr = minCornerDistance * minCornerDistance
	skip := 0
	for skip < n {
		corner := &corners[skip]
		if corner.Flags&query.StraightPathOffMeshConnection != 0 ||
			geom.Dist2DSqr(corner.Pos, c.position) > minDistSqr {
			break
		}
		skip++
	}
	if skip > 0 {
		n = copy(corners, corners[skip:n])
	}

	// Stop at the first off-mesh connection.
	for i := 0; i < n; i++ {
		if corners[i].Flags&query.StraightPathOffMeshConnection != 0 {
			return i + 1, nil
		}
	}
	return n, nil
}

// cornerEnds returns the position and the target moved onto the first and
// the last polygon, as FindStraightPath moves them
// (ClosestPointOnPolyBoundary), without looking the polygons up when the
// corridor knows the answer: the same position inside the same first
// polygon, or the same target on the same last polygon, in the same mesh
// snapshot (a snapshot never changes) give the same points.
func (c *Corridor) cornerEnds(q *query.Query) (start, end geom.Vec3, err error) {
	state := stateOf(q)
	first, last := c.path[0], c.path[c.count-1]
	start = c.position
	if in := &c.inside; in.state != state || in.ref != first || !sameBits(in.pos, c.position) {
		if start, err = q.ClosestPointOnPolyBoundary(first, c.position); err != nil {
			return geom.Vec3{}, geom.Vec3{}, err
		}
	}
	if t := &c.clamped; t.state != state || t.ref != last || !sameBits(t.target, c.target) {
		closest, err := q.ClosestPointOnPolyBoundary(last, c.target)
		if err != nil {
			return geom.Vec3{}, geom.Vec3{}, err
		}
		if stateOf(q) != state {
			// The mesh changed under the lookup: remember nothing.
			return start, closest, nil
		}
		*t = clampedTarget{state: state, ref: last, target: c.target, closest: closest}
	}
	return start, c.clamped.closest, nil
}

// isGround reports whether ref is a ground polygon (not an off-mesh
// connection) of q's mesh.
func isGround(q *query.Query, ref navmesh.Ref) bool {
	_, poly, err := q.Mesh().Snapshot().TileAndPoly(ref)
	return err == nil && poly.Type() == navmesh.PolyTypeGround
}

// sameBits reports whether a and b are the same bit for bit (unlike ==,
// which takes -0 for 0 and no NaN for itself).
func sameBits(a, b geom.Vec3) bool {
	return math.Float32bits(a[0]) == math.Float32bits(b[0]) &&
		math.Float32bits(a[1]) == math.Float32bits(b[1]) &&
		math.Float32bits(a[2]) == math.Float32bits(b[2])
}

// OptimizePathVisibility shortcuts the start of the corridor towards next
// (usually the last corner found) when it is in sight: a ray from the
// position towards next, lengthened or cut to pathOptimizationRange, that
// gets at least 99% of the way replaces the polygons it crosses
// (dtPathCorridor::optimizePathVisibility). A next within 0.01 of the position
// changes nothing, nor does a corridor of one polygon, whose start has
// nothing to shortcut: it returns without casting the ray (the ray starts in
// that polygon, and the merge would keep it alone). The ray crosses at most 32 polygons: a longer one is cut
// there and shortcuts nothing (the reference keeps walking unrecorded).
//
// pathOptimizationRange [Limit: > 0] [Units: world units]
func (c *Corridor) OptimizePathVisibility(next geom.Vec3, pathOptimizationRange float32, q *query.Query, filter *query.Filter) error {
	return c.optimizePathVisibility("optimize path visibility", next, pathOptimizationRange, 0, q, filter)
}

// OptimizePathVisibilityAfter is OptimizePathVisibility, except that it
// casts no ray, and changes nothing, while the last ray the corridor cast
// (by either method) started in its first polygon in the same snapshot of
// the mesh, looked towards the same point next (bit for bit) and started
// less than minMove (xz) from the position. A crowd that looks ahead every
// tick casts most rays from almost where the last one started towards the
// same corner, and finds the same: a ray shortcuts nothing new until the
// agent has moved on or its next corner changed. Loading or resetting the
// corridor forgets the last ray. A minMove of 0 casts every ray, as
// OptimizePathVisibility.
//
// minMove [Limit: >= 0, finite] [Units: world units]
func (c *Corridor) OptimizePathVisibilityAfter(next geom.Vec3, pathOptimizationRange, minMove float32, q *query.Query, filter *query.Filter) error {
	if !(minMove >= 0) || math.IsInf(float64(minMove), 1) {
		return fmt.Errorf("crowd: optimize path visibility after: minimum move %v not >= 0 and finite: %w", minMove, ErrInvalidParam)
	}
	return c.optimizePathVisibility("optimize path visibility after", next, pathOptimizationRange, minMove, q, filter)
}

func (c *Corridor) optimizePathVisibility(op string, next geom.Vec3, pathOptimizationRange, minMove float32, q *query.Query, filter *query.Filter) error {
	if err := checkQueryAndFilter(op, q, filter); err != nil {
		return err
	}
	if c.count == 0 {
		return fmt.Errorf("crowd: %s: empty corridor: %w", op, ErrInvalidParam)
	}
	if c.count == 1 {
		return nil
	}
	state := stateOf(q)
	if last := &c.sight; minMove > 0 && last.ref == c.path[0] && last.state == state &&
		sameBits(last.next, next) && geom.Dist2DSqr(last.pos, c.position) < minMove*minMove {
		return nil
	}
	p := &c.position
	dx, dy, dz := next[0]-p[0], next[1]-p[1], next[2]-p[2]
	dist := geom.Sqrt(float32(dx*dx) + float32(dz*dz))
	if dist < 0.01 {
		return nil
	}
	// Look pathOptimizationRange far in the direction of next.
	dist = minf(dist+0.01, pathOptimizationRange)
	scale := pathOptimizationRange / dist
	goal := geom.Vec3{p[0] + float32(dx*scale), p[1] + float32(dy*scale), p[2] + float32(dz*scale)}

	from := c.path[0]
	hit, _, err := q.Raycast(from, c.position, goal, filter, 0, 0, c.shortcut[:])
	if err != nil {
		return fmt.Errorf("crowd: %s: %w", op, err)
	}
	c.sight = sightLine{state: state, ref: from, pos: c.position, next: next}
	if hit.PathCount > 1 && hit.T > 0.99 {
		c.count = MergeCorridorStartShortcut(c.path, c.count, c.shortcut[:hit.PathCount])
		c.reshaped()
	}
	return nil
}

// OptimizePathTopology replans the start of the corridor with a small A*
// search (32 iterations) towards its last polygon, and splices the result in
// when it reaches a polygon of the corridor (dtPathCorridor::optimizePathTopology).
// It reports whether the corridor changed. It uses q's sliced search, ending
// any other sliced search in progress on q. Corridors of fewer than three
// polygons are left alone.
func (c *Corridor) OptimizePathTopology(q *query.Query, filter *query.Filter) (bool, error) {
	if err := checkQuery("optimize path topology", q); err != nil {
		return false, err
	}
	if c.count < 3 {
		return false, nil
	}
	last := c.path[c.count-1]
	if _, err := q.InitSlicedFindPath(c.path[0], last, c.position, c.target, filter, 0); err != nil {
		return false, fmt.Errorf("crowd: optimize path topology: %w", err)
	}
	if _, _, err := q.UpdateSlicedFindPath(topologyIterations); err != nil {
		return false, fmt.Errorf("crowd: optimize path topology: %w", err)
	}
	n, _, err := q.FinalizeSlicedFindPathPartial(c.path[:c.count], c.shortcut[:])
	if err != nil {
		return false, fmt.Errorf("crowd: optimize path topology: %w", err)
	}
	if n == 0 {
		return false, nil
	}
	c.count = MergeCorridorStartShortcut(c.path, c.count, c.shortcut[:n])
	c.reshaped()
	return true, nil
}

// MoveOverOffMeshConnection hands the agent over an off-mesh connection it
// has reached: the corridor drops every polygon up to and including the
// connection offMeshRef, and the position becomes the connection's far end
// (dtPathCorridor::moveOverOffmeshConnection). It returns the polygon before
// the connection and the connection (refs), and the connection's start and
// end points in the direction of travel, for the crossing animation.
//
// It returns an ErrNotInCorridor error when the connection is not in the
// corridor or is its last polygon, and the mesh's error when its end points
// cannot be found; the corridor is then unchanged (the reference may already
// have dropped the polygons). As in the reference, a connection that is the
// corridor's first polygon keeps it, with refs[0] = 0.
func (c *Corridor) MoveOverOffMeshConnection(offMeshRef navmesh.Ref, q *query.Query) (refs [2]navmesh.Ref, start, end geom.Vec3, err error) {
	if err := checkQuery("move over off-mesh connection", q); err != nil {
		return refs, start, end, err
	}
	at := -1
	for i := 0; i < c.count; i++ {
		if c.path[i] == offMeshRef {
			at = i
			break
		}
	}
	// Polygons dropped: the connection and what lies before it, except at
	// the very start, where the reference's scan drops nothing.
	drop := at + 1
	if at <= 0 {
		drop = 0
	}
	if at < 0 || (at > 0 && drop >= c.count) {
		return refs, start, end, fmt.Errorf("crowd: move over off-mesh connection %#x: %w", uint64(offMeshRef), ErrNotInCorridor)
	}
	if at > 0 {
		refs[0] = c.path[at-1]
	}
	refs[1] = offMeshRef

	start, end, err = q.Mesh().OffMeshConnectionEndPoints(refs[0], refs[1])
	if err != nil {
		return [2]navmesh.Ref{}, geom.Vec3{}, geom.Vec3{}, fmt.Errorf("crowd: move over off-mesh connection: %w", err)
	}
	c.count = copy(c.path, c.path[drop:c.count])
	c.position = end
	c.reshaped()
	return refs, start, end, nil
}

// MovePosition moves the agent towards pos along the surface (sliding along
// walls, a short local search of at most 16 polygons) and updates the start
// of the corridor to the polygons crossed; the new position's height is put
// on the surface of the first polygon when it can be
// (dtPathCorridor::movePosition). On error nothing changes.
func (c *Corridor) MovePosition(pos geom.Vec3, q *query.Query, filter *query.Filter) error {
	return c.movePosition("move position", pos, q, filter, false)
}

// MovePositionToSurface is MovePosition, except for a new position that is
// not over the first polygon: after sliding along a wall it lies on the
// polygon's edge, a rounding error outside. MovePosition then keeps the old
// height, as the reference does, which on a slope drifts off the floor tick
// after tick; MovePositionToSurface gives it the height of the polygon's
// nearest point.
func (c *Corridor) MovePositionToSurface(pos geom.Vec3, q *query.Query, filter *query.Filter) error {
	return c.movePosition("move position to surface", pos, q, filter, true)
}

// MovePositionNoFarther is MovePositionToSurface (or, with snapOnEdges
// false, MovePosition), except that a move that would end farther (xz) from
// pos than the corridor's position already is, or farther from where it
// starts than pos is, fails with ErrMoveAway and changes nothing (sliding
// along a wall does neither). Detour's moveAlongSurface treats a tile border edge
// that the neighbour tile covers only in part as open along its whole
// length: a move into the uncovered part ends at the neighbour's wall
// point nearest pos, which can be far from both (the two sides of a
// border differ after one of them is rebuilt by a tile cache, say), and
// the agent would jump there.
func (c *Corridor) MovePositionNoFarther(pos geom.Vec3, q *query.Query, filter *query.Filter, snapOnEdges bool) error {
	return c.move("move position no farther", pos, q, filter, snapOnEdges, true)
}

// moveAwayTolerance is how much farther from its goal a move may end than
// it started before MovePositionNoFarther refuses it [Units: world units]
const moveAwayTolerance = float32(0.001)

// The refusals of MovePositionNoFarther, made once: a crowd meets some at
// tile borders every tick, and formatting them would allocate.
var (
	errMoveEndsFarther = fmt.Errorf("crowd: move position no farther: the move ends farther from its goal than it starts: %w", ErrMoveAway)
	errMoveGoesBeyond  = fmt.Errorf("crowd: move position no farther: the move goes farther than its goal: %w", ErrMoveAway)
)

func (c *Corridor) movePosition(op string, pos geom.Vec3, q *query.Query, filter *query.Filter, snapOnEdges bool) error {
	return c.move(op, pos, q, filter, snapOnEdges, false)
}

func (c *Corridor) move(op string, pos geom.Vec3, q *query.Query, filter *query.Filter, snapOnEdges, noFarther bool) error {
	if err := checkQuery(op, q); err != nil {
		return err
	}
	if c.count == 0 {
		return fmt.Errorf("crowd: %s: empty corridor: %w", op, ErrInvalidParam)
	}
	if c.standsStill(pos, q, filter) {
		return nil
	}
	result, visited, _, err := q.MoveAlongSurface(c.path[0], c.position, pos, filter, c.visited[:])
	if err != nil {
		return fmt.Errorf("crowd: %s: %w", op, err)
	}
	if noFarther {
		goal := geom.Dist2D(c.position, pos)
		if after := geom.Dist2D(result, pos); after > goal+moveAwayTolerance {
			return errMoveEndsFarther
		}
		if moved := geom.Dist2D(result, c.position); moved > goal+moveAwayTolerance {
			return errMoveGoesBeyond
		}
	}
	count, first := c.count, c.path[0]
	c.count = MergeCorridorStartMoved(c.path, c.count, c.visited[:visited])
	if visited != 1 || c.count != count || c.path[0] != first {
		c.reshapes++ // the path changed too (MergeCorridorStartMoved keeps it otherwise)
	}
	// The height of the first polygon's surface, or the old height when the
	// point is not over it (PolyHeight reads only x and z). Writing one
	// component of result and then passing it on would make the copy read
	// across the write, which stalls store forwarding.
	y := c.position[1]
	state := stateOf(q)
	inside := false
	if h, err := q.PolyHeight(c.path[0], result); err == nil {
		y, inside = h, true
	} else if snapOnEdges {
		y = edgeHeight(q, c.path[0], geom.Vec3{result[0], y, result[2]})
	}
	c.position = geom.Vec3{result[0], y, result[2]}
	c.changes++
	// PolyHeight found a ground polygon's point inside it with the test
	// ClosestPointOnPolyBoundary makes, which then returns it unchanged:
	// FindCorners need not ask.
	if inside && stateOf(q) == state && isGround(q, c.path[0]) {
		c.inside = insidePoint{state: state, ref: c.path[0], pos: c.position}
	}
	return nil
}

// standsStill reports whether a move to pos would leave the corridor as it
// is, without moving: pos is the position (xz, bit for bit; its height
// finite), which the last move left inside the first polygon of the same
// mesh snapshot (see insidePoint), and that polygon comes only once in the
// path. The surface move then ends at pos in the first polygon, visiting
// nothing else, the merge keeps the path, and the height is the one the
// last move found there: an agent standing still costs no lookups.
func (c *Corridor) standsStill(pos geom.Vec3, q *query.Query, filter *query.Filter) bool {
	in := &c.inside
	if filter == nil || in.ref != c.path[0] || !sameBits(in.pos, c.position) ||
		math.Float32bits(pos[0]) != math.Float32bits(c.position[0]) ||
		math.Float32bits(pos[2]) != math.Float32bits(c.position[2]) ||
		math.IsNaN(float64(pos[1])) || math.IsInf(float64(pos[1]), 0) ||
		in.state != stateOf(q) {
		return false
	}
	for _, ref := range c.path[1:c.count] {
		if ref == in.ref {
			return false
		}
	}
	return true
}

// edgeHeight returns the height of the point of polygon ref nearest pos, or
// pos's own height when ref is not a valid polygon.
func edgeHeight(q *query.Query, ref navmesh.Ref, pos geom.Vec3) float32 {
	tile, poly, err := q.Mesh().Snapshot().TileAndPoly(ref)
	if err != nil {
		return pos[1]
	}
	closest, _ := tile.ClosestPointOnPoly(poly, pos)
	return closest[1]
}

// MoveTargetPosition moves the target towards pos along the surface and
// updates the end of the corridor to the polygons crossed
// (dtPathCorridor::moveTargetPosition). The target's height is not adjusted.
// On error nothing changes.
func (c *Corridor) MoveTargetPosition(pos geom.Vec3, q *query.Query, filter *query.Filter) error {
	if err := checkQuery("move target position", q); err != nil {
		return err
	}
	if c.count == 0 {
		return fmt.Errorf("crowd: move target position: empty corridor: %w", ErrInvalidParam)
	}
	result, visited, _, err := q.MoveAlongSurface(c.path[c.count-1], c.target, pos, filter, c.visited[:])
	if err != nil {
		return fmt.Errorf("crowd: move target position: %w", err)
	}
	c.count = MergeCorridorEndMoved(c.path, c.count, c.visited[:visited])
	c.target = result
	c.reshaped()
	return nil
}

// FixPathStart puts the agent back at safePos in polygon safeRef after it
// left the corridor's first polygon: the corridor becomes safeRef, a 0
// placeholder, then the rest of the path from its third polygon, or safeRef,
// 0 and the old last polygon when it was shorter than three
// (dtPathCorridor::fixPathStart). The placeholder makes IsValid fail, which
// asks for a replan.
func (c *Corridor) FixPathStart(safeRef navmesh.Ref, safePos geom.Vec3) {
	c.reshaped()
	c.position = safePos
	if c.count > 0 && c.count < 3 {
		c.path[2] = c.path[c.count-1]
		c.path[0] = safeRef
		c.path[1] = 0
		c.count = 3
		return
	}
	c.path[0] = safeRef
	c.path[1] = 0
}

// TrimInvalidPath cuts the corridor before its first polygon that is no
// longer valid or that filter rejects, and moves the target onto the
// boundary of the last polygon kept. When the first polygon itself is
// invalid, the corridor becomes safeRef at safePos
// (dtPathCorridor::trimInvalidPath). The path is trimmed even when the
// target cannot be moved (its error is returned and the target stays).
func (c *Corridor) TrimInvalidPath(safeRef navmesh.Ref, safePos geom.Vec3, q *query.Query, filter *query.Filter) error {
	if err := checkQueryAndFilter("trim invalid path", q, filter); err != nil {
		return err
	}
	n := 0
	for n < c.count && q.IsValidPolyRef(c.path[n], filter) {
		n++
	}
	switch {
	case n == c.count:
		return nil
	case n == 0:
		c.reshaped()
		c.position = safePos
		c.path[0] = safeRef
		c.count = 1
	default:
		c.count = n
		c.reshaped()
	}
	target, err := q.ClosestPointOnPolyBoundary(c.path[c.count-1], c.target)
	if err != nil {
		return fmt.Errorf("crowd: trim invalid path: %w", err)
	}
	c.target = target
	c.reshaped()
	return nil
}

// IsValid reports whether the first maxLookAhead polygons of the corridor
// (all of them if fewer) still exist and pass filter; false for a nil q or
// filter.
func (c *Corridor) IsValid(maxLookAhead int, q *query.Query, filter *query.Filter) bool {
	if q == nil {
		return false
	}
	return c.validity.valid(c.path[:max(0, min(c.count, maxLookAhead))], q, filter)
}

// Position returns the agent's position on the corridor.
func (c *Corridor) Position() geom.Vec3 { return c.position }

// Target returns the corridor's target.
func (c *Corridor) Target() geom.Vec3 { return c.target }

// FirstPoly returns the polygon the position is in, 0 for an empty corridor.
func (c *Corridor) FirstPoly() navmesh.Ref {
	if c.count == 0 {
		return 0
	}
	return c.path[0]
}

// LastPoly returns the polygon the target is in, 0 for an empty corridor.
func (c *Corridor) LastPoly() navmesh.Ref {
	if c.count == 0 {
		return 0
	}
	return c.path[c.count-1]
}

// Path returns the corridor's polygons. The slice aliases the corridor and
// changes with it; do not write to it (FindCorners remembers its answer
// until a method changes the corridor).
func (c *Corridor) Path() []navmesh.Ref { return c.path[:c.count] }

// PathCount returns the number of polygons in the corridor.
func (c *Corridor) PathCount() int { return c.count }

// MaxPath returns the most polygons the corridor can hold.
func (c *Corridor) MaxPath() int { return len(c.path) }
