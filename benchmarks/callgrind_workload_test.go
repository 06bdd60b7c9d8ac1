package benchmarks

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestCallgrindWorkload runs one query (CG_QUERY: nearest, path, straight
// or raycast) of the tiled workload CG_PASSES times over the first
// CG_PAIRS pairs (0: all) of CG_DIR/CG_LEVEL.{mset,pairs}, the files
// TestWriteDetourWorkload writes, exactly as BenchmarkTiledQuery calls it.
// Run under valgrind --tool=callgrind with two pass counts, the difference
// of the instructions is that of the passes alone, setup left out: see
// detour_instructions.sh, which runs a C++ harness doing the same calls
// with Detour beside it. It is skipped without CG_DIR.
func TestCallgrindWorkload(t *testing.T) {
	dir := os.Getenv("CG_DIR")
	if dir == "" {
		t.Skip("CG_DIR")
	}
	level, which := os.Getenv("CG_LEVEL"), os.Getenv("CG_QUERY")
	passes, _ := strconv.Atoi(os.Getenv("CG_PASSES"))
	limit, _ := strconv.Atoi(os.Getenv("CG_PAIRS"))
	file, err := os.ReadFile(filepath.Join(dir, level+".mset"))
	if err != nil {
		t.Fatal(err)
	}
	set, err := navmesh.ReadMSET(file)
	if err != nil {
		t.Fatal(err)
	}
	mesh, err := set.Mesh()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := os.ReadFile(filepath.Join(dir, level+".pairs"))
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	n := int(le.Uint32(pf))
	if limit > 0 && limit < n {
		n = limit
	}
	f := func(off int) float32 { return math.Float32frombits(le.Uint32(pf[off:])) }
	starts, ends := make([]geom.Vec3, n), make([]geom.Vec3, n)
	for k := range n {
		o := 4 + 24*k
		starts[k] = geom.Vec3{f(o), f(o + 4), f(o + 8)}
		ends[k] = geom.Vec3{f(o + 12), f(o + 16), f(o + 20)}
	}
	r, err := newPairRunner(mesh)
	if err != nil {
		t.Fatal(err)
	}
	startRefs, endRefs := make([]navmesh.Ref, n), make([]navmesh.Ref, n)
	for k := range n {
		a, _ := r.q.FindNearestPoly(starts[k], halfExtents, r.filter)
		b, _ := r.q.FindNearestPoly(ends[k], halfExtents, r.filter)
		startRefs[k], endRefs[k] = a.Ref, b.Ref
	}
	var paths [][]navmesh.Ref
	if which == "straight" {
		for k := range n {
			c, _, _ := r.q.FindPath(startRefs[k], endRefs[k], starts[k], ends[k], r.filter, r.path)
			paths = append(paths, append([]navmesh.Ref(nil), r.path[:c]...))
		}
	}
	runtime.LockOSThread()
	runtime.GC()
	calls := 0
	for range passes {
		switch which {
		case "nearest":
			for k := range 2 * n {
				c := starts[k%n]
				if k >= n {
					c = ends[k-n]
				}
				if _, err := r.q.FindNearestPoly(c, halfExtents, r.filter); err != nil {
					t.Fatal(err)
				}
				calls++
			}
		case "path":
			for k := range n {
				if _, _, err := r.q.FindPath(startRefs[k], endRefs[k], starts[k], ends[k], r.filter, r.path); err != nil {
					t.Fatal(err)
				}
				calls++
			}
		case "straight":
			for k := range n {
				if _, _, err := r.q.FindStraightPath(starts[k], ends[k], paths[k], r.points, 0); err != nil {
					t.Fatal(err)
				}
				calls++
			}
		case "raycast":
			for k := range n {
				if _, _, err := r.q.Raycast(startRefs[k], starts[k], ends[k], r.filter, 0, 0, r.path); err != nil {
					t.Fatal(err)
				}
				calls++
			}
		default:
			t.Fatalf("CG_QUERY %q", which)
		}
	}
	t.Logf("calls %d", calls)
}
