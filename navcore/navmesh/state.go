package navmesh

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/archenav/archenav/internal/binstate"
	"github.com/go-gl/mathgl/mgl32"
)

// ErrStateMismatch is wrapped when a MeshState is restored into a Mesh of
// other parameters, or is empty.
var ErrStateMismatch = errors.New("navmesh: state does not fit the mesh")

// maxStateVersion bounds the snapshot version a MeshState may carry, far
// above any real count of publishes, so that version arithmetic cannot
// overflow.
const maxStateVersion = 1 << 53

// MeshState is everything a Mesh holds: its current tile set, each tile
// with its slot, salt, polygon flags and areas and its links in the order
// they were made (so that saved polygon refs stay valid and searches
// visit neighbours in the same order), the free tile slots in the order
// AddTile takes them, the snapshot version and the record of recent
// changes (Snapshot.ChangesSince), and the runtime links (Mesh.AddLink):
// their tiles, the slots and salts the next ones take and the record of
// which links land in which grid column, in the order they land again.
//
// Mesh.CaptureState fills one cheaply (the tile set is shared, never
// copied: a snapshot never changes), Mesh.RestoreState puts it back, and
// AppendBinary and UnmarshalBinary write and read it as bytes. The zero
// MeshState is empty and restores nowhere.
type MeshState struct {
	params   Params
	snapshot *Snapshot
	slots    slotAllocator
	links    linkRegistry
}

// Params returns the parameters of the mesh the state was taken from.
func (s *MeshState) Params() Params { return s.params }

// Version returns the snapshot version of the state (Snapshot.Version).
func (s *MeshState) Version() uint64 {
	if s.snapshot == nil {
		return 0
	}
	return s.snapshot.version
}

// Snapshot returns the tile set of the state, nil for the zero MeshState.
func (s *MeshState) Snapshot() *Snapshot { return s.snapshot }

// SnapshotState returns a MeshState holding snap alone: its tiles, version
// and change record, without a mesh's free slots (every slot counts as
// used once). It writes and reads snapshots that something other than the
// mesh still works on, such as a search begun before the mesh changed; it
// is not for Mesh.RestoreState.
func SnapshotState(snap *Snapshot) MeshState {
	if snap == nil {
		return MeshState{}
	}
	grid := uint32(snap.params.MaxTiles)
	return MeshState{
		params: snap.params, snapshot: snap,
		slots: slotAllocator{maxTiles: grid, nextFresh: grid},
		links: linkRegistry{slots: slotAllocator{maxTiles: MaxTileSlots - grid, nextFresh: snap.maxTiles - grid}},
	}
}

// CaptureState stores m's state in dst, reusing dst's memory: the current
// snapshot (shared, not copied) and the free slots. It costs about the
// number of freed slots and allocates nothing once dst has held a state of
// the same size. A nil dst captures nothing.
func (m *Mesh) CaptureState(dst *MeshState) {
	if dst == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	dst.params = m.params
	dst.snapshot = m.current.Load()
	copySlots(&dst.slots, &m.slots)
	copyRegistry(&dst.links, &m.links)
}

// copyRegistry makes dst an independent copy of src, reusing dst's memory.
func copyRegistry(dst, src *linkRegistry) {
	copySlots(&dst.slots, &src.slots)
	if len(src.columns) == 0 {
		clear(dst.columns)
		return
	}
	if dst.columns == nil {
		dst.columns = make(map[linkColumn][]uint32, len(src.columns))
	}
	for c := range dst.columns {
		if _, ok := src.columns[c]; !ok {
			delete(dst.columns, c)
		}
	}
	for c, slots := range src.columns {
		dst.columns[c] = append(dst.columns[c][:0], slots...)
	}
}

