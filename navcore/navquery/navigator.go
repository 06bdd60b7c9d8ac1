package navquery

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Defaults of Config's zero fields.
const (
	DefaultMaxNodes  = 2048
	DefaultNodeLimit = 65536
	DefaultMaxPath   = 4096
)

// ErrOffMesh reports a start, end or goal with no navmesh polygon within
// Config.SearchHalfExtents of it.
var ErrOffMesh = errors.New("navquery: no navmesh polygon near the point")

// ErrInvalidInput reports an argument a call cannot use (a NaN position, a
// negative distance, a bad Config); it wraps query.ErrInvalidParam.
var ErrInvalidInput = fmt.Errorf("navquery: invalid input: %w", query.ErrInvalidParam)

// Config sizes a Navigator. The zero Config takes the defaults given per
// field.
type Config struct {
	// MaxNodes is the search nodes each pooled query starts with
	// [Limit: 0..query.MaxNodes; 0 = DefaultMaxNodes]
	MaxNodes int
	// NodeLimit is how far a query's node pool may grow for a long path
	// search before the path comes out partial (query.SetNodeLimit)
	// [Limit: 0..query.MaxNodes; 0 = DefaultNodeLimit, at least MaxNodes]
	NodeLimit int
	// MaxPath is the most polygons a path's corridor holds; a longer one
	// is cut (and partial) [Limit: 0..1<<20; 0 = DefaultMaxPath]
	MaxPath int
	// SearchHalfExtents is the box searched for the polygon under a path's
	// start, end or a goal: a point off the navmesh snaps to the nearest
	// polygon point within it [Limit: each > 0, finite; zero = (2, 4, 2),
	// RecastDemo's] [Units: world units]
	SearchHalfExtents geom.Vec3
}

// Navigator answers one-call navmesh questions; see the package doc. Create
// it with New.
type Navigator struct {
	mesh   *navmesh.Mesh
	config Config
	// climb is the largest walkable climb of the tiles New saw (at least
	// minClimb), the height IsOnMesh searches beyond its tolerance.
	climb float32
	pool  sync.Pool
}

// minClimb is the least height IsOnMesh searches beyond its tolerance
// [Units: world units]
const minClimb = float32(0.5)

// worker is what one call borrows: a query and its buffers.
type worker struct {
	n         *Navigator
	q         *query.Query
	refs      []navmesh.Ref
	points    []query.StraightPathPoint
	crossings []query.StraightPathPoint
	goals     []query.Goal
	goalIndex []int
	// The search state of SamplePosition and IsOnMesh, read by visit.
	pos       geom.Vec3
	best      Sample
	found     bool
	tolerance float32
	visitNear func(*navmesh.Tile, []navmesh.Ref)
	visitOn   func(*navmesh.Tile, []navmesh.Ref)
}

// New returns a Navigator on mesh, after checking config.
func New(mesh *navmesh.Mesh, config Config) (*Navigator, error) {
	if mesh == nil {
		return nil, fmt.Errorf("%w: nil mesh", ErrInvalidInput)
	}
	c := config
	switch {
	case c.MaxNodes < 0 || c.MaxNodes > query.MaxNodes:
		return nil, fmt.Errorf("%w: MaxNodes %d, want 0..%d", ErrInvalidInput, c.MaxNodes, query.MaxNodes)
	case c.NodeLimit < 0 || c.NodeLimit > query.MaxNodes:
		return nil, fmt.Errorf("%w: NodeLimit %d, want 0..%d", ErrInvalidInput, c.NodeLimit, query.MaxNodes)
	case c.MaxPath < 0 || c.MaxPath > 1<<20:
		return nil, fmt.Errorf("%w: MaxPath %d, want 0..%d", ErrInvalidInput, c.MaxPath, 1<<20)
	case c.SearchHalfExtents != (geom.Vec3{}) && !(geom.IsFinite(c.SearchHalfExtents) &&
		c.SearchHalfExtents[0] > 0 && c.SearchHalfExtents[1] > 0 && c.SearchHalfExtents[2] > 0):
		return nil, fmt.Errorf("%w: SearchHalfExtents %v, want finite numbers > 0", ErrInvalidInput, c.SearchHalfExtents)
	}
	if c.MaxNodes == 0 {
		c.MaxNodes = DefaultMaxNodes
	}
	if c.NodeLimit == 0 {
		c.NodeLimit = DefaultNodeLimit
	}
	c.NodeLimit = max(c.NodeLimit, c.MaxNodes)
	if c.MaxPath == 0 {
		c.MaxPath = DefaultMaxPath
	}
	if c.SearchHalfExtents == (geom.Vec3{}) {
		c.SearchHalfExtents = geom.Vec3{2, 4, 2}
	}
	n := &Navigator{mesh: mesh, config: c, climb: minClimb}
	for tile := range mesh.Snapshot().Tiles() {
		if tile.Data != nil {
			n.climb = max(n.climb, tile.Data.Header.WalkableClimb)
		}
	}
	w, err := n.newWorker()
	if err != nil {
		return nil, err
	}
	n.pool.Put(w)
	return n, nil
}

// Mesh returns the navmesh the Navigator answers on.
func (n *Navigator) Mesh() *navmesh.Mesh { return n.mesh }

// Config returns the Navigator's configuration, defaults filled in.
func (n *Navigator) Config() Config { return n.config }

func (n *Navigator) newWorker() (*worker, error) {
	q, err := query.New(n.mesh, n.config.MaxNodes)
	if err != nil {
		return nil, fmt.Errorf("navquery: %w", err)
	}
	if err := q.SetNodeLimit(n.config.NodeLimit); err != nil {
		return nil, fmt.Errorf("navquery: %w", err)
	}
	w := &worker{n: n, q: q}
	w.visitNear = w.nearest
	w.visitOn = w.onMesh
	return w, nil
}

