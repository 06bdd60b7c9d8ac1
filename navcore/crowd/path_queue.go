package crowd

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// PathQueueKeepAlive is how many Updates a finished result waits to be
// claimed with Result before its slot is reused (MAX_KEEP_ALIVE).
const PathQueueKeepAlive = 2

// MaxPathQueueSlots bounds PathQueueConfig.Slots.
const MaxPathQueueSlots = 256

// Errors of the path queue, for errors.Is.
var (
	// ErrUnknownRequest: the request id was never issued, was already
	// claimed or cancelled, or expired unclaimed.
	ErrUnknownRequest = errors.New("crowd: unknown path request")
	// ErrRequestPending: the request's search has not finished yet.
	ErrRequestPending = errors.New("crowd: path request still pending")
	// ErrQueueFull: every slot holds a request; try again after an Update.
	// It wraps ErrCapacity, and Request returns it as is, without
	// allocating.
	ErrQueueFull = fmt.Errorf("crowd: path request: all slots busy: %w", ErrCapacity)
)

// PathRequestID names a request to a PathQueue. 0 is never a valid id.
type PathRequestID uint32

// PathRequestState is where a request stands.
type PathRequestState uint8

// Request states.
const (
	// PathRequestUnknown: no such request (never issued, claimed, cancelled
	// or expired).
	PathRequestUnknown PathRequestState = iota
	// PathRequestWaiting: queued or being searched.
	PathRequestWaiting
	// PathRequestDone: the path is ready to be claimed with Result; it may
	// be partial.
	PathRequestDone
	// PathRequestFailed: the search failed (a polygon went away, ...); Result
	// returns why.
	PathRequestFailed
)

// String returns the state's name.
func (s PathRequestState) String() string {
	switch s {
	case PathRequestUnknown:
		return "unknown"
	case PathRequestWaiting:
		return "waiting"
	case PathRequestDone:
		return "done"
	case PathRequestFailed:
		return "failed"
	}
	return fmt.Sprintf("PathRequestState(%d)", uint8(s))
}

// PathQueueConfig sizes a PathQueue.
type PathQueueConfig struct {
	// Slots is how many requests can be queued or searched at once; each
	// slot owns a query.Query with its own node pool (the reference has 8
	// slots sharing one). [Limit: 1..MaxPathQueueSlots]
	Slots int
	// MaxPathSize is the most polygons a result holds [Limit: >= 1]. The
	// crowd uses 256.
	MaxPathSize int
	// MaxNodes is the node pool of each slot's search
	// [Limit: 1..query.MaxNodes]. The crowd uses 4096.
	MaxNodes int
	// NodeLimit lets each slot's node pool grow on a search that runs out
	// of nodes, doubling up to this many (query.Query.SetNodeLimit), so
	// that long paths on large levels come out complete; a grown pool
	// stays. 0 or MaxNodes keeps the pool at MaxNodes, as the reference
	// does [Limit: 0, or MaxNodes..query.MaxNodes]. The crowd uses 65536.
	NodeLimit int
	// MaxIterationsPerRequest caps the A* iterations one request may use;
	// a search that reaches it ends with the best partial path found so
	// far. 0 means MaxNodes, or twice NodeLimit when the pool may grow
	// (room for the searches that start again in a larger pool)
	// [Limit: >= 0].
	MaxIterationsPerRequest int
	// Hierarchy, when not nil, plans the requests whose filter has its cost
	// model with the hierarchical search (hierarchy.Searcher, which falls
	// back on the slot's query for other filters): an iteration then closes
	// a port, a cluster node or a polygon, and a long path takes far fewer
	// of them. It must follow the queue's mesh. nil plans with plain A*, as
	// the reference does, and so does ReferenceSchedule, which ignores it;
	// see also PathQueue.SetHierarchical.
	Hierarchy *hierarchy.Hierarchy
	// FullSearchUnreachable makes a request whose target is out of reach
	// of its start (query.OutOfReach: in another connected component of
	// the navmesh, for the flag rule of the request's filter) search like
	// the reference: A* visits every polygon it can reach, up to MaxNodes
	// or MaxIterationsPerRequest, before it returns the partial path to the
	// polygon nearest the target it saw. By default (false) the queue sees
	// at once that the target is out of reach and plans to the reachable
	// point nearest the target (query.FindNearestPolyInComponent) instead,
	// a search that costs no more than any path of that length; see
	// Result. Targets a Custom filter rule cuts off are still searched in
	// full.
	FullSearchUnreachable bool
	// ReferenceSchedule serves the requests exactly as dtPathQueue does,
	// so that a crowd using the queue can move bit for bit like dtCrowd:
	// each Update walks the slots once from a head kept between Updates,
	// gives the whole remaining budget to the first unfinished request it
	// meets and stops where the budget runs out (the next Update goes on
	// with that request), counts the keep-alive of finished requests only
	// in the slots it walks past, and puts no cap on a request's
	// iterations (MaxIterationsPerRequest is ignored). Abandon then leaves
	// a request to run on and expire, as dtCrowd leaves the requests its
	// agents drop. By default (false) every Update shares its budget over
	// all the searches in progress; see PathQueue.
	ReferenceSchedule bool
}

