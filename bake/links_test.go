package bake

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linkSettings are the default settings with both kinds of links on.
func linkSettings() Settings {
	s := DefaultSettings()
	s.Links = DefaultLinkSettings()
	return s
}

// bakedLinks is a bake with links: the mesh and the links it holds.
type bakedLinks struct {
	mesh  *navmesh.Mesh
	links []OffMeshConnection
	// fingerprint identifies the tiles.
	fingerprint uint64
}

// bakeLinks bakes g solo (workers 0) or tiled on workers goroutines.
func bakeLinks(t testing.TB, g *Geometry, s Settings, workers int) bakedLinks {
	t.Helper()
	if workers == 0 {
		r, err := Solo(context.Background(), g, s)
		require.NoError(t, err)
		mesh, err := navmesh.New(navmesh.SingleTileParams(r.TileData))
		require.NoError(t, err)
		_, err = mesh.AddTile(r.TileData, 0)
		require.NoError(t, err)
		return bakedLinks{mesh, r.Links, r.Fingerprints.TileData}
	}
	r, err := Tiled(context.Background(), g, s, TiledOptions{Workers: workers})
	require.NoError(t, err)
	mesh, err := r.NavMesh()
	require.NoError(t, err)
	var links []OffMeshConnection
	for _, tile := range r.Tiles {
		links = append(links, tile.Links...)
	}
	fingerprints, err := r.Fingerprints()
	require.NoError(t, err)
	return bakedLinks{mesh, links, fingerprints.TileData}
}

// TestLinksOwnLevel bakes linkTestLevel solo and tiled (the gap's jumps
// cross a tile border) and finds exactly the links the level was made
// for: along each side of a platform 8 long the mesh edge is 8 - 2·0.6 =
// 6.8 long, which holds floor((6.8 - 1.2) / 2) + 1 = 3 links 2 apart (the
// walled ledge's sides along the wall are shorter by the wall's 0.3 and a
// radius: 5.9, still 3). The tiled bakes cut the ledges' sides at the tile
// borders x 9.6 and z 19.2; chained across the border each side still
// makes one stretch of 3 (cut, the pieces would make 4).
func TestLinksOwnLevel(t *testing.T) {
	g := linkTestLevel()
	s := linkSettings()
	for _, workers := range []int{0, 1, 3} {
		t.Run(fmt.Sprintf("workers %d", workers), func(t *testing.T) {
			baked := bakeLinks(t, g, s, workers)
			inBox := func(p, lo, hi mgl32.Vec3) bool {
				return p[0] >= lo[0] && p[0] <= hi[0] && p[2] >= lo[2] && p[2] <= hi[2]
			}
			counts := map[string]int{}
			for _, l := range baked.links {
				kind, arc := navmesh.ParseAutoLinkUserID(l.UserID)
				start, end := l.Start, l.End
				var name string
				switch {
				case inBox(start, mgl32.Vec3{4, 0, 4}, mgl32.Vec3{12, 0, 12}):
					name = "ledge"
					assert.Equal(t, navmesh.LinkDrop, kind, "ledge link %v", l)
					assert.False(t, l.Bidirectional)
					assert.InDelta(t, 2, start[1], 0.25)
					assert.InDelta(t, 0, end[1], 0.25)
					assert.False(t, inBox(end, mgl32.Vec3{4, 0, 4}, mgl32.Vec3{12, 0, 12}), "lands off the ledge: %v", l)
					assert.LessOrEqual(t, min(abs32(end[0]-4), abs32(end[0]-12), abs32(end[2]-4), abs32(end[2]-12)), float32(1.2),
						"lands at the foot of the ledge: %v", l)
				case inBox(start, mgl32.Vec3{4, 0, 18}, mgl32.Vec3{12, 0, 26}):
					name = "walled ledge"
					assert.Equal(t, navmesh.LinkDrop, kind)
					assert.InDelta(t, 0, end[1], 0.25)
					assert.Less(t, end[2], float32(25.7), "over the wall: %v", l)
					if start[2] > 22 { // a side link near the wall end
						assert.Less(t, abs32(end[2]-start[2]), float32(0.5))
					}
				case inBox(start, mgl32.Vec3{21, 0, 4}, mgl32.Vec3{36.5, 0, 12}):
					name = "gap"
					assert.Equal(t, navmesh.LinkJump, kind)
					assert.True(t, l.Bidirectional)
					assert.InDelta(t, 0.4, arc, 1e-6)
					assert.InDelta(t, 4, start[1], 0.25)
					assert.InDelta(t, 4, end[1], 0.25)
					// Across the gap, from one platform to the other.
					assert.True(t, (start[0] < 28.2 && end[0] > 29.7) || (start[0] > 29.7 && end[0] < 28.2), "jump %v", l)
				default:
					t.Errorf("unexpected link %v -> %v (%v)", start, end, kind)
					continue
				}
				counts[name]++
			}
			assert.Equal(t, map[string]int{"ledge": 12, "walled ledge": 9, "gap": 3}, counts)
		})
	}
}

