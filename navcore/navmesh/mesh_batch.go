package navmesh

import (
	"fmt"
	"maps"
	"slices"
)

// Batch is a list of tile changes that Mesh.Apply makes in order and
// publishes as one snapshot: readers see all of them or none. A Batch is
// reusable (Reset keeps its memory) and not safe for concurrent use.
type Batch struct {
	ops []batchOp
}

type batchKind uint8

const (
	batchAdd batchKind = iota
	batchRemove
	batchReplace
	batchRemoveAt
)

type batchOp struct {
	kind        batchKind
	data        *TileData
	ref         TileRef
	x, y, layer int32
}

// Reset empties the batch, keeping its memory for the next changes.
func (b *Batch) Reset() {
	clear(b.ops)
	b.ops = b.ops[:0]
}

// Len returns the number of changes in the batch.
func (b *Batch) Len() int { return len(b.ops) }

// Add queues adding data as a new tile, as Mesh.AddTile(data, lastRef)
// does: with lastRef 0 the tile takes the head of the free slot list, with
// a non-zero lastRef that slot and salt, so the tile gets back the refs it
// had.
func (b *Batch) Add(data *TileData, lastRef TileRef) {
	b.ops = append(b.ops, batchOp{kind: batchAdd, data: data, ref: lastRef})
}

// Remove queues removing the tile ref names, as Mesh.RemoveTile does.
func (b *Batch) Remove(ref TileRef) {
	b.ops = append(b.ops, batchOp{kind: batchRemove, ref: ref})
}

// Replace queues putting data at its location (Header.X, Y, Layer): a tile
// already there is removed and data goes into the same slot with the next
// salt, so refs into the old tile go stale; with no tile there data is added
// as Add(data, 0) would. This is the C++ tile cache's removeTile + addTile.
func (b *Batch) Replace(data *TileData) {
	b.ops = append(b.ops, batchOp{kind: batchReplace, data: data})
}

// RemoveAt queues removing the tile at (x, y, layer); it does nothing when
// there is none by then.
func (b *Batch) RemoveAt(x, y, layer int32) {
	b.ops = append(b.ops, batchOp{kind: batchRemoveAt, x: x, y: y, layer: layer})
}

// Apply makes b's changes in order and publishes the result as one
// Snapshot, linking and unlinking exactly as the same AddTile and RemoveTile
// calls one after the other would. It appends to refs, per change, the ref
// of the tile it added (0 for a removal) and returns the slice. All or
// nothing: when a change fails the error names it, wraps the sentinel
// AddTile or RemoveTile would return (ErrInvalidData, ErrTileExists,
// ErrOutOfTiles, ErrInvalidRef) and the mesh is left as it was. An empty
// batch publishes nothing. b is not modified.
func (m *Mesh) Apply(b *Batch, refs []TileRef) ([]TileRef, error) {
	if b == nil || len(b.ops) == 0 {
		return refs, nil
	}
	for i := range b.ops {
		op := &b.ops[i]
		if op.kind == batchAdd || op.kind == batchReplace {
			if err := validateTileData(op.data, m.params); err != nil {
				return refs, fmt.Errorf("navmesh: apply batch: change %d: %w", i, err)
			}
		}
	}
	start := len(refs)

	m.mu.Lock()
	defer m.mu.Unlock()
	slots := m.slots.clone()
	e := m.newEdit()
	if base := e.base; base.version == 0 && base.tileCount == 0 && base.linkCount == 0 {
		// The mesh's first publish, from its empty first snapshot: every
		// tile of the next one is new, so "everything changed" says all a
		// list would (24 bytes a tile, kept for 128 publishes).
		e.changesAll = true
	} else {
		e.changes = make([]TileChange, 0, len(b.ops))
	}
	for i := range b.ops {
		ref, err := e.applyOp(&b.ops[i], &slots)
		if err != nil {
			e.abandon()
			return refs[:start], fmt.Errorf("navmesh: apply batch: change %d: %w", i, err)
		}
		refs = append(refs, ref)
	}
	m.slots = slots
	m.current.Store(e.publish())
	return refs, nil
}