// DefaultPathQueueConfig returns the crowd's sizes: 8 slots, 256-polygon
// paths, 4096 nodes that may grow to 65536 on long searches.
func DefaultPathQueueConfig() PathQueueConfig {
	return PathQueueConfig{Slots: 8, MaxPathSize: 256, MaxNodes: 4096, NodeLimit: 65536}
}

type slotState uint8

const (
	slotFree      slotState = iota
	slotQueued              // requested, search not started
	slotSearching           // sliced search in progress
	slotDone                // path ready
	slotFailed              // search failed
	slotFollowing           // waits for the search of an equal request (leader)
)

type pathSlot struct {
	id       PathRequestID
	state    slotState
	query    *query.Query
	startRef navmesh.Ref
	endRef   navmesh.Ref
	startPos geom.Vec3
	endPos   geom.Vec3
	filter   *query.Filter

	// goalRef and goalPos are what the search aims at: the target, or the
	// reachable point nearest it when outOfReach.
	goalRef    navmesh.Ref
	goalPos    geom.Vec3
	outOfReach bool

	iterations int
	// calls are the iteration budgets of the updates of a search on the
	// hierarchy, in order (see PathQueueState).
	calls     []int32
	keepAlive int
	path      []navmesh.Ref
	pathCount int
	status    query.Status
	err       error

	// leader is, for a slotFollowing request, the index+1 of the slot whose
	// search it shares; followers counts the requests following this
	// one's search.
	leader    int32
	followers int32
}

// PathQueue runs path searches for many agents a little each tick, within
// an iteration budget (dtPathQueue). Unlike the reference, which searches one
// request at a time in slot order so that one long search holds back all the
// others, every Update shares its budget out evenly over all the searches in
// progress, starting with a different slot each time, and a search that
// reaches the per-request cap ends with its best partial path. A request that
// needs k iterations therefore finishes within about k·Slots/budget Updates
// whatever the other slots hold.
//
// A target out of reach of the start (in another connected component of
// the navmesh, for the filter's flag rule) costs no more than a reachable
// one: unless
// PathQueueConfig.FullSearchUnreachable is set, the queue plans to the
// reachable point nearest the target instead of searching everything the
// start can reach.
//
// A request from the same start polygon to the same goal polygon with the
// same filter as one queued, searching or finished and not yet claimed
// shares that search (a group sent from one place to another costs one
// search). UpdateWith runs the searches of an Update side by side on a
// Runner's goroutines, with the same results as Update.
//
// PathQueueConfig.ReferenceSchedule turns all of these off and schedules
// like the reference, one request at a time.
//
// A PathQueue belongs to one goroutine. Nothing allocates after NewPathQueue
// except the error values of failed requests.
type PathQueue struct {
	mesh                  *navmesh.Mesh
	hierarchy             *queueHierarchy // nil without PathQueueConfig.Hierarchy
	slots                 []pathSlot
	maxIterations         int
	fullSearchUnreachable bool
	referenceSchedule     bool
	nextID                PathRequestID
	cursor                int // slot the next Update serves first
	head                  int // ReferenceSchedule: the slot the next Update looks at first

	turns   []queueTurn // UpdateWith's round
	turnJob func(worker, begin, end int)
}

