package systems

import (
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// changedTiles is what the PathRequest stage knows of the tiles that
// changed since its last Update (Settings.CheckChangedCorridors), learnt
// from the snapshot's change record rather than by checking every corridor.
type changedTiles struct {
	// version is the snapshot version of the last Update; seen is false
	// before the first.
	version uint64
	seen    bool
	// active is set when tiles changed since the last Update; all when the
	// record did not say which (every tile counts as changed).
	active, all bool
	// slots marks the changed tile slots; marked lists them, to clear.
	slots   []bool
	marked  []int
	changes []navmesh.TileChange
}

// update learns the changes from the last Update's snapshot to snap.
func (c *changedTiles) update(snap *navmesh.Snapshot) {
	for _, slot := range c.marked {
		c.slots[slot] = false
	}
	c.marked = c.marked[:0]
	c.active, c.all = false, false
	version := snap.Version()
	if !c.seen {
		c.seen, c.version = true, version
		return
	}
	if version == c.version {
		return
	}
	c.active = true
	changes, complete := snap.ChangesSince(c.version, c.changes[:0])
	c.changes, c.version = changes[:0], version
	if !complete {
		c.all = true
		return
	}
	if n := snap.MaxTiles(); len(c.slots) < n {
		c.slots = make([]bool, n)
	}
	for _, change := range changes {
		if change.Slot >= 0 && change.Slot < len(c.slots) && !c.slots[change.Slot] {
			c.slots[change.Slot] = true
			c.marked = append(c.marked, change.Slot)
		}
	}
}

// touches reports whether ref lies in a changed tile.
func (c *changedTiles) touches(ref navmesh.Ref) bool {
	if c.all {
		return true
	}
	slot := int(ref.TileIndex())
	return slot < len(c.slots) && c.slots[slot]
}

// blocked reports whether a polygon of path that lies in a changed tile is
// gone or closed to filter: every polygon, not only the next
// checkLookAhead.
func (c *changedTiles) blocked(path []navmesh.Ref, q *query.Query, filter *query.Filter) bool {
	if !c.active {
		return false
	}
	for _, ref := range path {
		if ref != 0 && c.touches(ref) && !q.IsValidPolyRef(ref, filter) {
			return true
		}
	}
	return false
}

// pathPasses reports whether every polygon of path exists and passes
// filter: a path the queue planned before the navmesh changed may not.
func pathPasses(path []navmesh.Ref, q *query.Query, filter *query.Filter) bool {
	for _, ref := range path {
		if !q.IsValidPolyRef(ref, filter) {
			return false
		}
	}
	return true
}

// placeTarget finds the polygon for a target whose polygon went away: the
// nearest in Settings.TargetHalfExtents, then, with Settings.WalkBackToMesh, in a
// box wideGroundSearch times as wide around the position the target was
// requested at (it is then displaced, and moves back when the navmesh
// changes again). It reports false when there is none.
func (s *PathRequest) placeTarget(target *components.MoveTarget, q *query.Query, filter *query.Filter) bool {
	nearest, err := q.FindNearestPoly(target.Position, s.settings.TargetHalfExtents, filter)
	if err == nil && nearest.Ref != 0 {
		target.Ref, target.Position = nearest.Ref, nearest.Point
		target.Displaced = target.Displaced || geom.Dist2DSqr(nearest.Point, s.requested(target)) > groundSnapDistance*groundSnapDistance
		return true
	}
	if !s.settings.WalkBackToMesh {
		return false
	}
	if nearest, found := s.findGround(q, s.requested(target), filter); found {
		target.Ref, target.Position, target.Displaced = nearest.Ref, nearest.Point, true
		return true
	}
	return false
}

// requested returns where the target was asked for: MoveTarget.Requested,
// or its position when that was not recorded.
func (s *PathRequest) requested(target *components.MoveTarget) geom.Vec3 {
	if target.Requested == (geom.Vec3{}) {
		return target.Position
	}
	return target.Requested
}

// restoreTarget moves a displaced target back towards where it was
// requested once the navmesh has changed, and reports whether it moved.
func (s *PathRequest) restoreTarget(target *components.MoveTarget, changed *changedTiles, q *query.Query, filter *query.Filter) bool {
	if !target.Displaced || !changed.active {
		return false
	}
	requested := s.requested(target)
	nearest, err := q.FindNearestPoly(requested, s.settings.TargetHalfExtents, filter)
	if err != nil || nearest.Ref == 0 ||
		geom.Dist2DSqr(nearest.Point, requested) >= geom.Dist2DSqr(target.Position, requested) {
		return false
	}
	target.Ref, target.Position = nearest.Ref, nearest.Point
	target.Displaced = geom.Dist2DSqr(nearest.Point, requested) > groundSnapDistance*groundSnapDistance
	return true
}
