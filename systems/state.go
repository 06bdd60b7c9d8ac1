package systems

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/mlange-42/arche/ecs"
)

// ErrBadState is wrapped when a saved stage state cannot be read.
var ErrBadState = errors.New("systems: bad state")

// What the stages keep from one tick to the next besides the components
// and resources: ObstacleSync's record of each obstacle (its carve timer,
// where it last counted as moving, its tile cache obstacles) and
// PathRequest's record of the navmesh snapshots it has seen. The other
// stages keep only scratch. A state refers to entities by their index in
// the saved list of obstacles (components.EntityIndex and EntityAt).

// ObstacleSyncState is what ObstacleSync knows of the obstacles, in the
// order it first saw them.
type ObstacleSyncState struct {
	entries []obstacleEntry // entity holds the saved index in its ID (0: gone)
	indices []uint32
}

// noEntity marks an entry whose entity was removed from the world after
// the stage's last Update: the next Update takes it out of the cache.
const noEntity = ^uint32(0)

// CaptureState stores the stage's record of the obstacles in dst, each
// entity as index gives it (an entity it does not know, one removed since
// the last Update, is kept as gone).
func (s *ObstacleSync) CaptureState(dst *ObstacleSyncState, index components.EntityIndex) {
	dst.entries = append(dst.entries[:0], s.entries...)
	dst.indices = dst.indices[:0]
	for i := range dst.entries {
		e := &dst.entries[i]
		e.state = nil
		id, ok := index(e.entity)
		if !ok {
			id = noEntity
		}
		dst.indices = append(dst.indices, id)
		e.entity = ecs.Entity{}
	}
}

// RestoreState makes st the stage's record of the obstacles, each entity
// from entity; an index it does not know counts as an entity removed
// since (the next Update takes its obstacle out of the cache).
func (s *ObstacleSync) RestoreState(st *ObstacleSyncState, entity components.EntityAt) {
	for i := range s.entries {
		if id := int(s.entries[i].entity.ID()); id < len(s.slots) {
			s.slots[id] = 0
		}
	}
	s.entries = append(s.entries[:0], st.entries...)
	s.tick = 0
	for i := range s.entries {
		e := &s.entries[i]
		e.seen = 0
		e.entity = ecs.Entity{}
		if st.indices[i] == noEntity {
			continue
		}
		if ent, ok := entity(st.indices[i]); ok {
			e.entity = ent
			id := int(ent.ID())
			if id >= len(s.slots) {
				s.slots = append(s.slots, make([]int32, id+1-len(s.slots)+len(s.slots)/2)...)
			}
			s.slots[id] = int32(i + 1)
		}
	}
}

// AppendBinary appends st's byte form to b.
func (st *ObstacleSyncState) AppendBinary(b []byte) ([]byte, error) {
	w := binstate.Writer{B: b}
	w.Count(len(st.entries))
	var rec binstate.Writer
	var scratch []byte
	for i := range st.entries {
		e := &st.entries[i]
		rec.B = rec.B[:0]
		rec.U32(st.indices[i])
		rec.Bool(e.fresh)
		scratch = e.obstacle.AppendState(scratch[:0])
		rec.Record(scratch)
		scratch = e.pose.AppendState(scratch[:0])
		rec.Record(scratch)
		scratch = e.anchor.AppendState(scratch[:0])
		rec.Record(scratch)
		rec.F32(e.still)
		rec.Vec3(e.velocity)
		rec.U64(uint64(e.ref))
		scratch = e.cached.AppendState(scratch[:0])
		rec.Record(scratch)
		scratch = e.cachedPose.AppendState(scratch[:0])
		rec.Record(scratch)
		rec.F32(e.cachedInflation)
		rec.F32(e.cachedDepth)
		rec.Bool(e.landed)
		for _, ref := range e.more {
			rec.U64(uint64(ref))
		}
		rec.Bool(e.refused)
		scratch = e.refusedObstacle.AppendState(scratch[:0])
		rec.Record(scratch)
		scratch = e.refusedPose.AppendState(scratch[:0])
		rec.Record(scratch)
		w.Record(rec.B)
	}
	return w.B, nil
}