// NewPathQueue returns an empty queue searching mesh.
func NewPathQueue(mesh *navmesh.Mesh, config PathQueueConfig) (*PathQueue, error) {
	switch {
	case mesh == nil:
		return nil, fmt.Errorf("crowd: path queue: nil mesh: %w", ErrInvalidParam)
	case config.Slots < 1 || config.Slots > MaxPathQueueSlots:
		return nil, fmt.Errorf("crowd: path queue: %d slots, want 1..%d: %w", config.Slots, MaxPathQueueSlots, ErrInvalidParam)
	case config.MaxPathSize < 1:
		return nil, fmt.Errorf("crowd: path queue: max path size %d, want >= 1: %w", config.MaxPathSize, ErrInvalidParam)
	case config.MaxNodes < 1 || config.MaxNodes > query.MaxNodes:
		return nil, fmt.Errorf("crowd: path queue: max nodes %d, want 1..%d: %w", config.MaxNodes, query.MaxNodes, ErrInvalidParam)
	case config.NodeLimit != 0 && (config.NodeLimit < config.MaxNodes || config.NodeLimit > query.MaxNodes):
		return nil, fmt.Errorf("crowd: path queue: node limit %d, want 0 or %d..%d: %w",
			config.NodeLimit, config.MaxNodes, query.MaxNodes, ErrInvalidParam)
	case config.MaxIterationsPerRequest < 0:
		return nil, fmt.Errorf("crowd: path queue: max iterations per request %d, want >= 0: %w",
			config.MaxIterationsPerRequest, ErrInvalidParam)
	}
	pq := &PathQueue{
		mesh:                  mesh,
		slots:                 make([]pathSlot, config.Slots),
		maxIterations:         config.MaxIterationsPerRequest,
		fullSearchUnreachable: config.FullSearchUnreachable,
		referenceSchedule:     config.ReferenceSchedule,
		nextID:                1,
	}
	pq.turns = make([]queueTurn, 0, config.Slots)
	pq.turnJob = pq.runTurns
	growing := config.NodeLimit > config.MaxNodes
	if pq.maxIterations == 0 {
		pq.maxIterations = config.MaxNodes
		if growing {
			pq.maxIterations = 2 * config.NodeLimit
		}
	}
	paths := make([]navmesh.Ref, config.Slots*config.MaxPathSize)
	for i := range pq.slots {
		q, err := query.New(mesh, config.MaxNodes)
		if err == nil && growing {
			err = q.SetNodeLimit(config.NodeLimit)
		}
		if err != nil {
			return nil, fmt.Errorf("crowd: path queue: %w", err)
		}
		pq.slots[i].query = q
		pq.slots[i].path = paths[i*config.MaxPathSize : (i+1)*config.MaxPathSize : (i+1)*config.MaxPathSize]
	}
	if err := pq.useHierarchy(config.Hierarchy); err != nil {
		return nil, err
	}
	return pq, nil
}

// Request queues a search for a path from startPos in polygon startRef to
// endPos in polygon endRef and returns its id. filter is used when the
// search runs and must not change until the request is done. It returns
// ErrQueueFull (an ErrCapacity) when every slot is taken (try again after an
// Update; Full tells beforehand) and an ErrInvalidParam error for a zero
// ref, a non-finite position or a nil filter.
func (pq *PathQueue) Request(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *query.Filter) (PathRequestID, error) {
	switch {
	case startRef == 0 || endRef == 0:
		return 0, fmt.Errorf("crowd: path request: zero polygon ref: %w", ErrInvalidParam)
	case !geom.IsFinite(startPos) || !geom.IsFinite(endPos):
		return 0, fmt.Errorf("crowd: path request: position not finite: %w", ErrInvalidParam)
	case filter == nil:
		return 0, fmt.Errorf("crowd: path request: nil filter: %w", ErrInvalidParam)
	}
	slot := pq.freeSlot()
	if slot == nil {
		return 0, ErrQueueFull
	}
	*slot = pathSlot{
		id:       pq.newID(),
		state:    slotQueued,
		query:    slot.query,
		path:     slot.path,
		calls:    slot.calls[:0],
		startRef: startRef,
		endRef:   endRef,
		startPos: startPos,
		endPos:   endPos,
		filter:   filter,
	}
	if !pq.referenceSchedule {
		pq.share(slot)
	}
	return slot.id, nil
}

