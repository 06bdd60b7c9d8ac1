package navmesh

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gridTileVariant is gridTile split at a different z, so a replaced tile
// relinks with other portal fractions.
func gridTileVariant(x, y int32) *TileData {
	x0, z0 := float32(float32(x)*testTileSize), float32(float32(y)*testTileSize)
	return buildTile(tileSpec{x: x, y: y, polys: [][]mgl32.Vec3{
		rect(x0, z0, x0+10, z0+3, 0), rect(x0, z0+3, x0+10, z0+10, 0),
	}})
}

// sameTileSets asserts that two meshes hold the same tiles in the same
// slots with the same salts, polygons and link arrays (order, free list).
func sameTileSets(t *testing.T, want, got *Snapshot) bool {
	t.Helper()
	if !assert.Equal(t, want.TileCount(), got.TileCount()) {
		return false
	}
	for i := range want.MaxTiles() {
		a, b := want.Tile(i), got.Tile(i)
		if a == nil || b == nil {
			if !assert.True(t, a == nil && b == nil, "slot %d", i) {
				return false
			}
			continue
		}
		ok := assert.Equal(t, a.Ref(), b.Ref(), "slot %d ref", i) &&
			assert.Same(t, a.Data, b.Data, "slot %d data", i) &&
			assert.Equal(t, a.Polys, b.Polys, "slot %d polygons", i) &&
			assert.Equal(t, a.Links, b.Links, "slot %d links", i)
		if !ok {
			return false
		}
	}
	return true
}

// TestApplyEqualsOneCallAtATime runs random change lists on a 3×3 grid twice:
// call by call, and as one batch. Slots, salts, link lists and the free
// slot list must come out the same.
func TestApplyEqualsOneCallAtATime(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tiles := map[[2]int32][2]*TileData{}
	for y := range int32(3) {
		for x := range int32(3) {
			tiles[[2]int32{x, y}] = [2]*TileData{gridTile(x, y), gridTileVariant(x, y)}
		}
	}
	for round := range 40 {
		serial, err := New(testParams(12))
		require.NoError(t, err)
		batched, err := New(testParams(12))
		require.NoError(t, err)
		var b Batch
		for y := range int32(3) {
			for x := range int32(3) {
				data := tiles[[2]int32{x, y}][0]
				_, err := serial.AddTile(data, 0)
				require.NoError(t, err)
				b.Add(data, 0)
			}
		}
		_, err = batched.Apply(&b, nil)
		require.NoError(t, err)
		require.True(t, sameTileSets(t, serial.Snapshot(), batched.Snapshot()), "round %d: initial", round)

		b.Reset()
		var wantRefs []TileRef
		removed := map[[2]int32]TileRef{}
		for range 1 + rng.IntN(12) {
			x, y := int32(rng.IntN(3)), int32(rng.IntN(3))
			key := [2]int32{x, y}
			data := tiles[key][rng.IntN(2)]
			cur := serial.Snapshot().TileAt(int(x), int(y), 0)
			switch rng.IntN(4) {
			case 0: // replace
				if cur != nil {
					_, err := serial.RemoveTile(cur.Ref())
					require.NoError(t, err)
				}
				ref, err := serial.AddTile(data, 0)
				require.NoError(t, err)
				b.Replace(data)
				wantRefs = append(wantRefs, ref)
			case 1: // remove by ref
				if cur == nil {
					continue
				}
				_, err := serial.RemoveTile(cur.Ref())
				require.NoError(t, err)
				removed[key] = cur.Ref()
				b.Remove(cur.Ref())
				wantRefs = append(wantRefs, 0)
			case 2: // remove by location, present or not
				if cur != nil {
					_, err := serial.RemoveTile(cur.Ref())
					require.NoError(t, err)
					removed[key] = cur.Ref()
				}
				b.RemoveAt(x, y, 0)
				wantRefs = append(wantRefs, 0)
			case 3: // add back at the old ref when the slot is still free
				old, ok := removed[key]
				if cur != nil || !ok || serial.Snapshot().Tile(int(old.TileIndex())) != nil {
					continue
				}
				ref, err := serial.AddTile(data, old)
				require.NoError(t, err)
				require.Equal(t, old, ref, "refs come back")
				b.Add(data, old)
				wantRefs = append(wantRefs, ref)
			}
		}
		before := batched.Snapshot().Version()
		refs, err := batched.Apply(&b, nil)
		require.NoError(t, err)
		assert.Equal(t, wantRefs, refs, "round %d", round)
		published := uint64(0)
		if b.Len() > 0 {
			published = 1
		}
		assert.Equal(t, before+published, batched.Snapshot().Version(), "one publish")
		require.True(t, sameTileSets(t, serial.Snapshot(), batched.Snapshot()), "round %d", round)

		// The free slot lists agree too: the next tiles land alike.
		for range 3 {
			a, errA := serial.AddTile(gridTile(5, 5), 0)
			var one Batch
			one.Add(gridTile(5, 5), 0)
			bRefs, errB := batched.Apply(&one, nil)
			require.Equal(t, errA == nil, errB == nil)
			if errA == nil {
				assert.Equal(t, a, bRefs[0])
				_, err := serial.RemoveTile(a)
				require.NoError(t, err)
				_, err = batched.RemoveTile(a)
				require.NoError(t, err)
			}
		}
	}
}

