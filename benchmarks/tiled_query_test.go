package benchmarks

import (
	"bytes"
	"encoding/binary"
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/navmesh"
)

// The tiled query workload, run beside Detour: the reference's query
// settings (pairs_test.go) on the tiled RecastDemo levels (tile size 32)
// and on the 1 km generated level (benchmarks/bigworld, tile size 64, 2809
// tiles). TestWriteDetourWorkload writes each level's tile set (MSET),
// pairs and our results for a C++ harness of one's own (kept outside the
// repository), which loads the same tiles with Detour 1.6.0, checks that
// its results are ours and times the same calls; benchmarks/results-*.txt
// hold both sides' figures.

// tiledQueryLevels are the levels of the tiled workload.
var tiledQueryLevels = []string{"dungeon", "nav_test", "undulating", "bigworld"}

// detourOut is where TestWriteDetourWorkload writes the workload.
var detourOut = flag.String("detour-out", "", "TestWriteDetourWorkload: `directory` for each tiled level's MSET, pairs and expected results")

// tiledQueryMesh returns the tiled mesh of level (one per process).
func tiledQueryMesh(tb testing.TB, level string) *navmesh.Mesh {
	tb.Helper()
	mesh, err := tiledMeshCache.get(level, func() (*navmesh.Mesh, error) {
		if level == "bigworld" {
			return bigWorldMesh(tb), nil
		}
		return tiledBake(tb, level).NavMesh()
	})
	if err != nil {
		tb.Fatal(err)
	}
	return mesh
}

var tiledMeshCache cache[*navmesh.Mesh]

