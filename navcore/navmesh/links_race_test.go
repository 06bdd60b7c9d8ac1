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

// linksWhole checks that every runtime link of s is there whole: each end
// that landed is linked back from its polygon as the link's direction
// says, and every link into a link tile from the ground has its partner.
func linksWhole(t *testing.T, s *Snapshot) bool {
	for i := range s.MaxTiles() {
		tile := s.Tile(i)
		if tile == nil {
			continue
		}
		base := tile.PolyRefBase()
		for ip := range tile.Polys {
			ref := base | Ref(ip)
			for l := tile.Polys[ip].FirstLink; l != NullLink; l = tile.Links[l].Next {
				link := tile.Links[l]
				other, otherPoly, err := s.TileAndPoly(link.Ref)
				if !assert.NoError(t, err, "link %#x→%#x", ref, link.Ref) {
					return false
				}
				back := false
				for k := otherPoly.FirstLink; k != NullLink; k = other.Links[k].Next {
					back = back || other.Links[k].Ref == ref
				}
				switch {
				case tile.IsLink() && (link.Edge == 0 || tile.Data.link.desc.Bidirectional):
					if !assert.True(t, back, "link %#x lands on %#x, which has no way in", ref, link.Ref) {
						return false
					}
				case other.IsLink():
					if !assert.True(t, back, "%#x leads into link %#x, which does not land there", ref, link.Ref) {
						return false
					}
				}
			}
		}
	}
	return true
}

// TestConcurrentReadersWhileLinksChange runs readers that check every
// snapshot's links whole while a writer adds and removes links and swaps
// the tiles they land on. Run it with -race.
func TestConcurrentReadersWhileLinksChange(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	for y := range int32(3) {
		for x := range int32(3) {
			_, err := m.AddTile(gridTile(x, y), 0)
			require.NoError(t, err)
		}
	}
	var stop atomic.Bool
	var failed atomic.Bool
	var snapshots atomic.Int64
	var wg sync.WaitGroup
	for range max(2, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() && !failed.Load() {
				if !linksWhole(t, m.Snapshot()) {
					failed.Store(true)
				}
				snapshots.Add(1)
			}
		}()
	}
	var ids []LinkID
	for round := range 300 {
		if failed.Load() {
			break
		}
		k := float32(round % 7)
		id, err := m.AddLink(LinkDesc{Start: mgl32.Vec3{1 + k, 0, 2}, End: mgl32.Vec3{28 - k, 0, 27}, Radius: 1, Bidirectional: round%2 == 0, Flags: 1, Width: float32(round % 3)})
		require.NoError(t, err)
		ids = append(ids, id)
		if round%3 == 0 {
			// The far end's tile goes and comes back.
			ref := m.Snapshot().TileRefAt(2, 2, 0)
			data, err := m.RemoveTile(ref)
			require.NoError(t, err)
			_, err = m.AddTile(data, 0)
			require.NoError(t, err)
		}
		if len(ids) > 5 {
			require.NoError(t, m.RemoveLink(ids[0]))
			ids = ids[1:]
		}
	}
	stop.Store(true)
	wg.Wait()
	assert.False(t, failed.Load())
	t.Logf("%d snapshots checked", snapshots.Load())
	for _, id := range ids {
		starts, ends, ok := m.Snapshot().LinkAttached(id)
		assert.True(t, ok)
		assert.Positive(t, starts)
		assert.Positive(t, ends)
	}
}