func (pq *PathQueue) freeSlot() *pathSlot {
	for i := range pq.slots {
		if pq.slots[i].state == slotFree {
			return &pq.slots[i]
		}
	}
	return nil
}

// newID returns the next id, skipping 0 and ids still in use after a wrap.
func (pq *PathQueue) newID() PathRequestID {
	for {
		id := pq.nextID
		pq.nextID++
		if id != 0 && pq.find(id) == nil {
			return id
		}
	}
}

func (pq *PathQueue) find(id PathRequestID) *pathSlot {
	if id == 0 {
		return nil
	}
	for i := range pq.slots {
		if s := &pq.slots[i]; s.state != slotFree && s.id == id {
			return s
		}
	}
	return nil
}

// Update runs up to maxIterations A* iterations in total, shared out over the
// requests in progress, and drops the results left unclaimed for more than
// PathQueueKeepAlive Updates. With PathQueueConfig.ReferenceSchedule it
// runs them as dtPathQueue::update does instead.
//
// maxIterations [Limit: >= 0] (the crowd uses 100)
func (pq *PathQueue) Update(maxIterations int) {
	pq.UpdateWith(maxIterations, nil, 1)
}

// updateReference is dtPathQueue::update: one pass over the slots from the
// head. Free slots are passed; a finished request ages by one Update and is
// dropped past PathQueueKeepAlive; the first unfinished one gets what is
// left of the budget, and when that runs out the pass stops with the head
// still on it.
func (pq *PathQueue) updateReference(maxIterations int) {
	budget := maxIterations
	n := len(pq.slots)
	for range n {
		s := &pq.slots[pq.head]
		switch s.state {
		case slotFree:
			pq.head = (pq.head + 1) % n
			continue
		case slotDone, slotFailed:
			s.keepAlive++
			if s.keepAlive > PathQueueKeepAlive {
				pq.release(s)
			}
			pq.head = (pq.head + 1) % n
			continue
		}
		budget -= pq.stepReference(s, budget)
		if budget <= 0 {
			break
		}
		pq.head = (pq.head + 1) % n
	}
}

// stepReference starts the search of s if it has not started and runs it
// for up to budget iterations, as dtPathQueue::update does for the request
// at its head. It returns the iterations used.
func (pq *PathQueue) stepReference(s *pathSlot, budget int) int {
	if s.state == slotQueued {
		if err := pq.aim(s); err != nil {
			pq.fail(s, err)
			return 0
		}
		status, err := s.query.InitSlicedFindPath(s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter, 0)
		if err != nil {
			pq.fail(s, err)
			return 0
		}
		s.state = slotSearching
		if !status.InProgress() {
			pq.finish(s)
			return 0
		}
	}
	done, status, err := s.query.UpdateSlicedFindPath(budget)
	s.iterations += done
	switch {
	case err != nil:
		pq.fail(s, err)
	case !status.InProgress():
		pq.finish(s)
	}
	return done
}

// step advances one request by up to iterations A* iterations and returns
// how many budget units it used (at least one, so Update always ends).
func (pq *PathQueue) step(s *pathSlot, iterations int) int {
	if s.state == slotQueued {
		if err := pq.aim(s); err != nil {
			pq.fail(s, err)
			return 1
		}
		status, err := pq.initSearch(s)
		if err != nil {
			pq.fail(s, err)
			return 1
		}
		s.state = slotSearching
		if !status.InProgress() {
			pq.finish(s)
			return 1
		}
	}
	iterations = min(iterations, pq.maxIterations-s.iterations)
	done, status, err := pq.updateSearch(s, iterations)
	s.iterations += done
	switch {
	case err != nil:
		pq.fail(s, err)
	case !status.InProgress() || s.iterations >= pq.maxIterations:
		// Finished, or out of iterations: the best path so far, partial.
		pq.finish(s)
	}
	return max(1, done)
}