// UnmarshalBinary reads a state written by AppendBinary into st; st
// changes only when data is valid.
func (st *ObstacleSyncState) UnmarshalBinary(data []byte) error {
	r := binstate.NewReader(data, "obstacle sync state")
	n := r.Count(1<<24, 1)
	out := ObstacleSyncState{entries: make([]obstacleEntry, 0, n), indices: make([]uint32, 0, n)}
	for range n {
		rec := binstate.NewReader(r.Record(), "obstacle record")
		if r.Err() != nil {
			break
		}
		var e obstacleEntry
		index := rec.U32()
		e.fresh = rec.Bool()
		readRecord(rec, e.obstacle.ReadState)
		readRecord(rec, e.pose.ReadState)
		readRecord(rec, e.anchor.ReadState)
		e.still, e.velocity = rec.F32(), rec.Vec3()
		e.ref = tilecache.ObstacleRef(rec.U64())
		readRecord(rec, e.cached.ReadState)
		readRecord(rec, e.cachedPose.ReadState)
		e.cachedInflation, e.cachedDepth, e.landed = rec.F32(), rec.F32(), rec.Bool()
		for k := range e.more {
			e.more[k] = tilecache.ObstacleRef(rec.U64())
		}
		e.refused = rec.Bool()
		readRecord(rec, e.refusedObstacle.ReadState)
		readRecord(rec, e.refusedPose.ReadState)
		if rec.Err() == nil && !geom.IsFinite(e.velocity) {
			rec.Fail("velocity %v", e.velocity)
		}
		if err := rec.End(); err != nil {
			return fmt.Errorf("systems: %w: %w", err, ErrBadState)
		}
		e.valid = e.obstacle.Validate() == nil
		out.entries = append(out.entries, e)
		out.indices = append(out.indices, index)
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("systems: %w: %w", err, ErrBadState)
	}
	*st = out
	return nil
}

// readRecord reads the next record of r with read, a component's
// ReadState.
func readRecord(r *binstate.Reader, read func([]byte) error) {
	record := r.Record()
	if r.Err() != nil {
		return
	}
	if err := read(record); err != nil {
		r.Fail("%v", err)
	}
}

// PathRequestState is what PathRequest knows of each agent type's navmesh:
// whether the snapshot it last saw is the current one, and the version it
// last learnt the changed tiles from; and the agent the next tick's pick
// of quick searches starts from (Settings.QuickSearchesPerTick).
type PathRequestState struct {
	types       []pathRequestTypeState
	quickCursor int
}

type pathRequestTypeState struct {
	current bool // the snapshot it last saw is the mesh's current one
	seen    bool
	version uint64
}

// CaptureState stores the stage's record in dst; meshes gives each agent
// type's navmesh, in type order.
func (s *PathRequest) CaptureState(dst *PathRequestState, meshes []*navmesh.Mesh) {
	dst.types = dst.types[:0]
	dst.quickCursor = s.quickCursor
	for t := range s.perType {
		pt := &s.perType[t]
		current := t < len(meshes) && pt.snapshot != nil && pt.snapshot == meshes[t].Snapshot()
		dst.types = append(dst.types, pathRequestTypeState{current: current, seen: pt.changed.seen, version: pt.changed.version})
	}
}

// RestoreState makes st the stage's record, with the meshes restored
// already: a snapshot the record calls current is the mesh's current one.
func (s *PathRequest) RestoreState(st *PathRequestState, meshes []*navmesh.Mesh) {
	if cap(s.perType) < len(st.types) {
		grown := make([]pathRequestType, len(st.types))
		copy(grown, s.perType)
		s.perType = grown
	}
	s.perType = s.perType[:len(st.types)]
	s.quickCursor = st.quickCursor
	for t, ts := range st.types {
		pt := &s.perType[t]
		pt.snapshot = nil
		if ts.current && t < len(meshes) {
			pt.snapshot = meshes[t].Snapshot()
		}
		pt.changed.seen, pt.changed.version = ts.seen, ts.version
		for _, slot := range pt.changed.marked {
			pt.changed.slots[slot] = false
		}
		pt.changed.marked = pt.changed.marked[:0]
		pt.changed.active, pt.changed.all = false, false
	}
}

// AppendBinary appends st's byte form to b.
func (st *PathRequestState) AppendBinary(b []byte) ([]byte, error) {
	w := binstate.Writer{B: b}
	w.Count(len(st.types))
	for _, ts := range st.types {
		w.Bool(ts.current)
		w.Bool(ts.seen)
		w.U64(ts.version)
	}
	w.Int(st.quickCursor) // added after the first files: theirs end before it
	return w.B, nil
}

// UnmarshalBinary reads a state written by AppendBinary into st; st
// changes only when data is valid.
func (st *PathRequestState) UnmarshalBinary(data []byte) error {
	r := binstate.NewReader(data, "path request state")
	n := r.Count(components.MaxAgentTypes, 10)
	out := PathRequestState{types: make([]pathRequestTypeState, n)}
	for t := range out.types {
		out.types[t] = pathRequestTypeState{current: r.Bool(), seen: r.Bool(), version: r.U64()}
	}
	if r.Err() == nil && r.Left() > 0 {
		out.quickCursor = r.Int(0, math.MaxInt32)
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("systems: %w: %w", err, ErrBadState)
	}
	*st = out
	return nil
}
