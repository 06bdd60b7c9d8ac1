package crowd

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/query"
)

// queueHierarchy is what a PathQueue with a hierarchy keeps: a Searcher
// per slot (sharing the slot's query for its fallbacks) and which slots'
// searches run on it.
type queueHierarchy struct {
	hierarchy *hierarchy.Hierarchy
	searchers []*hierarchy.Searcher
	active    []bool // per slot: its search in progress runs on its Searcher
	off       bool   // SetHierarchical(false)
}

// useHierarchy gives every slot a Searcher on h (nil: none).
func (pq *PathQueue) useHierarchy(h *hierarchy.Hierarchy) error {
	if h == nil {
		return nil
	}
	if h.Mesh() != pq.mesh {
		return fmt.Errorf("crowd: path queue: the hierarchy follows another mesh: %w", ErrInvalidParam)
	}
	qh := &queueHierarchy{
		hierarchy: h,
		searchers: make([]*hierarchy.Searcher, len(pq.slots)),
		active:    make([]bool, len(pq.slots)),
	}
	for i := range pq.slots {
		s, err := hierarchy.NewSearcher(pq.slots[i].query, h)
		if err != nil {
			return fmt.Errorf("crowd: path queue: %w", err)
		}
		qh.searchers[i] = s
	}
	pq.hierarchy = qh
	return nil
}

// SetHierarchical turns the hierarchical search of PathQueueConfig.Hierarchy
// on or off for the searches that start from now on. It does nothing for a
// queue made without a hierarchy.
func (pq *PathQueue) SetHierarchical(on bool) {
	if pq.hierarchy != nil {
		pq.hierarchy.off = !on
	}
}

// Hierarchy returns PathQueueConfig.Hierarchy.
func (pq *PathQueue) Hierarchy() *hierarchy.Hierarchy {
	if pq.hierarchy == nil {
		return nil
	}
	return pq.hierarchy.hierarchy
}

// Hierarchical reports whether new searches use the queue's hierarchy.
func (pq *PathQueue) Hierarchical() bool { return pq.hierarchy != nil && !pq.hierarchy.off }

// slotIndex returns the index of slot s.
func (pq *PathQueue) slotIndex(s *pathSlot) int {
	for i := range pq.slots {
		if &pq.slots[i] == s {
			return i
		}
	}
	return -1
}

// searcher returns the Searcher the search of slot s runs on, nil for the
// slot's query.
func (pq *PathQueue) searcher(s *pathSlot) *hierarchy.Searcher {
	if pq.hierarchy == nil {
		return nil
	}
	if i := pq.slotIndex(s); i >= 0 && pq.hierarchy.active[i] {
		return pq.hierarchy.searchers[i]
	}
	return nil
}

// initSearch starts the sliced search of slot s towards its goal, on the
// slot's Searcher when the hierarchy is on.
func (pq *PathQueue) initSearch(s *pathSlot) (query.Status, error) {
	s.calls = s.calls[:0]
	if qh := pq.hierarchy; qh != nil {
		i := pq.slotIndex(s)
		qh.active[i] = !qh.off
		if qh.active[i] {
			return qh.searchers[i].InitSlicedFindPath(s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter)
		}
	}
	return s.query.InitSlicedFindPath(s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter, 0)
}

// updateSearch runs the search of slot s for up to iterations iterations.
func (pq *PathQueue) updateSearch(s *pathSlot, iterations int) (int, query.Status, error) {
	if searcher := pq.searcher(s); searcher != nil {
		// The budgets of the calls, for a replay of the search (see
		// PathQueueState): how the iterations are split over calls decides
		// where the search stands after them.
		s.recordCall(iterations)
		return searcher.UpdateSlicedFindPath(iterations)
	}
	return s.query.UpdateSlicedFindPath(iterations)
}

// recordCall adds an update of iterations to the slot's calls, run-length
// encoded as (budget, count) pairs: consecutive updates mostly get the same
// share, so that a long search keeps a short list and the steady state
// allocates nothing.
func (s *pathSlot) recordCall(iterations int) {
	budget := int32(min(iterations, math.MaxInt32))
	if n := len(s.calls); n >= 2 && s.calls[n-2] == budget && s.calls[n-1] < math.MaxInt32 {
		s.calls[n-1]++
		return
	}
	s.calls = append(s.calls, budget, 1)
}

// finalizeSearch writes the path of the search of slot s into its buffer.
func (pq *PathQueue) finalizeSearch(s *pathSlot) (int, query.Status, error) {
	if searcher := pq.searcher(s); searcher != nil {
		result, err := searcher.FinalizeSlicedFindPath(s.path)
		return result.Count, result.Status, err
	}
	return s.query.FinalizeSlicedFindPath(s.path)
}

// readyHierarchy brings the hierarchy to the mesh's current snapshot, with
// its landmarks, before searches start on it: a search that began while
// the landmarks were computed elsewhere would take other steps (the
// straight-line bound closes other nodes), and the crowd would depend on
// timing.
func (pq *PathQueue) readyHierarchy() {
	if qh := pq.hierarchy; qh != nil && !qh.off {
		qh.hierarchy.UpdateLandmarks()
	}
}
