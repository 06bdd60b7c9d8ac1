package crowd

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// ErrBadState is wrapped when a saved corridor, boundary or path queue
// state cannot be read or does not fit what it is restored into.
var ErrBadState = errors.New("crowd: bad state")

// CorridorState is a Corridor's state without its path, which the caller
// keeps in a slice of its own (one slice can hold the paths of a whole
// crowd): its position, target and path length, and what it remembers
// between calls (its last corners, its last visibility ray, where its last
// move left it), so that a corridor restored from it goes on exactly as
// the one it was taken from. Scratch and the cache of valid polygons are
// not kept.
type CorridorState struct {
	sight             sightLine
	memo              cornerMemo
	inside            insidePoint
	clamped           clampedTarget
	position, target  geom.Vec3
	count             int
	changes, reshapes uint64
}

// PathCount returns the length of the path the state was taken with.
func (s *CorridorState) PathCount() int { return s.count }

// CaptureState stores c's state in dst and appends its path to paths,
// which it returns. A nil dst captures nothing: paths comes back as is.
func (c *Corridor) CaptureState(dst *CorridorState, paths []navmesh.Ref) []navmesh.Ref {
	if dst == nil {
		return paths
	}
	*dst = CorridorState{
		sight: c.sight, memo: c.memo, inside: c.inside, clamped: c.clamped,
		position: c.position, target: c.target, count: c.count,
		changes: c.changes, reshapes: c.reshapes,
	}
	return append(paths, c.path[:c.count]...)
}

// RestoreState makes s, with path (the path CaptureState appended, s's
// PathCount long), c's state. It fails, changing nothing, when s is nil,
// the path does not fit c's buffer or its length is not s's.
func (c *Corridor) RestoreState(s *CorridorState, path []navmesh.Ref) error {
	if s == nil {
		return fmt.Errorf("crowd: restore corridor: nil state: %w", ErrBadState)
	}
	if len(path) != s.count || s.count > len(c.path) {
		return fmt.Errorf("crowd: restore corridor: %d polygons (state %d) into a buffer of %d: %w", len(path), s.count, len(c.path), ErrBadState)
	}
	c.validity = validityCache{}
	c.sight, c.memo, c.inside, c.clamped = s.sight, s.memo, s.inside, s.clamped
	c.position, c.target = s.position, s.target
	c.count = copy(c.path, path)
	c.changes, c.reshapes = s.changes, s.reshapes
	return nil
}

// Flags of a corridor's saved state: which memories it carries.
const (
	corridorMemo         = 1 << iota // the last corners, for the mesh state of the save
	corridorMemoChanges              // ... given with no change of the corridor since
	corridorMemoReshapes             // ... given with no change of its path or target since
	corridorSight                    // the last visibility ray
	corridorInside                   // where the last move left the position
	corridorFlagsAll     = 1<<iota - 1
)

// AppendState appends the state and its path to b: the path, position and
// target and the memories that decide what the corridor answers next (its
// last corners, its last visibility ray, where its last move left it)
// when they belong to the snapshot version of mesh (the version of the
// mesh state saved with it); memories of older snapshots are dropped, as
// they would never be used again, and so are caches that only save
// lookups. mesh is the mesh of the queries the corridor is used with.
func (s *CorridorState) AppendState(b []byte, path []navmesh.Ref, mesh *navmesh.Mesh, version uint64) []byte {
	w := binstate.Writer{B: b}
	w.Vec3(s.position)
	w.Vec3(s.target)
	w.Count(len(path))
	for _, ref := range path {
		w.U64(uint64(ref))
	}
	current := meshState{mesh: mesh, version: version}
	var flags uint8
	m := &s.memo
	if m.size > 0 && m.state == current && mesh != nil {
		flags |= corridorMemo
		if m.changes == s.changes {
			flags |= corridorMemoChanges
		}
		if m.reshapes == s.reshapes {
			flags |= corridorMemoReshapes
		}
	}
	if s.sight.state == current && mesh != nil {
		flags |= corridorSight
	}
	if s.inside.state == current && mesh != nil {
		flags |= corridorInside
	}
	w.U8(flags)
	if flags&corridorMemo != 0 {
		w.Vec3(m.pos)
		w.U8(uint8(m.size))
		w.U8(uint8(m.n))
		for _, p := range m.corners[:m.size] {
			appendStraightPoint(&w, &p)
		}
	}
	if flags&corridorSight != 0 {
		w.U64(uint64(s.sight.ref))
		w.Vec3(s.sight.pos)
		w.Vec3(s.sight.next)
	}
	if flags&corridorInside != 0 {
		w.U64(uint64(s.inside.ref))
		w.Vec3(s.inside.pos)
	}
	return w.B
}

