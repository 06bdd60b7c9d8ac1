package hierarchy

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// benchLevel is a generated level with its hierarchy and pairs of points
// in classes by distance, made once per process.
type benchLevel struct {
	mesh      *navmesh.Mesh
	hierarchy *Hierarchy
	filter    *query.Filter
	classes   map[string][]pathPair
}

// pathPair is one start/goal pair.
type pathPair struct {
	startRef, endRef navmesh.Ref
	start, end       geom.Vec3
}

// pairClasses bound the straight (xz) distance of each class of pairs
// [Units: world units]: short under 100, medium 100-500, long over 500.
var pairClasses = []struct {
	name   string
	lo, hi float32
}{{"short", 0, 100}, {"medium", 100, 500}, {"long", 500, float32(math.Inf(1))}}

var (
	bigLevelOnce sync.Once
	bigLevel     *benchLevel
	bigLevelErr  error
)

// bigBenchLevel bakes (or reads from the cache) the 1 km level and picks
// reachable pairs: 200 per class, and 200 random pairs of any kind.
func bigBenchLevel(b testing.TB) *benchLevel {
	bigLevelOnce.Do(func() {
		mesh, err := bigworld.Default().CachedMesh(context.Background(), 0)
		if err != nil {
			bigLevelErr = err
			return
		}
		bigLevel, bigLevelErr = newBenchLevel(mesh, 200)
	})
	if bigLevelErr != nil {
		b.Fatal(bigLevelErr)
	}
	return bigLevel
}

func newBenchLevel(mesh *navmesh.Mesh, perClass int) (*benchLevel, error) {
	filter := query.NewFilter()
	h, err := New(mesh, filter, Options{})
	if err != nil {
		return nil, err
	}
	q, err := query.New(mesh, 2048)
	if err != nil {
		return nil, err
	}
	level := &benchLevel{mesh: mesh, hierarchy: h, filter: filter, classes: map[string][]pathPair{}}
	snap := mesh.Snapshot()
	random := newRandom(99)
	for tries := 0; tries < 1_000_000; tries++ {
		a, errA := q.FindRandomPoint(filter, random)
		c, errC := q.FindRandomPoint(filter, random)
		if errA != nil || errC != nil {
			continue
		}
		p := pathPair{a.Ref, c.Ref, a.Pos, c.Pos}
		if len(level.classes["any"]) < perClass {
			level.classes["any"] = append(level.classes["any"], p)
		}
		if !snap.SameComponent(a.Ref, c.Ref) {
			continue
		}
		d := geom.Dist2D(a.Pos, c.Pos)
		full := len(level.classes["any"]) == perClass
		for _, class := range pairClasses {
			if d >= class.lo && d < class.hi && len(level.classes[class.name]) < perClass {
				level.classes[class.name] = append(level.classes[class.name], p)
			}
			full = full && len(level.classes[class.name]) == perClass
		}
		if full {
			break
		}
	}
	return level, nil
}

// newRandom returns a seeded source of numbers in [0, 1).
func newRandom(seed uint64) func() float32 {
	state := seed
	return func() float32 {
		state = state*6364136223846793005 + 1442695040888963407
		return float32(state>>40) / float32(1<<24)
	}
}

// BenchmarkFindPath runs the pairs of each class with plain A* (a node
// pool that finishes every search) and with the hierarchy, side by side.
func BenchmarkFindPath(b *testing.B) {
	level := bigBenchLevel(b)
	for _, class := range []string{"short", "medium", "long", "any"} {
		pairs := level.classes[class]
		b.Run(class+"/astar", func(b *testing.B) {
			q, _ := query.New(level.mesh, 65536)
			q.SetNodeLimit(query.MaxNodes)
			path := make([]navmesh.Ref, 8192)
			for i := range pairs {
				q.FindPath(pairs[i].startRef, pairs[i].endRef, pairs[i].start, pairs[i].end, level.filter, path)
			}
			timer := startCPUTimer(b)
			for i := 0; i < b.N; i++ {
				p := &pairs[i%len(pairs)]
				if _, _, err := q.FindPath(p.startRef, p.endRef, p.start, p.end, level.filter, path); err != nil {
					b.Fatal(err)
				}
			}
			timer.stop(b)
		})
		b.Run(class+"/hierarchical", func(b *testing.B) { benchHierarchical(b, level, level.hierarchy, pairs) })
		if class == "long" {
			// The region level (Options.RegionSize), off by default.
			h, err := New(level.mesh, level.filter, Options{RegionSize: 2})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(class+"/hierarchical-region2", func(b *testing.B) { benchHierarchical(b, level, h, pairs) })
		}
	}
}

// benchHierarchical runs pairs with a Searcher of h, reporting the nodes
// it closes and its corridors' cost against A*'s.
func benchHierarchical(b *testing.B, level *benchLevel, h *Hierarchy, pairs []pathPair) {
	q, _ := query.New(level.mesh, 2048)
	s, _ := NewSearcher(q, h)
	path := make([]navmesh.Ref, 8192)
	nodes := 0
	mean, p99 := costRatios(b, level, s, pairs)
	timer := startCPUTimer(b)
	for i := 0; i < b.N; i++ {
		p := &pairs[i%len(pairs)]
		r, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, level.filter, path)
		if err != nil {
			b.Fatal(err)
		}
		nodes += r.NodesVisited
	}
	timer.stop(b)
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(mean, "cost-ratio-mean")
	b.ReportMetric(p99, "cost-ratio-p99")
	b.ReportMetric(float64(h.MemoryBytes()), "hierarchy-bytes")
}