// copySlots makes dst an independent copy of src, reusing dst's memory.
func copySlots(dst, src *slotAllocator) {
	dst.maxTiles = src.maxTiles
	dst.nextFresh = src.nextFresh
	dst.freed = append(dst.freed[:0], src.freed...)
	switch {
	case len(src.takenFresh) == 0:
		clear(dst.takenFresh)
	case dst.takenFresh == nil:
		dst.takenFresh = maps.Clone(src.takenFresh)
	default:
		clear(dst.takenFresh)
		maps.Copy(dst.takenFresh, src.takenFresh)
	}
}

// RestoreState makes s m's state: its tile set becomes m's current
// snapshot (readers holding an older snapshot keep it), with s's version,
// and its free slots m's. Refs saved with s are valid again. The error
// wraps ErrStateMismatch when s is nil or empty or was taken from a mesh of
// other parameters; nothing changes then. Restoring the state m already
// holds publishes nothing.
//
// The snapshot versions after a restore count on from s's version, so a
// version number seen before the restore may name another tile set after
// it: anything that remembers versions (a corridor's corner memory, a
// crowd's record of changed tiles) must be restored with s.
func (m *Mesh) RestoreState(s *MeshState) error {
	if s == nil || s.snapshot == nil {
		return fmt.Errorf("navmesh: restore state: empty state: %w", ErrStateMismatch)
	}
	if s.params != m.params {
		return fmt.Errorf("navmesh: restore state: a mesh of %+v into one of %+v: %w", s.params, m.params, ErrStateMismatch)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	copySlots(&m.slots, &s.slots)
	copyRegistry(&m.links, &s.links)
	if m.current.Load() == s.snapshot {
		return nil
	}
	// A copy whose change record cannot grow into memory that snapshots
	// published after s (now abandoned) still read.
	restored := *s.snapshot
	restored.stamp = newStamp()
	restored.history.records = slices.Clip(restored.history.records)
	restored.history.changes = slices.Clip(restored.history.changes)
	m.current.Store(&restored)
	return nil
}

// AppendBinary appends the state's byte form to b: the mesh parameters,
// version, change record, free slots and every tile with its slot, salt,
// data (as WriteDNAV writes it), runtime flags and areas and links, in the
// order that rebuilds the position lookup as it was. It fails for the zero
// MeshState.
func (s *MeshState) AppendBinary(b []byte) ([]byte, error) {
	if s.snapshot == nil {
		return b, fmt.Errorf("navmesh: encode state: empty state: %w", ErrStateMismatch)
	}
	snap := s.snapshot
	w := binstate.Writer{B: appendParams(b, s.params)}
	w.U64(snap.version)

	// The free slots.
	w.U32(s.slots.nextFresh)
	w.Count(len(s.slots.freed))
	for _, f := range s.slots.freed {
		w.U32(f.index)
		w.U32(f.salt)
	}
	taken := slices.Sorted(maps.Keys(s.slots.takenFresh))
	w.Count(len(taken))
	for _, index := range taken {
		w.U32(index)
	}

	// The change record, as compact as it reads.
	history := snap.history
	if len(history.records) > ChangeRecordPublishes {
		keep, _ := newestRecords(history)
		history = compactHistory(history, keep, 0, 0)
	}
	w.Count(len(history.records))
	for _, r := range history.records {
		w.U64(r.version)
		w.U32(uint32(r.start))
		w.U32(uint32(r.end))
		w.Bool(r.overflow)
	}
	w.Count(len(history.changes))
	for _, c := range history.changes {
		w.U32(uint32(c.Slot))
		w.I32(c.X)
		w.I32(c.Y)
		w.I32(c.Layer)
	}

	// The tiles, each bucket's chain last entry first: adding them in this
	// order, each at the head of its bucket, rebuilds the chains.
	w.U32(snap.lutMask)
	w.Count(snap.tileCount)
	var chain []uint32
	var err error
	for key := range snap.lutMask + 1 {
		chain = snap.chain(key, chain[:0])
		for _, slot := range slices.Backward(chain) {
			if err == nil {
				err = appendTileState(&w, snap.Tile(int(slot)))
			}
		}
	}
	if err != nil {
		return b, err
	}
	if snap.linkCount > 0 || !s.links.empty() {
		if err := appendLinkState(&w, snap, &s.links); err != nil {
			return b, err
		}
	}
	return w.B, nil
}

// appendTileState appends one tile of a MeshState.
func appendTileState(w *binstate.Writer, t *Tile) error {
	if t == nil {
		return fmt.Errorf("navmesh: encode state: a lookup entry without its tile: %w", ErrInconsistentTileData)
	}
	w.U32(t.index)
	w.U32(t.salt)
	blob, err := MarshalDNAV(t.Data)
	if err != nil {
		return fmt.Errorf("navmesh: encode state: tile slot %d: %w", t.index, err)
	}
	w.Bytes(blob)
	ownVerts := !slices.Equal(t.Verts, t.Data.Verts)
	w.Bool(ownVerts)
	if ownVerts {
		w.Count(len(t.Verts))
		for _, v := range t.Verts {
			w.Vec3(v)
		}
	}
	appendTileLinks(w, t)
	return nil
}

// appendTileLinks appends what a tile's version changes of its data: the
// polygons' first links, flags and areas, its links (the baked ones and,
// beyond Header.MaxLinkCount, those into runtime links) and their free
// lists. The free list of the links into runtime links follows only when
// there are such links, so that a tile without them is written as before
// runtime links were saved.
func appendTileLinks(w *binstate.Writer, t *Tile) {
	w.Count(len(t.Polys))
	for i := range t.Polys {
		p := &t.Polys[i]
		w.U32(p.FirstLink)
		w.U16(p.Flags)
		w.U8(p.AreaAndType)
	}
	w.Count(len(t.Links))
	for i := range t.Links {
		l := &t.Links[i]
		w.U64(uint64(l.Ref))
		w.U32(l.Next)
		w.U8(l.Edge)
		w.U8(l.Side)
		w.U8(l.BMin)
		w.U8(l.BMax)
	}
	// A published version's links are all in use (link_compact.go): its
	// free lists, which the format keeps for a draft's layout, are empty.
	w.U32(NullLink)
	if len(t.Links) > int(t.Data.Header.MaxLinkCount) {
		w.U32(NullLink)
	}
}

// Smallest encodings, for the count checks of UnmarshalBinary [Units: bytes].
const (
	stateTileMinSize   = 4 + 4 + 4 + dnavHeaderSize + 1 + 4 + 4 + 4
	stateRecordSize    = 8 + 4 + 4 + 1
	stateChangeSize    = 16
	statePolySize      = 4 + 2 + 1
	stateLinkSize      = 8 + 4 + 4
	stateFreedSlotSize = 8
	// maxStateTileLinks bounds the links of one tile in a state, those
	// into runtime links included.
	maxStateTileLinks = 1 << 24
)

// UnmarshalBinary reads a state written by AppendBinary into s. Every
// count, index and link is checked (a link must name a polygon of the
// state's tiles, a chain of links must end), so that a corrupt state is
// refused with an error wrapping ErrMalformedFile instead of making later
// searches fail; s changes only when data is valid.
func (s *MeshState) UnmarshalBinary(data []byte) error {
	if len(data) < 28 {
		return malformed("state", "header", "truncated: %d bytes, want at least 28", len(data))
	}
	params := decodeParams(data)
	if err := checkFileParams(params); err != nil {
		return malformed("state", "header", "%v", err)
	}
	r := binstate.NewReader(data[28:], "navmesh state")
	fail := func(err error) error {
		return fmt.Errorf("navmesh: state: %w: %w", err, ErrMalformedFile)
	}
	version := r.U64()
	if r.Err() == nil && version > maxStateVersion {
		r.Fail("version %d above %d", version, uint64(maxStateVersion))
	}
	maxTiles := uint32(params.MaxTiles)

	slots := slotAllocator{maxTiles: maxTiles}
	slots.nextFresh = r.U32()
	if r.Err() == nil && slots.nextFresh > maxTiles {
		r.Fail("next fresh slot %d beyond %d tiles", slots.nextFresh, maxTiles)
	}
	freedSeen := map[uint32]bool{}
	n := r.Count(params.MaxTiles, stateFreedSlotSize)
	for range n {
		f := freedSlot{index: r.U32(), salt: r.U32()}
		if r.Err() != nil {
			break
		}
		switch {
		case f.index >= slots.nextFresh:
			r.Fail("freed slot %d never used (next fresh %d)", f.index, slots.nextFresh)
		case f.salt == 0 || f.salt > saltMask:
			r.Fail("freed slot %d salt %d outside 1..%d", f.index, f.salt, saltMask)
		case freedSeen[f.index]:
			r.Fail("slot %d freed twice", f.index)
		}
		freedSeen[f.index] = true
		slots.freed = append(slots.freed, f)
	}
	n = r.Count(params.MaxTiles, 4)
	for range n {
		index := r.U32()
		if r.Err() == nil && (index < slots.nextFresh || index >= maxTiles) {
			r.Fail("taken slot %d outside %d..%d", index, slots.nextFresh, maxTiles-1)
		}
		if slots.takenFresh == nil {
			slots.takenFresh = map[uint32]struct{}{}
		}
		slots.takenFresh[index] = struct{}{}
	}

	var history changeHistory
	n = r.Count(2*ChangeRecordPublishes, stateRecordSize)
	for range n {
		rec := changeRecord{version: r.U64(), start: r.Size(), end: r.Size(), overflow: r.Bool()}
		history.records = append(history.records, rec)
	}
	n = r.Count(2*ChangeRecordTiles, stateChangeSize)
	for range n {
		c := TileChange{Slot: r.Size(), X: r.I32(), Y: r.I32(), Layer: r.I32()}
		history.changes = append(history.changes, c)
	}
	if r.Err() == nil {
		for i, rec := range history.records {
			want := version - uint64(len(history.records)-1-i)
			switch {
			case rec.version != want:
				r.Fail("change record %d of version %d, want %d", i, rec.version, want)
			case rec.start > rec.end || rec.end > len(history.changes) || (i > 0 && rec.start < history.records[i-1].end):
				r.Fail("change record %d spans changes %d..%d of %d", i, rec.start, rec.end, len(history.changes))
			}
		}
	}

	lutMask := r.U32()
	if r.Err() == nil && (lutMask&(lutMask+1) != 0 || lutMask >= maxTiles*2) {
		r.Fail("lookup mask %#x is not a power of two less one below twice the tile count", lutMask)
	}
	tileCount := r.Count(params.MaxTiles, stateTileMinSize)
	if r.Err() == nil && tileCount > int(lutMask)+1 {
		r.Fail("%d tiles in a lookup of %d buckets", tileCount, lutMask+1)
	}
	if r.Err() != nil {
		return fail(r.Err())
	}
	tiles := make([]*Tile, 0, tileCount)
	free := restoredFreeLists{}
	used := make(map[uint32]bool, tileCount)
	locations := make(map[[3]int32]bool, tileCount)
	for range tileCount {
		t, err := readTileState(r, params, free)
		if err != nil {
			return err
		}
		h := &t.Data.Header
		switch {
		case used[t.index]:
			r.Fail("tile slot %d used twice", t.index)
		case freedSeen[t.index]:
			r.Fail("tile slot %d is also free", t.index)
		case locations[[3]int32{h.X, h.Y, h.Layer}]:
			r.Fail("two tiles at (%d, %d, layer %d)", h.X, h.Y, h.Layer)
		case t.index >= slots.nextFresh:
			if _, taken := slots.takenFresh[t.index]; !taken {
				r.Fail("tile slot %d beyond the next fresh slot %d and not taken", t.index, slots.nextFresh)
			}
		}
		if r.Err() != nil {
			return fail(r.Err())
		}
		used[t.index] = true
		locations[[3]int32{h.X, h.Y, h.Layer}] = true
		tiles = append(tiles, t)
	}
	var links linkState
	if r.Err() == nil && r.Left() > 0 {
		links = readLinkState(r, params, used, free)
	}
	if err := r.End(); err != nil {
		return fail(err)
	}
	snap := restoredSnapshot(params, version, history, lutMask, tiles)
	links.addTo(snap)
	snap.flatten()
	if err := checkLinks(snap, append(tiles, links.tiles...), free); err != nil {
		return fail(err)
	}
	*s = MeshState{params: params, snapshot: snap, slots: slots, links: links.registry}
	return nil
}

// readTileState reads one tile of a MeshState and checks it on its own.
func readTileState(r *binstate.Reader, params Params, free restoredFreeLists) (*Tile, error) {
	index, salt := r.U32(), r.U32()
	blob := r.Bytes(r.Left())
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("navmesh: state: %w: %w", err, ErrMalformedFile)
	}
	where := fmt.Sprintf("tile slot %d", index)
	if index >= uint32(params.MaxTiles) || salt == 0 || salt > saltMask {
		return nil, malformed("state", where, "slot beyond %d tiles or salt %d outside 1..%d", params.MaxTiles, salt, saltMask)
	}
	data, err := ReadDNAV(blob)
	if err != nil {
		return nil, fmt.Errorf("navmesh: state: %s: %w", where, err)
	}
	if err := validateTileData(data, params); err != nil {
		return nil, fmt.Errorf("navmesh: state: %s: %w: %w", where, err, ErrMalformedFile)
	}
	t := newTile(data, index, salt)
	if r.Bool() {
		n := r.Count(len(data.Verts), 12)
		if r.Err() == nil && n != len(data.Verts) {
			r.Fail("%s: %d vertices for %d", where, n, len(data.Verts))
		}
		verts := make([]mgl32.Vec3, n)
		for i := range verts {
			verts[i] = r.Vec3()
		}
		t.Verts = verts
	}
	readTileLinks(r, t, where, free)
	if err := r.Err(); err != nil {
		return nil, fmt.Errorf("navmesh: state: %w: %w", err, ErrMalformedFile)
	}
	return t, nil
}

