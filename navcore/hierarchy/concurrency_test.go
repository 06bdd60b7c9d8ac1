package hierarchy

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcurrentSearchesWhileTilesSwap shares one hierarchy between
// goroutines searching, whole and sliced, while another swaps tiles, so
// that versions are built and landmarks refreshed under their feet. Run it
// with -race. Searches may only fail because a pair's polygon went away.
func TestConcurrentSearchesWhileTilesSwap(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	filter := demoFilter()
	h, err := New(mesh, filter, Options{Workers: 2})
	require.NoError(t, err)
	pairs := randomPairs(t, mesh, filter, 64, 17)
	w := newTileSwapper(t, mesh, nil, 23)

	var stop atomic.Bool
	var wg sync.WaitGroup
	var searched atomic.Int64
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q, err := query.New(mesh, 256)
			if !assert.NoError(t, err) {
				return
			}
			s, err := NewSearcher(q, h)
			if !assert.NoError(t, err) {
				return
			}
			path := make([]navmesh.Ref, 2048)
			for i := 0; !stop.Load() || i < 32; i++ {
				p := &pairs[(i*7+g)%len(pairs)]
				var result Result
				if i%3 == 0 {
					_, err = s.InitSlicedFindPath(p.startRef, p.endRef, p.start, p.end, filter)
					for err == nil {
						var status query.Status
						_, status, err = s.UpdateSlicedFindPath(50)
						if !status.InProgress() {
							break
						}
					}
					if err == nil {
						result, err = s.FinalizeSlicedFindPath(path)
					}
				} else {
					result, err = s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
				}
				if err != nil {
					assert.True(t, errors.Is(err, ErrInvalidRef) || errors.Is(err, ErrNoSlicedQuery), "%v", err)
					continue
				}
				assert.Positive(t, result.Count)
				assert.Equal(t, p.startRef, path[0])
				searched.Add(1)
			}
		}()
	}
	for range 40 {
		w.change(t)
		if h.Update().TilesBuilt == 0 {
			h.Stats() // a search may have built the version already
		}
	}
	stop.Store(true)
	wg.Wait()
	assert.Positive(t, searched.Load())
}
