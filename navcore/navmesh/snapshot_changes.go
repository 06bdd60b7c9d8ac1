package navmesh

import "sync/atomic"

// TileChange names a tile whose content changed in one publish: a tile added
// to or removed from the slot, or its polygons' flags or areas edited.
// Neighbours that only gained or lost links to a changed tile are not listed.
type TileChange struct {
	// Slot is the tile slot (Ref.TileIndex of the tile's refs).
	Slot int
	// X, Y and Layer are the tile's grid location.
	X, Y, Layer int32
}

// Bounds of the change record a snapshot keeps.
const (
	// ChangeRecordPublishes is the fewest publishes a snapshot can look
	// back over with ChangesSince (while they changed at most
	// ChangeRecordTiles tiles together).
	ChangeRecordPublishes = 128
	// ChangeRecordTiles is the most tile changes a snapshot's record
	// holds; a publish changing more is recorded as "everything changed".
	ChangeRecordTiles = 4096
)

// changeRecord is what one publish changed: entries [start, end) of the
// history's changes, or everything when overflow is set.
type changeRecord struct {
	version    uint64
	start, end int
	overflow   bool
}

// changeHistory is the record of the latest publishes. Snapshots share its
// backing arrays: a newer snapshot appends past the length an older one
// sees, and nothing below that length is ever written again, so readers of
// older snapshots never race with the writer.
type changeHistory struct {
	records []changeRecord
	changes []TileChange
}

// Version returns the snapshot's version: 0 for a new mesh's first snapshot,
// one more with each publish (AddTile, RemoveTile, SetPolyFlags,
// SetPolyArea, Apply). Versions of different meshes are unrelated.
func (s *Snapshot) Version() uint64 { return s.version }

// Stamp returns the number that names this snapshot among every snapshot of
// every mesh in the process: no two snapshots get the same stamp, and none
// gets 0. Unlike a *Snapshot, a stamp holds nothing in memory, so a cache
// can remember what it checked against without keeping old tile versions
// alive; unlike Version, it is never used again (after RestoreState the
// versions count on from the saved one).
func (s *Snapshot) Stamp() uint64 { return s.stamp }

// stamps counts the snapshots made in the process, for Stamp.
var stamps atomic.Uint64

// newStamp returns a stamp no snapshot had before.
func newStamp() uint64 { return stamps.Add(1) }

// ChangesSince appends to dst the tiles changed from the snapshot with
// version since to this one (every publish after since, oldest first; a tile
// changed in two publishes is listed twice) and returns it with complete true. When the
// record does not reach back that far (more than ChangeRecordPublishes
// publishes ago, or more than ChangeRecordTiles changes) or since is newer
// than this snapshot, it returns dst unchanged and complete false: assume
// every tile changed. It does not allocate when dst has room.
func (s *Snapshot) ChangesSince(since uint64, dst []TileChange) (changes []TileChange, complete bool) {
	if since == s.version {
		return dst, true
	}
	if since > s.version {
		return dst, false
	}
	records := s.history.records
	// Records hold consecutive versions ending at s.version.
	first := len(records) - int(s.version-since)
	if first < 0 {
		return dst, false
	}
	for _, r := range records[first:] {
		if r.overflow {
			return dst, false
		}
	}
	for _, r := range records[first:] {
		dst = append(dst, s.history.changes[r.start:r.end]...)
	}
	return dst, true
}

// noteChange records that the tile in slot index at (x, y, layer) changed
// in this edit; a change repeating the one before (a tile replaced in its
// slot: removed, then added) is recorded once.
func (e *edit) noteChange(index uint32, x, y, layer int32) {
	c := TileChange{Slot: int(index), X: x, Y: y, Layer: layer}
	if n := len(e.changes); n > 0 && e.changes[n-1] == c {
		return
	}
	e.changes = append(e.changes, c)
}

// nextHistory returns the base's history with this edit's record appended,
// dropping the oldest records when the bounds are reached.
func (e *edit) nextHistory(version uint64) changeHistory {
	h := e.base.history
	if len(h.records) >= 2*ChangeRecordPublishes || len(h.changes)+len(e.changes) > 2*ChangeRecordTiles {
		h = compactHistory(h)
	}
	record := changeRecord{version: version, start: len(h.changes), end: len(h.changes)}
	if len(e.changes) > ChangeRecordTiles {
		record.overflow = true
	} else {
		h.changes = append(h.changes, e.changes...)
		record.end = len(h.changes)
	}
	h.records = append(h.records, record)
	return h
}

// compactHistory copies the newest records (at most ChangeRecordPublishes,
// with at most ChangeRecordTiles changes) into fresh arrays.
func compactHistory(h changeHistory) changeHistory {
	keep := len(h.records)
	total := 0
	for i := len(h.records) - 1; i >= 0; i-- {
		r := h.records[i]
		if len(h.records)-i > ChangeRecordPublishes || total+r.end-r.start > ChangeRecordTiles {
			keep = len(h.records) - 1 - i
			break
		}
		total += r.end - r.start
	}
	out := changeHistory{
		records: make([]changeRecord, 0, keep+ChangeRecordPublishes/2),
		changes: make([]TileChange, 0, total+total/2+16),
	}
	for _, r := range h.records[len(h.records)-keep:] {
		n := changeRecord{version: r.version, start: len(out.changes), overflow: r.overflow}
		out.changes = append(out.changes, h.changes[r.start:r.end]...)
		n.end = len(out.changes)
		out.records = append(out.records, n)
	}
	return out
}