func appendStraightPoint(w *binstate.Writer, p *query.StraightPathPoint) {
	w.Vec3(p.Pos)
	w.U8(uint8(p.Flags))
	w.U64(uint64(p.Ref))
}

func readStraightPoint(r *binstate.Reader) query.StraightPathPoint {
	return query.StraightPathPoint{Pos: r.Vec3(), Flags: query.StraightPathFlags(r.U8()), Ref: navmesh.Ref(r.U64())}
}

// ReadState reads a state written by AppendState into s and appends its
// path to paths, which it returns: its memories become those of mesh at
// snapshot version (the version of the mesh state saved with it, which
// the mesh has once that is restored). It fails, changing nothing, when
// data is malformed, the path is longer than maxPath or a position is not
// finite; the error wraps ErrBadState.
func (s *CorridorState) ReadState(data []byte, mesh *navmesh.Mesh, version uint64, maxPath int, paths []navmesh.Ref) ([]navmesh.Ref, error) {
	r := binstate.NewReader(data, "corridor state")
	position, target := r.Vec3(), r.Vec3()
	count := r.Count(maxPath, 8)
	if r.Err() == nil && (!geom.IsFinite(position) || !geom.IsFinite(target)) {
		r.Fail("position %v or target %v not finite", position, target)
	}
	start := len(paths)
	for range count {
		paths = append(paths, navmesh.Ref(r.U64()))
	}
	flags := r.U8()
	if r.Err() == nil && flags&^corridorFlagsAll != 0 {
		r.Fail("flags %#x", flags)
	}
	out := CorridorState{position: position, target: target, count: count}
	state := meshState{mesh: mesh, version: version}
	if flags&corridorMemo != 0 {
		m := &out.memo
		m.state, m.pos = state, r.Vec3()
		m.size, m.n = int(r.U8()), int(r.U8())
		if m.size < 1 || m.size > maxMemoCorners || m.n > m.size {
			r.Fail("%d corners remembered of %d", m.n, m.size)
			m.size = 0
		}
		for i := range m.size {
			m.corners[i] = readStraightPoint(r)
		}
	}
	if flags&corridorSight != 0 {
		out.sight = sightLine{state: state, ref: navmesh.Ref(r.U64()), pos: r.Vec3(), next: r.Vec3()}
	}
	if flags&corridorInside != 0 {
		out.inside = insidePoint{state: state, ref: navmesh.Ref(r.U64()), pos: r.Vec3()}
	}
	if err := r.End(); err != nil {
		return paths[:start], fmt.Errorf("crowd: %w: %w", err, ErrBadState)
	}
	// The counters only ever grow: a memory given before the last change
	// keeps a value they left behind.
	out.changes, out.reshapes = 1, 1
	if flags&corridorMemoChanges != 0 {
		out.memo.changes = 1
	}
	if flags&corridorMemoReshapes != 0 {
		out.memo.reshapes = 1
	}
	*s = out
	return paths, nil
}

// boundaryStateMinSize is the smallest encoded LocalBoundary.
const boundaryStateMinSize = 12 + 1 + 1

// AppendState appends b's state to dst: its centre, segments and
// polygons (the validity cache is not written).
func (b *LocalBoundary) AppendState(dst []byte) []byte {
	w := binstate.Writer{B: dst}
	w.Vec3(b.center)
	w.U8(uint8(b.segmentCount))
	for _, s := range b.segments[:b.segmentCount] {
		w.Vec3(s.P)
		w.Vec3(s.Q)
		w.F32(s.DistanceSqr)
	}
	w.U8(uint8(b.polyCount))
	for _, ref := range b.polys[:b.polyCount] {
		w.U64(uint64(ref))
	}
	return w.B
}

