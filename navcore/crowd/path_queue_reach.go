package crowd

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// aim sets what the search of s aims at: its target, or, when the target
// is out of reach (query.OutOfReach: another connected component than the
// start, for the filter's flag rule) and the queue does not search such
// targets in full, the reachable point nearest the target. When no polygon
// of the start's component passes the filter, the search stays on the
// start polygon. Refs that are no longer valid are left for the search to
// report.
func (pq *PathQueue) aim(s *pathSlot) error {
	s.goalRef, s.goalPos, s.outOfReach = s.endRef, s.endPos, false
	if pq.fullSearchUnreachable || !s.query.OutOfReach(s.startRef, s.endRef, s.filter) {
		return nil
	}
	nearest, err := s.query.FindNearestPolyInComponent(s.startRef, s.endPos, s.filter)
	if err != nil {
		return err
	}
	s.outOfReach = true
	if nearest.Ref == 0 {
		s.goalRef, s.goalPos = s.startRef, s.startPos
		return nil
	}
	s.goalRef, s.goalPos = nearest.Ref, nearest.Point
	return nil
}

// Goal returns what request id aims at once its search has started: the
// target it was given, or, for a target out of reach (outOfReach), the
// polygon and point of the start's connected component nearest the target.
// ok is false for an unknown request and for one whose search has not
// started yet.
func (pq *PathQueue) Goal(id PathRequestID) (ref navmesh.Ref, pos geom.Vec3, outOfReach, ok bool) {
	s := pq.find(id)
	if s != nil && s.state == slotFollowing {
		s = &pq.slots[s.leader-1]
	}
	if s == nil || s.state == slotQueued {
		return 0, geom.Vec3{}, false, false
	}
	return s.goalRef, s.goalPos, s.outOfReach, true
}

// Full reports whether every slot holds a request, so that Request would
// fail with ErrQueueFull.
func (pq *PathQueue) Full() bool { return pq.freeSlot() == nil }

// FullSearchUnreachable reports whether the queue searches out-of-reach
// targets in full, as the reference does (PathQueueConfig).
func (pq *PathQueue) FullSearchUnreachable() bool { return pq.fullSearchUnreachable }

// ReferenceSchedule reports whether the queue schedules its requests as
// the reference's dtPathQueue does (PathQueueConfig.ReferenceSchedule).
func (pq *PathQueue) ReferenceSchedule() bool { return pq.referenceSchedule }
