package hierarchy

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/archenav/archenav/benchmarks/bigworld"
	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sameVersion reports the first difference between the graphs of two
// versions of one snapshot (built by different hierarchies, so cluster
// numbers may differ: clusters are matched by their grid key).
func sameVersion(a, b *version) error {
	if a.snap != b.snap {
		return fmt.Errorf("different snapshots")
	}
	if len(a.slots) != len(b.slots) {
		return fmt.Errorf("%d slots, %d slots", len(a.slots), len(b.slots))
	}
	for i := range a.slots {
		ga, gb := a.slots[i].graph, b.slots[i].graph
		if (ga == nil) != (gb == nil) {
			return fmt.Errorf("slot %d: graph on one side only", i)
		}
		if ga == nil {
			continue
		}
		if err := sameTileGraph(ga, gb); err != nil {
			return fmt.Errorf("slot %d: %w", i, err)
		}
		if a.slots[i].portBase != b.slots[i].portBase || a.slots[i].boundaryBase != b.slots[i].boundaryBase {
			return fmt.Errorf("slot %d: numbering %+v, %+v", i, a.slots[i], b.slots[i])
		}
	}
	clustersA, clustersB := clustersByKey(a), clustersByKey(b)
	if len(clustersA) != len(clustersB) {
		return fmt.Errorf("%d clusters, %d clusters", len(clustersA), len(clustersB))
	}
	for key, ca := range clustersA {
		cb, ok := clustersB[key]
		if !ok {
			return fmt.Errorf("cluster %v on one side only", key)
		}
		if err := sameCluster(a, b, ca, cb); err != nil {
			return fmt.Errorf("cluster %v: %w", key, err)
		}
	}
	regionsA, regionsB := regionsByKey(a), regionsByKey(b)
	if len(regionsA) != len(regionsB) {
		return fmt.Errorf("%d regions, %d regions", len(regionsA), len(regionsB))
	}
	for key, ra := range regionsA {
		rb, ok := regionsB[key]
		if !ok {
			return fmt.Errorf("region %v on one side only", key)
		}
		if err := sameRegion(a, b, ra, rb); err != nil {
			return fmt.Errorf("region %v: %w", key, err)
		}
	}
	return nil
}

// regionsByKey names each region of v by the grid key of its first
// member cluster.
func regionsByKey(v *version) map[clusterKey]*regionGraph {
	m := map[clusterKey]*regionGraph{}
	for _, r := range v.regions {
		if r != nil {
			m[v.clusters[r.members[0]].key] = r
		}
	}
	return m
}

func sameRegion(a, b *version, ra, rb *regionGraph) error {
	if len(ra.members) != len(rb.members) {
		return fmt.Errorf("%d members, %d", len(ra.members), len(rb.members))
	}
	for k := range ra.members {
		if a.clusters[ra.members[k]].key != b.clusters[rb.members[k]].key {
			return fmt.Errorf("member %d differs", k)
		}
	}
	if len(ra.nodes) != len(rb.nodes) {
		return fmt.Errorf("%d nodes, %d", len(ra.nodes), len(rb.nodes))
	}
	for k := range ra.nodes {
		na, nb := ra.nodes[k], rb.nodes[k]
		if a.clusters[na.cluster].key != b.clusters[nb.cluster].key || na.node != nb.node || na.edgeEnd != nb.edgeEnd {
			return fmt.Errorf("node %d: %+v, %+v", k, na, nb)
		}
	}
	switch {
	case fmt.Sprint(ra.memberNodes) != fmt.Sprint(rb.memberNodes):
		return fmt.Errorf("member nodes %v, %v", ra.memberNodes, rb.memberNodes)
	case fmt.Sprint(ra.edges) != fmt.Sprint(rb.edges):
		return fmt.Errorf("edges %v, %v", ra.edges, rb.edges)
	case fmt.Sprint(ra.paths) != fmt.Sprint(rb.paths):
		return fmt.Errorf("paths %v, %v", ra.paths, rb.paths)
	}
	return nil
}