// TestLinksWorkerCountIndependent bakes nav_test tiled on 1, 2 and 5
// goroutines: the same tiles and links.
func TestLinksWorkerCountIndependent(t *testing.T) {
	g := loadTestMesh(t, "nav_test")
	s := linkSettings()
	first := bakeLinks(t, g, s, 1)
	require.NotEmpty(t, first.links)
	for _, workers := range []int{2, 5} {
		other := bakeLinks(t, g, s, workers)
		assert.Equal(t, first.links, other.links, "workers %d", workers)
		assert.Equal(t, first.fingerprint, other.fingerprint, "workers %d", workers)
	}
}

// TestLinksValid checks every link baked on linkTestLevel and nav_test
// (solo and tiled) and undulating (tiled; solo has none: its few ledges crown bumps too small
// for a region of their own) against an independent source: both ends are
// linked to ground polygons of the final mesh, and no input triangle cuts
// the agent's body along the link's path (checked with exact
// segment-triangle tests, see bodyCutByTriangles).
func TestLinksValid(t *testing.T) {
	s := linkSettings()
	for _, c := range []struct {
		mesh    string
		workers int
	}{{"own", 0}, {"own", 2}, {"nav_test", 0}, {"nav_test", 2}, {"undulating", 2}} {
		t.Run(fmt.Sprintf("%s workers %d", c.mesh, c.workers), func(t *testing.T) {
			g := linkTestLevel()
			if c.mesh != "own" {
				g = loadTestMesh(t, c.mesh)
			}
			baked := bakeLinks(t, g, s, c.workers)
			require.NotEmpty(t, baked.links)
			stored := storedConnections(baked.mesh)
			assert.Len(t, stored, len(baked.links), "every link is stored once")
			cut := newTriangleIndex(g)
			for _, l := range baked.links {
				con, tile := findConnection(stored, l)
				require.NotNil(t, con, "link %v -> %v stored", l.Start, l.End)
				edges := linkedEdges(tile, con)
				assert.True(t, edges[0] && edges[1], "link %v -> %v: both ends linked (%v)", l.Start, l.End, edges)
				assert.False(t, cut.bodyCut(&s, l), "link %v -> %v: the body hits the level", l.Start, l.End)
			}
			t.Logf("%d links", len(baked.links))
		})
	}
}

// storedConnection is an off-mesh connection of a mesh's tile.
type storedConnection struct {
	con  *navmesh.OffMeshConnection
	tile *navmesh.Tile
}

func storedConnections(mesh *navmesh.Mesh) []storedConnection {
	var all []storedConnection
	for i := range mesh.MaxTiles() {
		tile := mesh.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		for j := range tile.Data.OffMeshConnections {
			all = append(all, storedConnection{&tile.Data.OffMeshConnections[j], tile})
		}
	}
	return all
}

func findConnection(stored []storedConnection, l OffMeshConnection) (*navmesh.OffMeshConnection, *navmesh.Tile) {
	for _, s := range stored {
		if s.con.Start == l.Start && s.con.End == l.End && s.con.UserID == l.UserID {
			return s.con, s.tile
		}
	}
	return nil, nil
}

// linkedEdges tells which ends (0 start, 1 end) of a connection's polygon
// are linked to a ground polygon.
func linkedEdges(tile *navmesh.Tile, con *navmesh.OffMeshConnection) (edges [2]bool) {
	poly := &tile.Polys[con.Poly]
	for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
		if e := tile.Links[l].Edge; e < 2 {
			edges[e] = true
		}
	}
	return edges
}