func (pq *PathQueue) finish(s *pathSlot) {
	n, status, err := pq.finalizeSearch(s)
	if err != nil {
		pq.fail(s, err)
		return
	}
	if s.outOfReach {
		status |= query.StatusPartial
	}
	s.pathCount = n
	s.status = status
	s.state = slotDone
	s.keepAlive = 0
}

func (pq *PathQueue) fail(s *pathSlot, err error) {
	s.err = fmt.Errorf("crowd: path request %d: %w", s.id, err)
	s.state = slotFailed
	s.keepAlive = 0
}

func (pq *PathQueue) release(s *pathSlot) {
	switch {
	case s.state == slotFollowing:
		pq.slots[s.leader-1].followers--
	case s.followers > 0 && (s.state == slotQueued || s.state == slotSearching):
		// Others wait for this search: it goes on for the first of them,
		// whose own slot is freed instead.
		pq.promoteFollower(s)
		return
	}
	s.state = slotFree
	s.filter = nil
	s.err = nil
	s.leader, s.followers = 0, 0
}

// Status returns where request id stands.
func (pq *PathQueue) Status(id PathRequestID) PathRequestState {
	s := pq.find(id)
	if s == nil {
		return PathRequestUnknown
	}
	switch s.state {
	case slotDone:
		return PathRequestDone
	case slotFailed:
		return PathRequestFailed
	}
	return PathRequestWaiting
}

// Iterations returns the A* iterations request id has used so far, 0 for an
// unknown request.
func (pq *PathQueue) Iterations(id PathRequestID) int {
	if s := pq.find(id); s != nil {
		return s.iterations
	}
	return 0
}

// Result claims the path of a finished request: it copies up to len(dst)
// polygons into dst and frees the slot. The status tells a partial path
// (goal not reached, node pool or iteration cap exhausted) and a path cut
// to fit dst (query.StatusBufferTooSmall). A target out of reach gives a
// partial path that leads to the reachable point nearest the target (see
// Goal), or as far towards it as the search got. A failed request returns its
// error, and is freed too; an unfinished one returns an ErrRequestPending
// error and stays queued; an unknown id returns an ErrUnknownRequest error.
func (pq *PathQueue) Result(id PathRequestID, dst []navmesh.Ref) (int, query.Status, error) {
	s := pq.find(id)
	if s == nil {
		return 0, 0, fmt.Errorf("crowd: path result %d: %w", id, ErrUnknownRequest)
	}
	switch s.state {
	case slotFailed:
		err := s.err
		pq.release(s)
		return 0, 0, err
	case slotDone:
		n := copy(dst, s.path[:s.pathCount])
		status := s.status
		if n < s.pathCount {
			status |= query.StatusBufferTooSmall
		}
		pq.release(s)
		return n, status, nil
	}
	return 0, 0, fmt.Errorf("crowd: path result %d: %w", id, ErrRequestPending)
}

// Abandon tells the queue that nobody will claim request id. By default it
// is Cancel. With PathQueueConfig.ReferenceSchedule it changes nothing: the
// search runs on and its result expires after PathQueueKeepAlive Updates,
// holding its slot meanwhile, as in dtPathQueue when dtCrowd drops a request
// (a new target, a replan, a failed search, a removed agent). It reports
// whether there was such a request.
func (pq *PathQueue) Abandon(id PathRequestID) bool {
	if pq.referenceSchedule {
		return pq.find(id) != nil
	}
	return pq.Cancel(id)
}

// Cancel drops request id, finished or not, and frees its slot. It reports
// whether there was such a request.
func (pq *PathQueue) Cancel(id PathRequestID) bool {
	s := pq.find(id)
	if s == nil {
		return false
	}
	pq.release(s)
	return true
}

// Slots returns the number of slots.
func (pq *PathQueue) Slots() int { return len(pq.slots) }

// Pending returns how many slots hold a request, finished or not.
func (pq *PathQueue) Pending() int {
	n := 0
	for i := range pq.slots {
		if pq.slots[i].state != slotFree {
			n++
		}
	}
	return n
}
