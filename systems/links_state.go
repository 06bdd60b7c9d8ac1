package systems

import (
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/binstate"
	"github.com/archenav/archenav/navcore/navmesh"
)

// LinkSyncState is what LinkSync knows of the link entities, in the order
// it first saw them: each entity with the link ids it last saw in its
// LinkState (what the stage takes out of the navmeshes when the entity is
// gone).
type LinkSyncState struct {
	indices []uint32 // the saved index of each entry's entity, noEntity when gone
	ids     [][components.MaxAgentTypes]navmesh.LinkID
}

// CaptureState stores the stage's record of the link entities in dst,
// each entity as index gives it (an entity it does not know, one removed
// since the last Update, is kept as gone).
func (s *LinkSync) CaptureState(dst *LinkSyncState, index components.EntityIndex) {
	dst.indices, dst.ids = dst.indices[:0], dst.ids[:0]
	for i := range s.entries {
		e := &s.entries[i]
		id, ok := index(e.entity)
		if !ok {
			id = noEntity
		}
		dst.indices = append(dst.indices, id)
		dst.ids = append(dst.ids, e.ids)
	}
}

// RestoreState makes st the stage's record of the link entities, each
// entity from entity; an index it does not know counts as an entity
// removed since (the next Update takes its links out of the navmeshes).
func (s *LinkSync) RestoreState(st *LinkSyncState, entity components.EntityAt) {
	for i := range s.entries {
		if id := int(s.entries[i].entity.ID()); id < len(s.slots) {
			s.slots[id] = 0
		}
	}
	s.entries = s.entries[:0]
	s.tick = 0
	for i, index := range st.indices {
		e := linkEntry{ids: st.ids[i]}
		if index != noEntity {
			e.entity, _ = entity(index)
		}
		s.entries = append(s.entries, e)
		if e.entity.IsZero() {
			continue
		}
		id := int(e.entity.ID())
		if id >= len(s.slots) {
			s.slots = append(s.slots, make([]int32, id+1-len(s.slots)+len(s.slots)/2)...)
		}
		s.slots[id] = int32(len(s.entries))
	}
}

// Entities returns the number of link entities in the state.
func (st *LinkSyncState) Entities() int { return len(st.indices) }

// AppendBinary appends st's byte form to b.
func (st *LinkSyncState) AppendBinary(b []byte) ([]byte, error) {
	w := binstate.Writer{B: b}
	w.Count(len(st.indices))
	for i, index := range st.indices {
		w.U32(index)
		for _, id := range st.ids[i] {
			w.U64(uint64(id))
		}
	}
	return w.B, nil
}

// UnmarshalBinary reads a state written by AppendBinary into st; st
// changes only when data is valid. Its indices are checked when it is
// restored (an index the entity table does not hold counts as gone).
func (st *LinkSyncState) UnmarshalBinary(data []byte) error {
	r := binstate.NewReader(data, "link sync state")
	n := r.Count(1<<24, 4+8*components.MaxAgentTypes)
	out := LinkSyncState{indices: make([]uint32, 0, n), ids: make([][components.MaxAgentTypes]navmesh.LinkID, 0, n)}
	for range n {
		index := r.U32()
		var ids [components.MaxAgentTypes]navmesh.LinkID
		for t := range ids {
			ids[t] = navmesh.LinkID(r.U64())
		}
		if r.Err() != nil {
			break
		}
		out.indices = append(out.indices, index)
		out.ids = append(out.ids, ids)
	}
	if err := r.End(); err != nil {
		return fmt.Errorf("systems: %w: %w", err, ErrBadState)
	}
	*st = out
	return nil
}
