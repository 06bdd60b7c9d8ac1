package benchmarks

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/mlange-42/arche/ecs"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/internal/cputime"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/plugin"
)

// The hierarchical path search on the generated 1 km level (issue 14):
// benchmarks/bigworld's Default level, baked in tiles of 64 cells (2809
// tiles), read from its cache under os.TempDir after the first bake on a
// machine.

var bigWorld struct {
	once sync.Once
	mesh *navmesh.Mesh
	err  error
}

// bigWorldMesh returns the 1 km level, loaded once per process; callers
// only read it.
func bigWorldMesh(b testing.TB) *navmesh.Mesh {
	b.Helper()
	bigWorld.once.Do(func() {
		bigWorld.mesh, bigWorld.err = bigworld.Default().CachedMesh(context.Background(), 0)
	})
	if bigWorld.err != nil {
		b.Fatal(bigWorld.err)
	}
	return bigWorld.mesh
}

// bigWorldPairs picks perClass reachable pairs of random points in each
// class of straight (xz) distance, and perClass pairs of any kind
// ("all": reachable or not, as random points come), seeded.
func bigWorldPairs(b *testing.B, mesh *navmesh.Mesh, filter *query.Filter, perClass int) map[string][]pathPair {
	b.Helper()
	q, err := query.New(mesh, 64)
	if err != nil {
		b.Fatal(err)
	}
	snap := mesh.Snapshot()
	rng := &lcg{state: 14}
	classes := map[string][]pathPair{}
	full := func() bool {
		for _, c := range []string{"short", "medium", "long", "all"} {
			if len(classes[c]) < perClass {
				return false
			}
		}
		return true
	}
	for tries := 0; !full() && tries < 1_000_000; tries++ {
		a, errA := q.FindRandomPoint(filter, rng.next)
		c, errC := q.FindRandomPoint(filter, rng.next)
		if errA != nil || errC != nil {
			continue
		}
		p := pathPair{startRef: a.Ref, endRef: c.Ref, start: a.Pos, end: c.Pos}
		if len(classes["all"]) < perClass {
			classes["all"] = append(classes["all"], p)
		}
		if !snap.SameComponent(a.Ref, c.Ref) {
			continue
		}
		class := "short"
		switch d := geom.Dist2D(a.Pos, c.Pos); {
		case d > 500:
			class = "long"
		case d >= 100:
			class = "medium"
		}
		if len(classes[class]) < perClass {
			classes[class] = append(classes[class], p)
		}
	}
	return classes
}

type pathPair struct {
	startRef, endRef navmesh.Ref
	start, end       geom.Vec3
}