func sameTileGraph(a, b *tileGraph) error {
	switch {
	case a.tile != b.tile:
		return fmt.Errorf("other tile versions")
	case a.boundaryPorts != b.boundaryPorts:
		return fmt.Errorf("%d boundary ports, %d", a.boundaryPorts, b.boundaryPorts)
	case fmt.Sprint(a.ports) != fmt.Sprint(b.ports):
		return fmt.Errorf("ports %v, %v", a.ports, b.ports)
	case fmt.Sprint(a.edges) != fmt.Sprint(b.edges):
		return fmt.Errorf("edges %v, %v", a.edges, b.edges)
	case fmt.Sprint(a.extraCrossings()) != fmt.Sprint(b.extraCrossings()):
		return fmt.Errorf("extra crossings %v, %v", a.extraCrossings(), b.extraCrossings())
	}
	return nil
}

func clustersByKey(v *version) map[clusterKey]int {
	m := map[clusterKey]int{}
	for number, c := range v.clusters {
		if c != nil {
			m[c.key] = number
		}
	}
	return m
}

func sameCluster(a, b *version, numberA, numberB int) error {
	ca, cb := a.clusters[numberA], b.clusters[numberB]
	if len(ca.tiles) != len(cb.tiles) {
		return fmt.Errorf("%d tiles, %d tiles", len(ca.tiles), len(cb.tiles))
	}
	for k := range ca.tiles {
		if ca.tiles[k].tile != cb.tiles[k].tile {
			return fmt.Errorf("tile %d differs", k)
		}
	}
	switch {
	case fmt.Sprint(ca.boundaryBase) != fmt.Sprint(cb.boundaryBase):
		return fmt.Errorf("boundary bases %v, %v", ca.boundaryBase, cb.boundaryBase)
	case fmt.Sprint(ca.nodes) != fmt.Sprint(cb.nodes):
		return fmt.Errorf("nodes %v, %v", ca.nodes, cb.nodes)
	case fmt.Sprint(ca.edges) != fmt.Sprint(cb.edges):
		return fmt.Errorf("edges %v, %v", ca.edges, cb.edges)
	case fmt.Sprint(ca.masks16, ca.masks64) != fmt.Sprint(cb.masks16, cb.masks64):
		return fmt.Errorf("masks %v %v, %v %v", ca.masks16, ca.masks64, cb.masks16, cb.masks64)
	case fmt.Sprint(ca.paths) != fmt.Sprint(cb.paths):
		return fmt.Errorf("paths %v, %v", ca.paths, cb.paths)
	}
	la, lb := a.links[numberA], b.links[numberB]
	if fmt.Sprint(la.end) != fmt.Sprint(lb.end) {
		return fmt.Errorf("twin ends %v, %v", la.end, lb.end)
	}
	for k := range la.twins {
		ta, tb := la.twins[k], lb.twins[k]
		if a.clusters[ta.cluster].key != b.clusters[tb.cluster].key || ta.node != tb.node || ta.cost != tb.cost {
			return fmt.Errorf("twin %d: %+v, %+v", k, ta, tb)
		}
	}
	return nil
}

// tileSwapper changes a mesh at random: it swaps tiles for those of
// another level of the same grid (or back), removes and restores tiles,
// and edits polygon flags and areas.
type tileSwapper struct {
	mesh        *navmesh.Mesh
	own, others map[[2]int32]*navmesh.TileData
	random      func() float32
	keys        [][2]int32
	swapped     int // tiles of the other level put in
}

func newTileSwapper(tb testing.TB, mesh *navmesh.Mesh, other *navmesh.Mesh, seed uint64) *tileSwapper {
	w := &tileSwapper{mesh: mesh, own: map[[2]int32]*navmesh.TileData{}, others: map[[2]int32]*navmesh.TileData{}, random: newRandom(seed)}
	collect := func(m *navmesh.Mesh, into map[[2]int32]*navmesh.TileData) {
		snap := m.Snapshot()
		for i := range snap.MaxTiles() {
			if t := snap.Tile(i); t != nil {
				into[[2]int32{t.Data.Header.X, t.Data.Header.Y}] = t.Data
			}
		}
	}
	collect(mesh, w.own)
	if other != nil {
		collect(other, w.others)
	}
	for k := range w.own {
		w.keys = append(w.keys, k)
	}
	// A fixed order: the map's is random.
	for i := range w.keys {
		for j := i + 1; j < len(w.keys); j++ {
			if w.keys[j][1] < w.keys[i][1] || w.keys[j][1] == w.keys[i][1] && w.keys[j][0] < w.keys[i][0] {
				w.keys[i], w.keys[j] = w.keys[j], w.keys[i]
			}
		}
	}
	return w
}