// get borrows a worker; put gives it back.
func (n *Navigator) get() (*worker, error) {
	if w, ok := n.pool.Get().(*worker); ok {
		return w, nil
	}
	return n.newWorker()
}

func (n *Navigator) put(w *worker) { n.pool.Put(w) }

// DefaultFilter returns the crowd's default filter (components.DefaultFilter):
// every polygon at cost 1 but those with navmesh.FlagDisabled (closed
// doors). Each call returns a new filter.
func DefaultFilter() *query.Filter {
	f := query.NewFilter()
	f.ExcludeFlags = navmesh.FlagDisabled
	return f
}

// filterOrDefault returns filter, or DefaultFilter for nil.
func filterOrDefault(filter *query.Filter) *query.Filter {
	if filter == nil {
		return DefaultFilter()
	}
	return filter
}

// everyPolygon is the filter IsOnMesh uses: every polygon is navmesh,
// whatever its flags.
var everyPolygon = query.Filter{IncludeFlags: 0xffff, AreaCost: func() (c [navmesh.MaxAreas]float32) {
	for i := range c {
		c[i] = 1
	}
	return c
}()}

// Sample is a point found on the navmesh.
type Sample struct {
	// Ref is the polygon the point lies on.
	Ref navmesh.Ref
	// Point is the point [Units: world units]
	Point geom.Vec3
	// Distance is its straight-line distance from the position asked
	// about [Units: world units]
	Distance float32
}

// SamplePosition returns the navmesh point nearest pos (in a straight
// line, in 3D) among the polygons filter passes (nil: DefaultFilter), when
// one lies within maxDistance of it (Unity's NavMesh.SamplePosition);
// found is false otherwise. The work grows with the polygons within
// maxDistance.
//
// maxDistance [Limit: > 0, finite] [Units: world units]
func (n *Navigator) SamplePosition(pos geom.Vec3, maxDistance float32, filter *query.Filter) (sample Sample, found bool, err error) {
	if !geom.IsFinite(pos) {
		return Sample{}, false, fmt.Errorf("%w: sample position: position %v", ErrInvalidInput, pos)
	}
	if !(maxDistance > 0) || math.IsInf(float64(maxDistance), 1) {
		return Sample{}, false, fmt.Errorf("%w: sample position: max distance %v, want a finite number > 0", ErrInvalidInput, maxDistance)
	}
	filter = filterOrDefault(filter)
	w, err := n.get()
	if err != nil {
		return Sample{}, false, err
	}
	defer n.put(w)
	w.pos, w.found = pos, false
	w.best = Sample{Distance: maxDistance}
	if err := w.q.QueryPolygonsFunc(pos, geom.Vec3{maxDistance, maxDistance, maxDistance}, filter, w.visitNear); err != nil {
		return Sample{}, false, fmt.Errorf("navquery: sample position: %w", err)
	}
	return w.best, w.found, nil
}

// nearest keeps the nearest polygon point within w.best.Distance.
func (w *worker) nearest(tile *navmesh.Tile, refs []navmesh.Ref) {
	for _, ref := range refs {
		poly := &tile.Polys[ref.PolyIndex()]
		if poly.Type() != navmesh.PolyTypeGround {
			continue
		}
		closest, _ := tile.ClosestPointOnPoly(poly, w.pos)
		if d := geom.Dist(w.pos, closest); d <= w.best.Distance && (!w.found || d < w.best.Distance) {
			w.best, w.found = Sample{Ref: ref, Point: closest, Distance: d}, true
		}
	}
}

// IsOnMesh reports whether pos lies on the navmesh: within tolerance
// (seen from above) of a polygon, any polygon whatever its flags, and
// within tolerance plus that tile's walkable climb above or below its
// surface there. A point on a polygon's edge or vertex is on the mesh with
// a tolerance of 0 (rounding is allowed for). NaN or infinite input, or a
// negative tolerance, is not on the mesh.
//
// tolerance [Limit: >= 0, finite] [Units: world units]
func (n *Navigator) IsOnMesh(pos geom.Vec3, tolerance float32) bool {
	if !geom.IsFinite(pos) || !(tolerance >= 0) || math.IsInf(float64(tolerance), 1) {
		return false
	}
	w, err := n.get()
	if err != nil {
		return false
	}
	defer n.put(w)
	w.pos, w.found = pos, false
	w.tolerance = tolerance + edgeSlack(pos)
	box := geom.Vec3{w.tolerance, tolerance + n.climb, w.tolerance}
	if err := w.q.QueryPolygonsFunc(pos, box, &everyPolygon, w.visitOn); err != nil {
		return false
	}
	return w.found
}

// onMesh notes whether a polygon passes under or over w.pos within the
// tolerances.
func (w *worker) onMesh(tile *navmesh.Tile, refs []navmesh.Ref) {
	if w.found {
		return
	}
	climb := tile.Data.Header.WalkableClimb
	for _, ref := range refs {
		poly := &tile.Polys[ref.PolyIndex()]
		if poly.Type() != navmesh.PolyTypeGround {
			continue
		}
		closest, _ := tile.ClosestPointOnPoly(poly, w.pos)
		if geom.Dist2D(w.pos, closest) <= w.tolerance && geom.Abs(w.pos[1]-closest[1]) <= w.tolerance+climb {
			w.found = true
			return
		}
	}
}

// edgeSlack is how far from a polygon seen from above a point may lie and
// still count as on it with no tolerance: a few float32 roundings of its
// coordinates.
func edgeSlack(pos geom.Vec3) float32 {
	return float32(4e-7 * max(1, geom.Abs(pos[0]), geom.Abs(pos[2]))) // rounded: added to a tolerance
}
