package plugin

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// bakeTiledDungeon bakes the dungeon level in tiles of 32 cells (41 tiles
// with data).
func bakeTiledDungeon(tb testing.TB) *navmesh.Mesh {
	tb.Helper()
	g, err := bake.LoadOBJ("../testdata/dungeon.obj")
	require.NoError(tb, err)
	result, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{})
	require.NoError(tb, err)
	mesh, err := result.NavMesh()
	require.NoError(tb, err)
	return mesh
}

// tileStreamer replaces and drops tiles of a mesh the way a streaming world
// does.
type tileStreamer struct {
	mesh    *navmesh.Mesh
	rng     *rand.Rand
	dropped []*navmesh.TileData
}

// replace swaps n random tiles for copies of themselves, each in a new
// slot version (lastRef 0: the refs into it go stale) or, with keepRefs, in
// its slot with its salt (as the tile cache rebuilds a tile).
func (s *tileStreamer) replace(tb testing.TB, n int, keepRefs bool) {
	tb.Helper()
	tiles := allTiles(s.mesh)
	for range n {
		tile := tiles[s.rng.IntN(len(tiles))]
		if s.mesh.TileByRef(tile.Ref()) == nil {
			continue // replaced already
		}
		ref := tile.Ref()
		data, err := s.mesh.RemoveTile(ref)
		require.NoError(tb, err)
		last := navmesh.TileRef(0)
		if keepRefs {
			last = ref
		}
		_, err = s.mesh.AddTile(data, last)
		require.NoError(tb, err)
	}
}

// drop removes n random tiles, to be restored later, and returns their
// refs.
func (s *tileStreamer) drop(tb testing.TB, n int) []navmesh.TileRef {
	tb.Helper()
	tiles := allTiles(s.mesh)
	var refs []navmesh.TileRef
	for range min(n, len(tiles)-1) {
		tile := tiles[s.rng.IntN(len(tiles))]
		if s.mesh.TileByRef(tile.Ref()) == nil {
			continue
		}
		data, err := s.mesh.RemoveTile(tile.Ref())
		require.NoError(tb, err)
		s.dropped = append(s.dropped, data)
		refs = append(refs, tile.Ref())
	}
	return refs
}

// restore adds the dropped tiles back, in new slot versions.
func (s *tileStreamer) restore(tb testing.TB) {
	tb.Helper()
	for _, data := range s.dropped {
		_, err := s.mesh.AddTile(data, 0)
		require.NoError(tb, err)
	}
	s.dropped = s.dropped[:0]
}

func allTiles(mesh *navmesh.Mesh) []*navmesh.Tile {
	var tiles []*navmesh.Tile
	for tile := range mesh.Snapshot().Tiles() {
		tiles = append(tiles, tile)
	}
	return tiles
}