// change makes one random change and says what it was.
func (w *tileSwapper) change(tb testing.TB) string {
	key := w.keys[int(w.random()*float32(len(w.keys)))%len(w.keys)]
	snap := w.mesh.Snapshot()
	current := snap.TileAt(int(key[0]), int(key[1]), 0)
	switch op := int(w.random() * 5); {
	case op == 0 && current != nil:
		_, err := w.mesh.RemoveTile(current.Ref())
		require.NoError(tb, err)
		return fmt.Sprintf("remove %v", key)
	case op <= 2:
		data := w.own[key]
		if other, ok := w.others[key]; ok && w.random() < 0.7 {
			data = other
		}
		if current != nil {
			if _, err := w.mesh.RemoveTile(current.Ref()); err != nil {
				tb.Fatal(err)
			}
		}
		if _, err := w.mesh.AddTile(data, 0); err != nil {
			// The other level's tile may not fit this mesh: put ours back.
			_, err = w.mesh.AddTile(w.own[key], 0)
			require.NoError(tb, err)
			return fmt.Sprintf("restore %v", key)
		}
		if data != w.own[key] {
			w.swapped++
		}
		return fmt.Sprintf("swap %v", key)
	case current != nil && len(current.Polys) > 0:
		ref := current.PolyRefBase() | navmesh.Ref(int(w.random()*float32(len(current.Polys)))%len(current.Polys))
		if op == 3 {
			flags := current.Polys[ref.PolyIndex()].Flags ^ disabledFlag
			require.NoError(tb, w.mesh.SetPolyFlags(ref, flags))
			return fmt.Sprintf("flags %v", key)
		}
		require.NoError(tb, w.mesh.SetPolyArea(ref, uint8(1+int(w.random()*3))))
		return fmt.Sprintf("area %v", key)
	}
	return "nothing"
}

const disabledFlag = 0x10

// costlyFilter makes areas and flags matter: area 2 costs 3 times as much
// and disabled polygons are excluded.
func costlyFilter() *query.Filter {
	f := demoFilter()
	f.AreaCost[2] = 3
	f.ExcludeFlags = disabledFlag
	return f
}

// TestUpdateMatchesFreshBuild changes tiles at random, brings the
// hierarchy up to date after each batch of changes and checks its graphs
// against a hierarchy built from scratch on the same snapshot, then that
// both plan paths of the same cost.
func TestUpdateMatchesFreshBuild(t *testing.T) {
	batches := 12
	if longtest.Enabled() {
		batches = 60
	}
	other, err := bigworld.Params{
		Size: 250, QuadSize: 5, HillHeight: 6, Jitter: 0.15, Boxes: 125,
		MinFootprint: 6, MaxFootprint: 30, MinHeight: 4, MaxHeight: 60, Seed: 2,
	}.CachedMesh(context.Background(), 0)
	require.NoError(t, err)
	for _, level := range []string{"bigworld", "dungeon"} {
		t.Run(level, func(t *testing.T) {
			mesh := testMesh(t, level)
			var swapWith *navmesh.Mesh
			if level == "bigworld" {
				swapWith = other
			}
			filter := costlyFilter()
			opts := Options{ManualLandmarks: true, Workers: 2, RegionSize: 2}
			h, err := New(mesh, filter, opts)
			require.NoError(t, err)
			w := newTileSwapper(t, mesh, swapWith, 5)
			q, _ := query.New(mesh, 64)
			s, _ := NewSearcher(q, h)
			path := make([]navmesh.Ref, 4096)
			built := 0
			for batch := range batches {
				var done []string
				for range 1 + batch%4 {
					done = append(done, w.change(t))
				}
				stats := h.Update()
				built += stats.TilesBuilt
				require.LessOrEqual(t, stats.TilesBuilt, 5*len(done)+len(done), "batch %d: %v", batch, done)
				fresh, err := New(mesh, filter, opts)
				require.NoError(t, err)
				current := h.versionFor(mesh.Snapshot())
				require.NoError(t, sameVersion(current, fresh.versionFor(mesh.Snapshot())), "batch %d: %v (%+v)", batch, done, stats)
				h.UpdateLandmarks()

				// Both plan paths of the same cost.
				qf, _ := query.New(mesh, 64)
				sf, _ := NewSearcher(qf, fresh)
				pathFresh := make([]navmesh.Ref, 4096)
				snap := mesh.Snapshot()
				for _, p := range randomPairs(t, mesh, filter, 20, uint64(batch)) {
					a, err := s.FindPath(p.startRef, p.endRef, p.start, p.end, filter, path)
					require.NoError(t, err)
					b, err := sf.FindPath(p.startRef, p.endRef, p.start, p.end, filter, pathFresh)
					require.NoError(t, err)
					require.Equal(t, b.Status, a.Status)
					ca, _ := CorridorCost(snap, filter, p.start, p.end, path[:a.Count])
					cb, _ := CorridorCost(snap, filter, p.start, p.end, pathFresh[:b.Count])
					require.InDelta(t, cb, ca, 1e-3*float64(max(1, cb)), "batch %d", batch)
				}
			}
			require.Positive(t, built)
			if swapWith != nil {
				require.Positive(t, w.swapped, "no tile of the other level was swapped in")
			}
			t.Logf("%d tile graphs rebuilt, %d tiles of the other level swapped in", built, w.swapped)
		})
	}
}