// readTileLinks reads what appendTileLinks wrote into the new tile t; free
// lists that are not empty (a state written from a draft's layout) go
// into free, for checkLinks to check and compact.
func readTileLinks(r *binstate.Reader, t *Tile, where string, free restoredFreeLists) {
	if n := r.Count(len(t.Polys), statePolySize); r.Err() == nil && n != len(t.Polys) {
		r.Fail("%s: %d polygons for %d", where, n, len(t.Polys))
	}
	for i := range t.Polys {
		p := &t.Polys[i]
		firstLink, flags, areaAndType := r.U32(), r.U16(), r.U8()
		if r.Err() == nil && areaAndType>>6 != p.AreaAndType>>6 {
			r.Fail("%s: polygon %d of type %d, the data's is %d", where, i, areaAndType>>6, p.AreaAndType>>6)
		}
		if (flags != p.Flags || areaAndType != p.AreaAndType) && t.usesDataPolys() {
			// Flags and areas changed at runtime live in a copy: the
			// data's polygons keep those it was made with. (The first
			// links read so far go with it: this tile holds the claim.)
			t.Polys = slices.Clone(t.Polys)
			p = &t.Polys[i]
		}
		p.FirstLink, p.Flags, p.AreaAndType = firstLink, flags, areaAndType
	}
	// A published version holds its links in use alone (link_compact.go):
	// the baked ones, then those into runtime links (extra links); a state
	// written from a draft's layout holds the baked room, free slots
	// included, and the extra links beyond it.
	n := r.Count(maxStateTileLinks, stateLinkSize)
	if r.Err() != nil {
		return
	}
	t.Links = make([]Link, n)
	for i := range t.Links {
		t.Links[i] = Link{Ref: Ref(r.U64()), Next: r.U32(), Edge: r.U8(), Side: r.U8(), BMin: r.U8(), BMax: r.U8()}
	}
	lists := [2]uint32{r.U32(), NullLink}
	if len(t.Links) > int(t.Data.Header.MaxLinkCount) {
		lists[1] = r.U32()
	}
	if lists != [2]uint32{NullLink, NullLink} && r.Err() == nil {
		free[t] = lists
	}
}

