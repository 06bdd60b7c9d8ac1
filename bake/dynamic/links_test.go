package dynamic_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/bake/dynamic"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/hierarchy"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// Issue 28's runtime links on a level made up for them (none of the test
// levels): an archipelago of five flat islands at different heights, 20 to
// 110 m apart, that no path joins, linked by runtime links of every kind.
// Which pairs of points are joined is checked against a breadth-first
// search over the islands and the links (the oracle), on a tiled navmesh,
// a tile cache's and a dynamic navmesh's, with A* and with the hierarchy,
// and again while the tiles under the links' ends are rebuilt by the tile
// cache and by the dynamic navmesh: the links land again without a call.

// archipelagoIsland is a square island: its corner (x0, z0), side and
// height.
type archipelagoIsland struct{ x0, z0, side, y float32 }

var archipelago = []archipelagoIsland{
	{0, 0, 20, 0},   // 0
	{40, 0, 16, 2},  // 1
	{0, 40, 12, 5},  // 2
	{90, 70, 24, 0}, // 3
	{40, 40, 10, 8}, // 4
}

// archipelagoLink is a runtime link of the test and the islands it joins.
type archipelagoLink struct {
	from, to int
	desc     navmesh.LinkDesc
}

var archipelagoLinks = []archipelagoLink{
	// A two-way bridge over a 20 m gap.
	{0, 1, navmesh.LinkDesc{Start: geom.Vec3{18.5, 0, 10}, End: geom.Vec3{41.5, 2, 8}, Radius: 1, Bidirectional: true, Flags: 1}},
	// One way only, 60 m (a zip line).
	{1, 3, navmesh.LinkDesc{Start: geom.Vec3{54.5, 2, 14}, End: geom.Vec3{92, 0, 72}, Radius: 1, Flags: 1}},
	// A wide ramp up 5 m: lanes across 4 m.
	{0, 2, navmesh.LinkDesc{Start: geom.Vec3{6, 0, 18.5}, End: geom.Vec3{6, 5, 41.5}, Radius: 1, Width: 4, Bidirectional: true, Flags: 1}},
	// A teleporter 70 m long.
	{3, 4, navmesh.LinkDesc{Start: geom.Vec3{100, 0, 80}, End: geom.Vec3{47.5, 8, 47.5}, Radius: 1, Bidirectional: true, Flags: 1, Cost: 0.01}},
}