// TestLinksPathTakesDrop asks for a path from the top of linkTestLevel's
// ledge, which has no stairs, to the ground: without links the search ends
// on the ledge (partial), with them it drops off. On nav_test, for every
// drop whose landing no path reaches without links, the path with links
// from its start to its end takes a drop.
func TestLinksPathTakesDrop(t *testing.T) {
	filter := query.NewFilter()
	s := linkSettings()
	s.Links.ApplyCosts(filter)
	path := make([]navmesh.Ref, 512)

	queries := map[*navmesh.Mesh]*query.Query{}
	plan := func(mesh *navmesh.Mesh, from, to mgl32.Vec3) (partial bool, kinds []navmesh.LinkKind) {
		q := queries[mesh]
		if q == nil {
			var err error
			q, err = query.New(mesh, 4096)
			require.NoError(t, err)
			queries[mesh] = q
		}
		extents := mgl32.Vec3{0.5, 1, 0.5}
		start, err := q.FindNearestPoly(from, extents, filter)
		require.NoError(t, err)
		end, err := q.FindNearestPoly(to, extents, filter)
		require.NoError(t, err)
		require.NotZero(t, start.Ref, "start %v on the mesh", from)
		require.NotZero(t, end.Ref, "end %v on the mesh", to)
		n, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, path)
		require.NoError(t, err)
		for _, ref := range path[:n] {
			if con, err := mesh.OffMeshConnectionByRef(ref); err == nil {
				kind, _ := navmesh.ParseAutoLinkUserID(con.UserID)
				kinds = append(kinds, kind)
			}
		}
		return status.Partial(), kinds
	}

	g := linkTestLevel()
	without := bakeLinks(t, g, DefaultSettings(), 0)
	with := bakeLinks(t, g, s, 0)
	top, ground := mgl32.Vec3{8, 2, 8}, mgl32.Vec3{8, 0, 15}
	partial, _ := plan(without.mesh, top, ground)
	assert.True(t, partial, "no way down without links")
	partial, kinds := plan(with.mesh, top, ground)
	assert.False(t, partial, "the drop leads down")
	assert.Equal(t, []navmesh.LinkKind{navmesh.LinkDrop}, kinds)

	g = loadTestMesh(t, "nav_test")
	without = bakeLinks(t, g, DefaultSettings(), 0)
	with = bakeLinks(t, g, s, 0)
	needed := 0
	for _, l := range with.links {
		if kind, _ := navmesh.ParseAutoLinkUserID(l.UserID); kind != navmesh.LinkDrop {
			continue
		}
		if partial, _ := plan(without.mesh, l.Start, l.End); !partial {
			continue // reachable on foot
		}
		needed++
		partial, kinds := plan(with.mesh, l.Start, l.End)
		assert.False(t, partial, "drop %v -> %v", l.Start, l.End)
		assert.Contains(t, kinds, navmesh.LinkDrop, "drop %v -> %v", l.Start, l.End)
	}
	assert.Positive(t, needed, "nav_test has ledges only a drop leads down from")
}

// TestLinksRandomPaths plans 1000 paths between random points (seeded) on
// linkTestLevel, nav_test and undulating, baked tiled without and with
// links: with links fewer paths end partial (on nav_test only a few:
// its parts lie mostly 5 to 17 apart in height, beyond a drop), and every
// link a path takes passes the independent check of TestLinksValid.
func TestLinksRandomPaths(t *testing.T) {
	s := linkSettings()
	filter := query.NewFilter()
	s.Links.ApplyCosts(filter)
	for _, c := range []struct{ mesh string }{{"own level"}, {"nav_test"}, {"undulating"}} {
		t.Run(c.mesh, func(t *testing.T) {
			g := linkTestLevel()
			if c.mesh != "own level" {
				g = loadTestMesh(t, c.mesh)
			}
			cut := newTriangleIndex(g)
			without := bakeLinks(t, g, DefaultSettings(), 2)
			with := bakeLinks(t, g, s, 2)
			partialWithout, pairs := randomPaths(t, without.mesh, filter, nil)
			checked := map[navmesh.Ref]bool{}
			partialWith, _ := randomPaths(t, with.mesh, filter, func(ref navmesh.Ref, con *navmesh.OffMeshConnection) {
				if _, ok := checked[ref]; ok {
					return
				}
				l := OffMeshConnection{Start: con.Start, End: con.End, Radius: con.Radius, UserID: con.UserID}
				kind, _ := navmesh.ParseAutoLinkUserID(con.UserID)
				require.NotEqual(t, navmesh.LinkPlain, kind)
				checked[ref] = !cut.bodyCut(&s, l)
				assert.True(t, checked[ref], "path through link %v -> %v, whose body check fails", con.Start, con.End)
			})
			t.Logf("%d pairs: %d partial without links, %d with; %d links on the paths", pairs, partialWithout, partialWith, len(checked))
			assert.Less(t, partialWith, partialWithout)
			assert.NotEmpty(t, checked)
		})
	}
}

// randomPaths plans paths between 1000 pairs of random points of mesh
// (seeded) and returns how many came out partial and how many pairs were
// planned; visit sees every off-mesh connection on the paths.
func randomPaths(t *testing.T, mesh *navmesh.Mesh, filter *query.Filter, visit func(navmesh.Ref, *navmesh.OffMeshConnection)) (partial, pairs int) {
	q, err := query.New(mesh, 8192)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(18, 2024))
	random := func() float32 { return rng.Float32() }
	path := make([]navmesh.Ref, 1024)
	for range 1000 {
		from, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		to, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		n, status, err := q.FindPath(from.Ref, to.Ref, from.Pos, to.Pos, filter, path)
		require.NoError(t, err)
		pairs++
		if status.Partial() {
			partial++
		}
		for _, ref := range path[:n] {
			if con, err := mesh.OffMeshConnectionByRef(ref); err == nil && visit != nil {
				visit(ref, con)
			}
		}
	}
	return partial, pairs
}