// ReadState reads a state written by AppendState into b. It fails,
// changing nothing, when data is malformed (the error wraps ErrBadState).
func (b *LocalBoundary) ReadState(data []byte) error {
	r := binstate.NewReader(data, "boundary state")
	var out LocalBoundary
	out.center = r.Vec3()
	out.segmentCount = int(r.U8())
	if r.Err() == nil && out.segmentCount > MaxLocalSegments {
		r.Fail("%d segments", out.segmentCount)
		out.segmentCount = 0
	}
	for i := range out.segmentCount {
		out.segments[i] = BoundarySegment{P: r.Vec3(), Q: r.Vec3(), DistanceSqr: r.F32()}
	}
	out.polyCount = int(r.U8())
	if r.Err() == nil && out.polyCount > MaxLocalPolys {
		r.Fail("%d polygons", out.polyCount)
		out.polyCount = 0
	}
	for i := range out.polyCount {
		out.polys[i] = navmesh.Ref(r.U64())
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("crowd: %w: %w", err, ErrBadState)
	}
	*b = out
	return nil
}

// PathQueueState is a PathQueue's requests and where each stands: queued,
// searching (with the search's working state), or finished with its path
// or failure waiting to be claimed, their ids, and the queue's schedule
// (the next id, the slot each Update starts with). Restored into a queue
// of the same size on the same mesh state it goes on exactly as the queue
// it was taken from: the same paths come out at the same Updates.
//
// A search on the queue's hierarchy is not copied but run again from its
// start, with the updates it had had, when the state is restored: the
// hierarchy's searches are cheap and their steps depend only on the mesh
// snapshot they work on (kept in the state when the mesh has changed
// since the search began) and on how the iterations were split.
type PathQueueState struct {
	slots           []pathSlotState
	nextID          PathRequestID
	cursor, head    int
	hierarchicalOff bool
	hasHierarchy    bool
	maxPathSize     int
}

// pathSlotState is one slot of a PathQueueState.
type pathSlotState struct {
	slot   pathSlot // its query and path buffer unused
	path   []navmesh.Ref
	search query.SearchState
	// onHierarchy: the search runs on the slot's hierarchy Searcher and is
	// replayed on restore; snap is the snapshot it works on when that is
	// older than the mesh's current one (the mesh changed since it began),
	// nil otherwise.
	onHierarchy bool
	snap        *navmesh.Snapshot
	calls       []int32 // the budgets of its updates
	errText     string
}

// Slots returns the number of slots of the queue the state was taken from.
func (s *PathQueueState) Slots() int { return len(s.slots) }

// CaptureState stores pq's state in dst, reusing dst's memory. The filters
// of the requests are kept as pointers: restore the state into a queue
// whose requests may use them. A nil dst captures nothing.
func (pq *PathQueue) CaptureState(dst *PathQueueState) {
	if dst == nil {
		return
	}
	dst.nextID, dst.cursor, dst.head = pq.nextID, pq.cursor, pq.head
	dst.hasHierarchy = pq.hierarchy != nil
	dst.hierarchicalOff = pq.hierarchy != nil && pq.hierarchy.off
	dst.maxPathSize = cap(pq.slots[0].path)
	if cap(dst.slots) < len(pq.slots) {
		dst.slots = make([]pathSlotState, len(pq.slots))
	}
	dst.slots = dst.slots[:len(pq.slots)]
	for i := range pq.slots {
		s, d := &pq.slots[i], &dst.slots[i]
		d.slot = *s
		d.slot.query, d.slot.path, d.slot.calls = nil, nil, nil
		d.calls = append(d.calls[:0], s.calls...)
		d.path = append(d.path[:0], s.path[:s.pathCount]...)
		d.errText = ""
		if s.err != nil {
			d.errText = s.err.Error()
		}
		d.onHierarchy = s.state == slotSearching && pq.hierarchy != nil && pq.hierarchy.active[i]
		d.snap = nil
		if d.onHierarchy {
			if snap := pq.hierarchy.searchers[i].Snapshot(); snap != pq.mesh.Snapshot() {
				d.snap = snap
			}
		}
		if s.state == slotSearching && !d.onHierarchy {
			s.query.CaptureSearch(&d.search)
		} else {
			d.search.Reset()
		}
	}
}