// restoredFreeLists holds the free link lists (baked, extra) of the tiles
// of a state written from a draft's layout, until checkLinks has checked
// them and compacted the tiles: a published Tile keeps no free list.
type restoredFreeLists map[*Tile][2]uint32

// restoredSnapshot returns the snapshot of tiles added in order to an
// empty lookup of lutMask, each at the head of its bucket.
func restoredSnapshot(params Params, version uint64, history changeHistory, lutMask uint32, tiles []*Tile) *Snapshot {
	tileTable := editRadix(radixTable[*Tile]{})
	lookup := editRadix(radixTable[bucket]{})
	for _, t := range tiles {
		tileTable.set(t.index, t)
		h := &t.Data.Header
		key := tileHash(h.X, h.Y, lutMask)
		lookup.set(key, &tileEntry{x: h.X, y: h.Y, layer: h.Layer, index: t.index, next: lookup.table.at(key)})
	}
	return &Snapshot{
		version:   version,
		stamp:     newStamp(),
		history:   history,
		params:    params,
		maxTiles:  uint32(params.MaxTiles),
		tiles:     tileTable.table,
		lookup:    lookup.table,
		lutMask:   lutMask,
		tileCount: len(tiles),

		connectivity:     new(connectivityCell),
		flagConnectivity: new(flagConnectivityCell),
	}
}

