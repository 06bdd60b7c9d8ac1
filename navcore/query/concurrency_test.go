package query

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestQueriesWhileTilesChange runs queries on several goroutines, each with
// its own Query, while another goroutine removes and re-adds the tile. Run
// with -race. Queries see either the tile or no tile: a stale ref is an
// ErrInvalidRef, never a crash or a wrong answer.
func TestQueriesWhileTilesChange(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	filter := referenceFilter()
	pairs := testmesh.ReferencePairs(t)[:100]
	var stop atomic.Bool
	var writer, readers sync.WaitGroup

	var swaps atomic.Int64
	writer.Add(1)
	go func() {
		defer writer.Done()
		for !stop.Load() {
			for range 20 {
				runtime.Gosched()
			}
			tile := mesh.Snapshot().Tile(0)
			if tile == nil {
				continue
			}
			data, err := mesh.RemoveTile(tile.Ref())
			if !assert.NoError(t, err) {
				return
			}
			_, err = mesh.AddTile(data, 0)
			if !assert.NoError(t, err) {
				return
			}
			swaps.Add(1)
		}
	}()

	var complete atomic.Int64
	for g := 0; g < 2; g++ {
		readers.Add(1)
		go func() {
			defer readers.Done()
			q, err := New(mesh, 2048)
			if !assert.NoError(t, err) {
				return
			}
			path := make([]navmesh.Ref, 256)
			points := make([]StraightPathPoint, 256)
			done := 0
			// Keep querying until the writer has swapped the tile a few times
			// too, however the scheduler shares the cores out.
			for attempt := 0; (done < 200 || swaps.Load() < 10) && attempt < 1000000; attempt++ {
				p := pairs[attempt%len(pairs)]
				start, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
				if !assert.NoError(t, err) {
					return
				}
				end, err := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, filter)
				if !assert.NoError(t, err) {
					return
				}
				if start.Ref == 0 || end.Ref == 0 {
					continue // the tile was out at that moment
				}
				n, status, err := q.FindPath(start.Ref, end.Ref, p.Start, p.End, filter, path)
				if errors.Is(err, ErrInvalidRef) {
					continue
				}
				if !assert.NoError(t, err) {
					return
				}
				// When both lookups saw the same tile version the answer
				// is the reference one.
				if start.Ref.Salt() == end.Ref.Salt() {
					assert.Equal(t, p.Partial, status.Partial())
					assert.Equal(t, p.PolyCount, n)
				}
				ns, _, err := q.FindStraightPath(p.Start, p.End, path[:n], points, 0)
				if errors.Is(err, ErrInvalidRef) {
					continue
				}
				if !assert.NoError(t, err) {
					return
				}
				assert.Positive(t, ns)
				complete.Add(1)
				done++
			}
		}()
	}
	readers.Wait()
	stop.Store(true)
	writer.Wait()
	t.Logf("%d pairs completed during %d tile swaps", complete.Load(), swaps.Load())
	assert.Positive(t, complete.Load())
	assert.Positive(t, swaps.Load())
}
