package tilecache

import (
	"errors"
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
)

// midChange returns the saved dungeon cache caught in the middle of its
// work: obstacles added, moved and removed since the last Update, and an
// Update that rebuilt only part of what was queued.
func midChange(t testing.TB) (*Cache, []ObstacleRef) {
	t.Helper()
	cache, refs := savedDungeon(t)
	p := dungeonPoint
	moved, err := cache.AddObstacle(Cylinder(p.Add(mgl32.Vec3{2, 0, 1}), 0.8, 2))
	require.NoError(t, err)
	_, err = cache.Update(Budget{MaxTiles: 1})
	require.NoError(t, err)
	require.NoError(t, cache.MoveObstacle(moved, Box(p.Sub(mgl32.Vec3{1, 1, 4}), p.Add(mgl32.Vec3{1, 2, -2}))))
	require.NoError(t, cache.RemoveObstacle(refs[0]))
	area, err := cache.AddObstacle(OrientedBox(p.Add(mgl32.Vec3{-3, 0, 2}), mgl32.Vec3{1, 1, 0.5}, 0.6).WithArea(navmesh.AreaDoor))
	require.NoError(t, err)
	_, err = cache.Update(Budget{MaxTiles: 2})
	require.NoError(t, err)
	require.NoError(t, cache.MoveObstacle(area, Cylinder(p.Add(mgl32.Vec3{-2, 0, 3}), 1, 2).WithArea(navmesh.AreaDoor)))
	require.Positive(t, cache.Pending(), "work left for the next updates")
	return cache, append(refs[1:], moved, area)
}

// tileRefs returns the ref of every tile of snap by location.
func tileRefs(snap *navmesh.Snapshot) map[[3]int32]navmesh.TileRef {
	out := map[[3]int32]navmesh.TileRef{}
	for tile := snap.NextTile(0); tile != nil; tile = snap.NextTile(tile.Index() + 1) {
		h := &tile.Data.Header
		out[[3]int32{h.X, h.Y, h.Layer}] = tile.Ref()
	}
	return out
}

// steps changes cache and updates it within a small budget, in a fixed
// order, and returns what it saw after each step: the tiles' data and
// refs, the obstacle refs handed out and the pending work.
func steps(t testing.TB, cache *Cache, refs []ObstacleRef) []any {
	t.Helper()
	var seen []any
	look := func() {
		snap := cache.Mesh().Snapshot()
		seen = append(seen, tileBlobs(t, snap), tileRefs(snap), cache.Pending(), cache.ObstacleCount())
	}
	p := dungeonPoint
	for i := range 6 {
		switch i {
		case 1:
			ref, err := cache.AddObstacle(Cylinder(p.Add(mgl32.Vec3{-1, 0, -1}), 0.7, 2))
			require.NoError(t, err)
			seen = append(seen, ref)
		case 2:
			require.NoError(t, cache.RemoveObstacle(refs[len(refs)-1]))
		case 3:
			require.NoError(t, cache.MoveObstacle(refs[1], Cylinder(p.Add(mgl32.Vec3{1, 0, 1}), 0.5, 2)))
		}
		_, err := cache.Update(Budget{MaxTiles: 2})
		require.NoError(t, err)
		look()
	}
	return seen
}

// TestCacheStateContinuesTheCache: a cache caught mid-change, its state and
// its mesh's written, read back and restored into a cache loaded afresh
// from the level, goes on exactly like the original: the same tiles with
// the same refs after every further change and budgeted update, the same
// obstacle refs handed out.
func TestCacheStateContinuesTheCache(t *testing.T) {
	cache, refs := midChange(t)
	var meshState navmesh.MeshState
	var state CacheState
	cache.Mesh().CaptureState(&meshState)
	cache.CaptureState(&state)
	meshBytes, err := meshState.AppendBinary(nil)
	require.NoError(t, err)
	cacheBytes, err := state.AppendBinary(nil)
	require.NoError(t, err)

	fresh := loadDungeon(t, 2)
	var readMesh navmesh.MeshState
	var readCache CacheState
	require.NoError(t, readMesh.UnmarshalBinary(meshBytes))
	require.NoError(t, fresh.CheckState(&readCache, cacheBytes))
	again, err := readCache.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, cacheBytes, again, "a read state writes the same bytes")
	require.NoError(t, fresh.Mesh().RestoreState(&readMesh))
	require.NoError(t, fresh.RestoreState(&readCache))
	assert.Equal(t, cache.Pending(), fresh.Pending())
	assert.Equal(t, cache.Layers(nil), fresh.Layers(nil))

	assert.Equal(t, steps(t, cache, refs), steps(t, fresh, refs))
}

// TestCacheRestoreStateRewinds: a cache restored to a state it was in does
// the same again.
func TestCacheRestoreStateRewinds(t *testing.T) {
	cache, refs := midChange(t)
	var meshState navmesh.MeshState
	var state CacheState
	cache.Mesh().CaptureState(&meshState)
	cache.CaptureState(&state)
	first := steps(t, cache, refs)
	require.NoError(t, cache.Mesh().RestoreState(&meshState))
	require.NoError(t, cache.RestoreState(&state))
	assert.Equal(t, first, steps(t, cache, refs))
}