// TestLandmarksAreLowerBounds checks the landmark bound against the cost
// of the cheapest way through the cluster level, computed by Dijkstra.
func TestLandmarksAreLowerBounds(t *testing.T) {
	mesh := testMesh(t, "bigworld")
	h, err := New(mesh, demoFilter(), Options{})
	require.NoError(t, err)
	v := h.versionFor(mesh.Snapshot())
	l := v.landmarksOf()
	require.NotNil(t, l)
	require.Equal(t, DefaultLandmarks, l.count)
	b := landmarkBuilder{cost: make([]float32, v.clusterNodes)}
	random := newRandom(11)
	for range 20 {
		from := int(random()*float32(v.clusterNodes)) % v.clusterNodes
		b.dijkstra(v, from)
		for to, cost := range b.cost {
			if math.IsInf(float64(cost), 1) {
				continue
			}
			for k := range l.count {
				sf, st := l.steps[from*l.count+k], l.steps[to*l.count+k]
				if sf == unreachable || st == unreachable {
					continue
				}
				// d(L, to) <= d(L, from) + d(from, to), with the rounding.
				bound := float32(float32(int(st)-1)*l.unit) - float32(float32(sf)*l.unit)
				require.LessOrEqual(t, bound, float32(cost*1.001)+1e-3, "landmark %d, %d to %d", k, from, to)
			}
		}
	}
}

// TestOldVersionsAreLetGo: once a newer snapshot's version is current, the
// hierarchy keeps no older snapshot in memory; a search begun on the older
// one still finishes there (it holds its version), and one begun on it
// afterwards gets its version built again.
func TestOldVersionsAreLetGo(t *testing.T) {
	mesh := testMesh(t, "dungeon")
	filter := costlyFilter()
	h, err := New(mesh, filter, Options{ManualLandmarks: true, Workers: 1})
	require.NoError(t, err)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	s, err := NewSearcher(q, h)
	require.NoError(t, err)
	pair := randomPairs(t, mesh, filter, 1, 7)[0]
	h.UpdateLandmarks()

	freed := make(chan struct{})
	var oldVersion uint64
	func() {
		old := mesh.Snapshot()
		oldVersion = old.Version()
		runtime.SetFinalizer(old, func(*navmesh.Snapshot) { close(freed) })
	}()
	status, err := s.InitSlicedFindPath(pair.startRef, pair.endRef, pair.start, pair.end, filter)
	require.NoError(t, err)
	require.True(t, status.InProgress())
	// Three newer snapshots, each made current in the hierarchy.
	tile := mesh.Snapshot().TileAt(0, 0, 0)
	for i := range 3 {
		for tile == nil || len(tile.Polys) == 0 {
			tile = mesh.Snapshot().NextTile(i + 1)
		}
		ref := tile.PolyRefBase()
		require.NoError(t, mesh.SetPolyArea(ref, uint8(1+i%2)))
		h.Update()
	}
	require.Equal(t, oldVersion, s.Snapshot().Version(), "the search in progress works on the old snapshot")
	for status.InProgress() {
		_, status, err = s.UpdateSlicedFindPath(64)
		require.NoError(t, err)
	}
	path := make([]navmesh.Ref, 1024)
	result, err := s.FinalizeSlicedFindPath(path)
	require.NoError(t, err)
	require.Positive(t, result.Count)
	assert.Equal(t, pair.startRef, path[0])

	for range 20 {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(h)
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the old snapshot is still in memory after its search ended and three newer ones became current")
}