// TestApplyIsAllOrNothing: a batch whose last change fails leaves the
// mesh, its snapshot and its free slot list as they were.
func TestApplyIsAllOrNothing(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	a, err := m.AddTile(gridTile(0, 0), 0)
	require.NoError(t, err)
	_, err = m.AddTile(gridTile(1, 0), 0)
	require.NoError(t, err)
	before := m.Snapshot()

	bad := cloneTileData(gridTile(2, 0))
	bad.Polys[0].Verts[0] = 200

	cases := []struct {
		name  string
		build func(b *Batch)
		want  error
	}{
		{"stale ref", func(b *Batch) { b.Replace(gridTile(0, 1)); b.Remove(a); b.Remove(a) }, ErrInvalidRef},
		{"location taken", func(b *Batch) { b.Remove(a); b.Add(gridTile(1, 0), 0) }, ErrTileExists},
		{"out of slots", func(b *Batch) {
			b.Add(gridTile(0, 1), 0)
			b.Add(gridTile(1, 1), 0)
			b.Add(gridTile(2, 1), 0)
		}, ErrOutOfTiles},
		{"slot taken by an earlier change", func(b *Batch) { b.Remove(a); b.Add(gridTile(0, 2), 0); b.Add(gridTile(0, 0), a) }, ErrTileExists},
		{"bad data", func(b *Batch) { b.RemoveAt(0, 0, 0); b.Add(bad, 0) }, ErrInvalidData},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b Batch
			c.build(&b)
			refs, err := m.Apply(&b, []TileRef{42})
			assert.ErrorIs(t, err, c.want)
			assert.Equal(t, []TileRef{42}, refs)
			assert.Same(t, before, m.Snapshot(), "nothing published")
		})
	}
	// The free list is untouched: the next tile takes slot 2 as it would
	// have without the failed batches.
	ref, err := m.AddTile(gridTile(2, 2), 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(1, 2, 0), ref)
}

func TestApplyEmptyBatchPublishesNothing(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	before := m.Snapshot()
	refs, err := m.Apply(&Batch{}, nil)
	require.NoError(t, err)
	assert.Empty(t, refs)
	assert.Same(t, before, m.Snapshot())
	_, err = m.Apply(nil, nil)
	require.NoError(t, err)
}