// tiledQueryPairs returns the pairs of the tiled workload on level.
func tiledQueryPairs(tb testing.TB, level string) *pairSet {
	tb.Helper()
	mesh := tiledQueryMesh(tb, level)
	set, err := pairCache.get("tiledquery/"+level, func() (*pairSet, error) {
		return newPairSet(mesh, pairCount, pairSeed)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return set
}

// BenchmarkTiledQuery times each query of the tiled workload: one op is
// one call; the calls cycle through the 10,000 pairs (nearest: their
// starts, then their ends). raycast casts from each start (its polygon)
// towards its end, options 0, recording up to 256 polygons.
func BenchmarkTiledQuery(b *testing.B) {
	for _, level := range tiledQueryLevels {
		run := func(name string, calls func(n int) int, call func(r *pairRunner, set *pairSet, k int) error) {
			b.Run(level+"/"+name, func(b *testing.B) {
				set := tiledQueryPairs(b, level)
				r, err := newPairRunner(tiledQueryMesh(b, level))
				if err != nil {
					b.Fatal(err)
				}
				n := calls(set.len())
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ReportAllocs()
				b.ResetTimer()
				cpu, cpuOK := cputime.Thread()
				for i := range b.N {
					if err := call(r, set, i%n); err != nil {
						b.Fatal(err)
					}
				}
				if after, ok := cputime.Thread(); ok && cpuOK {
					// The thread's CPU time: on a shared machine the wall
					// time counts the waits for a core too.
					b.ReportMetric(float64(after-cpu)/1e3/float64(b.N), "cpu-us/op")
				}
				reportWorkload(b, set)
			})
		}
		pairs := func(n int) int { return n }
		run("nearest", func(n int) int { return 2 * n }, func(r *pairRunner, set *pairSet, k int) error {
			n := set.len()
			center := set.starts[k%n]
			if k >= n {
				center = set.ends[k-n]
			}
			_, err := r.q.FindNearestPoly(center, halfExtents, r.filter)
			return err
		})
		run("path", pairs, func(r *pairRunner, set *pairSet, k int) error {
			_, _, err := r.q.FindPath(set.startRefs[k], set.endRefs[k], set.starts[k], set.ends[k], r.filter, r.path)
			return err
		})
		run("straight", pairs, func(r *pairRunner, set *pairSet, k int) error {
			_, _, err := r.q.FindStraightPath(set.starts[k], set.ends[k], set.paths[k], r.points, 0)
			return err
		})
		run("raycast", pairs, func(r *pairRunner, set *pairSet, k int) error {
			_, _, err := r.q.Raycast(set.startRefs[k], set.starts[k], set.ends[k], r.filter, 0, 0, r.path)
			return err
		})
	}
}

// BenchmarkTiledMeshMemory loads each tiled level from its MSET file and
// reports the live heap a loaded mesh holds (mesh-bytes: after a GC, the
// file's bytes and the tile set read from it dropped), beside which
// Detour's is its tile blobs and dtNavMesh's own arrays. The small levels
// are loaded in as many copies as make about 8 MB, so that the rest of
// the heap moving between the two GCs counts for little. One op is one
// measurement.
func BenchmarkTiledMeshMemory(b *testing.B) {
	for _, level := range tiledQueryLevels {
		b.Run(level, func(b *testing.B) {
			var file bytes.Buffer
			if err := navmesh.WriteMSET(&file, navmesh.TileSetFromMesh(tiledQueryMesh(b, level))); err != nil {
				b.Fatal(err)
			}
			copies := max(1, 8<<20/file.Len())
			var perMesh float64
			for range b.N {
				perMesh = float64(loadMeasured(b, file.Bytes(), copies)) / float64(copies)
			}
			b.ReportMetric(perMesh, "mesh-bytes")
			b.ReportMetric(float64(file.Len()), "mset-bytes")
		})
	}
}

// loadMeasured reads an MSET file into copies meshes and returns the live
// heap they hold.
func loadMeasured(tb testing.TB, file []byte, copies int) uint64 {
	tb.Helper()
	meshes := make([]*navmesh.Mesh, copies)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range meshes {
		meshes[i] = loadMSET(tb, file)
	}
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(meshes)
	runtime.KeepAlive(file)
	return after.HeapAlloc - before.HeapAlloc
}

// loadMSET reads an MSET file into a mesh (a function of its own, so that
// the tile set it goes through is garbage once it returns).
func loadMSET(tb testing.TB, file []byte) *navmesh.Mesh {
	set, err := navmesh.ReadMSET(file)
	if err != nil {
		tb.Fatal(err)
	}
	mesh, err := set.Mesh()
	if err != nil {
		tb.Fatal(err)
	}
	return mesh
}

// TestWriteDetourWorkload writes, with -detour-out DIR, each tiled level's
// tile set (DIR/level.mset), its pairs (DIR/level.pairs: a uint32 count,
// then per pair start and end as 6 float32, little-endian) and our
// results (DIR/level.expect: per pair the corridor length, whether it is
// partial, the straight path's points, the raycast's polygons as uint32
// and the raycast's T as float32 bits), for the C++ harness to check its
// own against.
func TestWriteDetourWorkload(t *testing.T) {
	if *detourOut == "" {
		t.Skip("give -detour-out DIR to write the workload")
	}
	for _, level := range tiledQueryLevels {
		mesh := tiledQueryMesh(t, level)
		set := tiledQueryPairs(t, level)
		var file bytes.Buffer
		if err := navmesh.WriteMSET(&file, navmesh.TileSetFromMesh(mesh)); err != nil {
			t.Fatal(err)
		}
		le := binary.LittleEndian
		pairs := le.AppendUint32(nil, uint32(set.len()))
		var expect []byte
		r, err := newPairRunner(mesh)
		if err != nil {
			t.Fatal(err)
		}
		for k := range set.len() {
			for _, v := range [2][3]float32{set.starts[k], set.ends[k]} {
				for _, c := range v {
					pairs = le.AppendUint32(pairs, math.Float32bits(c))
				}
			}
			n, status, err := r.q.FindPath(set.startRefs[k], set.endRefs[k], set.starts[k], set.ends[k], r.filter, r.path)
			if err != nil {
				t.Fatal(err)
			}
			straight, _, err := r.q.FindStraightPath(set.starts[k], set.ends[k], r.path[:n], r.points, 0)
			if err != nil {
				t.Fatal(err)
			}
			hit, _, err := r.q.Raycast(set.startRefs[k], set.starts[k], set.ends[k], r.filter, 0, 0, r.path)
			if err != nil {
				t.Fatal(err)
			}
			partial := uint32(0)
			if status.Partial() {
				partial = 1
			}
			for _, v := range []uint32{uint32(n), partial, uint32(straight), uint32(hit.PathCount), math.Float32bits(hit.T)} {
				expect = le.AppendUint32(expect, v)
			}
		}
		for name, content := range map[string][]byte{".mset": file.Bytes(), ".pairs": pairs, ".expect": expect} {
			if err := os.WriteFile(filepath.Join(*detourOut, level+name), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