// TestTilesStreamUnderWalkingAgents walks 80 agents over the tiled dungeon
// for 5 s (20 s with ARCHENAV_LONG=1) while tiles are swapped under them
// every few ticks (in new slot versions, so that their refs go stale, and
// in place, as the tile cache does) and, in a third run, two tiles are also
// dropped for half a second every second; then the crowd runs on for 5 s
// (15 s). No tick fails and every walking agent stands on a polygon of the
// mesh after every tick. The swaps lose no agent, and the crowd gets about
// where the same crowd gets on a mesh left alone (20 of 80 agents reached
// on the still mesh, 21 with swaps; 52 and 50 in the long run). An agent
// becomes invalid only when its own tile is dropped with no polygon near
// it, as in DetourCrowd, and stays so: the crowd does not pick agents up
// when their tile comes back (12 of the 21 agents on dropped tiles; 30 of
// 52 in the long run).
func TestTilesStreamUnderWalkingAgents(t *testing.T) {
	const agents = 80
	streamTicks, settleTicks := 300, 300
	if longtest.Enabled() {
		streamTicks, settleTicks = 1200, 900
	}
	type outcome struct {
		reached int
		invalid []int
		// onDropped marks the agents that stood on a tile when it was
		// dropped.
		onDropped map[int]bool
	}
	run := func(swap, drop bool) outcome {
		mesh := bakeTiledDungeon(t)
		f := newCrowd(t, mesh, agents, 21, Config{Workers: 2})
		defer f.plugin.Schedule().Finalize(f.world)
		s := &tileStreamer{mesh: mesh, rng: rand.New(rand.NewPCG(5, 6))}
		out := outcome{onDropped: map[int]bool{}}
		for tick := 0; tick < streamTicks+settleTicks; tick++ {
			if tick < streamTicks {
				switch {
				case drop && tick%60 == 30:
					for _, ref := range s.drop(t, 2) {
						for i, e := range f.agents {
							info, err := f.plugin.State(f.world, e)
							require.NoError(t, err)
							if info.Poly != 0 && navmesh.EncodeRef(info.Poly.Salt(), info.Poly.TileIndex(), 0) == ref {
								out.onDropped[i] = true
							}
						}
					}
				case drop && tick%60 == 0 && tick > 0:
					s.restore(t)
				case swap && tick%5 == 0:
					s.replace(t, 3, tick%10 == 0)
				}
			}
			require.NoError(t, f.plugin.Step(f.world, 1.0/60), "tick %d", tick)
			snapshot := mesh.Snapshot()
			for i, e := range f.agents {
				info, err := f.plugin.State(f.world, e)
				require.NoError(t, err)
				require.True(t, geom.IsFinite(info.Position), "tick %d agent %d at %v", tick, i, info.Position)
				if info.Mode == components.AgentWalking {
					require.True(t, snapshot.IsValid(info.Poly), "tick %d agent %d on polygon %#x of no tile", tick, i, uint64(info.Poly))
				}
			}
			if tick == streamTicks-1 {
				s.restore(t)
			}
		}
		for i, e := range f.agents {
			info, err := f.plugin.State(f.world, e)
			require.NoError(t, err)
			if info.Mode == components.AgentInvalid {
				out.invalid = append(out.invalid, i)
			}
		}
		out.reached = f.reached(t, 1)
		return out
	}
	still := run(false, false)
	swapped := run(true, false)
	dropped := run(true, true)
	t.Logf("reached %d of %d on a still mesh, %d with tiles swapped, %d with tiles swapped and dropped (%d invalid, %d stood on a dropped tile)",
		still.reached, agents, swapped.reached, dropped.reached, len(dropped.invalid), len(dropped.onDropped))
	require.Empty(t, still.invalid)
	require.Empty(t, swapped.invalid, "the swaps lose no agent")
	assert.GreaterOrEqual(t, swapped.reached, still.reached-agents/20, "the swaps cost the crowd little")
	for _, i := range dropped.invalid {
		assert.True(t, dropped.onDropped[i], "agent %d became invalid without standing on a dropped tile", i)
	}
}

// TestTilesStreamConcurrently swaps tiles from another goroutine while the
// crowd ticks on two workers (run it with -race): readers see consistent
// tile sets, so no tick fails and no position goes bad.
func TestTilesStreamConcurrently(t *testing.T) {
	mesh := bakeTiledDungeon(t)
	f := newCrowd(t, mesh, 60, 22, Config{Workers: 2})
	defer f.plugin.Schedule().Finalize(f.world)
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	swaps := 0
	go func() {
		defer wg.Done()
		s := &tileStreamer{mesh: mesh, rng: rand.New(rand.NewPCG(7, 8))}
		for !stop.Load() {
			s.replace(t, 1, swaps%2 == 0)
			swaps++
		}
	}()
	for tick := 0; tick < 300; tick++ {
		require.NoError(t, f.plugin.Step(f.world, 1.0/60), "tick %d", tick)
	}
	stop.Store(true)
	wg.Wait()
	for i, p := range f.positions(t) {
		require.True(t, geom.IsFinite(p), "agent %d at %v", i, p)
	}
	t.Logf("%d tile swaps during 300 ticks", swaps)
	require.Positive(t, swaps)
}