// checkLinks checks the links of tiles in snap: every chain (a polygon's
// links, the free lists in free) ends, no link is in two, every link in
// use names a polygon of snap and an edge of its polygon. Then it
// compacts the links of the tiles in free, as publishing a draft does
// (the links' order in each polygon's list stays).
func checkLinks(snap *Snapshot, tiles []*Tile, free restoredFreeLists) error {
	var seen []bool
	for _, t := range tiles {
		where := fmt.Sprintf("tile slot %d", t.index)
		seen = append(seen[:0], make([]bool, len(t.Links))...)
		walk := func(first uint32, poly *Poly, polyIndex int) error {
			for i := first; i != NullLink; i = t.Links[i].Next {
				if int64(i) >= int64(len(t.Links)) {
					return fmt.Errorf("%s: link %d beyond %d links", where, i, len(t.Links))
				}
				if seen[i] {
					return fmt.Errorf("%s: link %d in two chains, or a chain without end", where, i)
				}
				seen[i] = true
				if poly == nil {
					continue
				}
				l := &t.Links[i]
				_, target, err := snap.TileAndPoly(l.Ref)
				switch {
				case err != nil:
					return fmt.Errorf("%s: polygon %d links to %#x: %w", where, polyIndex, uint64(l.Ref), err)
				case l.Edge == 0xff && target.Type() != PolyTypeOffMeshConnection,
					l.Edge != 0xff && l.Edge >= poly.VertCount:
					return fmt.Errorf("%s: polygon %d links over edge %d of %d", where, polyIndex, l.Edge, poly.VertCount)
				case l.Side > 7 && l.Side != noSide:
					return fmt.Errorf("%s: polygon %d links to side %d", where, polyIndex, l.Side)
				}
			}
			return nil
		}
		for i := range t.Polys {
			if err := walk(t.Polys[i].FirstLink, &t.Polys[i], i); err != nil {
				return err
			}
		}
		if lists, ok := free[t]; ok {
			for _, list := range lists {
				if err := walk(list, nil, -1); err != nil {
					return err
				}
			}
		}
	}
	for t, lists := range free {
		d := &draft{
			tile: t, ownPolys: true, ownLinks: true,
			linksFreeList: lists[0], extraFreeList: lists[1],
			bakedLinks: uint32(max(t.Data.Header.MaxLinkCount, 0)),
		}
		d.compactLinks()
	}
	return nil
}
