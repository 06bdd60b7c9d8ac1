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
// publishes ago, more than ChangeRecordTiles changes, the publish that
// filled a mesh made by Load or TileSet.Mesh, or a new mesh's first Apply,
// whose tiles are all new) or since is newer than this
// snapshot, it returns dst unchanged and complete false: assume every tile
// changed. It does not allocate when dst has room.
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
	if e.changesAll {
		return
	}
	c := TileChange{Slot: int(index), X: x, Y: y, Layer: layer}
	if n := len(e.changes); n > 0 && e.changes[n-1] == c {
		return
	}
	e.changes = append(e.changes, c)
}

// nextHistory returns the base's history with this edit's record appended.
// When the base's arrays are full (2*ChangeRecordPublishes records, or no
// room for the edit's changes) it first copies the newest records into
// fresh arrays sized for the next 2*ChangeRecordPublishes publishes
// (changeRoom), so that a steady stream of edits gets arrays of one size
// from its first publishes on, instead of a saw of doublings.
func (e *edit) nextHistory(version uint64) changeHistory {
	h := e.base.history
	incoming := len(e.changes)
	if incoming > ChangeRecordTiles {
		incoming = 0 // recorded as "everything changed"
	}
	if len(h.records) >= 2*ChangeRecordPublishes || len(h.changes)+incoming > cap(h.changes) {
		keep, total := newestRecords(h)
		h = compactHistory(h, keep, 2*ChangeRecordPublishes, changeRoom(cap(h.changes), keep, total, incoming))
	}
	record := changeRecord{version: version, start: len(h.changes), end: len(h.changes)}
	if e.changesAll || len(e.changes) > ChangeRecordTiles {
		record.overflow = true
	} else {
		h.changes = append(h.changes, e.changes...)
		record.end = len(h.changes)
	}
	h.records = append(h.records, record)
	return h
}

// minChangeRoom is the least room for changes a history's array gets.
const minChangeRoom = 64

// sampleRecords is the fewest kept records whose average changeRoom
// trusts: fewer (a mesh's first publishes, often loads of many tiles at
// once) get twice what they need.
const sampleRecords = 16

// changeRoom returns the room for changes of a history compacted to keep
// records holding total changes, before a publish of incoming changes:
// 2*ChangeRecordPublishes publishes at the average of those (once there
// are sampleRecords of them), and a quarter more, within [minChangeRoom,
// 2*ChangeRecordTiles]. The previous room (old) is kept while it is
// enough and not four times too much, so that the array's size settles.
func changeRoom(old, keep, total, incoming int) int {
	need := total + incoming
	estimate := min(2*need, 2*ChangeRecordTiles)
	if keep >= sampleRecords {
		estimate = min(2*ChangeRecordPublishes*need/(keep+1), 2*ChangeRecordTiles)
	}
	room := min(max(estimate+estimate/4+1, minChangeRoom, need), 2*ChangeRecordTiles)
	if old >= need && old >= estimate && old <= 4*room {
		return old
	}
	return room
}

// newestRecords returns how many of h's newest records a compacted history
// keeps (at most ChangeRecordPublishes, with at most ChangeRecordTiles
// changes) and how many changes they hold.
func newestRecords(h changeHistory) (keep, total int) {
	keep = len(h.records)
	for i := len(h.records) - 1; i >= 0; i-- {
		r := h.records[i]
		if len(h.records)-i > ChangeRecordPublishes || total+r.end-r.start > ChangeRecordTiles {
			return len(h.records) - 1 - i, total
		}
		total += r.end - r.start
	}
	return keep, total
}

// compactHistory copies the keep newest records of h and their changes into
// fresh arrays with room for records records and changes changes (at
// least what they hold).
func compactHistory(h changeHistory, keep, records, changes int) changeHistory {
	kept := h.records[len(h.records)-keep:]
	total := 0
	for _, r := range kept {
		total += r.end - r.start
	}
	out := changeHistory{
		records: make([]changeRecord, 0, max(records, keep)),
		changes: make([]TileChange, 0, max(changes, total)),
	}
	for _, r := range kept {
		n := changeRecord{version: r.version, start: len(out.changes), overflow: r.overflow}
		out.changes = append(out.changes, h.changes[r.start:r.end]...)
		n.end = len(out.changes)
		out.records = append(out.records, n)
	}
	return out
}