// TestChangesSince follows versions and change lists through adds, a
// batch, flag and area edits and removals.
func TestChangesSince(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	s0 := m.Snapshot()
	assert.Equal(t, uint64(0), s0.Version())
	a, err := m.AddTile(gridTile(0, 0), 0)
	require.NoError(t, err)
	b, err := m.AddTile(gridTile(1, 0), 0)
	require.NoError(t, err)
	s2 := m.Snapshot()
	assert.Equal(t, uint64(2), s2.Version())

	changes, ok := s2.ChangesSince(0, nil)
	require.True(t, ok)
	assert.Equal(t, []TileChange{{Slot: 0}, {Slot: 1, X: 1}}, changes)

	var batch Batch
	batch.Replace(gridTileVariant(1, 0))
	batch.Add(gridTile(2, 0), 0)
	_, err = m.Apply(&batch, nil)
	require.NoError(t, err)
	require.NoError(t, m.SetPolyFlags(a|1, 7))
	require.NoError(t, m.SetPolyArea(m.Snapshot().TileRefAt(2, 0, 0), 3))
	s5 := m.Snapshot()
	assert.Equal(t, uint64(5), s5.Version())

	changes, ok = s5.ChangesSince(s2.Version(), changes[:0])
	require.True(t, ok)
	assert.Equal(t, []TileChange{
		{Slot: 1, X: 1}, // replaced in its slot: listed once
		{Slot: 2, X: 2},
		{Slot: 0},       // flags
		{Slot: 2, X: 2}, // area
	}, changes)
	assert.NotEqual(t, b, m.Snapshot().TileRefAt(1, 0, 0), "the replaced tile has a new salt")

	// Older snapshots see only their own past; a newer version is not theirs.
	changes, ok = s2.ChangesSince(1, nil)
	require.True(t, ok)
	assert.Equal(t, []TileChange{{Slot: 1, X: 1}}, changes)
	_, ok = s2.ChangesSince(5, nil)
	assert.False(t, ok)
	changes, ok = s5.ChangesSince(5, changes[:0])
	assert.True(t, ok)
	assert.Empty(t, changes)

	allocs := testing.AllocsPerRun(20, func() { changes, _ = s5.ChangesSince(2, changes[:0]) })
	assert.Zero(t, allocs)
}

// TestFirstApplyRecordsEverything: a new mesh's first Apply, whose tiles
// are all new, is recorded as everything changed (no list kept); the next
// Apply lists its changes again.
func TestFirstApplyRecordsEverything(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	var first Batch
	first.Add(gridTile(0, 0), 0)
	first.Add(gridTile(1, 0), 0)
	_, err = m.Apply(&first, nil)
	require.NoError(t, err)
	s1 := m.Snapshot()
	assert.Equal(t, 2, s1.TileCount())
	_, ok := s1.ChangesSince(0, nil)
	assert.False(t, ok, "every tile of the first Apply is new")
	assert.Empty(t, s1.history.changes)

	var second Batch
	second.Add(gridTile(2, 0), 0)
	_, err = m.Apply(&second, nil)
	require.NoError(t, err)
	changes, ok := m.Snapshot().ChangesSince(s1.Version(), nil)
	require.True(t, ok)
	assert.Equal(t, []TileChange{{Slot: 2, X: 2}}, changes)
}

// TestChangesSinceIsBounded: past the record, ChangesSince says so; a
// snapshot holding an old record keeps answering for it.
func TestChangesSinceIsBounded(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	ref, err := m.AddTile(gridTile(0, 0), 0)
	require.NoError(t, err)
	early := m.Snapshot()
	for i := range 3 * ChangeRecordPublishes {
		require.NoError(t, m.SetPolyFlags(ref, uint16(i)))
	}
	late := m.Snapshot()
	_, ok := late.ChangesSince(early.Version(), nil)
	assert.False(t, ok, "too old: assume everything changed")
	changes, ok := late.ChangesSince(late.Version()-ChangeRecordPublishes, nil)
	require.True(t, ok)
	assert.Len(t, changes, ChangeRecordPublishes)
	changes, ok = early.ChangesSince(0, nil)
	require.True(t, ok)
	assert.Equal(t, []TileChange{{Slot: 0}}, changes)
	assert.LessOrEqual(t, len(late.history.records), 2*ChangeRecordPublishes)

	// One publish changing more than the record holds reads as everything.
	big, err := New(Params{TileWidth: 1, TileHeight: 1, MaxTiles: ChangeRecordTiles + 10, MaxPolys: 4})
	require.NoError(t, err)
	var b Batch
	tile := gridTile(0, 0)
	for i := range ChangeRecordTiles + 1 {
		c := *tile
		c.Header.X, c.Header.Y = int32(i), 1000
		b.Add(&c, 0)
	}
	_, err = big.Apply(&b, nil)
	require.NoError(t, err)
	_, ok = big.Snapshot().ChangesSince(0, nil)
	assert.False(t, ok)
}