// RestoreState makes s pq's state. Searches on the hierarchy are run again
// to where they were; a replay that ends early (it cannot, on the mesh
// state the queue had) puts the request back in the queue. The error
// wraps ErrBadState when s was taken from a queue of another size or
// hierarchy setting, or a search does not fit its slot's query; pq is
// unchanged then.
func (pq *PathQueue) RestoreState(s *PathQueueState) error {
	if err := pq.CheckState(s); err != nil {
		return err
	}
	pq.restoreState(s)
	return nil
}

// CheckState reports, with an error wrapping ErrBadState, why s cannot be
// restored into pq: it is nil, it was taken from a queue of another size
// or hierarchy setting, or a request has no filter.
func (pq *PathQueue) CheckState(s *PathQueueState) error {
	if s == nil {
		return fmt.Errorf("crowd: restore path queue: nil state: %w", ErrBadState)
	}
	if len(s.slots) != len(pq.slots) || s.hasHierarchy != (pq.hierarchy != nil) || s.maxPathSize != cap(pq.slots[0].path) {
		return fmt.Errorf("crowd: restore path queue: %d slots of %d polygons (hierarchy %v) into %d of %d (hierarchy %v): %w",
			len(s.slots), s.maxPathSize, s.hasHierarchy, len(pq.slots), cap(pq.slots[0].path), pq.hierarchy != nil, ErrBadState)
	}
	for i := range s.slots {
		d := &s.slots[i]
		if d.snap != nil && (pq.hierarchy == nil || d.snap.Params() != pq.mesh.Params()) {
			return fmt.Errorf("crowd: restore path queue: slot %d: a search on a snapshot of another mesh: %w", i, ErrBadState)
		}
		if len(d.path) > cap(pq.slots[i].path) || (d.slot.state != slotFree && d.slot.filter == nil) {
			return fmt.Errorf("crowd: restore path queue: slot %d: %d polygons, filter %v: %w", i, len(d.path), d.slot.filter != nil, ErrBadState)
		}
	}
	return nil
}

// restoreState is RestoreState after CheckState.
func (pq *PathQueue) restoreState(s *PathQueueState) {
	pq.nextID, pq.cursor, pq.head = s.nextID, s.cursor, s.head
	if pq.hierarchy != nil {
		pq.hierarchy.off = s.hierarchicalOff
		// The searches to replay began with the landmarks of the version.
		pq.hierarchy.hierarchy.UpdateLandmarks()
	}
	for i := range s.slots {
		d, slot := &s.slots[i], &pq.slots[i]
		q, path, calls := slot.query, slot.path, slot.calls
		*slot = d.slot
		slot.query, slot.path = q, path
		slot.calls = append(calls[:0], d.calls...)
		slot.pathCount = copy(slot.path[:cap(slot.path)], d.path)
		slot.err = nil
		if slot.state == slotFailed {
			slot.err = fmt.Errorf("%s", d.errText)
		}
		if pq.hierarchy != nil {
			pq.hierarchy.active[i] = d.onHierarchy
		}
		switch {
		case d.onHierarchy:
			if !pq.replay(i, d.snap) {
				slot.state, slot.iterations = slotQueued, 0
				pq.hierarchy.active[i] = false
			}
		case slot.state == slotSearching:
			if err := q.RestoreSearch(&d.search, slot.filter); err != nil || !d.search.Active() {
				slot.state, slot.iterations = slotQueued, 0
			}
		}
	}
}

// replay runs the hierarchical search of slot i again from its start, with
// the updates it had had (their budgets split the iterations as before),
// on snap (nil: the mesh's current snapshot); it reports whether the
// search got to the iterations it had used, still in progress.
func (pq *PathQueue) replay(i int, snap *navmesh.Snapshot) bool {
	s := &pq.slots[i]
	searcher := pq.hierarchy.searchers[i]
	if snap == nil {
		snap = pq.mesh.Snapshot()
	}
	pq.hierarchy.hierarchy.UpdateLandmarksOf(snap)
	status, err := searcher.InitSlicedFindPathOn(snap, s.startRef, s.goalRef, s.startPos, s.goalPos, s.filter)
	if err != nil || !status.InProgress() {
		return false
	}
	// Every update but a search's last does at least one iteration: more
	// updates than iterations cannot be the saved search.
	updates := 0
	for k := 1; k < len(s.calls); k += 2 {
		updates += int(s.calls[k])
		if updates > s.iterations {
			return false
		}
	}
	done := 0
	for k := 0; k+1 < len(s.calls); k += 2 {
		for range s.calls[k+1] {
			n, status, err := searcher.UpdateSlicedFindPath(int(s.calls[k]))
			if err != nil || !status.InProgress() {
				return false
			}
			done += n
		}
	}
	return done == s.iterations
}