// costRatios runs every pair with s and with A* (a node pool that
// finishes) and returns the mean and 99th percentile of the hierarchy's
// corridor cost over A*'s (CorridorCost), which also warms s up.
func costRatios(b *testing.B, level *benchLevel, s *Searcher, pairs []pathPair) (mean, p99 float64) {
	plain, err := query.New(level.mesh, 4096)
	if err != nil {
		b.Fatal(err)
	}
	if err := plain.SetNodeLimit(query.MaxNodes); err != nil {
		b.Fatal(err)
	}
	snap := level.mesh.Snapshot()
	pathA := make([]navmesh.Ref, 8192)
	pathH := make([]navmesh.Ref, 8192)
	var ratios []float64
	for _, p := range pairs {
		nA, _, errA := plain.FindPath(p.startRef, p.endRef, p.start, p.end, level.filter, pathA)
		r, errH := s.FindPath(p.startRef, p.endRef, p.start, p.end, level.filter, pathH)
		if errA != nil || errH != nil {
			b.Fatal(errA, errH)
		}
		costA, errA := CorridorCost(snap, level.filter, p.start, p.end, pathA[:nA])
		costH, errH := CorridorCost(snap, level.filter, p.start, p.end, pathH[:r.Count])
		if errA == nil && errH == nil && costA > 0 {
			ratios = append(ratios, float64(costH/costA))
		}
	}
	if len(ratios) == 0 {
		return 1, 1
	}
	return summary(ratios)
}

// cpuTimer measures the CPU time of a benchmark loop on its own OS thread
// and reports it per operation as cpu-ns/op beside the wall time.
type cpuTimer struct {
	start time.Duration
	ok    bool
}

func startCPUTimer(b *testing.B) cpuTimer {
	runtime.LockOSThread()
	b.ResetTimer()
	start, ok := cputime.Thread()
	return cpuTimer{start: start, ok: ok}
}

func (t cpuTimer) stop(b *testing.B) {
	end, ok := cputime.Thread()
	b.StopTimer()
	runtime.UnlockOSThread()
	if t.ok && ok {
		b.ReportMetric(float64(end-t.start)/float64(b.N), "cpu-ns/op")
	}
}

var _ = fmt.Sprint

// BenchmarkBuild builds the hierarchy of the 1 km level (2809 tiles) from
// scratch on 2 workers, landmarks included, and reports its memory.
func BenchmarkBuild(b *testing.B) {
	level := bigBenchLevel(b)
	var h *Hierarchy
	for i := 0; i < b.N; i++ {
		var err error
		if h, err = New(level.mesh, level.filter, Options{Workers: 2}); err != nil {
			b.Fatal(err)
		}
	}
	stats := h.Stats()
	b.ReportMetric(float64(stats.MemoryBytes), "bytes")
	b.ReportMetric(float64(stats.Tiles), "tiles")
}

// BenchmarkTileChange swaps one tile of the 1 km level for a new version
// of itself (as a tile cache rebuild does), or flips a polygon's flags,
// and times the hierarchy's update alone. Landmarks are refreshed
// separately (BenchmarkLandmarks).
func BenchmarkTileChange(b *testing.B) {
	level := bigBenchLevel(b)
	mesh, err := bigworld.Default().CachedMesh(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	h, err := New(mesh, level.filter, Options{Workers: 2, ManualLandmarks: true})
	if err != nil {
		b.Fatal(err)
	}
	tiles := []int{26 * 53, 26*53 + 26, 13*53 + 40, 52*53 + 52}
	b.Run("swap", func(b *testing.B) {
		built, clusters := 0, 0
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			k := tiles[i%len(tiles)]
			t := mesh.Snapshot().TileAt(k%53, k/53, 0)
			data, err := mesh.RemoveTile(t.Ref())
			if err == nil {
				_, err = mesh.AddTile(data, 0)
			}
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			stats := h.Update()
			built += stats.TilesBuilt
			clusters += stats.ClustersBuilt
		}
		b.ReportMetric(float64(built)/float64(b.N), "tiles/op")
		b.ReportMetric(float64(clusters)/float64(b.N), "clusters/op")
	})
	b.Run("flags", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			k := tiles[i%len(tiles)]
			t := mesh.Snapshot().TileAt(k%53, k/53, 0)
			ref := t.PolyRefBase()
			if err := mesh.SetPolyFlags(ref, t.Polys[0].Flags^disabledFlag); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			h.Update()
		}
	})
}

// BenchmarkLandmarks computes the landmarks of the 1 km level's hierarchy.
func BenchmarkLandmarks(b *testing.B) {
	level := bigBenchLevel(b)
	v := level.hierarchy.versionFor(level.mesh.Snapshot())
	for i := 0; i < b.N; i++ {
		buildLandmarks(v, DefaultLandmarks)
	}
}