// TestApplyWhileReading replaces tiles in batches while readers check that
// every snapshot is whole and that ChangesSince between the snapshots they
// saw names every slot whose tile differs. Run with -race.
func TestApplyWhileReading(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	var b Batch
	for y := range int32(3) {
		for x := range int32(3) {
			b.Add(gridTile(x, y), 0)
		}
	}
	_, err = m.Apply(&b, nil)
	require.NoError(t, err)

	var done atomic.Bool
	var checked, readers atomic.Int64
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		readers.Add(1)
		go func() {
			defer wg.Done()
			defer readers.Add(-1)
			prev := m.Snapshot()
			var changes []TileChange
			for !done.Load() {
				s := m.Snapshot()
				if _, ok := checkSnapshot(t, s, nil); !ok {
					return
				}
				var complete bool
				changes, complete = s.ChangesSince(prev.Version(), changes[:0])
				if complete {
					named := map[int]bool{}
					for _, c := range changes {
						named[c.Slot] = true
					}
					for i := range s.MaxTiles() {
						a, b := prev.Tile(i), s.Tile(i)
						differ := (a == nil) != (b == nil) || (a != nil && (a.Data != b.Data || a.Ref() != b.Ref()))
						if differ && !assert.True(t, named[i], "slot %d changed but is not listed", i) {
							return
						}
					}
				}
				prev = s
				checked.Add(1)
			}
		}()
	}
	for checked.Load() < 3 && readers.Load() > 0 {
		runtime.Gosched()
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		runtime.Gosched()
		b.Reset()
		for range 1 + rng.IntN(4) {
			x, y := int32(rng.IntN(3)), int32(rng.IntN(3))
			if rng.IntN(2) == 0 {
				b.Replace(gridTileVariant(x, y))
			} else {
				b.Replace(gridTile(x, y))
			}
		}
		if i%7 == 0 {
			b.RemoveAt(int32(rng.IntN(3)), int32(rng.IntN(3)), 0)
		}
		_, err := m.Apply(&b, nil)
		require.NoError(t, err)
	}
	done.Store(true)
	wg.Wait()
	assert.Positive(t, checked.Load())
}

// TestChangeRecordSettles: a steady stream of publishes (here, each
// replacing three tiles, after four that added one) gets a change record
// of one size once the first arrays (sized on the adds) have filled, and
// keeps it however long it runs; the record still reaches
// ChangeRecordPublishes publishes back.
func TestChangeRecordSettles(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	for x := range int32(4) {
		_, err := m.AddTile(gridTile(x, 0), 0)
		require.NoError(t, err)
	}
	var batch Batch
	publish := func(i int) {
		batch.Reset()
		for k := range 3 {
			x := int32((i + k) % 4)
			if i%2 == 0 {
				batch.Replace(gridTileVariant(x, 0))
			} else {
				batch.Replace(gridTile(x, 0))
			}
		}
		_, err := m.Apply(&batch, nil)
		require.NoError(t, err)
	}
	var rooms []int // the room for changes, each time it changed
	for i := range 10 * ChangeRecordPublishes {
		publish(i)
		h := m.Snapshot().history
		if n := len(rooms); n == 0 || rooms[n-1] != cap(h.changes) {
			require.Less(t, i, ChangeRecordPublishes, "publish %d: the room for changes changed to %d", i, cap(h.changes))
			rooms = append(rooms, cap(h.changes))
		}
		require.Equal(t, 2*ChangeRecordPublishes, cap(h.records), "publish %d: room for records", i)
	}
	assert.Len(t, rooms, 2, "sized on the adds, then on the replacements: %v", rooms)
	assert.GreaterOrEqual(t, rooms[1], 2*ChangeRecordPublishes*3, "room for 2*ChangeRecordPublishes publishes")
	snap := m.Snapshot()
	changes, complete := snap.ChangesSince(snap.Version()-ChangeRecordPublishes, nil)
	require.True(t, complete)
	assert.Len(t, changes, 3*ChangeRecordPublishes)
}