// Sizes of a saved path queue [Units: bytes].
const (
	pathSlotMinSize = 4 + 1
	maxStateSlots   = MaxPathQueueSlots
)

// AppendState appends s's byte form to b, each request's filter as the
// index filterIndex gives it (the crowd's filter table); a filter it does
// not know is an error, and so is any filter when filterIndex is nil.
func (s *PathQueueState) AppendState(b []byte, filterIndex func(*query.Filter) (int, bool)) ([]byte, error) {
	w := binstate.Writer{B: b}
	w.U32(uint32(s.nextID))
	w.U32(uint32(s.cursor))
	w.U32(uint32(s.head))
	w.Bool(s.hasHierarchy)
	w.Bool(s.hierarchicalOff)
	w.U32(uint32(s.maxPathSize))
	// The older snapshots hierarchical searches work on, each once.
	var snaps []*navmesh.Snapshot
	for i := range s.slots {
		if snap := s.slots[i].snap; snap != nil && !slices.Contains(snaps, snap) {
			snaps = append(snaps, snap)
		}
	}
	w.Count(len(snaps))
	for _, snap := range snaps {
		state := navmesh.SnapshotState(snap)
		data, err := state.AppendBinary(nil)
		if err != nil {
			return b, err
		}
		w.Bytes(data)
	}
	w.Count(len(s.slots))
	for i := range s.slots {
		d := &s.slots[i]
		sl := &d.slot
		w.U32(uint32(sl.id))
		w.U8(uint8(sl.state))
		if sl.state == slotFree {
			continue
		}
		index, ok := 0, false
		if filterIndex != nil {
			index, ok = filterIndex(sl.filter)
		}
		if !ok {
			return b, fmt.Errorf("crowd: save path queue: slot %d: a filter outside the crowd's table: %w", i, ErrBadState)
		}
		w.U32(uint32(index))
		w.U64(uint64(sl.startRef))
		w.U64(uint64(sl.endRef))
		w.Vec3(sl.startPos)
		w.Vec3(sl.endPos)
		w.U64(uint64(sl.goalRef))
		w.Vec3(sl.goalPos)
		w.Bool(sl.outOfReach)
		w.Int(sl.iterations)
		w.Int(sl.keepAlive)
		w.U32(uint32(sl.status))
		w.Count(len(d.path))
		for _, ref := range d.path {
			w.U64(uint64(ref))
		}
		w.String(d.errText)
		w.Bool(d.onHierarchy)
		w.I32(int32(slices.Index(snaps, d.snap)))
		w.Count(len(d.calls))
		for _, c := range d.calls {
			w.I32(c)
		}
		search, err := d.search.AppendBinary(nil)
		if err != nil {
			return b, err
		}
		w.Bytes(search)
	}
	// The shared searches (added after the first files: theirs end before
	// them), each slot's leader and follower count.
	for i := range s.slots {
		w.I32(s.slots[i].slot.leader)
		w.I32(s.slots[i].slot.followers)
	}
	return w.B, nil
}