// TestCacheRestoreStateRefusesOtherCaches: an empty state, or one of a
// cache of other parameters, is refused and changes nothing.
func TestCacheRestoreStateRefusesOtherCaches(t *testing.T) {
	cache, _ := midChange(t)
	pending := cache.Pending()
	var empty CacheState
	require.ErrorIs(t, cache.RestoreState(&empty), ErrStateMismatch)
	_, err := empty.AppendBinary(nil)
	require.ErrorIs(t, err, ErrStateMismatch)
	var state CacheState
	cache.CaptureState(&state)
	state.params.MaxObstacles++
	require.ErrorIs(t, cache.RestoreState(&state), ErrStateMismatch)
	assert.Equal(t, pending, cache.Pending())
}

// TestCacheStateRefusesDamage: every truncation of a state is refused
// with ErrMalformedFile; a flipped bit is refused or read into a state
// that restores and updates without a panic.
func TestCacheStateRefusesDamage(t *testing.T) {
	cache, _ := midChange(t)
	var state CacheState
	cache.CaptureState(&state)
	file, err := state.AppendBinary(nil)
	require.NoError(t, err)
	// A byte of every record kind in a few seconds; every byte in CI's
	// long pass, the flips (each accepted one restored and updated) only
	// without the race detector, which makes them take ten minutes.
	cutStep, flipStep := 23, 23
	if longtest.Enabled() {
		cutStep = 1
		if !longtest.Race {
			flipStep = 1
		}
	}
	for n := 0; n < len(file); n += cutStep {
		var s CacheState
		err := s.UnmarshalBinary(file[:n])
		require.Error(t, err, "truncated to %d bytes", n)
		require.True(t, errors.Is(err, ErrMalformedFile), "truncated to %d: %v", n, err)
	}
	target := smallCache(t)
	damaged := make([]byte, len(file))
	accepted := 0
	for i := 0; i < len(file); i += flipStep {
		copy(damaged, file)
		damaged[i] ^= 0x81
		var s CacheState
		if s.UnmarshalBinary(damaged) != nil {
			continue
		}
		accepted++
		if s.Params() != target.Params() {
			continue
		}
		require.NoError(t, target.RestoreState(&s))
		_, _ = target.Update(Budget{})
	}
	t.Logf("%d of %d damaged states read as valid", accepted, len(file)/flipStep)
}

// FuzzCacheState feeds arbitrary bytes to CacheState.UnmarshalBinary: it
// must not panic, and a state it accepts must restore into a cache of its
// parameters and update without a panic.
func FuzzCacheState(f *testing.F) {
	cache := smallCache(f)
	_, err := cache.AddObstacle(Cylinder(dungeonPoint, 1, 2))
	require.NoError(f, err)
	var state CacheState
	cache.CaptureState(&state)
	file, err := state.AppendBinary(nil)
	require.NoError(f, err)
	f.Add(file)
	f.Fuzz(func(t *testing.T, data []byte) {
		var s CacheState
		if s.UnmarshalBinary(data) != nil || s.Params() != cache.Params() {
			return
		}
		target := smallCache(t)
		require.NoError(t, target.RestoreState(&s))
		_, _ = target.Update(Budget{})
	})
}

// TestCacheStateRefusesSlotsPast2To31 writes states whose slot lists name
// slot 2^31 or 2^32-1. Read as an int such a slot is negative on 32-bit
// CPUs: it passed the range checks there and the decoder panicked
// (GOARCH=386). Every one must be refused, on every CPU.
func TestCacheStateRefusesSlotsPast2To31(t *testing.T) {
	cache, _ := midChange(t)
	firstUsed := func(s *CacheState) *cachedLayer {
		for i := range s.layers {
			if s.layers[i].used {
				return &s.layers[i]
			}
		}
		t.Fatal("no layer in use")
		return nil
	}
	firstActive := func(s *CacheState) *obstacleSlot {
		for i := range s.obstacles {
			if s.obstacles[i].state != obstacleFree {
				return &s.obstacles[i]
			}
		}
		t.Fatal("no obstacle")
		return nil
	}
	tests := []struct {
		name   string
		damage func(s *CacheState, slot uint32)
	}{
		{"free layer", func(s *CacheState, slot uint32) { s.freeLayers = append(s.freeLayers, slot) }},
		{"column", func(s *CacheState, slot uint32) { s.columns[0].slots[0] = slot }},
		{"free obstacle", func(s *CacheState, slot uint32) { s.freeObstacles = append(s.freeObstacles, slot) }},
		{"changed obstacle", func(s *CacheState, slot uint32) { s.dirty = append(s.dirty, slot) }},
		{"queued rebuild", func(s *CacheState, slot uint32) { s.pending = append(s.pending, pendingBuild{slot: slot, salt: 1}) }},
		{"layer an obstacle marks", func(s *CacheState, slot uint32) {
			o := firstActive(s)
			o.layers = append(o.layers, slot)
		}},
		{"obstacle a layer lists", func(s *CacheState, slot uint32) {
			l := firstUsed(s)
			l.obstacles = append(l.obstacles, slot)
		}},
	}
	for _, tt := range tests {
		for _, slot := range []uint32{1 << 31, 0xffffffff} {
			t.Run(fmt.Sprintf("%s %#x", tt.name, slot), func(t *testing.T) {
				var state CacheState
				cache.CaptureState(&state)
				tt.damage(&state, slot)
				file, err := state.AppendBinary(nil)
				require.NoError(t, err)
				var s CacheState
				assert.ErrorIs(t, s.UnmarshalBinary(file), ErrMalformedFile)
			})
		}
	}
}
