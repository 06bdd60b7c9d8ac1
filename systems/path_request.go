package systems

import (
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Constants of the reference's path handling.
const (
	// checkLookAhead is how many corridor polygons are checked for validity
	// each tick, and the corridor length under which a corridor that does
	// not reach the target is replanned (CHECK_LOOKAHEAD).
	checkLookAhead = 10
	// targetReplanDelay is how long a corridor must have been followed
	// before it is replanned for ending short of the target
	// (TARGET_REPLAN_DELAY) [Units: s]
	targetReplanDelay = float32(1.0)
	// quickSearchIterations is the A* budget of the quick search run when a
	// target is requested (MAX_ITER in updateMoveRequest).
	quickSearchIterations = 20
	// quickSearchPath bounds the polygons of the quick search (MAX_RES).
	quickSearchPath = 32
	// maxPartialReplanDelay caps Settings.PartialReplanBackoff [Units: s]
	maxPartialReplanDelay = float32(16)
)

// outOfReachDelay is the MoveTarget.ReplanDelay of an agent whose target is
// out of reach and whose corridor leads to the reachable point nearest it:
// replanning could only find the same path, so it waits until the navmesh
// changes (tiles, flags or areas: a new snapshot resets every ReplanDelay).
var outOfReachDelay = float32(math.Inf(1))

// PathRequest is the first stage (dtCrowd::checkPathValidity and
// dtCrowd::updateMoveRequest): it repairs corridors whose polygons went away,
// replans corridors that end short of their target, runs a quick 20-step
// search for each new target, hands the longer searches to the path queue
// (at most Settings.MaxPathQueueRequestsPerTick per tick, those that waited
// longest first), advances the queue by Settings.PathQueueIterations A*
// iterations and installs the paths it finished.
//
// Unlike the reference, a request the agent no longer needs is cancelled in
// the queue at once, and a failed search frees its slot when it is seen
// (crowd.PathQueue.Abandon; a queue with
// crowd.PathQueueConfig.ReferenceSchedule lets them run on and expire as
// the reference does), and the agent asks again in its turn, where the
// reference sends it to the back of the line (a search fails mostly
// because the navmesh changed under it).
// Unless the path queue searches out-of-reach targets in full
// (crowd.PathQueueConfig.FullSearchUnreachable, the reference's way), a
// target out of the agent's reach (query.OutOfReach: in another connected
// component of the navmesh, for the flag rule of the agent's filter) is
// planned to the reachable point nearest it, by the quick search when that
// point is near and by the queue otherwise, and once the agent's corridor
// leads there it is not replanned until the navmesh changes: such targets
// neither fill the queue with searches of everything the agent can reach
// nor come back to it every second.
// It raises EventPathFailed and EventPartialPath.
//
// When the navmesh changed since the last tick (a tile cache rebuild,
// AddTile, RemoveTile, a flag or area edit) it learns which tiles from the
// snapshot (navmesh.Snapshot.ChangesSince) and, with
// Settings.CheckChangedCorridors, checks every polygon of every corridor
// that crosses one of them, replanning those that are blocked; paths the
// queue planned before a change are checked the same way. An agent whose
// polygon went away and that is not over another one walks back to the
// nearest free point (Settings.WalkBackToMesh: AgentReturning,
// EventGroundLost; the reference puts it there at once), or becomes
// AgentInvalid (EventAgentInvalid) when there is none near; an invalid
// agent looks for ground every tick and walks again when it finds some
// (Settings.RecoverInvalidAgents, EventAgentRecovered). A target whose
// polygon went away moves to the nearest point left (searched wider with
// Settings.WalkBackToMesh), and back towards where it was requested when
// the navmesh changes again.
//
// With agent types (the AgentTypes resource) each type's agents use their
// type's queue, within its budgets (AgentType.PathQueueIterations and
// RequestsPerTick), and their type's navmesh changes.
//
// Resources: Queries, Filters, PathQueue; optional AgentTypes, Settings,
// TimeStep, Events, Stats, Workers.
type PathRequest struct {
	stage
	pathQueueRes generic.Resource[components.PathQueue]

	// perType holds, per agent type, its queue and what the stage knows of
	// its navmesh.
	perType []pathRequestType
	// planNearest: out-of-reach targets are planned to their nearest
	// reachable point (the queue does not search them in full).
	planNearest bool
	scratch     []pathRequestScratch
	queue       []int // agents handed to the path queue this tick
	result      []navmesh.Ref
	// quick lists the agents whose quick search runs this tick when
	// Settings.QuickSearchesPerTick bounds them; quickCursor is the agent
	// the next tick's pick starts from.
	quick       []int
	quickCursor int

	checkJob, quickSearchJob, quickListJob func(worker, begin, end int)
}

// pathRequestType is the PathRequest stage's state for one agent type.
type pathRequestType struct {
	pathQueue *crowd.PathQueue
	snapshot  *navmesh.Snapshot // the tile set of the last Update
	changed   changedTiles      // the tiles changed since the last Update
	// iterations and requests are the queue's budgets per tick.
	iterations, requests int
}

type pathRequestScratch struct {
	path [quickSearchPath]navmesh.Ref
	// waits are the waits for a first path that ended on this worker in
	// this tick, for Stats.PathWaits.
	waits components.PathWaits
}

// Initialize prepares the stage for world.
func (s *PathRequest) Initialize(world *ecs.World) {
	s.init(world)
	s.pathQueueRes = generic.NewResource[components.PathQueue](world)
	s.checkJob = s.checkPathValidity
	s.quickSearchJob = s.quickSearch
	s.quickListJob = s.quickSearchList
}

// Finalize does nothing.
func (s *PathRequest) Finalize(world *ecs.World) {}

// Update runs the stage.
func (s *PathRequest) Update(world *ecs.World) {
	if !s.begin(world) || !s.pathQueueRes.Has() {
		return
	}
	if queue := s.pathQueueRes.Get().Queue; queue == nil || !s.beginTypes(queue) {
		return
	}
	if n := s.workerCount(); len(s.scratch) < n {
		s.scratch = make([]pathRequestScratch, n)
	}
	for t := range s.perType {
		pt := &s.perType[t]
		pt.pathQueue.SetHierarchical(s.settings.HierarchicalPaths)
		if snapshot := s.types[t].queries[0].Mesh().Snapshot(); snapshot != pt.snapshot {
			// Tiles came or went: unreachable targets may be reachable now.
			pt.snapshot = snapshot
			for i := range s.agents {
				if a := &s.agents[i]; s.typeIndex(a.params) == t {
					a.target.ReplanDelay = 0
				}
			}
		}
		if s.settings.CheckChangedCorridors {
			pt.changed.update(pt.snapshot)
		} else {
			pt.changed.active = false
		}
	}

	s.parallel(s.checkJob)
	for i := range s.agents {
		if a := &s.agents[i]; a.cancel != 0 {
			s.queueOf(a).Abandon(a.cancel)
			a.cancel = 0
		}
	}
	s.planNearest = !s.perType[0].pathQueue.FullSearchUnreachable()
	if limit := s.settings.QuickSearchesPerTick; limit > 0 {
		s.pickQuickSearches(limit)
		s.workers.run(s.workerCount(), len(s.quick), s.quickListJob)
	} else {
		s.parallel(s.quickSearchJob)
	}
	requested := 0
	for t := range s.perType {
		pt := &s.perType[t]
		requested += s.requestPaths(t, pt.pathQueue, pt.requests)
		pt.pathQueue.UpdateWith(max(1, pt.iterations), s.workers, s.workerCount())
	}
	s.collectPaths()
	s.emitPending()
	s.report(requested)
}

// report fills the Stats resource, when there is one, and moves the
// waits of the tick into it.
func (s *PathRequest) report(requested int) {
	if s.stats == nil {
		for i := range s.scratch {
			s.scratch[i].waits = components.PathWaits{}
		}
		return
	}
	s.stats.Agents = len(s.agents)
	pending := 0
	for t := range s.perType {
		pending += s.perType[t].pathQueue.Pending()
	}
	s.stats.PathQueuePending = pending
	waitingForQueue, quickPending := 0, 0
	open := &s.stats.OpenWaits
	*open = components.PathWaits{}
	for i := range s.agents {
		target := s.agents[i].target
		if target.State == components.TargetWaitingForQueue {
			waitingForQueue++
		}
		if waitingForFirstPath(target) {
			open.Add(target.PathWait)
			if target.State == components.TargetRequesting {
				quickPending++
			}
		}
	}
	s.stats.WaitingForQueue = waitingForQueue
	s.stats.PathQueueRequests = requested
	s.stats.WaitingForPath, s.stats.LongestWait, s.stats.QuickSearchesPending = open.Count, open.Max, quickPending
	for i := range s.scratch {
		s.stats.PathWaits.Merge(&s.scratch[i].waits)
		s.scratch[i].waits = components.PathWaits{}
	}
}

// waitingForFirstPath reports whether the agent waits for a first path to
// its move target.
func waitingForFirstPath(target *components.MoveTarget) bool {
	switch target.State {
	case components.TargetRequesting, components.TargetWaitingForQueue, components.TargetWaitingForPath:
		return !target.PathFound
	}
	return false
}

// pathFound records, on worker's scratch, the wait of an agent that got a
// corridor towards its target, if it is the first.
func (s *PathRequest) pathFound(worker int, target *components.MoveTarget) {
	if !target.PathFound {
		target.PathFound = true
		s.scratch[worker].waits.Add(target.PathWait)
	}
}

// needsQuickSearch reports whether the agent waits for its quick search.
func needsQuickSearch(a *agent) bool {
	return a.state.Mode != components.AgentInvalid && a.target.State == components.TargetRequesting
}

// pickQuickSearches lists in s.quick at most limit agents waiting for
// their quick search, in table order from where the last tick's pick
// stopped, so that under a backlog every agent gets its turn.
func (s *PathRequest) pickQuickSearches(limit int) {
	s.quick = s.quick[:0]
	n := len(s.agents)
	if n == 0 {
		return
	}
	start := s.quickCursor % n
	for k := 0; k < n && len(s.quick) < limit; k++ {
		i := (start + k) % n
		if needsQuickSearch(&s.agents[i]) {
			s.quick = append(s.quick, i)
		}
	}
	if len(s.quick) == limit {
		s.quickCursor = s.quick[limit-1] + 1
	}
}

// beginTypes lists the agent types' path queues and budgets, first's
// being first; it reports false when a type has no queue.
func (s *PathRequest) beginTypes(first *crowd.PathQueue) bool {
	if cap(s.perType) < len(s.types) {
		grown := make([]pathRequestType, len(s.types))
		copy(grown, s.perType)
		s.perType = grown
	}
	s.perType = s.perType[:len(s.types)]
	var list []components.AgentType
	if s.typesRes.Has() {
		list = s.typesRes.Get().List
	}
	for t := range s.perType {
		pt := &s.perType[t]
		pt.pathQueue = first
		pt.iterations, pt.requests = s.settings.PathQueueIterations, s.settings.MaxPathQueueRequestsPerTick
		if t == 0 {
			continue
		}
		if t >= len(list) || list[t].PathQueue == nil {
			return false
		}
		pt.pathQueue = list[t].PathQueue
		if list[t].PathQueueIterations > 0 {
			pt.iterations = list[t].PathQueueIterations
		}
		if list[t].RequestsPerTick > 0 {
			pt.requests = list[t].RequestsPerTick
		}
	}
	return true
}

// queueOf returns the path queue of the agent's type.
func (s *PathRequest) queueOf(a *agent) *crowd.PathQueue {
	return s.perType[s.typeIndex(a.params)].pathQueue
}

// changedOf returns what is known of the changed tiles of the agent's
// type's navmesh.
func (s *PathRequest) changedOf(a *agent) *changedTiles {
	return &s.perType[s.typeIndex(a.params)].changed
}

// checkPathValidity is dtCrowd::checkPathValidity for agents[begin:end].
func (s *PathRequest) checkPathValidity(worker, begin, end int) {
	for i := begin; i < end; i++ {
		a := &s.agents[i]
		q := s.query(worker, a.params)
		target := a.target
		filter := s.filter(a.params)
		replan := false
		if a.state.Mode == components.AgentInvalid && s.settings.RecoverInvalidAgents && s.recoverInvalid(a, q, filter) {
			replan = true
		}
		if !onFoot(a) {
			continue
		}
		target.ReplanTime += s.dt
		if waitingForFirstPath(target) {
			target.PathWait += s.dt
		}

		// The agent's own polygon first.
		agentRef := a.corridor.FirstPoly()
		agentPos := a.corridor.Position()
		if walking(a) {
			agentPos = a.position.Vec3()
		}
		if !q.IsValidPolyRef(agentRef, filter) {
			if s.settings.WalkBackToMesh {
				var ok bool
				if agentRef, agentPos, ok = s.regainGround(a, q, filter); !ok {
					continue
				}
			} else {
				nearest, err := q.FindNearestPoly(agentPos, s.settings.PlacementHalfExtents, filter)
				if err != nil || nearest.Ref == 0 {
					s.invalidate(a, agentPos)
					continue
				}
				agentRef, agentPos = nearest.Ref, nearest.Point
				a.corridor.FixPathStart(agentRef, agentPos)
				a.boundary.Reset()
				*a.position = components.Position(agentPos)
			}
			replan = true
		}

		if !target.State.HasPath() {
			continue
		}

		// Then the target's polygon.
		if target.State != components.TargetFailed {
			if !q.IsValidPolyRef(target.Ref, filter) {
				if !s.placeTarget(target, q, filter) {
					target.Ref = 0
				}
				replan = true
			} else if s.restoreTarget(target, s.changedOf(a), q, filter) {
				replan = true
			}
			if target.Ref == 0 {
				// The target is gone: stop here (the reference drops the
				// request silently; we tell).
				a.corridor.Reset(agentRef, agentPos)
				a.state.Partial = false
				s.dropRequest(a)
				target.State = components.TargetNone
				a.event = components.EventPathFailed
			}
		}

		if !a.corridor.IsValid(checkLookAhead, q, filter) || s.changedOf(a).blocked(a.corridor.Path(), q, filter) {
			replan = true
		}
		delay := targetReplanDelay
		if s.settings.PartialReplanBackoff && target.ReplanDelay > 0 {
			delay = target.ReplanDelay
		}
		if target.State == components.TargetValid &&
			target.ReplanTime > delay &&
			a.corridor.PathCount() < checkLookAhead &&
			a.corridor.LastPoly() != target.Ref &&
			target.ReplanDelay != outOfReachDelay {
			replan = true
		}
		if replan && target.State != components.TargetNone {
			s.dropRequest(a)
			requestReplan(target)
			if target.State == components.TargetFailed {
				a.event = components.EventPathFailed
			}
		}
	}
}

// dropRequest marks the agent's path queue request, if any, for
// cancellation after the parallel pass.
func (s *PathRequest) dropRequest(a *agent) {
	if a.target.Request != 0 {
		a.cancel = a.target.Request
		a.target.Request = 0
	}
}

// requestReplan is dtCrowd::requestMoveTargetReplan: plan again to the same
// target, keeping what can be kept of the corridor.
func requestReplan(target *components.MoveTarget) {
	target.Request = 0
	target.Replan = true
	if target.Ref != 0 {
		target.State = components.TargetRequesting
	} else {
		target.State = components.TargetFailed
	}
}

// quickSearch runs the short search of dtCrowd::updateMoveRequest for the
// agents of agents[begin:end] with a new request: a path found within 20
// iterations is used at once; otherwise the agent heads for the best
// polygon found and waits for the path queue.
func (s *PathRequest) quickSearch(worker, begin, end int) {
	for i := begin; i < end; i++ {
		if a := &s.agents[i]; needsQuickSearch(a) {
			s.quickSearchAgent(worker, a)
		}
	}
}

// quickSearchList runs the quick searches of the agents s.quick[begin:end].
func (s *PathRequest) quickSearchList(worker, begin, end int) {
	for _, i := range s.quick[begin:end] {
		s.quickSearchAgent(worker, &s.agents[i])
	}
}

// quickSearchAgent runs the quick search of one agent on worker.
func (s *PathRequest) quickSearchAgent(worker int, a *agent) {
	reqPath := s.scratch[worker].path[:]
	target := a.target
	q := s.query(worker, a.params)
	filter := s.filter(a.params)
	path := a.corridor.Path()
	pos := a.position.Vec3()
	if returning(a) {
		// Plan from the free point the agent walks to.
		pos = a.corridor.Position()
	}

	goalRef, goalPos, outOfReach := s.aim(q, path[0], pos, target, filter)
	count := 0
	var reqPos geom.Vec3
	if _, err := q.InitSlicedFindPath(path[0], goalRef, pos, goalPos, filter, 0); err == nil {
		_, _, err = q.UpdateSlicedFindPath(quickSearchIterations)
		if err == nil {
			if target.Replan {
				// Keep what can be kept of the existing corridor.
				count, _, err = q.FinalizeSlicedFindPathPartial(path, reqPath)
			} else {
				count, _, err = q.FinalizeSlicedFindPath(reqPath)
			}
		}
		if err != nil {
			count = 0
		}
	}
	if count > 0 {
		if reqPath[count-1] != target.Ref {
			// Partial: aim at the point of the last polygon nearest the
			// target.
			closest, _, err := q.ClosestPointOnPoly(reqPath[count-1], target.Position)
			if err != nil {
				count = 0
			}
			reqPos = closest
		} else {
			reqPos = target.Position
		}
	}
	if count == 0 {
		// No path at all: start from where the agent stands.
		reqPos = pos
		reqPath[0] = path[0]
		count = 1
	}

	_ = a.corridor.SetCorridor(reqPos, reqPath[:count])
	a.boundary.Reset()
	a.state.Partial = false
	switch {
	case reqPath[count-1] == target.Ref:
		target.State = components.TargetValid
		target.ReplanTime = 0
		s.pathFound(worker, target)
	case outOfReach && reqPath[count-1] == goalRef:
		// As near as the target can be reached: done without the queue.
		target.State = components.TargetValid
		target.ReplanTime = 0
		s.settleOutOfReach(a, goalRef)
		s.pathFound(worker, target)
	default:
		target.State = components.TargetWaitingForQueue
	}
}

// aim returns what the search for the agent's target aims at: the target,
// or, when the queue plans out-of-reach targets to their nearest reachable
// point and the target is out of reach of startRef (query.OutOfReach), that
// point (the start itself when the filter passes no polygon of its
// component).
func (s *PathRequest) aim(q *query.Query, startRef navmesh.Ref, startPos geom.Vec3, target *components.MoveTarget, filter *query.Filter) (navmesh.Ref, geom.Vec3, bool) {
	if !s.planNearest || !q.OutOfReach(startRef, target.Ref, filter) {
		return target.Ref, target.Position, false
	}
	nearest, err := q.FindNearestPolyInComponent(startRef, target.Position, filter)
	switch {
	case err != nil:
		return target.Ref, target.Position, false
	case nearest.Ref == 0:
		return startRef, startPos, true
	}
	return nearest.Ref, nearest.Point, true
}

// settleOutOfReach marks an agent whose corridor now leads to goal, the
// reachable point nearest its out-of-reach target: a partial path, not
// replanned until the navmesh changes.
func (s *PathRequest) settleOutOfReach(a *agent, goal navmesh.Ref) {
	target := a.target
	a.state.Partial = true
	target.PartialEnd, target.ReplanDelay = goal, outOfReachDelay
	if !target.PartialReported {
		target.PartialReported = true
		a.event = components.EventPartialPath
	}
}

// requestPaths hands the agents of agent type t waiting for the queue to
// it, those that waited longest first, at most perTick
// (Settings.MaxPathQueueRequestsPerTick for the first type; the reference's
// addToPathQueue ordering, ties included), and returns how many the queue
// took.
func (s *PathRequest) requestPaths(t int, queue *crowd.PathQueue, perTick int) int {
	requested := 0
	maxQueue := max(1, perTick)
	s.queue = s.queue[:0]
	for i := range s.agents {
		a := &s.agents[i]
		if a.state.Mode == components.AgentInvalid || a.target.State != components.TargetWaitingForQueue ||
			(len(s.perType) > 1 && s.typeIndex(a.params) != t) {
			continue
		}
		s.queue = insertByReplanTime(s.queue, i, s.agents, maxQueue)
	}
	for _, i := range s.queue {
		if queue.Full() {
			break
		}
		a := &s.agents[i]
		id, err := queue.Request(a.corridor.LastPoly(), a.target.Ref,
			a.corridor.Target(), a.target.Position, s.filter(a.params))
		if err == nil {
			a.target.Request = id
			a.target.State = components.TargetWaitingForPath
			requested++
		}
	}
	return requested
}

// insertByReplanTime inserts agent i into queue, kept sorted by decreasing
// ReplanTime and at most maxQueue long (dtCrowd's addToPathQueue).
func insertByReplanTime(queue []int, i int, agents []agent, maxQueue int) []int {
	time := agents[i].target.ReplanTime
	n := len(queue)
	if n == 0 || time <= agents[queue[n-1]].target.ReplanTime {
		if n >= maxQueue {
			return queue
		}
		return append(queue, i)
	}
	at := 0
	for at < n && time < agents[queue[at]].target.ReplanTime {
		at++
	}
	if n < maxQueue {
		queue = append(queue, 0)
	}
	copy(queue[at+1:], queue[at:])
	queue[at] = i
	return queue
}

// collectPaths installs the paths the queue finished (the second half of
// dtCrowd::updateMoveRequest).
func (s *PathRequest) collectPaths() {
	for i := range s.agents {
		a := &s.agents[i]
		target := a.target
		if target.State != components.TargetWaitingForPath {
			continue
		}
		queue := s.queueOf(a)
		switch queue.Status(target.Request) {
		case crowd.PathRequestWaiting:
			continue
		case crowd.PathRequestDone:
			s.installPath(a)
		default:
			// Failed or expired: try again while the target is valid. A failed
			// request is dropped to free its slot (a reference-schedule queue
			// lets it expire, as dtPathQueue does).
			queue.Abandon(target.Request)
			target.Request = 0
			if target.Ref != 0 {
				target.State = components.TargetRequesting
			} else {
				target.State = components.TargetFailed
				a.event = components.EventPathFailed
			}
			// The retry keeps the agent's turn: the queue serves the longest
			// waits first, and a search fails mostly because the navmesh
			// changed under it (a tile cache rebuild), no fault of the
			// agent's. The reference sends it to the back of the line.
			if queue.ReferenceSchedule() {
				target.ReplanTime = 0
			}
		}
	}
}

// backOff updates the partial-replan delay after a path ending in last
// (Settings.PartialReplanBackoff).
func (s *PathRequest) backOff(target *components.MoveTarget, last navmesh.Ref, partial bool) {
	switch {
	case !partial:
		target.PartialEnd, target.ReplanDelay = 0, 0
	case last == target.PartialEnd:
		// The same best polygon again: the target is out of reach.
		target.ReplanDelay = min(max(2*target.ReplanDelay, 2*targetReplanDelay), maxPartialReplanDelay)
	default:
		target.PartialEnd, target.ReplanDelay = last, 0
	}
}

// installPath merges the queue's path behind the corridor's first part, as
// the reference does: the agent kept walking while the queue searched from
// the corridor's end.
func (s *PathRequest) installPath(a *agent) {
	target := a.target
	maxPath := a.corridor.MaxPath()
	if len(s.result) < maxPath {
		s.result = make([]navmesh.Ref, maxPath)
	}
	res := s.result[:maxPath]
	path := a.corridor.Path()
	npath := len(path)
	targetPos := target.Position

	queue, q := s.queueOf(a), s.query(0, a.params)
	goal, _, outOfReach, _ := queue.Goal(target.Request)
	nres, status, err := queue.Result(target.Request, res)
	target.Request = 0
	valid := err == nil && nres > 0
	a.state.Partial = err == nil && status.Partial()

	// The queue searched from the corridor's last polygon; it must still be.
	if valid && path[npath-1] != res[0] {
		valid = false
	}
	if valid && s.settings.CheckChangedCorridors && !pathPasses(res[:nres], q, s.filter(a.params)) {
		// Planned on the navmesh before a change that blocked it: plan
		// again.
		requestReplan(target)
		target.ReplanTime = 0
		return
	}
	if valid {
		if npath > 1 {
			// Put the old path in front of the new one.
			if (npath-1)+nres > maxPath {
				nres = maxPath - (npath - 1)
			}
			copy(res[npath-1:npath-1+nres], res[:nres])
			copy(res, path[:npath-1])
			nres += npath - 1
			// Remove trackbacks (A, B, A).
			for j := 0; j < nres; j++ {
				if j-1 >= 0 && j+1 < nres && res[j-1] == res[j+1] {
					copy(res[j-1:], res[j+1:nres])
					nres -= 2
					j -= 2
				}
			}
		}
		if res[nres-1] != target.Ref {
			// Partial: aim at the point of the last polygon nearest the target.
			nearest, _, err := q.ClosestPointOnPoly(res[nres-1], targetPos)
			if err == nil {
				targetPos = nearest
			} else {
				valid = false
			}
		}
	}
	if valid && a.corridor.SetCorridor(targetPos, res[:nres]) == nil {
		a.boundary.Reset()
		target.State = components.TargetValid
		s.pathFound(0, target)
		s.backOff(target, res[nres-1], a.state.Partial)
		if outOfReach && res[nres-1] == goal {
			target.ReplanDelay = outOfReachDelay
		}
		if a.state.Partial && !target.PartialReported {
			target.PartialReported = true
			a.event = components.EventPartialPath
		}
	} else {
		target.State = components.TargetFailed
		a.event = components.EventPathFailed
	}
	target.ReplanTime = 0
}