// ReadState reads a state written by AppendState into s, each request's
// filter from filterAt (nil for an index it does not know, which is an
// error; a nil filterAt knows none). s changes only when data is valid;
// whether it fits a queue is checked by RestoreState.
func (s *PathQueueState) ReadState(data []byte, filterAt func(int) *query.Filter) error {
	r := binstate.NewReader(data, "path queue state")
	var st PathQueueState
	st.nextID, st.cursor, st.head = PathRequestID(r.U32()), r.Size(), r.Size()
	st.hasHierarchy, st.hierarchicalOff = r.Bool(), r.Bool()
	st.maxPathSize = r.Size()
	snaps := make([]*navmesh.Snapshot, r.Count(maxStateSlots, 4))
	for k := range snaps {
		var state navmesh.MeshState
		data := r.Bytes(r.Left())
		if r.Err() != nil {
			break
		}
		if err := state.UnmarshalBinary(data); err != nil {
			return fmt.Errorf("crowd: path queue state: older snapshot %d: %w: %w", k, err, ErrBadState)
		}
		snaps[k] = state.Snapshot()
	}
	n := r.Count(maxStateSlots, pathSlotMinSize)
	if r.Err() == nil && (n == 0 || st.cursor >= n || st.head >= n || st.maxPathSize < 1) {
		r.Fail("%d slots of %d polygons, cursor %d, head %d", n, st.maxPathSize, st.cursor, st.head)
	}
	st.slots = make([]pathSlotState, n)
	ids := map[PathRequestID]bool{}
	for i := range st.slots {
		d := &st.slots[i]
		sl := &d.slot
		sl.id, sl.state = PathRequestID(r.U32()), slotState(r.U8())
		if r.Err() == nil && sl.state > slotFollowing {
			r.Fail("slot %d in state %d", i, sl.state)
		}
		if sl.state == slotFree || r.Err() != nil {
			continue
		}
		if ids[sl.id] || sl.id == 0 {
			r.Fail("slot %d repeats request id %d", i, sl.id)
		}
		ids[sl.id] = true
		index := r.Size()
		if filterAt != nil {
			sl.filter = filterAt(index)
		}
		if r.Err() == nil && sl.filter == nil {
			r.Fail("slot %d uses filter %d, which the crowd does not have", i, index)
		}
		sl.startRef, sl.endRef = navmesh.Ref(r.U64()), navmesh.Ref(r.U64())
		sl.startPos, sl.endPos = r.Vec3(), r.Vec3()
		sl.goalRef, sl.goalPos, sl.outOfReach = navmesh.Ref(r.U64()), r.Vec3(), r.Bool()
		sl.iterations = r.Int(0, math.MaxInt32)
		sl.keepAlive = r.Int(0, PathQueueKeepAlive+1)
		sl.status = query.Status(r.U32())
		count := r.Count(st.maxPathSize, 8)
		for range count {
			d.path = append(d.path, navmesh.Ref(r.U64()))
		}
		sl.pathCount = len(d.path)
		d.errText = r.String(1 << 12)
		d.onHierarchy = r.Bool()
		if snap := int(r.I32()); snap >= 0 && snap < len(snaps) && d.onHierarchy {
			d.snap = snaps[snap]
		} else if r.Err() == nil && snap != -1 {
			r.Fail("slot %d works on older snapshot %d of %d", i, snap, len(snaps))
		}
		calls := r.Count(math.MaxInt32, 4)
		if r.Err() == nil && calls%2 != 0 {
			r.Fail("slot %d: %d numbers for its (budget, count) pairs of updates", i, calls)
		}
		for range calls {
			c := r.I32()
			if r.Err() == nil && c < 1 {
				r.Fail("slot %d update budget or count %d", i, c)
			}
			d.calls = append(d.calls, c)
		}
		if r.Err() == nil && d.onHierarchy && (!st.hasHierarchy || sl.state != slotSearching) {
			r.Fail("slot %d searching on a hierarchy the queue does not have", i)
		}
		if r.Err() == nil && (!geom.IsFinite(sl.startPos) || !geom.IsFinite(sl.endPos) || !geom.IsFinite(sl.goalPos)) {
			r.Fail("slot %d positions not finite", i)
		}
		search := r.Bytes(r.Left())
		if r.Err() != nil {
			break
		}
		if err := d.search.UnmarshalBinary(search); err != nil {
			return fmt.Errorf("crowd: path queue state: slot %d: %w: %w", i, err, ErrBadState)
		}
		if d.search.Active() != (sl.state == slotSearching && !d.onHierarchy) {
			r.Fail("slot %d in state %d with a search %v", i, sl.state, d.search.Active())
		}
	}
	if r.Err() == nil && r.Left() > 0 {
		for i := range st.slots {
			st.slots[i].slot.leader, st.slots[i].slot.followers = r.I32(), r.I32()
		}
	}
	if r.Err() == nil {
		if err := checkShares(st.slots); err != nil {
			r.Fail("%v", err)
		}
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("crowd: %w: %w", err, ErrBadState)
	}
	*s = st
	return nil
}