// archipelagoGeometry returns the level: each island two triangles facing
// up.
func archipelagoGeometry() *bake.Geometry {
	g := &bake.Geometry{}
	for _, is := range archipelago {
		base := int32(len(g.Vertices))
		x1, z1 := is.x0+is.side, is.z0+is.side
		g.Vertices = append(g.Vertices,
			geom.Vec3{is.x0, is.y, is.z0}, geom.Vec3{is.x0, is.y, z1},
			geom.Vec3{x1, is.y, z1}, geom.Vec3{x1, is.y, is.z0})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	return g
}

// reachable is the oracle: reach[i][j] is whether island j can be walked
// to from island i over the links whose index is in present.
func reachable(present map[int]bool) [][]bool {
	n := len(archipelago)
	reach := make([][]bool, n)
	for i := range reach {
		reach[i] = make([]bool, n)
		reach[i][i] = true
		queue := []int{i}
		for len(queue) > 0 {
			at := queue[0]
			queue = queue[1:]
			for k, l := range archipelagoLinks {
				if !present[k] {
					continue
				}
				for _, step := range [][2]int{{l.from, l.to}, {l.to, l.from}} {
					if step[0] == at && !reach[i][step[1]] && (step == [2]int{l.from, l.to} || l.desc.Bidirectional) {
						reach[i][step[1]] = true
						queue = append(queue, step[1])
					}
				}
			}
		}
	}
	return reach
}

// archipelagoPoints are three points on each island, inside its edges.
func archipelagoPoints() [][]geom.Vec3 {
	points := make([][]geom.Vec3, len(archipelago))
	for i, is := range archipelago {
		for _, f := range []float32{0.5, 0.25, 0.75} {
			at := float32(is.side * f)
			points[i] = append(points[i], geom.Vec3{is.x0 + at, is.y, is.z0 + is.side - at})
		}
	}
	return points
}

// linkedWorld is a navmesh of the archipelago with its queries.
type linkedWorld struct {
	mesh     *navmesh.Mesh
	q        *query.Query
	searcher *hierarchy.Searcher
	filter   *query.Filter
	points   [][]geom.Vec3
	ids      []navmesh.LinkID
	path     []navmesh.Ref
}

func newLinkedWorld(t *testing.T, mesh *navmesh.Mesh) *linkedWorld {
	t.Helper()
	w := &linkedWorld{mesh: mesh, filter: query.NewFilter(), points: archipelagoPoints(), path: make([]navmesh.Ref, 1024)}
	var err error
	w.q, err = query.New(mesh, 4096)
	require.NoError(t, err)
	h, err := hierarchy.New(mesh, w.filter, hierarchy.Options{Workers: 1})
	require.NoError(t, err)
	w.searcher, err = hierarchy.NewSearcher(w.q, h)
	require.NoError(t, err)
	return w
}

func (w *linkedWorld) nearest(t *testing.T, p geom.Vec3) query.NearestPoly {
	t.Helper()
	n, err := w.q.FindNearestPoly(p, geom.Vec3{0.5, 1, 0.5}, w.filter)
	require.NoError(t, err)
	require.NotZero(t, n.Ref, "a polygon under %v", p)
	return n
}

// check plans a path between points of every two islands, with A* and
// with the hierarchy, and compares which are complete with the oracle for
// the links in present.
func (w *linkedWorld) check(t *testing.T, what string, present map[int]bool) {
	t.Helper()
	reach := reachable(present)
	var mismatches []string
	complete := 0
	for i := range archipelago {
		for j := range archipelago {
			if i == j {
				continue
			}
			for k := range w.points[i] {
				from, to := w.nearest(t, w.points[i][k]), w.nearest(t, w.points[j][(k+1)%3])
				n, status, err := w.q.FindPath(from.Ref, to.Ref, from.Point, to.Point, w.filter, w.path)
				require.NoError(t, err)
				astar := !status.Partial() && n > 0 && w.path[n-1] == to.Ref
				result, err := w.searcher.FindPath(from.Ref, to.Ref, from.Point, to.Point, w.filter, w.path)
				require.NoError(t, err)
				hier := !result.Status.Partial() && result.Count > 0 && w.path[result.Count-1] == to.Ref
				if astar != reach[i][j] || hier != reach[i][j] {
					mismatches = append(mismatches, fmt.Sprintf("%d→%d #%d: A* %v, hierarchy %v (%v), oracle %v", i, j, k, astar, hier, result.Fallback, reach[i][j]))
				}
				if astar {
					complete++
				}
			}
		}
	}
	assert.Empty(t, mismatches, what)
	t.Logf("%s: %d of %d paths complete", what, complete, 3*len(archipelago)*(len(archipelago)-1))
}

// addLinks adds every link of the test.
func (w *linkedWorld) addLinks(t *testing.T) map[int]bool {
	t.Helper()
	present := map[int]bool{}
	w.ids = w.ids[:0]
	for k, l := range archipelagoLinks {
		id, err := w.mesh.AddLink(l.desc)
		require.NoError(t, err)
		w.ids = append(w.ids, id)
		present[k] = true
	}
	return present
}

// landed checks that every lane of link k has both ends on the polygons
// under its lane points now.
func (w *linkedWorld) landed(t *testing.T, k int) {
	t.Helper()
	desc := archipelagoLinks[k].desc
	snap := w.mesh.Snapshot()
	for lane := range desc.LaneCount() {
		startPos, endPos := desc.LanePoints(lane)
		start, end, ok := snap.LinkEnds(w.ids[k], lane)
		require.True(t, ok)
		assert.Equal(t, [2]navmesh.Ref{w.nearest(t, startPos).Ref, w.nearest(t, endPos).Ref}, [2]navmesh.Ref{start, end}, "link %d lane %d", k, lane)
	}
}

func TestLinksOnAMadeUpLevelTiled(t *testing.T) {
	baked, err := bake.Tiled(context.Background(), archipelagoGeometry(), bake.DefaultSettings(), bake.TiledOptions{Workers: 1})
	require.NoError(t, err)
	mesh, err := baked.NavMesh()
	require.NoError(t, err)
	w := newLinkedWorld(t, mesh)
	w.check(t, "no links", nil)
	present := w.addLinks(t)
	w.check(t, "linked", present)
	for k := range archipelagoLinks {
		w.landed(t, k)
	}
	// The tile of each end of the zip line leaves and comes back.
	desc := archipelagoLinks[1].desc
	for _, end := range []geom.Vec3{desc.Start, desc.End} {
		tile, _, err := w.mesh.Snapshot().TileAndPoly(w.nearest(t, end).Ref)
		require.NoError(t, err)
		data, err := w.mesh.RemoveTile(tile.Ref())
		require.NoError(t, err)
		starts, ends, ok := w.mesh.Snapshot().LinkAttached(w.ids[1])
		require.True(t, ok)
		assert.Equal(t, 1, starts+ends, "one end landed, the other's tile gone")
		_, err = w.mesh.AddTile(data, 0)
		require.NoError(t, err)
		w.check(t, "tile back", present)
		w.landed(t, 1)
	}
	// Removed, one at a time.
	for k := range archipelagoLinks {
		require.NoError(t, w.mesh.RemoveLink(w.ids[k]))
		delete(present, k)
		w.check(t, fmt.Sprintf("link %d removed", k), present)
	}
}

func TestLinksOnAMadeUpLevelTileCache(t *testing.T) {
	result, err := bake.TileCache(context.Background(), archipelagoGeometry(), bake.DefaultSettings(), bake.TileCacheOptions{Workers: 1})
	require.NoError(t, err)
	cache, mesh, err := result.Cache(tilecache.Options{})
	require.NoError(t, err)
	update := func() {
		for {
			done, err := cache.Update(tilecache.Budget{})
			require.NoError(t, err)
			if done {
				return
			}
		}
	}
	update()
	w := newLinkedWorld(t, mesh)
	w.check(t, "no links", nil)
	present := w.addLinks(t)
	w.check(t, "linked", present)

	// A post beside each end of the bridge: the tile there is rebuilt and
	// the link lands on its new polygons.
	bridge := archipelagoLinks[0].desc
	// (3 m inland, in the same tile.)
	for i, end := range []geom.Vec3{bridge.Start, bridge.End} {
		before, _, err := w.mesh.Snapshot().TileAndPoly(w.nearest(t, end).Ref)
		require.NoError(t, err)
		inland := []geom.Vec3{{-3, -0.5, 0}, {3, -0.5, 0}}[i]
		post, err := cache.AddObstacle(tilecache.Cylinder(geom.Add(end, inland), 0.5, 2))
		require.NoError(t, err)
		update()
		after, _, err := w.mesh.Snapshot().TileAndPoly(w.nearest(t, end).Ref)
		require.NoError(t, err)
		assert.NotEqual(t, before.Ref(), after.Ref(), "the tile under %v was rebuilt", end)
		w.landed(t, 0)
		w.check(t, "post beside an end", present)
		require.NoError(t, cache.RemoveObstacle(post))
		update()
		w.landed(t, 0)
	}
	// A box over the bridge's far end: it lands nowhere, island 1 is cut
	// off until the box goes.
	box, err := cache.AddObstacle(tilecache.Box(geom.Add(bridge.End, geom.Vec3{-2, -1, -2}), geom.Add(bridge.End, geom.Vec3{2, 2, 2})))
	require.NoError(t, err)
	update()
	_, ends, ok := w.mesh.Snapshot().LinkAttached(w.ids[0])
	require.True(t, ok)
	assert.Zero(t, ends, "the bridge's far end has no ground")
	w.check(t, "box over the bridge's end", map[int]bool{1: true, 2: true, 3: true})
	require.NoError(t, cache.RemoveObstacle(box))
	update()
	w.landed(t, 0)
	w.check(t, "box gone", present)
}

func TestLinksOnAMadeUpLevelDynamic(t *testing.T) {
	m, err := dynamic.New(context.Background(), archipelagoGeometry(), bake.DefaultSettings(), dynamic.Options{Workers: 1})
	require.NoError(t, err)
	w := newLinkedWorld(t, m.NavMesh())
	w.check(t, "no links", nil)
	present := w.addLinks(t)
	w.check(t, "linked", present)
	update := func() {
		upToDate, err := m.Update(tilecache.Budget{})
		require.NoError(t, err)
		require.True(t, upToDate)
	}

	// A crate beside each end of the wide ramp: the tile is rebuilt from
	// the voxels and every lane lands on the new polygons.
	ramp := archipelagoLinks[2].desc
	for _, end := range []geom.Vec3{ramp.Start, ramp.End} {
		before, _, err := w.mesh.Snapshot().TileAndPoly(w.nearest(t, end).Ref)
		require.NoError(t, err)
		crate, err := m.AddCollider(collider.NewBox(geom.Vec3{0.5, 0.5, 0.5}), collider.Pose{Position: geom.Add(end, geom.Vec3{2.5, 0.5, 0})})
		require.NoError(t, err)
		update()
		after, _, err := w.mesh.Snapshot().TileAndPoly(w.nearest(t, end).Ref)
		require.NoError(t, err)
		assert.NotEqual(t, before.Ref(), after.Ref(), "the tile under %v was rebuilt", end)
		w.landed(t, 2)
		w.check(t, "crate beside an end", present)
		require.NoError(t, m.RemoveCollider(crate))
		update()
		w.landed(t, 2)
	}
	// A pit dug under the teleporter's far end: it lands nowhere until a
	// bridge is laid over the pit.
	teleporter := archipelagoLinks[3].desc
	pit, err := m.AddCollider(collider.NewBox(geom.Vec3{1.2, 1, 1.2}).Carving(), collider.Pose{Position: teleporter.End})
	require.NoError(t, err)
	update()
	_, ends, ok := w.mesh.Snapshot().LinkAttached(w.ids[3])
	require.True(t, ok)
	assert.Zero(t, ends, "the teleporter's end has no ground")
	w.check(t, "pit under the teleporter's end", map[int]bool{0: true, 1: true, 2: true})
	_, err = m.AddCollider(collider.NewBox(geom.Vec3{1.5, 0.1, 1.5}), collider.Pose{Position: geom.Add(teleporter.End, geom.Vec3{0, -0.1, 0})})
	require.NoError(t, err)
	update()
	w.landed(t, 3)
	w.check(t, "a floor over the pit", present)
	require.NoError(t, m.RemoveCollider(pit))
	update()
	w.landed(t, 3)
	w.check(t, "pit filled", present)

	// Saved and loaded, the dynamic mesh keeps its links (in its navmesh
	// section), and they land again on tiles rebuilt after the load.
	var file bytes.Buffer
	require.NoError(t, m.Save(&file))
	loaded, err := dynamic.Load(&file, dynamic.Options{Workers: 1})
	require.NoError(t, err)
	assert.Equal(t, len(archipelagoLinks), loaded.NavMesh().Snapshot().LinkCount())
	w = newLinkedWorld(t, loaded.NavMesh())
	for id := range loaded.NavMesh().Snapshot().Links() {
		w.ids = append(w.ids, id)
	}
	w.check(t, "loaded", present)
	_, err = loaded.AddCollider(collider.NewBox(geom.Vec3{1.2, 1, 1.2}).Carving(), collider.Pose{Position: teleporter.End})
	require.NoError(t, err)
	upToDate, err := loaded.Update(tilecache.Budget{})
	require.NoError(t, err)
	require.True(t, upToDate)
	w.check(t, "loaded, pit dug again", map[int]bool{0: true, 1: true, 2: true})
}
