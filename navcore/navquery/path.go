package navquery

import (
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// PathStatus tells how far a path goes (Unity's NavMeshPathStatus).
type PathStatus uint8

// Path statuses.
const (
	// PathInvalid: there is no path (no polygon near the start or the
	// end, or no path at all).
	PathInvalid PathStatus = iota
	// PathComplete: the path reaches the end.
	PathComplete
	// PathPartial: the path leads to the reachable point nearest the end
	// (the end is out of reach, the search ran out of nodes, or the
	// corridor was longer than Config.MaxPath).
	PathPartial
)

// String returns the status's name.
func (s PathStatus) String() string {
	switch s {
	case PathInvalid:
		return "invalid"
	case PathComplete:
		return "complete"
	case PathPartial:
		return "partial"
	}
	return "unknown"
}

// Path is a path over the navmesh.
type Path struct {
	// Points are its corners, from the start (on the navmesh) to the end
	// or the reachable point nearest it; a new slice [Units: world units]
	Points []geom.Vec3
	// Polygons is its corridor, from the start's polygon to the last
	// one; a new slice.
	Polygons []navmesh.Ref
	// Length is the length of the line through Points, in 3D
	// [Units: world units]
	Length float32
	// Cost is what walking that line costs by the filter: each piece of it
	// within a polygon costs the filter's Cost (by default its length
	// times the polygon's area cost) [Units: filter cost]
	Cost float32
	// Status says whether the path reaches the end.
	Status PathStatus
}

// snap returns the polygon and point nearest pos within the search box.
func (w *worker) snap(pos geom.Vec3, filter *query.Filter, what string) (navmesh.Ref, geom.Vec3, error) {
	if !geom.IsFinite(pos) {
		return 0, geom.Vec3{}, fmt.Errorf("%w: %s %v", ErrInvalidInput, what, pos)
	}
	nearest, err := w.q.FindNearestPoly(pos, w.n.config.SearchHalfExtents, filter)
	if err != nil {
		return 0, geom.Vec3{}, fmt.Errorf("navquery: %s %v: %w", what, pos, err)
	}
	if nearest.Ref == 0 {
		e := w.n.config.SearchHalfExtents
		return 0, geom.Vec3{}, fmt.Errorf("%w: %s %v, none within ±(%g, %g, %g)", ErrOffMesh, what, pos, e[0], e[1], e[2])
	}
	return nearest.Ref, nearest.Point, nil
}

// CalculatePath plans a path from start to end with A* (Unity's
// NavMesh.CalculatePath): both snap to the nearest navmesh point within
// Config.SearchHalfExtents with filter (nil: DefaultFilter), and the path
// comes with its corners, corridor, length and cost. An end out of reach
// gives the path to the reachable point nearest it, PathPartial. A start or
// end with no polygon near gives PathInvalid and an error wrapping
// ErrOffMesh.
func (n *Navigator) CalculatePath(start, end geom.Vec3, filter *query.Filter) (Path, error) {
	filter = filterOrDefault(filter)
	w, err := n.get()
	if err != nil {
		return Path{}, err
	}
	defer n.put(w)
	startRef, startPos, err := w.snap(start, filter, "calculate path: start")
	if err != nil {
		return Path{}, err
	}
	endRef, endPos, err := w.snap(end, filter, "calculate path: end")
	if err != nil {
		return Path{}, err
	}
	w.refs = grow(w.refs, n.config.MaxPath)
	count, status, err := w.q.FindPath(startRef, endRef, startPos, endPos, filter, w.refs)
	if err != nil {
		return Path{}, fmt.Errorf("navquery: calculate path: %w", err)
	}
	path, err := w.walk(w.refs[:count], startPos, endPos, filter, "calculate path")
	if err != nil {
		return Path{}, err
	}
	if status.Partial() || status.BufferTooSmall() {
		path.Status = PathPartial
	}
	return path, nil
}

// walk pulls the straight path through corridor from start to end and
// returns it with its length and cost (Status complete); the slices are
// new.
func (w *worker) walk(corridor []navmesh.Ref, start, end geom.Vec3, filter *query.Filter, what string) (Path, error) {
	points, err := w.straightPath(corridor, start, end, 0)
	if err != nil {
		return Path{}, fmt.Errorf("navquery: %s: %w", what, err)
	}
	path := Path{Points: make([]geom.Vec3, len(points)), Polygons: slices.Clone(corridor), Status: PathComplete}
	for i, p := range points {
		path.Points[i] = p.Pos
	}
	path.Length = polylineLength(path.Points)
	if path.Cost, err = w.cost(corridor, start, end, filter); err != nil {
		return Path{}, fmt.Errorf("navquery: %s: %w", what, err)
	}
	return path, nil
}

// straightPath pulls the straight path through corridor into w's buffers
// (crossings for options with crossings, points otherwise), growing them
// until it fits.
func (w *worker) straightPath(corridor []navmesh.Ref, start, end geom.Vec3, options query.StraightPathOptions) ([]query.StraightPathPoint, error) {
	buf := &w.points
	if options != 0 {
		buf = &w.crossings
	}
	*buf = grow(*buf, 2*len(corridor)+4)
	for {
		n, status, err := w.q.FindStraightPath(start, end, corridor, *buf, options)
		if err != nil {
			return nil, err
		}
		if !status.BufferTooSmall() {
			return (*buf)[:n], nil
		}
		*buf = grow(*buf, 2*len(*buf))
	}
}

// cost is the filter's cost of the straight path through corridor from
// start to end: each piece between two points of the path with a point at
// every polygon edge crossed lies in one polygon, the one its first point
// enters.
func (w *worker) cost(corridor []navmesh.Ref, start, end geom.Vec3, filter *query.Filter) (float32, error) {
	points, err := w.straightPath(corridor, start, end, query.StraightPathAllCrossings)
	if err != nil {
		return 0, err
	}
	snap := w.n.mesh.Snapshot()
	context := func(i int) (query.PolyContext, error) {
		if i < 0 || i >= len(points) || points[i].Ref == 0 {
			return query.PolyContext{}, nil
		}
		tile, poly, err := snap.TileAndPoly(points[i].Ref)
		return query.PolyContext{Ref: points[i].Ref, Tile: tile, Poly: poly}, err
	}
	var total float32
	for i := 0; i+1 < len(points); i++ {
		cur, err := context(i)
		if err != nil {
			return 0, err
		}
		if cur.Poly == nil {
			continue
		}
		prev, err := context(i - 1)
		if err != nil {
			return 0, err
		}
		next, err := context(i + 1)
		if err != nil {
			return 0, err
		}
		total += filter.Cost(points[i].Pos, points[i+1].Pos, prev, cur, next)
	}
	return total, nil
}

// PathLength returns the length of the straight path through corridor
// (a polygon corridor such as Path.Polygons or an agent's) from start to
// end, both moved onto the corridor's first and last polygon: the
// length of the line through its corners, in 3D. A broken corridor (two
// polygons not linked) gives the length to where it breaks.
//
// corridor [Limit: 1+ polygons] [Units: world units]
func (n *Navigator) PathLength(corridor []navmesh.Ref, start, end geom.Vec3) (float32, error) {
	if err := checkCorridor(corridor, start, end, "path length"); err != nil {
		return 0, err
	}
	w, err := n.get()
	if err != nil {
		return 0, err
	}
	defer n.put(w)
	points, err := w.straightPath(corridor, start, end, 0)
	if err != nil {
		return 0, fmt.Errorf("navquery: path length: %w", err)
	}
	var length float32
	for i := 1; i < len(points); i++ {
		length += geom.Dist(points[i-1].Pos, points[i].Pos)
	}
	return length, nil
}

// PathCost returns what walking the straight path through corridor from
// start to end costs by filter (nil: DefaultFilter), as Path.Cost.
//
// corridor [Limit: 1+ polygons] [Units: filter cost]
func (n *Navigator) PathCost(corridor []navmesh.Ref, start, end geom.Vec3, filter *query.Filter) (float32, error) {
	if err := checkCorridor(corridor, start, end, "path cost"); err != nil {
		return 0, err
	}
	filter = filterOrDefault(filter)
	w, err := n.get()
	if err != nil {
		return 0, err
	}
	defer n.put(w)
	cost, err := w.cost(corridor, start, end, filter)
	if err != nil {
		return 0, fmt.Errorf("navquery: path cost: %w", err)
	}
	return cost, nil
}

// checkCorridor checks the arguments of PathLength and PathCost.
func checkCorridor(corridor []navmesh.Ref, start, end geom.Vec3, what string) error {
	switch {
	case len(corridor) == 0:
		return fmt.Errorf("%w: %s: empty corridor", ErrInvalidInput, what)
	case !geom.IsFinite(start) || !geom.IsFinite(end):
		return fmt.Errorf("%w: %s: start %v, end %v", ErrInvalidInput, what, start, end)
	}
	return nil
}

// GoalPath is the answer of NearestGoal.
type GoalPath struct {
	// Index is the nearest goal's index in the goals given, -1 when no
	// goal can be reached.
	Index int
	// SearchCost is the cost the search ranked the goals by (see
	// query.NearestGoal.Cost) [Units: filter cost]
	SearchCost float32
	// Path is the path to the goal, from the start snapped to the navmesh
	// to the goal snapped to it.
	Path Path
}

// NearestGoal returns which of goals costs least to reach from start by
// filter (nil: DefaultFilter), and the path there, with one Dijkstra
// search ("which exit is closest"; query.FindNearestGoal). The start and
// each goal snap to the nearest navmesh point within
// Config.SearchHalfExtents; goals with no polygon near are skipped, as are
// those out of reach (Index is -1 when none is left). A start with no
// polygon near gives an error wrapping ErrOffMesh.
//
// goals [Limit: 1..query.MaxGoals]
func (n *Navigator) NearestGoal(start geom.Vec3, goals []geom.Vec3, filter *query.Filter) (GoalPath, error) {
	if len(goals) == 0 || len(goals) > query.MaxGoals {
		return GoalPath{Index: -1}, fmt.Errorf("%w: nearest goal: %d goals, want 1..%d", ErrInvalidInput, len(goals), query.MaxGoals)
	}
	filter = filterOrDefault(filter)
	w, err := n.get()
	if err != nil {
		return GoalPath{Index: -1}, err
	}
	defer n.put(w)
	startRef, startPos, err := w.snap(start, filter, "nearest goal: start")
	if err != nil {
		return GoalPath{Index: -1}, err
	}
	w.goals, w.goalIndex = w.goals[:0], w.goalIndex[:0]
	for i, g := range goals {
		ref, pos, err := w.snap(g, filter, fmt.Sprintf("nearest goal: goal %d", i))
		if err != nil {
			if geom.IsFinite(g) {
				continue // no polygon near: out of reach
			}
			return GoalPath{Index: -1}, err
		}
		w.goals = append(w.goals, query.Goal{Ref: ref, Pos: pos})
		w.goalIndex = append(w.goalIndex, i)
	}
	if len(w.goals) == 0 {
		return GoalPath{Index: -1}, nil
	}
	w.refs = grow(w.refs, n.config.MaxPath)
	found, err := w.q.FindNearestGoal(startRef, startPos, w.goals, filter, w.refs)
	if err != nil {
		return GoalPath{Index: -1}, fmt.Errorf("navquery: nearest goal: %w", err)
	}
	if found.Index < 0 {
		return GoalPath{Index: -1}, nil
	}
	goal := w.goals[found.Index]
	path, err := w.walk(w.refs[:found.PathCount], startPos, goal.Pos, filter, "nearest goal")
	if err != nil {
		return GoalPath{Index: -1}, err
	}
	if found.Status.BufferTooSmall() {
		path.Status = PathPartial
	}
	return GoalPath{Index: w.goalIndex[found.Index], SearchCost: found.Cost, Path: path}, nil
}

// polylineLength returns the length of the line through points, in 3D.
func polylineLength(points []geom.Vec3) float32 {
	var length float32
	for i := 1; i < len(points); i++ {
		length += geom.Dist(points[i-1], points[i])
	}
	return length
}

// grow returns s with at least n elements, its contents undefined.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:cap(s)]
}