// BenchmarkHierarchyPaths plans pairs of the 1 km level with plain A* (a
// node pool that finishes every search: query.Query.SetNodeLimit) and with
// navcore/hierarchy, side by side: short pairs (under 100 m apart), medium
// (100 to 500 m), long (over 500 m), all reachable, and "all", random pairs
// as they come (most out of reach of each other: roofs are islands). One op
// is one FindPath; nodes/op is what the search closed.
func BenchmarkHierarchyPaths(b *testing.B) {
	mesh := bigWorldMesh(b)
	filter := query.NewFilter()
	h, err := hierarchy.New(mesh, filter, hierarchy.Options{})
	if err != nil {
		b.Fatal(err)
	}
	classes := bigWorldPairs(b, mesh, filter, 200)
	for _, class := range []string{"short", "medium", "long", "all"} {
		pairs := classes[class]
		b.Run(class+"/astar", func(b *testing.B) {
			q, _ := query.New(mesh, 65536)
			if err := q.SetNodeLimit(query.MaxNodes); err != nil {
				b.Fatal(err)
			}
			path := make([]navmesh.Ref, 8192)
			for i := range pairs { // warm: grown pools, computed components
				q.FindPath(pairs[i].startRef, pairs[i].endRef, pairs[i].start, pairs[i].end, filter, path)
			}
			nodes := 0
			for i := range pairs {
				p := &pairs[i]
				q.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
				if p.startRef != p.endRef {
					nodes += q.ClosedNodes()
				}
			}
			timer := startCPUTimer(b)
			for i := 0; i < b.N; i++ {
				p := &pairs[i%len(pairs)]
				if _, _, err := q.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path); err != nil {
					b.Fatal(err)
				}
			}
			timer.stop(b)
			b.ReportMetric(float64(nodes)/float64(len(pairs)), "nodes/op")
		})
		b.Run(class+"/hierarchical", func(b *testing.B) {
			q, _ := query.New(mesh, 2048)
			s, err := hierarchy.NewSearcher(q, h)
			if err != nil {
				b.Fatal(err)
			}
			path := make([]navmesh.Ref, 8192)
			for i := range pairs {
				s.FindPath(pairs[i].startRef, pairs[i].endRef, pairs[i].start, pairs[i].end, filter, path)
			}
			nodes := 0
			timer := startCPUTimer(b)
			for i := 0; i < b.N; i++ {
				p := &pairs[i%len(pairs)]
				r, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.NodesVisited
			}
			timer.stop(b)
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// BenchmarkHierarchyBuild builds the hierarchy of the 1 km level on 2
// workers, landmarks included; bytes is its memory and mesh-bytes the
// navmesh's tile arrays beside it.
func BenchmarkHierarchyBuild(b *testing.B) {
	mesh := bigWorldMesh(b)
	var h *hierarchy.Hierarchy
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		before := cputime.Process()
		var err error
		if h, err = hierarchy.New(mesh, query.NewFilter(), hierarchy.Options{Workers: 2}); err != nil {
			b.Fatal(err)
		}
		cpu += cputime.Process() - before
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(h.MemoryBytes()), "bytes")
	b.ReportMetric(float64(meshBytes(mesh)), "mesh-bytes")
}

// meshBytes sums the arrays of the mesh's tiles and their data.
func meshBytes(mesh *navmesh.Mesh) int {
	snap := mesh.Snapshot()
	total := 0
	for i := range snap.MaxTiles() {
		t := snap.Tile(i)
		if t == nil {
			continue
		}
		d := t.Data
		total += 32*(len(t.Polys)+len(d.Polys)) + 16*len(t.Links) + 12*(len(d.Verts)+len(d.DetailVerts)) +
			12*len(d.DetailMeshes) + 4*len(d.DetailTris) + 16*len(d.BVTree) + 40*len(d.OffMeshConnections)
	}
	return total
}

// BenchmarkHierarchyTileChange swaps a tile of the 1 km level for a new
// version of itself (what a tile cache rebuild publishes) and times the
// hierarchy's update alone; its landmarks are refreshed afterwards, on a
// goroutine of their own, and not timed.
func BenchmarkHierarchyTileChange(b *testing.B) {
	mesh, err := bigworld.Default().CachedMesh(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	h, err := hierarchy.New(mesh, query.NewFilter(), hierarchy.Options{Workers: 2, ManualLandmarks: true})
	if err != nil {
		b.Fatal(err)
	}
	locations := [][2]int{{26, 26}, {0, 26}, {40, 13}, {52, 52}}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		at := locations[i%len(locations)]
		t := mesh.Snapshot().TileAt(at[0], at[1], 0)
		data, err := mesh.RemoveTile(t.Ref())
		if err == nil {
			_, err = mesh.AddTile(data, 0)
		}
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		before, _ := cputime.Thread()
		h.Update()
		after, _ := cputime.Thread()
		cpu += after - before
	}
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// cpuTimer measures the CPU time of a benchmark loop on its own OS thread
// and reports it per op as cpu-ns/op beside the wall time: on a loaded
// machine the wall time counts the waits for a core too.
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

// Crowd runs on the 1 km level with far targets.
const (
	// hierarchyCrowdAgents is the crowd size.
	hierarchyCrowdAgents = 1000
	// farTarget is the least straight distance from an agent's start to
	// its target [Units: world units]
	farTarget = 300
)

// farTrips picks n trips between random points of the level's largest
// connected component at least farTarget apart.
func farTrips(b *testing.B, mesh *navmesh.Mesh, n int) []crowdTrip {
	b.Helper()
	q, _ := query.New(mesh, 64)
	filter := query.NewFilter()
	conn := mesh.Snapshot().Connectivity()
	largest, size := uint32(0), 0
	for id := 1; id <= conn.ComponentCount(); id++ {
		if info, _ := conn.Info(uint32(id)); info.Polys > size {
			largest, size = uint32(id), info.Polys
		}
	}
	rng := &lcg{state: 21}
	var trips []crowdTrip
	for tries := 0; len(trips) < n && tries < 10_000_000; tries++ {
		a, errA := q.FindRandomPoint(filter, rng.next)
		c, errC := q.FindRandomPoint(filter, rng.next)
		if errA != nil || errC != nil || conn.Component(a.Ref) != largest || conn.Component(c.Ref) != largest ||
			geom.Dist2D(a.Pos, c.Pos) < farTarget {
			continue
		}
		trips = append(trips, crowdTrip{start: a.Pos, target: c.Pos})
	}
	if len(trips) < n {
		b.Fatalf("only %d far trips", len(trips))
	}
	return trips
}

// BenchmarkCrowdHierarchy runs 1000 agents on the 1 km level, each sent to
// a target at least 300 m away in the same connected part, with the
// plugin's path queue (8 slots) planning with plain A* or with the
// hierarchy (plugin.Config.HierarchicalPaths), at the reference budget of
// 100 iterations per tick and at 2000. One op is one tick; every 600 ticks
// the crowd starts anew (outside the timer). queue-ms/tick is the
// PathRequest stage (the path queue with the requests' validity checks and
// quick searches); planned is the share of agents with a complete corridor
// after 600 ticks, plan-ticks the mean tick at which an agent got it
// (600 for those that did not).
func BenchmarkCrowdHierarchy(b *testing.B) {
	mesh := bigWorldMesh(b)
	trips := farTrips(b, mesh, hierarchyCrowdAgents)
	for _, budget := range []int{100, 2000} {
		for _, hierarchical := range []bool{false, true} {
			name := "astar"
			if hierarchical {
				name = "hierarchical"
			}
			b.Run(fmt.Sprintf("budget=%d/%s", budget, name), func(b *testing.B) {
				benchmarkCrowdHierarchy(b, mesh, trips, budget, hierarchical)
			})
		}
	}
}

func benchmarkCrowdHierarchy(b *testing.B, mesh *navmesh.Mesh, trips []crowdTrip, budget int, hierarchical bool) {
	var (
		run              *hierarchyCrowdRun
		queue            time.Duration
		planned, planSum float64
		runs             int
	)
	finish := func() {
		p, s := run.planned()
		planned += p
		planSum += s
		runs++
		run.plugin.Schedule().Finalize(run.world)
		run = nil
	}
	b.ResetTimer()
	for i := range b.N {
		if i%crowdTicks == 0 {
			b.StopTimer()
			if run != nil {
				finish()
			}
			var err error
			if run, err = newHierarchyCrowdRun(mesh, trips, budget, hierarchical); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if err := run.plugin.Step(run.world, crowdDt); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		queue += run.stageTime(plugin.StagePathRequest)
		run.tick++
		run.notePlanned()
		b.StartTimer()
	}
	b.StopTimer()
	if run != nil {
		finish()
	}
	b.ReportMetric(float64(queue.Microseconds())/1000/float64(b.N), "queue-ms/tick")
	b.ReportMetric(planned/float64(runs), "planned")
	b.ReportMetric(planSum/float64(runs), "plan-ticks")
}

// hierarchyCrowdRun is one crowd of BenchmarkCrowdHierarchy.
type hierarchyCrowdRun struct {
	world     *ecs.World
	plugin    *plugin.Plugin
	agents    []ecs.Entity
	plannedAt []int // per agent: the tick its corridor became complete, 0 before
	tick      int
}

func newHierarchyCrowdRun(mesh *navmesh.Mesh, trips []crowdTrip, budget int, hierarchical bool) (*hierarchyCrowdRun, error) {
	p, err := plugin.New(plugin.Config{
		Mesh:                mesh,
		MaxAgents:           len(trips),
		PathQueueIterations: budget,
		HierarchicalPaths:   hierarchyFor(hierarchical),
	})
	if err != nil {
		return nil, err
	}
	world := ecs.NewWorld()
	if err := p.Install(&world); err != nil {
		return nil, err
	}
	specs := make([]plugin.AgentSpec, len(trips))
	for i, trip := range trips {
		specs[i] = plugin.AgentSpec{Position: trip.start, Params: components.DefaultAgentParams()}
	}
	agents, err := p.SpawnBatch(&world, specs, nil)
	if err != nil {
		return nil, err
	}
	for i, e := range agents {
		if err := p.RequestMoveTarget(&world, e, trips[i].target); err != nil {
			return nil, fmt.Errorf("agent %d: %w", i, err)
		}
	}
	return &hierarchyCrowdRun{world: &world, plugin: p, agents: agents, plannedAt: make([]int, len(agents))}, nil
}

// stageTime returns the wall time of stage name in the last tick.
func (r *hierarchyCrowdRun) stageTime(name string) time.Duration {
	stats := r.plugin.Stats(r.world)
	for i, n := range stats.StageNames {
		if n == name {
			return stats.StageDurations[i]
		}
	}
	return 0
}

// notePlanned records the agents whose corridor became complete.
func (r *hierarchyCrowdRun) notePlanned() {
	for i, e := range r.agents {
		if r.plannedAt[i] != 0 {
			continue
		}
		if info, err := r.plugin.State(r.world, e); err == nil && info.Target == components.TargetValid && !info.Partial {
			r.plannedAt[i] = r.tick
		}
	}
}

// planned returns the share of agents planned and their mean planning
// tick (crowdTicks for those never planned).
func (r *hierarchyCrowdRun) planned() (share, meanTick float64) {
	done, sum := 0, 0
	for _, at := range r.plannedAt {
		if at != 0 {
			done++
			sum += at
		} else {
			sum += crowdTicks
		}
	}
	return float64(done) / float64(len(r.plannedAt)), float64(sum) / float64(len(r.plannedAt))
}

// hierarchyFor returns plugin.On or plugin.Off.
func hierarchyFor(on bool) plugin.Switch {
	if on {
		return plugin.On
	}
	return plugin.Off
}
