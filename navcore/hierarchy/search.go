package hierarchy

import (
	"fmt"
	"math"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// heuristicScale scales the straight-line distance to the goal that the A*
// searches add to a node's cost, as in query.Query.FindPath.
const heuristicScale = float32(0.999)

// Fallback says why plain A* answered a search instead of the hierarchy.
type Fallback uint8

const (
	// FallbackNone: the hierarchy answered.
	FallbackNone Fallback = iota
	// FallbackFilter: no hierarchy of the Searcher has the filter's cost
	// model (see Hierarchy.Matches).
	FallbackFilter
	// FallbackStartExcluded: the start polygon fails the filter (A* may
	// still leave it).
	FallbackStartExcluded
	// FallbackOneWay: the start's connected component holds a one-way
	// off-mesh connection, so reaching the goal is a question of
	// direction, which the hierarchy's components do not answer.
	FallbackOneWay
	// FallbackRoute: the hierarchy's route was not confirmed on the
	// polygons (a border link without its way back, as when a tile runs
	// out of links).
	FallbackRoute
)

// String returns the fallback's name.
func (f Fallback) String() string {
	switch f {
	case FallbackNone:
		return "none"
	case FallbackFilter:
		return "filter"
	case FallbackStartExcluded:
		return "start excluded"
	case FallbackOneWay:
		return "one-way"
	case FallbackRoute:
		return "route"
	}
	return fmt.Sprintf("Fallback(%d)", uint8(f))
}

// Result describes a finished search.
type Result struct {
	// Count is the number of polygons written to the path.
	Count int
	// Status has query.StatusPartial when the goal is out of reach (the
	// corridor then leads to the polygon Searcher.FindPath documents) and
	// query.StatusBufferTooSmall when the corridor was cut to fit; a plain
	// A* answer has FindPath's status.
	Status query.Status
	// Fallback is why plain A* answered, FallbackNone when the hierarchy
	// did.
	Fallback Fallback
	// NodesVisited counts the nodes the search closed: ports, cluster
	// nodes and polygons (plain A* answers count 0).
	NodesVisited int
}

// phase is where a Searcher's search stands.
type phase uint8

const (
	phaseNone     phase = iota // no search, or finalized
	phaseFailed                // failed with an error; must start again
	phaseAbstract              // A* over ports and clusters
	phaseStitch                // the corridor stitched from the route's kept ways
	phaseRefine                // A* over the polygons of the route's tiles
	phasePlain                 // plain sliced A* on the Query
	phaseDone                  // corridor ready
)

// Searcher plans paths with the hierarchies it was given, falling back to
// plain A* on its query.Query for filters none of them matches. It holds
// the working memory of one search at a time, so, like a query.Query, it
// belongs to one goroutine; any number of Searchers may share the
// hierarchies. In steady state a search allocates nothing (the working
// memory grows to the largest search seen and stays).
type Searcher struct {
	query       *query.Query
	mesh        *navmesh.Mesh
	hierarchies []*Hierarchy

	// The search in progress.
	phase            phase
	h                *Hierarchy
	v                *version
	snap             *navmesh.Snapshot
	filter           *query.Filter
	startRef, endRef navmesh.Ref
	startPos, endPos geom.Vec3
	goalRef          navmesh.Ref // endRef, or the nearest reachable polygon
	goalPos          geom.Vec3
	status           query.Status
	fallback         Fallback
	visited          int
	// The nodes each part of the search closed, for tests.
	localSettled, abstractClosed, refineClosed int
	// unpaid counts the nodes closed outside the iterations (by
	// InitSlicedFindPath, and by the searches joining a stitched corridor)
	// that no update has counted yet.
	unpaid int

	// The search over ports and clusters. Its nodes are numbered: the
	// cluster nodes of the version first (clusterNodeBase), then the ports
	// of the tiles of the start and goal clusters, searched on the bottom
	// level (l0Base+l0Offset[slot]+port), then the start and the goal.
	nodes        []abstractNode
	origins      []nodeOrigin // per node
	l0Offset     []uint32     // per slot of the start and goal clusters
	heap         []heapEntry
	gen          uint32
	l0Base       int32
	startNode    int32
	goalNode     int32
	startSlot    uint32
	goalSlot     uint32
	startCluster uint32
	goalCluster  uint32
	// startRegion and goalRegion are the regions searched on the cluster
	// level; every other is crossed on the region level, when useRegions.
	startRegion uint32
	goalRegion  uint32
	useRegions  bool
	startCosts  []float32 // per port of the start tile
	goalCosts   []float32 // per port of the goal tile
	directCost  float32   // start to goal inside the start tile
	// startSearch and goalSearch are the searches inside the start and
	// goal tiles, kept for stitching; local joins pieces of a corridor.
	startSearch    tileSearch
	goalSearch     tileSearch
	local          tileSearch
	startCrossings []searchCrossing
	goalCrossings  []searchCrossing
	landmarks      *landmarks
	// goalLow and goalHigh hold, per landmark, a lower and an upper bound
	// of its cost to the goal in landmark steps (see boundGoal);
	// goalBoundCosts is their working memory.
	goalLow, goalHigh []int32
	goalBoundCosts    []float32
	goalBounded       bool // goalLow and goalHigh are computed
	// goalCluster's ports (its bottom level numbered as l0Offset says):
	// the cost of the cheapest way from each to the goal inside the
	// cluster, the slot of each, and the open list of that search.
	goalPortCosts  []float32
	goalPortNext   []int32 // per port: the next one on its way, -1 in the goal tile
	goalPortSlots  []uint32
	goalHeap       []heapEntry
	goalPortsReady bool // goalPortCosts and goalPortNext are computed
	// goalByCluster is set when the start and goal clusters are far apart
	// (farApart): the goal cluster's ports are then not searched one by
	// one; a port entered from another cluster goes on to the goal at its
	// goalPortCosts and through the cluster's graph to its other boundary
	// ports. goalInside is set while the goal's cheapest way so far ends
	// so.
	goalByCluster bool
	goalInside    bool
	allowed       []uint32 // per slot: gen when the refinement may enter it
	routeTiles    []uint32
	touches       []uint32 // per slot: gen once a route tile links to it

	refine refineSearch
	// route is the route of the search over ports and clusters, start to
	// goal; stitch the corridor stitched from it, used when stitched.
	route    []int32
	stitch   stitcher
	stitched bool
}

// abstractNode is a port in the search over ports and clusters: what the
// search reads and writes at every step, kept small so that the nodes a
// search touches share cache lines. Where it came from is in its
// nodeOrigin.
type abstractNode struct {
	cost, heuristic float32
	gen             uint32
	// heapIndex is its place on the open list, notOnList off it and
	// closedNode once closed.
	heapIndex int32
}

// Marks of abstractNode.heapIndex for a node off the open list.
const (
	notOnList  = -1
	closedNode = -2
)

// nodeOrigin says which port an abstractNode is and how the search
// reached it, for the route.
type nodeOrigin struct {
	parent int32
	// via is the cluster edge (of the parent's cluster) or the region
	// edge (of the parent's region, see regionVia) it was reached
	// through; -1 for a step of the bottom level.
	via int32
	// a and b name the port: its tile's slot and its index there for a
	// node of the bottom level, its cluster number and node index there
	// for a cluster node.
	a, b uint32
}

// regionVia is the via of a node reached through region edge k; viaEdge
// undoes it.
func regionVia(k int) int32 { return -2 - int32(k) }

// viaEdge returns the edge a node was reached through: a cluster edge,
// or with region a region edge; ok is false for a step of the bottom
// level.
func viaEdge(via int32) (k int, region, ok bool) {
	switch {
	case via >= 0:
		return int(via), false, true
	case via <= -2:
		return int(-2 - via), true, true
	}
	return 0, false, false
}

// heapEntry is a node on an open list with the total cost it was pushed
// with. The Searcher's list keeps each node once (abstractNode.heapIndex);
// the other lists keep no place per node: a node whose cost drops is
// pushed again, and entries whose total no longer matches, or whose node
// is closed, are skipped when they come out.
type heapEntry struct {
	total float32
	node  int32
}

// NewSearcher returns a Searcher that plans with hierarchies (each
// belonging to the mesh of q) and falls back on q, which it then owns
// like its other working memory. The error wraps ErrInvalidParam for a
// nil query or hierarchy, or a hierarchy of another mesh.
func NewSearcher(q *query.Query, hierarchies ...*Hierarchy) (*Searcher, error) {
	if q == nil {
		return nil, fmt.Errorf("hierarchy: new searcher: nil query: %w", ErrInvalidParam)
	}
	for i, h := range hierarchies {
		if h == nil {
			return nil, fmt.Errorf("hierarchy: new searcher: hierarchy %d is nil: %w", i, ErrInvalidParam)
		}
		if h.mesh != q.Mesh() {
			return nil, fmt.Errorf("hierarchy: new searcher: hierarchy %d follows another mesh than the query: %w", i, ErrInvalidParam)
		}
	}
	s := &Searcher{query: q, mesh: q.Mesh(), hierarchies: slices.Clone(hierarchies)}
	for _, h := range hierarchies {
		if v := h.latest.Load(); v != nil {
			s.reserve(v)
		}
	}
	return s, nil
}

// reserve sizes the working memory that grows with the level for searches
// on version v: the nodes of the search over ports and clusters (every
// cluster node and the ports of the two largest clusters), the marks per
// tile slot and the searches inside one tile (a state per link). A crowd makes its Searchers before its first tick, so
// that the first searches of a mass spawn do not grow them all at once.
func (s *Searcher) reserve(v *version) {
	var largest [2]int // ports of the two largest clusters
	for _, c := range v.clusters {
		if c == nil {
			continue
		}
		ports := 0
		for _, g := range c.tiles {
			ports += len(g.ports)
		}
		switch {
		case ports > largest[0]:
			largest = [2]int{ports, largest[0]}
		case ports > largest[1]:
			largest[1] = ports
		}
	}
	nodes := v.clusterNodes + largest[0] + largest[1] + 2
	if len(s.nodes) < nodes {
		s.nodes = append(s.nodes, make([]abstractNode, nodes-len(s.nodes))...)
		s.origins = append(s.origins, make([]nodeOrigin, nodes-len(s.origins))...)
	}
	if len(s.l0Offset) < len(v.slots) {
		s.l0Offset = append(s.l0Offset, make([]uint32, len(v.slots)-len(s.l0Offset))...)
	}
	if len(s.allowed) < len(v.slots) {
		s.allowed = append(s.allowed, make([]uint32, len(v.slots)-len(s.allowed))...)
	}
	links := 0 // the most links of a tile
	for _, e := range v.slots {
		if e.graph != nil {
			links = max(links, len(e.graph.tile.Links))
		}
	}
	s.startSearch.reserve(links)
	s.goalSearch.reserve(links)
	s.local.reserve(links)
}

// Query returns the Searcher's query.Query.
func (s *Searcher) Query() *query.Query { return s.query }

// Snapshot returns the mesh snapshot the search in progress works on, nil
// when there is none.
func (s *Searcher) Snapshot() *navmesh.Snapshot { return s.snap }

// HierarchyFor returns the Searcher's first hierarchy whose cost model
// filter has, nil when none has.
func (s *Searcher) HierarchyFor(filter *query.Filter) *Hierarchy {
	for _, h := range s.hierarchies {
		if h.Matches(filter) {
			return h
		}
	}
	return nil
}

// FindPath finds a polygon corridor from startRef to endRef and writes it
// into path, start first, as query.Query.FindPath does, so that
// FindStraightPath, corridors and the crowd take it unchanged.
//
// With a filter one of the Searcher's hierarchies matches, it searches the
// hierarchy: A* over the ports of the start and goal clusters and the
// cluster graphs between them, then A* over the polygons of the tiles
// that route crosses (the steps of FindPath: nodes at portal middles,
// costs from the filter). It reaches the goal whenever FindPath with an
// unlimited node pool does. When the goal is out of reach (in another
// connected component for the filter's flag rule, see query.Components),
// the corridor leads instead to the polygon of the start's component
// nearest endPos, the one query.Query.FindNearestPolyInComponent finds,
// and the status has query.StatusPartial; FindPath's corridor then ends
// at the polygon whose node came nearest endPos.
//
// Other filters, a start polygon the filter fails, and components with a
// one-way off-mesh connection fall back to the Query's FindPath (see
// Result.Fallback). A corridor longer than path keeps its first len(path)
// polygons with query.StatusBufferTooSmall. Errors are FindPath's.
func (s *Searcher) FindPath(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *query.Filter, path []navmesh.Ref) (Result, error) {
	if len(path) == 0 {
		return Result{}, fmt.Errorf("hierarchy: find path: empty path buffer: %w", ErrBufferTooSmall)
	}
	if err := s.begin(s.mesh.Snapshot(), startRef, endRef, startPos, endPos, filter, false); err != nil {
		return Result{}, err
	}
	if s.phase == phasePlain {
		return s.plainPath(path)
	}
	s.advance(math.MaxInt)
	if s.phase == phasePlain {
		return s.plainPath(path)
	}
	return s.finish(path)
}

// plainPath answers with the Query's FindPath towards the goal the search
// aims at.
func (s *Searcher) plainPath(path []navmesh.Ref) (Result, error) {
	n, status, err := s.query.FindPath(s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter, path)
	fallback, aimed := s.fallback, s.status
	s.clearSearch()
	if err != nil {
		return Result{}, fmt.Errorf("hierarchy: find path: %w", err)
	}
	return Result{Count: n, Status: status | aimed, Fallback: fallback}, nil
}

// begin checks a search's arguments and prepares it: the goal it aims at,
// the searches inside the start and goal tiles and the first node. It
// leaves the Searcher in phaseAbstract, phaseDone or phasePlain (with the
// fallback set and the Query's sliced search started when sliced).
func (s *Searcher) begin(snap *navmesh.Snapshot, startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *query.Filter, sliced bool) error {
	s.clearSearch()
	s.localSettled, s.abstractClosed, s.refineClosed, s.unpaid = 0, 0, 0, 0
	s.phase = phaseFailed
	switch {
	case !snap.IsValid(startRef):
		return fmt.Errorf("hierarchy: find path: start ref %#x: %w", uint64(startRef), ErrInvalidRef)
	case !snap.IsValid(endRef):
		return fmt.Errorf("hierarchy: find path: end ref %#x: %w", uint64(endRef), ErrInvalidRef)
	case !geom.IsFinite(startPos) || !geom.IsFinite(endPos):
		return fmt.Errorf("hierarchy: find path: positions %v, %v are not finite: %w", startPos, endPos, ErrInvalidParam)
	case filter == nil:
		return fmt.Errorf("hierarchy: find path: nil filter: %w", ErrInvalidParam)
	}
	s.snap, s.filter = snap, filter
	s.startRef, s.endRef, s.startPos, s.endPos = startRef, endRef, startPos, endPos
	s.goalRef, s.goalPos = endRef, endPos
	if startRef == endRef {
		s.phase = phaseDone
		return nil
	}
	s.h = s.HierarchyFor(filter)
	if s.h == nil {
		return s.plain(FallbackFilter, sliced)
	}
	model := &s.h.model

	conn := snap.FlagConnectivity(model.include, model.exclude)
	component := conn.Component(startRef)
	if component == 0 {
		return s.plain(FallbackStartExcluded, sliced)
	}
	if info, _ := conn.Info(component); info.OneWay {
		return s.plain(FallbackOneWay, sliced)
	}
	if conn.Component(endRef) != component {
		nearest, err := s.query.FindNearestPolyInComponent(startRef, endPos, filter)
		if err != nil {
			return fmt.Errorf("hierarchy: find path: %w", err)
		}
		s.status = query.StatusPartial
		if nearest.Ref == 0 || nearest.Ref == startRef || !snap.IsValid(nearest.Ref) {
			s.goalRef, s.goalPos = startRef, startPos
			s.phase = phaseDone
			return nil
		}
		s.goalRef, s.goalPos = nearest.Ref, nearest.Point
	}

	s.v = s.h.versionFor(snap)
	s.startSlot, s.goalSlot = startRef.TileIndex(), s.goalRef.TileIndex()
	s.startCluster = s.v.slots[s.startSlot].cluster
	s.goalCluster = s.v.slots[s.goalSlot].cluster
	s.startRegion = s.v.clusterRegion[s.startCluster]
	s.goalRegion = s.v.clusterRegion[s.goalCluster]
	s.useRegions = s.h.regionSize > 1
	s.connectStart()
	s.connectGoal()
	s.landmarks, s.goalBounded = s.v.landmarksOf(), false
	s.openAbstract()
	s.goalPortsReady, s.goalInside = false, false
	s.goalByCluster = farApart(s.v.clusters[s.startCluster].key, s.v.clusters[s.goalCluster].key)
	if s.goalByCluster {
		s.goalClusterCosts()
	}
	s.unpaid = s.localSettled
	s.phase = phaseAbstract
	return nil
}

// plain hands the search to the Query's A*, saying why.
func (s *Searcher) plain(why Fallback, sliced bool) error {
	s.fallback = why
	s.phase = phasePlain
	if !sliced {
		return nil
	}
	status, err := s.query.InitSlicedFindPath(s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter, 0)
	if err != nil {
		s.phase = phaseFailed
		return fmt.Errorf("hierarchy: find path: %w", err)
	}
	if !status.InProgress() {
		// Start and goal are one polygon: nothing to search.
		s.phase = phasePlain
	}
	return nil
}

// clearSearch forgets the search in progress (but not the working memory).
func (s *Searcher) clearSearch() {
	s.phase = phaseNone
	s.h, s.v, s.snap, s.filter = nil, nil, nil, nil
	s.status, s.fallback, s.visited = 0, FallbackNone, 0
	s.stitched = false
	// An idle Searcher keeps no tile: a tile the mesh has replaced since
	// would stay in memory as long as the Searcher waits for its next
	// search.
	s.startSearch.release()
	s.goalSearch.release()
	s.local.release()
	s.stitch.enteredTile = nil
}

// tileCrossings fills *buf with the crossings of the tile of graph g,
// with their portal middles.
func (s *Searcher) tileCrossings(g *tileGraph, buf *[]searchCrossing) []searchCrossing {
	crossings := (*buf)[:0]
	t := g.tile
	base := t.PolyRefBase()
	add := func(p int, c crossing, other *tileGraph) {
		poly := &t.Polys[c.from]
		link := findLink(t, poly, other.tile.PolyRefBase()|navmesh.Ref(c.to))
		if link == nil {
			return
		}
		mid := portalMid(t, poly, link, base|navmesh.Ref(c.from), other.tile, &other.tile.Polys[c.to])
		crossings = append(crossings, searchCrossing{poly: c.from, port: uint32(p), mid: mid})
	}
	for p := range g.ports {
		other := s.v.slots[g.ports[p].neighbour].graph
		if other == nil {
			continue
		}
		add(p, g.ports[p].first(), other)
		for _, x := range g.extraOf(p) {
			add(p, x.crossing, other)
		}
	}
	*buf = crossings
	return crossings
}

// connectStart searches the start tile from the start position: the
// costs of leaving through each port and, when the goal lies in the same
// tile, of reaching it there.
func (s *Searcher) connectStart() {
	g := s.v.slots[s.startSlot].graph
	crossings := s.tileCrossings(g, &s.startCrossings)
	search := &s.startSearch
	search.reset(g.tile, &s.h.model, crossings, g.ports)
	search.addSource(s.startRef.PolyIndex(), s.startPos, 0)
	goal := uint32(noGoal)
	if s.goalSlot == s.startSlot {
		goal = s.goalRef.PolyIndex()
	}
	search.run(goal, s.goalPos)
	s.visited += search.settled
	s.localSettled += search.settled
	s.startCosts = append(s.startCosts[:0], search.portCost...)
	s.directCost = search.goalCost
}

// connectGoal searches the goal tile from the goal: the cost of the way
// between each port and the goal. The steps cost the same either way (a
// leg's length times the area cost of the polygon it crosses), and the
// links of a component without one-way connections go both ways, so one
// search from the goal gives the cost of reaching it from every port.
func (s *Searcher) connectGoal() {
	g := s.v.slots[s.goalSlot].graph
	crossings := s.tileCrossings(g, &s.goalCrossings)
	search := &s.goalSearch
	search.reset(g.tile, &s.h.model, crossings, g.ports)
	search.addSource(s.goalRef.PolyIndex(), s.goalPos, 0)
	search.run(noGoal, geom.Vec3{})
	s.visited += search.settled
	s.localSettled += search.settled
	s.goalCosts = append(s.goalCosts[:0], search.portCost...)
}

// openAbstract readies the search over ports and clusters and opens the
// start.
func (s *Searcher) openAbstract() {
	v := s.v
	s.l0Base = int32(v.clusterNodes)
	if len(s.l0Offset) < len(v.slots) {
		s.l0Offset = append(s.l0Offset, make([]uint32, len(v.slots)-len(s.l0Offset))...)
	}
	ports := uint32(0)
	for _, number := range [2]uint32{s.startCluster, s.goalCluster} {
		if number == s.goalCluster && number == s.startCluster && ports > 0 {
			break
		}
		for _, g := range v.clusters[number].tiles {
			s.l0Offset[g.tile.Index()] = ports
			ports += uint32(len(g.ports))
		}
	}
	total := v.clusterNodes + int(ports) + 2
	if len(s.nodes) < total {
		s.nodes = append(s.nodes, make([]abstractNode, total-len(s.nodes))...)
		s.origins = append(s.origins, make([]nodeOrigin, total-len(s.origins))...)
	}
	s.nextGen()
	s.heap = s.heap[:0]
	s.startNode = s.l0Base + int32(ports)
	s.goalNode = s.startNode + 1
	start := &s.nodes[s.startNode]
	*start = abstractNode{heuristic: distance(&s.startPos, &s.goalPos) * heuristicScale, heapIndex: notOnList, gen: s.gen}
	s.origins[s.startNode] = nodeOrigin{parent: -1, via: -1}
	s.push(s.startNode, start.heuristic)
}

// nextGen starts a new generation of node marks, clearing them all when
// the counter wraps.
func (s *Searcher) nextGen() {
	s.gen++
	if s.gen == 0 {
		for i := range s.nodes {
			s.nodes[i].gen = 0
		}
		clear(s.allowed)
		s.gen = 1
	}
}

// advance runs the search for up to iterations closed nodes and returns
// how many it used.
func (s *Searcher) advance(iterations int) int {
	used := 0
	for used < iterations {
		switch s.phase {
		case phaseAbstract:
			n, done := s.abstractSteps(iterations - used)
			used += n
			if !done {
				continue
			}
			if goal := &s.nodes[s.goalNode]; goal.gen != s.gen || goal.heapIndex != closedNode {
				s.routeFailed()
				return used
			}
			s.openStitch()
			s.phase = phaseStitch
		case phaseStitch:
			n, done := s.stitchSteps(iterations - used)
			used += n
			if !done {
				continue
			}
			if !s.stitch.failed {
				s.stitched = true
				s.phase = phaseDone
				return used
			}
			s.allowRoute()
			s.refine.open(s)
			s.phase = phaseRefine
		case phaseRefine:
			n, done := s.refine.steps(s, iterations-used)
			used += n
			if !done {
				continue
			}
			if !s.refine.reached {
				s.routeFailed()
				return used
			}
			s.phase = phaseDone
		default:
			return used
		}
	}
	return used
}

// routeFailed hands the search to plain A* after the hierarchy's route
// did not hold (see FallbackRoute).
func (s *Searcher) routeFailed() {
	s.fallback = FallbackRoute
	s.phase = phasePlain
}

// abstractSteps closes up to iterations nodes of the search over ports
// and clusters; done is set when the goal is closed or nothing is open.
func (s *Searcher) abstractSteps(iterations int) (used int, done bool) {
	for used < iterations {
		u, ok := s.pop()
		if !ok {
			return used, true
		}
		s.nodes[u].heapIndex = closedNode
		used++
		s.visited++
		s.abstractClosed++
		if u == s.goalNode {
			return used, true
		}
		s.expand(u)
	}
	return used, false
}

// expand relaxes the edges of node u.
func (s *Searcher) expand(u int32) {
	v := s.v
	cost := s.nodes[u].cost
	if u == s.startNode {
		g := v.slots[s.startSlot].graph
		for p, c := range s.startCosts {
			if c < float32(math.Inf(1)) {
				s.reachPort(s.startSlot, uint32(p), &g.ports[p].rep, c, u, -1)
			}
		}
		if s.directCost < float32(math.Inf(1)) {
			s.reachGoal(s.directCost, u, false)
		}
		return
	}
	if u < s.l0Base {
		number, node := s.origins[u].a, s.origins[u].b
		if region := v.clusterRegion[number]; s.useRegions && region != s.startRegion && region != s.goalRegion {
			// A port entered from another region: through the region's
			// graph to the ports beyond its other border ports.
			r := v.regions[region]
			from := r.localOf(number, node)
			if from < 0 {
				return
			}
			first, end := r.edgesOf(from)
			for k := first; k < end; k++ {
				e := &r.edges[k]
				exit := &r.nodes[e.to]
				twins := v.links[exit.cluster].twinsOf(int(exit.node))
				for i := range twins {
					t := &twins[i]
					s.reachClusterNode(t.cluster, t.node, nil, cost+e.cost+t.cost, u, regionVia(k))
				}
			}
			return
		}
		// A port entered from another cluster: through the cluster's
		// graph to the ports beyond its other boundary ports.
		s.crossCluster(u, number, node, cost)
		return
	}
	slot, p := s.origins[u].a, s.origins[u].b
	entry := &v.slots[slot]
	if s.goalByCluster && entry.cluster == s.goalCluster {
		s.expandGoalPort(u, entry, p, cost)
		return
	}

	// The bottom level: through the tile, and across the border.
	g := entry.graph
	for _, e := range g.edgesOf(int(p)) {
		s.reachPort(slot, uint32(e.to), &g.ports[e.to].rep, cost+e.cost, u, -1)
	}
	if slot == s.goalSlot {
		if c := s.goalCosts[p]; c < float32(math.Inf(1)) {
			s.reachGoal(cost+c, u, false)
		}
	}
	port := &g.ports[p]
	other := v.slots[port.neighbour].graph
	if other == nil {
		return
	}
	model := &s.h.model
	last := -1
	step := func(x crossing) {
		if int(x.to) >= len(other.tile.Polys) || !model.passes(&other.tile.Polys[x.to]) {
			return
		}
		q, ok := other.entryPort(slot, x.from, x.to)
		if !ok || q == last {
			return
		}
		last = q
		rep := &other.ports[q].rep
		s.reachPort(port.neighbour, uint32(q), rep, cost+distance(&port.rep, rep), u, -1)
	}
	step(port.first())
	for _, x := range g.extraOf(int(p)) {
		step(x.crossing)
	}
}

// reachPort records that port port of the tile in slot, whose
// representative point is rep, is reached from node parent (through
// cluster edge via, or -1) at cost, unless it has a cheaper way already.
// A port of the start or goal cluster is a node of the bottom level; any
// other is the cluster node it is (only boundary ports are reached there).
func (s *Searcher) reachPort(slot, port uint32, rep *geom.Vec3, cost float32, parent, via int32) {
	entry := &s.v.slots[slot]
	if entry.cluster != s.startCluster && entry.cluster != s.goalCluster {
		if int32(port) < entry.graph.boundaryPorts {
			s.reachClusterNode(entry.cluster, entry.boundaryBase+port, rep, cost, parent, via)
		}
		return
	}
	s.reachNode(s.l0Base+int32(s.l0Offset[slot]+port), slot, port, rep, cost, parent, via)
}

// reachClusterNode is reachPort for node node of cluster number; rep
// may be nil, for the port's own.
func (s *Searcher) reachClusterNode(number, node uint32, rep *geom.Vec3, cost float32, parent, via int32) {
	if number == s.startCluster || number == s.goalCluster {
		n := &s.v.clusters[number].nodes[node]
		if rep == nil {
			rep = &s.v.slots[n.slot].graph.ports[n.port].rep
		}
		s.reachNode(s.l0Base+int32(s.l0Offset[n.slot]+n.port), n.slot, n.port, rep, cost, parent, via)
		return
	}
	s.reachNode(int32(s.v.clusterNodeBase[number]+node), number, node, rep, cost, parent, via)
}

// reachNode records that node i, named (a, b), is reached at cost; rep,
// the node's representative point, may be nil for a cluster node.
func (s *Searcher) reachNode(i int32, a, b uint32, rep *geom.Vec3, cost float32, parent, via int32) {
	n := &s.nodes[i]
	if n.gen != s.gen {
		var h float32
		if i < s.l0Base && s.landmarks != nil && !s.goalBounded {
			// The first cluster node of the search: short searches,
			// which stay in the start and goal clusters, skip this.
			s.boundGoal()
		}
		switch {
		case i < s.l0Base && s.landmarks != nil && rep == nil:
			// The landmarks' bound first: when it beats the distance to
			// the farthest of the cluster's ports, the port's own point
			// (three reads away) cannot raise it.
			h = s.landmarkBound(int(i), 0)
			c := s.v.clusters[a]
			if h < c.farthest(&s.goalPos)*heuristicScale {
				node := &c.nodes[b]
				h = max(h, distance(&s.v.slots[node.slot].graph.ports[node.port].rep, &s.goalPos)*heuristicScale)
			}
		default:
			if rep == nil {
				c := &s.v.clusters[a].nodes[b]
				rep = &s.v.slots[c.slot].graph.ports[c.port].rep
			}
			h = distance(rep, &s.goalPos) * heuristicScale
			switch {
			case i < s.l0Base && s.landmarks != nil:
				h = s.landmarkBound(int(i), h)
			case s.goalByCluster && s.landmarks != nil:
				// A port of the bottom level in a far search: a boundary
				// port is a cluster node too, with the landmarks' costs.
				if entry := &s.v.slots[a]; int32(b) < entry.graph.boundaryPorts {
					if !s.goalBounded {
						s.boundGoal()
					}
					h = s.landmarkBound(int(s.v.clusterNodeBase[entry.cluster]+entry.boundaryBase+b), h)
				}
			}
		}
		*n = abstractNode{cost: float32(math.Inf(1)), heuristic: h, heapIndex: notOnList, gen: s.gen}
	}
	if cost >= n.cost {
		return
	}
	n.cost = cost
	s.origins[i] = nodeOrigin{parent: parent, via: via, a: a, b: b}
	s.push(i, cost+n.heuristic)
}

// expandGoalPort relaxes the edges of node u, port p of a tile of the goal
// cluster (entry) entered from another cluster, when goalByCluster: on to
// the goal along the cheapest way inside the cluster, and through the
// cluster's graph to the ports beyond its other boundary ports, which
// covers every way that leaves the cluster and comes back.
func (s *Searcher) expandGoalPort(u int32, entry *slotEntry, p uint32, cost float32) {
	slot := s.origins[u].a
	if c := s.goalPortCosts[s.l0Offset[slot]+p]; c < float32(math.Inf(1)) {
		s.reachGoal(cost+c, u, true)
	}
	if int32(p) >= entry.graph.boundaryPorts {
		return // not entered from another cluster (cannot happen)
	}
	s.crossCluster(u, s.goalCluster, entry.boundaryBase+p, cost)
}

// crossCluster relaxes the ways from node u, node node of cluster number
// entered from another cluster at cost, through the cluster's graph to
// the ports beyond its other boundary ports.
func (s *Searcher) crossCluster(u int32, number, node uint32, cost float32) {
	c, links := s.v.clusters[number], s.v.links[number]
	first, end := c.edgesOf(int(node))
	for k := first; k < end; k++ {
		e := &c.edges[k]
		twins := links.twinsOf(int(e.to))
		for i := range twins {
			t := &twins[i]
			s.reachClusterNode(t.cluster, t.node, nil, cost+e.cost+t.cost, u, int32(k))
		}
	}
}

// reachGoal records that the goal is reached from node parent at cost;
// inside says the way goes on from the parent, a port of the goal
// cluster, along goalPortNext.
func (s *Searcher) reachGoal(cost float32, parent int32, inside bool) {
	n := &s.nodes[s.goalNode]
	if n.gen != s.gen {
		*n = abstractNode{cost: float32(math.Inf(1)), heapIndex: notOnList, gen: s.gen}
	}
	if cost >= n.cost {
		return
	}
	n.cost = cost
	s.origins[s.goalNode] = nodeOrigin{parent: parent, via: -1}
	s.goalInside = inside
	s.push(s.goalNode, cost)
}

// farApart reports whether clusters a and b are neither the same nor
// neighbours (diagonals included). A search between neighbours closes few
// of the goal cluster's ports, fewer than goalClusterCosts settles, so it
// searches them one by one.
func farApart(a, b clusterKey) bool {
	return max(abs32(a.x-b.x), abs32(a.y-b.y)) > 1
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// clusterNodeOf returns the cluster number and node index of node i, a
// cluster node or a boundary port of the start or goal cluster.
func (s *Searcher) clusterNodeOf(i int32) (number, node uint32) {
	n := &s.origins[i]
	if i < s.l0Base {
		return n.a, n.b
	}
	entry := &s.v.slots[n.a]
	return entry.cluster, entry.boundaryBase + n.b
}

// allowRoute marks the tiles the refinement may search: those of the
// start and goal, of every port on the route and those each cluster edge
// on it crosses.
func (s *Searcher) allowRoute() {
	v := s.v
	if len(s.allowed) < len(v.slots) {
		s.allowed = append(s.allowed, make([]uint32, len(v.slots)-len(s.allowed))...)
	}
	route := append(s.routeTiles[:0], s.startSlot, s.goalSlot)
	for u := s.origins[s.goalNode].parent; u >= 0 && u != s.startNode; u = s.origins[u].parent {
		n := &s.origins[u]
		if u >= s.l0Base {
			route = append(route, n.a)
		} else {
			route = append(route, v.clusters[n.a].nodes[n.b].slot)
		}
		k, region, ok := viaEdge(n.via)
		if !ok {
			continue
		}
		// The edge belongs to the parent's cluster or region; the parent
		// is a cluster node.
		if region {
			for _, number := range v.regions[v.clusterRegion[s.origins[n.parent].a]].members {
				for _, g := range v.clusters[number].tiles {
					route = append(route, uint32(g.tile.Index()))
				}
			}
			continue
		}
		number, _ := s.clusterNodeOf(n.parent)
		c := v.clusters[number]
		mask, ok := c.mask(k)
		if !ok {
			for _, g := range c.tiles {
				route = append(route, uint32(g.tile.Index()))
			}
			continue
		}
		for ; mask != 0; mask &= mask - 1 {
			route = append(route, uint32(c.tiles[trailingZeros(mask)].tile.Index()))
		}
	}
	if s.goalInside {
		// The way inside the goal cluster, when it was not stitched.
		for _, g := range v.clusters[s.goalCluster].tiles {
			route = append(route, uint32(g.tile.Index()))
		}
	}
	s.routeTiles = route
	for _, slot := range route {
		s.allowed[slot] = s.gen
	}
}

// finish writes the corridor of a finished search into path.
func (s *Searcher) finish(path []navmesh.Ref) (Result, error) {
	result := Result{Status: s.status, Fallback: s.fallback, NodesVisited: s.visited}
	if s.phase != phaseDone {
		s.clearSearch()
		return Result{}, fmt.Errorf("hierarchy: finalize: %w", ErrNoSlicedQuery)
	}
	if s.v == nil {
		// Start and goal are one polygon, or the goal is the start.
		path[0] = s.startRef
		result.Count = 1
	} else if s.stitched {
		corridor := s.stitch.corridor
		result.Count = copy(path, corridor)
		if len(corridor) > len(path) {
			result.Status |= query.StatusBufferTooSmall
		}
	} else {
		var more query.Status
		result.Count, more = s.refine.writePath(path)
		result.Status |= more
	}
	s.clearSearch()
	return result, nil
}

// push puts node i on the open list with total cost total, or moves it
// up there when it is on it already (its total only ever drops). The
// list keeps each node once, at the place its heapIndex says.
func (s *Searcher) push(i int32, total float32) {
	n := &s.nodes[i]
	at := n.heapIndex
	if at < 0 {
		s.heap = append(s.heap, heapEntry{})
		at = int32(len(s.heap) - 1)
	}
	h := s.heap
	for at > 0 {
		parent := (at - 1) / 2
		if h[parent].total <= total {
			break
		}
		h[at] = h[parent]
		s.nodes[h[at].node].heapIndex = at
		at = parent
	}
	h[at] = heapEntry{total: total, node: i}
	n.heapIndex = at
}

// pop takes the cheapest open node off the open list; ok is false when
// none is left.
func (s *Searcher) pop() (int32, bool) {
	h := s.heap
	if len(h) == 0 {
		return 0, false
	}
	top := h[0].node
	s.nodes[top].heapIndex = notOnList
	last := h[len(h)-1]
	h = h[:len(h)-1]
	s.heap = h
	if len(h) == 0 {
		return top, true
	}
	at, n := 0, len(h)
	for {
		child := 2*at + 1
		if child >= n {
			break
		}
		if child+1 < n && h[child+1].total < h[child].total {
			child++
		}
		if h[child].total >= last.total {
			break
		}
		h[at] = h[child]
		s.nodes[h[at].node].heapIndex = int32(at)
		at = child
	}
	h[at] = last
	s.nodes[last.node].heapIndex = int32(at)
	return top, true
}

// pushEntry adds e to the binary heap h.
func pushEntry(h []heapEntry, e heapEntry) []heapEntry {
	h = append(h, e)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent].total <= e.total {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = e
	return h
}

// popEntry removes the cheapest entry of the binary heap h.
func popEntry(h []heapEntry) ([]heapEntry, heapEntry) {
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	n := len(h)
	if n == 0 {
		return h, top
	}
	i := 0
	for {
		child := 2*i + 1
		if child >= n {
			break
		}
		if child+1 < n && h[child+1].total < h[child].total {
			child++
		}
		if h[child].total >= last.total {
			break
		}
		h[i] = h[child]
		i = child
	}
	h[i] = last
	return h, top
}

// boundGoal computes, per landmark, a lower and an upper bound of its
// cost to the goal. Every way into the goal cluster enters at one of its
// nodes: the lower bound goes on from there at least the straight line to
// the goal, the upper bound along the cheapest way inside the cluster
// (goalClusterCosts, computed when the start is far from the goal; a
// short search goes without the upper bound). With both, a node's bound
// is two-sided (the costs go the same either way, see connectGoal): a
// landmark behind the start and one behind the goal both bound it.
func (s *Searcher) boundGoal() {
	s.goalBounded = true
	l := s.landmarks
	if l == nil || l.count == 0 {
		s.landmarks = nil
		return
	}
	c := s.v.clusters[s.goalCluster]
	base := int(s.v.clusterNodeBase[s.goalCluster])
	costs := slices.Grow(s.goalBoundCosts[:0], 2*l.count)[:2*l.count]
	s.goalBoundCosts = costs
	low, high := costs[:l.count], costs[l.count:]
	for k := range low {
		low[k], high[k] = float32(math.Inf(1)), float32(math.Inf(1))
	}
	for j := range c.nodes {
		n := &c.nodes[j]
		e := distance(&s.v.slots[n.slot].graph.ports[n.port].rep, &s.goalPos)
		inside := float32(math.Inf(1))
		if s.goalPortsReady {
			inside = s.goalPortCosts[s.l0Offset[n.slot]+n.port]
		}
		row := l.steps[(base+j)*l.count : (base+j+1)*l.count]
		for k, steps := range row {
			if steps == unreachable {
				continue
			}
			// One step off: the stored cost is rounded up.
			low[k] = min(low[k], float32(float32(int(steps)-1)*l.unit)+e)
			high[k] = min(high[k], float32(float32(steps)*l.unit)+inside)
		}
	}
	// In whole steps, so that a node's bound is two integer subtractions
	// per landmark (see landmarkBound). The lower bound is rounded down
	// and capped under unreachable, so that a node no way from the
	// landmark reaches gets no bound from it (a lower goal bound is still
	// one); a goal no way from the landmark reaches gets a bound no node
	// beats. The upper bound is rounded up with the node's step off added
	// (its stored cost is rounded up too), and is unreachable where it is
	// not known, so that it bounds nothing.
	s.goalLow = slices.Grow(s.goalLow[:0], l.count)[:l.count]
	s.goalHigh = slices.Grow(s.goalHigh[:0], l.count)[:l.count]
	for k := range low {
		s.goalLow[k], s.goalHigh[k] = -unreachable, unreachable
		if low[k] < float32(math.Inf(1)) {
			s.goalLow[k] = int32(min(max(math.Floor(float64(low[k]/l.unit)), 0), unreachable-1))
		}
		if high[k] < float32(math.Inf(1)) {
			s.goalHigh[k] = int32(min(math.Ceil(float64(high[k]/l.unit)), unreachable-1)) + 1
		}
	}
}

// goalClusterCosts fills goalPortCosts with the cost of the cheapest way
// from each port of the goal cluster to the goal inside the cluster: a
// Dijkstra from the goal tile's ports (connectGoal's costs) over the
// cluster's bottom level. The steps cost the same either way, so the
// search runs from the goal. Ways that leave the cluster and come back are
// not searched: the costs are upper bounds.
func (s *Searcher) goalClusterCosts() {
	v := s.v
	c := v.clusters[s.goalCluster]
	ports := 0
	slots := s.goalPortSlots[:0]
	for _, g := range c.tiles {
		for range g.ports {
			slots = append(slots, uint32(g.tile.Index()))
		}
		ports += len(g.ports)
	}
	s.goalPortSlots = slots
	offset := s.l0Offset[c.tiles[0].tile.Index()]
	costs := slices.Grow(s.goalPortCosts[:0], int(offset)+ports)[:int(offset)+ports]
	for i := range costs {
		costs[i] = float32(math.Inf(1))
	}
	s.goalPortCosts = costs
	next := slices.Grow(s.goalPortNext[:0], len(costs))[:len(costs)]
	s.goalPortNext = next
	heap := s.goalHeap[:0]
	goalBase := s.l0Offset[s.goalSlot]
	for p, cost := range s.goalCosts {
		if cost < float32(math.Inf(1)) {
			costs[goalBase+uint32(p)] = cost
			next[goalBase+uint32(p)] = -1
			heap = pushEntry(heap, heapEntry{total: cost, node: int32(goalBase) + int32(p)})
		}
	}
	model := &s.h.model
	settled := 0
	for len(heap) > 0 {
		var e heapEntry
		heap, e = popEntry(heap)
		if e.total > costs[e.node] {
			continue
		}
		settled++
		slot := slots[uint32(e.node)-offset]
		p := uint32(e.node) - s.l0Offset[slot]
		g := v.slots[slot].graph
		relax := func(to uint32, cost float32) {
			if cost < costs[to] {
				costs[to] = cost
				next[to] = e.node
				heap = pushEntry(heap, heapEntry{total: cost, node: int32(to)})
			}
		}
		for _, edge := range g.edgesOf(int(p)) {
			relax(s.l0Offset[slot]+uint32(edge.to), e.total+edge.cost)
		}
		port := &g.ports[p]
		beyond := &v.slots[port.neighbour]
		if beyond.cluster != s.goalCluster || beyond.graph == nil {
			continue
		}
		other := beyond.graph
		step := func(x crossing) {
			if int(x.to) >= len(other.tile.Polys) || !model.passes(&other.tile.Polys[x.to]) {
				return
			}
			if q, ok := other.entryPort(slot, x.from, x.to); ok {
				relax(s.l0Offset[port.neighbour]+uint32(q), e.total+distance(&port.rep, &other.ports[q].rep))
			}
		}
		step(port.first())
		for _, x := range g.extraOf(int(p)) {
			step(x.crossing)
		}
	}
	s.goalHeap = heap
	s.goalPortsReady = true
	s.visited += settled
	s.localSettled += settled
	s.unpaid += settled
}

// landmarkBound returns the larger of h and the landmarks' lower bound of
// the cost from cluster node i to the goal: per landmark, by the triangle
// inequality, the node is at least as far from the goal as the landmark's
// costs to the two differ. A node no way from a landmark reaches has that
// landmark's cost at unreachable steps, which gives no bound (goalLow
// stays under it, goalHigh at or over it).
func (s *Searcher) landmarkBound(i int, h float32) float32 {
	l := s.landmarks
	row := l.steps[i*l.count : (i+1)*l.count]
	low, high := s.goalLow[:len(row)], s.goalHigh[:len(row)]
	best := int32(0)
	for k, steps := range row {
		steps := int32(steps)
		best = max(best, low[k]-steps, steps-high[k])
	}
	return max(h, float32(best)*l.unit*heuristicScale)
}