// TestLinkSettingsValidate refuses silly link settings, naming the field,
// and ignores the values while both kinds are off.
func TestLinkSettingsValidate(t *testing.T) {
	off := DefaultSettings()
	off.Links.DropMaxHeight = -1
	assert.NoError(t, off.Validate(), "links off: not checked")

	for _, c := range []struct {
		name   string
		change func(*LinkSettings)
		want   string
	}{
		{"negative", func(l *LinkSettings) { l.JumpMaxGap = -1 }, "Links.JumpMaxGap"},
		{"NaN", func(l *LinkSettings) { l.JumpMaxUp = float32(math.NaN()) }, "Links.JumpMaxUp"},
		{"drop within a climb", func(l *LinkSettings) { l.DropMaxHeight = 0.5 }, "Links.DropMaxHeight"},
		{"no arc", func(l *LinkSettings) { l.JumpHeight = 0 }, "Links.JumpHeight"},
		{"arc too high", func(l *LinkSettings) { l.JumpHeight = 100 }, "Links.JumpHeight"},
		{"spacing under a cell", func(l *LinkSettings) { l.Spacing = 0.1 }, "Links.Spacing"},
		{"area", func(l *LinkSettings) { l.JumpArea = 64 }, "areas"},
		{"reach", func(l *LinkSettings) { l.JumpMaxGap = 1000 }, "reach"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := linkSettings()
			c.change(&s.Links)
			err := s.Validate()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			_, err = Solo(context.Background(), linkTestLevel(), s)
			assert.Error(t, err, "Solo checks the settings")
		})
	}
	jumpsOnly := linkSettings()
	jumpsOnly.Links.Drops = false
	jumpsOnly.Links.DropMaxHeight = 0 // not used
	assert.NoError(t, jumpsOnly.Validate())
}

// TestLinksOneKind bakes linkTestLevel with drops only and jumps only: each
// brings its own links and nothing else. With jumps only, the ledges get
// jumps down instead (a fall of 2 is within JumpMaxDown).
func TestLinksOneKind(t *testing.T) {
	g := linkTestLevel()
	s := linkSettings()
	s.Links.Jumps = false
	drops := bakeLinks(t, g, s, 0)
	s = linkSettings()
	s.Links.Drops = false
	jumps := bakeLinks(t, g, s, 0)
	count := func(links []OffMeshConnection) map[navmesh.LinkKind]int {
		c := map[navmesh.LinkKind]int{}
		for _, l := range links {
			kind, _ := navmesh.ParseAutoLinkUserID(l.UserID)
			c[kind]++
		}
		return c
	}
	assert.Equal(t, map[navmesh.LinkKind]int{navmesh.LinkDrop: 21}, count(drops.links))
	got := count(jumps.links)
	assert.Equal(t, []navmesh.LinkKind{navmesh.LinkJump}, keys(got))
	assert.GreaterOrEqual(t, got[navmesh.LinkJump], 3+21, "the gap and the ledges")
	for _, l := range jumps.links {
		if l.Start[1] < 3 { // a ledge: one way down
			assert.False(t, l.Bidirectional, "%v", l)
			assert.Equal(t, DemoAreaJump, l.Area)
			assert.Equal(t, DemoFlagJump, l.Flags)
		}
	}
	for _, l := range drops.links {
		assert.Equal(t, DemoAreaDrop, l.Area)
		assert.Equal(t, DemoFlagDrop, l.Flags)
	}
}

func keys[K comparable, V any](m map[K]V) []K {
	var out []K
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPlaceLinksOnAnExistingMesh places links on a tiled bake made without
// them: the same links, in the same order, as the tiled bake with links
// stores, for any worker count; with links off it refuses.
func TestPlaceLinksOnAnExistingMesh(t *testing.T) {
	for _, level := range []string{"own", "nav_test"} {
		t.Run(level, func(t *testing.T) {
			g := linkTestLevel()
			if level != "own" {
				g = loadTestMesh(t, level)
			}
			want := bakeLinks(t, g, linkSettings(), 2)
			plain := bakeLinks(t, g, DefaultSettings(), 2)
			baker, err := NewTileBaker(g, linkSettings(), TiledOptions{})
			require.NoError(t, err)
			for _, workers := range []int{1, 3} {
				got, err := baker.PlaceLinks(context.Background(), plain.mesh, workers)
				require.NoError(t, err)
				assert.Equal(t, want.links, got, "workers %d", workers)
			}
		})
	}
	baker, err := NewTileBaker(linkTestLevel(), DefaultSettings(), TiledOptions{})
	require.NoError(t, err)
	_, err = baker.PlaceLinks(context.Background(), nil, 1)
	assert.ErrorIs(t, err, ErrLinksOff)
}
