package navmesh

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gridTile is tile (x, y) of a grid of identical tiles, each split in two
// along z, so every border is portal-linked both ways.
func gridTile(x, y int32) *TileData {
	x0, z0 := float32(float32(x)*testTileSize), float32(float32(y)*testTileSize)
	spec := tileSpec{x: x, y: y, polys: [][]mgl32.Vec3{
		rect(x0, z0, x0+10, z0+5, 0), rect(x0, z0+5, x0+10, z0+10, 0),
	}}
	if x == 1 && y == 1 {
		// An off-mesh connection landing in the tile to the +x side.
		spec.offMesh = []offMeshSpec{{start: mgl32.Vec3{x0 + 5, 0, z0 + 2}, end: mgl32.Vec3{x0 + 15, 0, z0 + 2}, radius: 0.5, bidir: true, side: 0}}
	}
	return buildTile(spec)
}

// checkSnapshot resolves every polygon and every link of s and checks that
// each border link has its partner: a half-updated tile set would show a
// link without its way back. It returns the refs it saw.
func checkSnapshot(t *testing.T, s *Snapshot, refs []Ref) ([]Ref, bool) {
	count := 0
	for i := range s.MaxTiles() {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		count++
		base := tile.PolyRefBase()
		for ip := range tile.Polys {
			ref := base | Ref(ip)
			refs = append(refs, ref)
			gotTile, poly, err := s.TileAndPoly(ref)
			if !assert.NoError(t, err) || !assert.Same(t, tile, gotTile) {
				return refs, false
			}
			for l := poly.FirstLink; l != NullLink; l = tile.Links[l].Next {
				link := tile.Links[l]
				other, otherPoly, err := s.TileAndPoly(link.Ref)
				if !assert.NoError(t, err, "link of %#x to %#x", ref, link.Ref) {
					return refs, false
				}
				if link.Side == noSide || poly.Type() == PolyTypeOffMeshConnection || otherPoly.Type() == PolyTypeOffMeshConnection {
					continue
				}
				back := false
				for k := otherPoly.FirstLink; k != NullLink; k = other.Links[k].Next {
					back = back || other.Links[k].Ref == ref
				}
				if !assert.True(t, back, "border link %#x→%#x has no partner", ref, link.Ref) {
					return refs, false
				}
			}
		}
	}
	return refs, assert.Equal(t, s.TileCount(), count)
}

// TestConcurrentReadersWhileTilesChange runs readers that resolve refs and
// walk link lists while a writer removes, re-adds and re-flags tiles. Run
// it with -race. Stale refs must fail validation and never crash.
func TestConcurrentReadersWhileTilesChange(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	refs := map[[2]int32]TileRef{}
	for y := range int32(3) {
		for x := range int32(3) {
			ref, err := m.AddTile(gridTile(x, y), 0)
			require.NoError(t, err)
			refs[[2]int32{x, y}] = ref
		}
	}

	const writes = 300
	var done atomic.Bool
	var snapshotsChecked, staleRejected, readers atomic.Int64
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		readers.Add(1)
		go func() {
			defer wg.Done()
			defer readers.Add(-1)
			var seen []Ref
			for !done.Load() {
				s := m.Snapshot()
				var ok bool
				fresh, ok := checkSnapshot(t, s, nil)
				if !ok {
					return
				}
				snapshotsChecked.Add(1)
				// Refs from older snapshots: valid or cleanly invalid.
				for _, ref := range seen {
					tile, poly, err := s.TileAndPoly(ref)
					if err != nil {
						if !assert.ErrorIs(t, err, ErrInvalidRef) {
							return
						}
						staleRejected.Add(1)
						s.TileAndPolyUnchecked(ref) // must not panic either
						continue
					}
					if !assert.Same(t, &tile.Polys[ref.PolyIndex()], poly) {
						return
					}
				}
				seen = append(seen[:0], fresh...)
			}
		}()
	}

	// Let the readers start before the writer runs, and let them interleave
	// with it, even on a loaded machine with few cores.
	for snapshotsChecked.Load() < 3 && readers.Load() > 0 {
		runtime.Gosched()
	}
	for i := range writes {
		runtime.Gosched()
		key := [2]int32{int32(i % 3), int32(i / 3 % 3)}
		old := refs[key]
		data, err := m.RemoveTile(old)
		require.NoError(t, err)
		lastRef := TileRef(0)
		if i%4 == 0 {
			lastRef = old // tile-cache style: old refs come back to life
		}
		ref, err := m.AddTile(data, lastRef)
		require.NoError(t, err)
		if lastRef != 0 {
			require.Equal(t, old, ref)
		}
		refs[key] = ref
		require.NoError(t, m.SetPolyFlags(ref|1, uint16(i)))
	}
	done.Store(true)
	wg.Wait()

	final, ok := checkSnapshot(t, m.Snapshot(), nil)
	require.True(t, ok)
	assert.Len(t, final, 9*2+1)
	assert.Positive(t, snapshotsChecked.Load())
	t.Logf("%d snapshots checked, %d stale refs rejected", snapshotsChecked.Load(), staleRejected.Load())
}

// linkKey is a link with its target named by grid location, comparable
// across meshes whose slots and salts differ.
type linkKey struct {
	x, y, poly             int
	edge, side, bmin, bmax uint8
}

// linkLayout maps each (x, y, poly) of s to its link list in order.
func linkLayout(s *Snapshot) map[[3]int][]linkKey {
	out := map[[3]int][]linkKey{}
	for i := range s.MaxTiles() {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		for ip := range tile.Polys {
			var keys []linkKey
			for _, l := range linksOf(tile, ip) {
				other := s.TileByRef(l.Ref)
				keys = append(keys, linkKey{int(other.Data.Header.X), int(other.Data.Header.Y), int(l.Ref.PolyIndex()), l.Edge, l.Side, l.BMin, l.BMax})
			}
			out[[3]int{int(tile.Data.Header.X), int(tile.Data.Header.Y), ip}] = keys
		}
	}
	return out
}

// TestRelinkingIsDeterministic: after removing and re-adding tiles, every
// polygon's link list (targets, order, portal fractions) equals that of a
// mesh built once in the final add order.
func TestRelinkingIsDeterministic(t *testing.T) {
	var tiles []*TileData
	for y := range int32(3) {
		for x := range int32(3) {
			tiles = append(tiles, gridTile(x, y))
		}
	}
	churned, err := New(testParams(16))
	require.NoError(t, err)
	refs := make([]TileRef, len(tiles))
	for i, d := range tiles {
		refs[i], err = churned.AddTile(d, 0)
		require.NoError(t, err)
	}
	for _, i := range []int{4, 0} {
		_, err := churned.RemoveTile(refs[i])
		require.NoError(t, err)
	}
	for _, i := range []int{4, 0} {
		_, err := churned.AddTile(tiles[i], 0)
		require.NoError(t, err)
	}

	once, err := New(testParams(16))
	require.NoError(t, err)
	for _, i := range []int{1, 2, 3, 5, 6, 7, 8, 4, 0} {
		_, err := once.AddTile(tiles[i], 0)
		require.NoError(t, err)
	}

	got, want := linkLayout(churned.Snapshot()), linkLayout(once.Snapshot())
	assert.Equal(t, want, got)
	total := 0
	for _, keys := range got {
		total += len(keys)
	}
	// 9 tiles × 2 internal links; 6 borders across x with 2 portal links
	// each way, 6 across z with 1 each way; the off-mesh connection's 2 base
	// links, its landing and the link back.
	assert.Equal(t, 9*2+6*4+6*2+4, total)
}
