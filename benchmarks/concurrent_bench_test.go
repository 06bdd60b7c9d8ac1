package benchmarks

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/archenav/archenav/navcore/navmesh"
)

// writerPause is the writer's pause between two edits: a tile removed and
// added back every millisecond, far more often than a game streams or
// rebuilds tiles.
const writerPause = time.Millisecond

// BenchmarkConcurrentQueries runs whole pairs (2 nearest + path + straight
// path, the reference workload) on 1 and 2 goroutines, each with its own
// Query on one shared Mesh. One op is one pair; ns/op is wall time over all
// pairs, so it halves when the goroutines scale.
//
//   - solo: the solo mesh, read only (compare with the C++ whole pair,
//     measured on one thread).
//   - tiled: the tiled bake (tile size 32), read only.
//   - tiled+writer: the same while a writer goroutine removes and adds back
//     the tile most corridors cross, every writerPause. Queries keep running
//     on the snapshot they started with; a pair that meets the tile gone
//     fails with ErrInvalidRef and is counted (failed-pairs). The C++
//     dtNavMesh cannot be shared like this: its readers and addTile/removeTile
//     race.
func BenchmarkConcurrentQueries(b *testing.B) {
	for _, level := range levels {
		for _, scenario := range []string{"solo", "tiled", "tiled+writer"} {
			for _, goroutines := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/goroutines=%d", level, scenario, goroutines), func(b *testing.B) {
					benchmarkConcurrentPairs(b, level, scenario, goroutines)
				})
			}
		}
	}
}

func benchmarkConcurrentPairs(b *testing.B, level, scenario string, goroutines int) {
	var mesh *navmesh.Mesh
	var set *pairSet
	if scenario == "solo" {
		mesh, set = soloMesh(b, level), soloPairs(b, level)
	} else {
		mesh, set = tiledMesh(b, level), tiledPairs(b, level)
	}
	runners := make([]*pairRunner, goroutines)
	for g := range runners {
		r, err := newPairRunner(mesh)
		if err != nil {
			b.Fatal(err)
		}
		runners[g] = r
	}
	var writer *tileWriter
	if scenario == "tiled+writer" {
		w, err := newTileWriter(mesh, set)
		if err != nil {
			b.Fatal(err)
		}
		writer = w
	}

	b.ReportAllocs()
	b.ResetTimer()
	if writer != nil {
		writer.start()
	}
	failed, err := runPairs(runners, set, b.N, writer != nil)
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	if writer != nil {
		edits, elapsed, err := writer.stop()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(edits)/elapsed.Seconds(), "edits/s")
		b.ReportMetric(float64(failed)/float64(b.N), "failed-pairs")
	}
}

// runPairs runs count whole pairs of set, spread over one goroutine per
// runner (runner g takes pairs g, g+len(runners), ...), and returns how
// many failed because a tile went away (allowed only when tilesChange).
func runPairs(runners []*pairRunner, set *pairSet, count int, tilesChange bool) (failed int, err error) {
	n := set.len()
	var failures atomic.Int64
	errs := make([]error, len(runners))
	var wg sync.WaitGroup
	for g, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < count; i += len(runners) {
				if _, err := r.run(set, i%n); err != nil {
					if !tilesChange || !errors.Is(err, navmesh.ErrInvalidRef) {
						errs[g] = fmt.Errorf("pair %d: %w", i%n, err)
						return
					}
					failures.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return int(failures.Load()), errors.Join(errs...)
}

// tiledPairs returns the reference workload on the tiled mesh of level
// name, built once per process.
func tiledPairs(tb testing.TB, name string) *pairSet {
	tb.Helper()
	set, err := pairCache.get("tiled/"+name, func() (*pairSet, error) {
		return newPairSet(tiledMesh(tb, name), pairCount, pairSeed)
	})
	if err != nil {
		tb.Fatalf("pairs on tiled %s: %v", name, err)
	}
	return set
}

// tileWriter removes one tile of a mesh and adds it back, again and again,
// on a goroutine of its own.
type tileWriter struct {
	mesh  *navmesh.Mesh
	ref   navmesh.TileRef
	quit  chan struct{}
	done  chan struct{}
	began time.Time
	edits atomic.Int64
	err   error
}

// newTileWriter picks the tile of mesh that the corridors of set cross
// most often.
func newTileWriter(mesh *navmesh.Mesh, set *pairSet) (*tileWriter, error) {
	crossings := map[int]int{}
	for _, path := range set.paths {
		seen := -1
		for _, ref := range path {
			tile, _, err := mesh.TileAndPoly(ref)
			if err != nil {
				return nil, err
			}
			if i := tile.Index(); i != seen {
				crossings[i]++
				seen = i
			}
		}
	}
	busiest := -1
	for i, c := range crossings {
		if busiest < 0 || c > crossings[busiest] || c == crossings[busiest] && i < busiest {
			busiest = i
		}
	}
	tile := mesh.Tile(busiest)
	if tile == nil {
		return nil, errors.New("tile writer: no tile crossed by the corridors")
	}
	ref := mesh.TileRefAt(int(tile.Data.Header.X), int(tile.Data.Header.Y), int(tile.Data.Header.Layer))
	return &tileWriter{mesh: mesh, ref: ref, quit: make(chan struct{}), done: make(chan struct{})}, nil
}

func (w *tileWriter) start() {
	w.began = time.Now()
	go func() {
		defer close(w.done)
		ticker := time.NewTicker(writerPause)
		defer ticker.Stop()
		for {
			select {
			case <-w.quit:
				return
			case <-ticker.C:
			}
			data, err := w.mesh.RemoveTile(w.ref)
			if err != nil {
				w.err = fmt.Errorf("remove tile: %w", err)
				return
			}
			if w.ref, err = w.mesh.AddTile(data, 0); err != nil {
				w.err = fmt.Errorf("add tile: %w", err)
				return
			}
			w.edits.Add(1)
		}
	}()
}

// stop ends the writer and returns its edit count, how long it ran and its
// error.
func (w *tileWriter) stop() (int, time.Duration, error) {
	close(w.quit)
	<-w.done
	return int(w.edits.Load()), time.Since(w.began), w.err
}