// checkShares checks the shared searches of a read state: a following
// request names a queued or searching slot as its leader and has no search
// or path of its own, and each slot's follower count is the number of
// requests following it.
func checkShares(slots []pathSlotState) error {
	followers := make([]int32, len(slots))
	for i := range slots {
		d := &slots[i]
		sl := &d.slot
		if sl.state != slotFollowing {
			if sl.leader != 0 {
				return fmt.Errorf("slot %d in state %d follows slot %d", i, sl.state, sl.leader-1)
			}
			continue
		}
		if sl.leader < 1 || int(sl.leader) > len(slots) || int(sl.leader) == i+1 {
			return fmt.Errorf("slot %d follows slot %d of %d", i, sl.leader-1, len(slots))
		}
		if st := slots[sl.leader-1].slot.state; st != slotQueued && st != slotSearching {
			return fmt.Errorf("slot %d follows slot %d in state %d", i, sl.leader-1, st)
		}
		if d.onHierarchy || len(d.path) > 0 || len(d.calls) > 0 {
			return fmt.Errorf("slot %d follows another's search but has one of its own", i)
		}
		followers[sl.leader-1]++
	}
	for i := range slots {
		if slots[i].slot.followers != followers[i] {
			return fmt.Errorf("slot %d has %d followers, %d follow it", i, slots[i].slot.followers, followers[i])
		}
	}
	return nil
}

// avoidanceStateSize is the byte size of an AvoidanceParams' state.
const avoidanceStateSize = 1 + 6*4 + 4*8 + 2*4 + 8

// AppendState appends p's fields to b.
func (p *AvoidanceParams) AppendState(b []byte) []byte {
	w := binstate.Writer{B: b}
	w.U8(uint8(p.Method))
	w.F32(p.VelocityBias)
	w.F32(p.WeightDesiredVelocity)
	w.F32(p.WeightCurrentVelocity)
	w.F32(p.WeightSide)
	w.F32(p.WeightTimeOfImpact)
	w.F32(p.HorizonTime)
	w.Int(p.GridSize)
	w.Int(p.AdaptiveDivisions)
	w.Int(p.AdaptiveRings)
	w.Int(p.AdaptiveDepth)
	w.F32(p.ORCA.TimeHorizon)
	w.F32(p.ORCA.ObstacleTimeHorizon)
	w.Int(p.ORCA.MaxNeighbours)
	return w.B
}

// ReadState reads parameters written by AppendState from the start of
// data, validates them (Validate) and returns the bytes after them; p
// changes only when they are valid.
func (p *AvoidanceParams) ReadState(data []byte) ([]byte, error) {
	if len(data) < avoidanceStateSize {
		return data, fmt.Errorf("crowd: avoidance parameters: %d bytes, want %d: %w", len(data), avoidanceStateSize, ErrBadState)
	}
	r := binstate.NewReader(data[:avoidanceStateSize], "avoidance parameters")
	const big = 1 << 30
	v := AvoidanceParams{
		Method: AvoidanceMethod(r.U8()), VelocityBias: r.F32(), WeightDesiredVelocity: r.F32(),
		WeightCurrentVelocity: r.F32(), WeightSide: r.F32(), WeightTimeOfImpact: r.F32(), HorizonTime: r.F32(),
		GridSize: r.Int(-big, big), AdaptiveDivisions: r.Int(-big, big), AdaptiveRings: r.Int(-big, big),
		AdaptiveDepth: r.Int(-big, big),
	}
	v.ORCA = ORCAParams{TimeHorizon: r.F32(), ObstacleTimeHorizon: r.F32(), MaxNeighbours: r.Int(-big, big)}
	if err := r.End(); err != nil {
		return data, fmt.Errorf("crowd: %w: %w", err, ErrBadState)
	}
	if err := v.Validate(); err != nil {
		return data, fmt.Errorf("%w: %w", err, ErrBadState)
	}
	*p = v
	return data[avoidanceStateSize:], nil
}

// StaleReplays returns the number of hierarchical searches in progress
// that began on an older snapshot of the mesh than the current one: their
// replay runs on the current one.
func (s *PathQueueState) StaleReplays() int {
	n := 0
	for i := range s.slots {
		if s.slots[i].snap != nil {
			n++
		}
	}
	return n
}

// Searching returns the number of requests whose search was in progress
// when the state was taken.
func (s *PathQueueState) Searching() int {
	n := 0
	for i := range s.slots {
		if s.slots[i].slot.state == slotSearching {
			n++
		}
	}
	return n
}
