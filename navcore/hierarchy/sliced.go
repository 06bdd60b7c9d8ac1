package hierarchy

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// InitSlicedFindPath starts the search FindPath runs, to be run in steps
// of UpdateSlicedFindPath and ended with FinalizeSlicedFindPath, as
// query.Query's sliced search is. The search works on the snapshot it
// started on; filter is kept until it is finalized and must not change
// meanwhile. The status is query.StatusInProgress, or 0 when there is
// nothing to search. A search that falls back to plain A* runs the Query's
// sliced search, so other searches on that Query break it between steps.
func (s *Searcher) InitSlicedFindPath(startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *query.Filter) (query.Status, error) {
	return s.InitSlicedFindPathOn(s.mesh.Snapshot(), startRef, endRef, startPos, endPos, filter)
}

// InitSlicedFindPathOn is InitSlicedFindPath on snap, a snapshot of the
// Searcher's mesh that need not be the current one: a search saved while
// it worked on an older snapshot (Searcher.Snapshot) starts again there.
// The hierarchy's version of snap is built if it is not at hand, and
// its landmarks are those of Hierarchy.UpdateLandmarksOf(snap).
func (s *Searcher) InitSlicedFindPathOn(snap *navmesh.Snapshot, startRef, endRef navmesh.Ref, startPos, endPos geom.Vec3, filter *query.Filter) (query.Status, error) {
	if snap == nil {
		return 0, fmt.Errorf("hierarchy: init sliced find path: nil snapshot: %w", ErrInvalidParam)
	}
	if err := s.begin(snap, startRef, endRef, startPos, endPos, filter, true); err != nil {
		return 0, err
	}
	if s.phase == phaseDone {
		return 0, nil
	}
	return query.StatusInProgress, nil
}

// UpdateSlicedFindPath runs up to maxIterations iterations of the sliced
// search (each closes one node: a port, a cluster node or a polygon; the
// searches inside the start and goal tiles, which InitSlicedFindPath runs,
// count towards the first updates) and returns how many it ran. The status keeps query.StatusInProgress until
// the search is done. When the start or goal polygon is removed from the
// mesh meanwhile, the search fails with an ErrInvalidRef error and must be
// started again.
//
// maxIterations [Limit: >= 1 to make progress; 0 or less runs none]
func (s *Searcher) UpdateSlicedFindPath(maxIterations int) (int, query.Status, error) {
	switch s.phase {
	case phaseNone, phaseFailed:
		return 0, 0, fmt.Errorf("hierarchy: update sliced find path: %w", ErrNoSlicedQuery)
	case phaseDone:
		return 0, 0, nil
	case phasePlain:
		n, status, err := s.query.UpdateSlicedFindPath(maxIterations)
		if err != nil {
			s.phase = phaseFailed
			return n, 0, fmt.Errorf("hierarchy: update sliced find path: %w", err)
		}
		return n, status, nil
	}
	if current := s.mesh.Snapshot(); current != s.snap && (!current.IsValid(s.startRef) || !current.IsValid(s.goalRef)) {
		s.phase = phaseFailed
		return 0, 0, fmt.Errorf("hierarchy: update sliced find path: start or goal polygon is gone: %w", ErrInvalidRef)
	}
	// The searches inside the start and goal tiles, which the start ran,
	// are paid for by the first updates.
	used := min(s.unpaid, max(maxIterations, 0))
	s.unpaid -= used
	used += s.advance(max(maxIterations, 0) - used)
	switch s.phase {
	case phaseDone:
		return used, 0, nil
	case phasePlain:
		if err := s.plain(FallbackRoute, true); err != nil {
			return used, 0, err
		}
	}
	return used, query.StatusInProgress, nil
}

// FinalizeSlicedFindPath writes the corridor the sliced search found into
// path and ends the search. A search still in progress is run to its end
// first (it is fast; plain A* instead gives its best corridor so far, as
// query.Query.FinalizeSlicedFindPath does). When a polygon of the corridor
// was removed from the mesh meanwhile, the error wraps ErrInvalidRef.
func (s *Searcher) FinalizeSlicedFindPath(path []navmesh.Ref) (Result, error) {
	if len(path) == 0 {
		return Result{}, fmt.Errorf("hierarchy: finalize sliced find path: empty path buffer: %w", ErrBufferTooSmall)
	}
	switch s.phase {
	case phaseNone, phaseFailed:
		s.clearSearch()
		return Result{}, fmt.Errorf("hierarchy: finalize sliced find path: %w", ErrNoSlicedQuery)
	case phasePlain:
		n, status, err := s.query.FinalizeSlicedFindPath(path)
		fallback, aimed := s.fallback, s.status
		s.clearSearch()
		if err != nil {
			return Result{}, fmt.Errorf("hierarchy: finalize sliced find path: %w", err)
		}
		return Result{Count: n, Status: status | aimed, Fallback: fallback}, nil
	case phaseAbstract, phaseStitch, phaseRefine:
		s.advance(math.MaxInt)
		if s.phase == phasePlain {
			if err := s.plain(FallbackRoute, true); err != nil {
				return Result{}, err
			}
			for {
				_, status, err := s.query.UpdateSlicedFindPath(math.MaxInt32)
				if err != nil || !status.InProgress() {
					break
				}
			}
			return s.FinalizeSlicedFindPath(path)
		}
	}
	snap := s.snap
	result, err := s.finish(path)
	if err != nil {
		return result, err
	}
	if current := s.mesh.Snapshot(); current != snap && snap != nil {
		for _, ref := range path[:result.Count] {
			if !current.IsValid(ref) {
				return Result{}, fmt.Errorf("hierarchy: finalize sliced find path: polygon %#x of the corridor is gone: %w", uint64(ref), ErrInvalidRef)
			}
		}
	}
	return result, nil
}