// applyOp makes one batch change on the edit, taking and releasing slots
// from slots.
func (e *edit) applyOp(op *batchOp, slots *slotAllocator) (TileRef, error) {
	switch op.kind {
	case batchRemove:
		t := e.tileByRef(op.ref)
		if t == nil {
			return 0, fmt.Errorf("remove tile %#x: %w", uint64(op.ref), ErrInvalidRef)
		}
		e.removeAndRelease(t, slots)
		return 0, nil
	case batchRemoveAt:
		if t := e.tileAt(op.x, op.y, op.layer); t != nil {
			e.removeAndRelease(t, slots)
		}
		return 0, nil
	case batchReplace:
		h := &op.data.Header
		if t := e.tileAt(h.X, h.Y, h.Layer); t != nil {
			e.removeAndRelease(t, slots)
		}
		return e.addAt(op.data, 0, slots)
	default:
		return e.addAt(op.data, op.ref, slots)
	}
}

// addAt is AddTile on the edit.
func (e *edit) addAt(data *TileData, lastRef TileRef, slots *slotAllocator) (TileRef, error) {
	h := &data.Header
	if e.tileAt(h.X, h.Y, h.Layer) != nil {
		return 0, fmt.Errorf("add tile (%d, %d, layer %d): %w", h.X, h.Y, h.Layer, ErrTileExists)
	}
	index, salt, err := slots.choose(lastRef)
	if err != nil {
		return 0, fmt.Errorf("add tile (%d, %d, layer %d) at ref %#x: %w", h.X, h.Y, h.Layer, uint64(lastRef), err)
	}
	slots.take(index)
	tile := newTile(data, index, salt)
	e.addTile(tile)
	return tile.Ref(), nil
}

// removeAndRelease is RemoveTile on the edit.
func (e *edit) removeAndRelease(t *Tile, slots *slotAllocator) {
	e.removeTile(t)
	slots.release(t.index, nextSalt(t.salt))
}

// tileByRef is Snapshot.TileByRef on the edited tile set.
func (e *edit) tileByRef(ref TileRef) *Tile {
	if ref == 0 || ref.TileIndex() >= uint32(e.base.params.MaxTiles) {
		return nil
	}
	t := e.tile(ref.TileIndex())
	if t == nil || t.salt != ref.Salt() {
		return nil
	}
	return t
}

// tileAt is Snapshot.TileAt on the edited tile set.
func (e *edit) tileAt(x, y, layer int32) *Tile {
	if e.flatMode {
		for s := e.heads[tileHash(x, y, e.lutMask)]; s != 0; s = e.next[s-1] {
			if t := e.flat[s-1]; t.Data.Header.X == x && t.Data.Header.Y == y && t.Data.Header.Layer == layer {
				return t
			}
		}
		return nil
	}
	for entry := e.lookup.table.at(tileHash(x, y, e.lutMask)); entry != nil; entry = entry.next {
		if entry.x == x && entry.y == y && entry.layer == layer {
			return e.tile(entry.index)
		}
	}
	return nil
}

// dropDraft forgets the draft of slot i (its tile was removed), so that a
// tile added to the slot later in the same edit gets drafts of its own.
func (e *edit) dropDraft(i uint32) {
	e.drafts = slices.DeleteFunc(e.drafts, func(d *draft) bool { return d.tile.index == i })
	if e.draftBySlot != nil {
		delete(e.draftBySlot, i)
	}
}

// clone returns an independent copy of the allocator, for changes that may
// be abandoned.
func (a *slotAllocator) clone() slotAllocator {
	c := *a
	c.freed = slices.Clone(a.freed)
	c.takenFresh = maps.Clone(a.takenFresh)
	return c
}
