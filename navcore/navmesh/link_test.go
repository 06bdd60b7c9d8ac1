package navmesh

import (
	"cmp"
	"slices"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInternalLinksInEdgeOrder(t *testing.T) {
	// Three strips side by side: the middle one has two internal edges.
	spec := tileSpec{polys: [][]mgl32.Vec3{rect(0, 0, 3, 10, 0), rect(3, 0, 6, 10, 0), rect(6, 0, 9, 10, 0)}}
	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(spec), 0)
	require.NoError(t, err)
	tile := m.TileByRef(ref)
	assert.Equal(t, []Link{{Ref: ref | 1, Next: NullLink, Edge: 2, Side: noSide}}, linksOf(tile, 0))
	middle := linksOf(tile, 1)
	require.Len(t, middle, 2)
	assert.Equal(t, ref|0, middle[0].Ref, "edge 0 (x=3) first")
	assert.Equal(t, uint8(0), middle[0].Edge)
	assert.Equal(t, ref|2, middle[1].Ref)
	assert.Equal(t, uint8(2), middle[1].Edge)
	// A published version holds the links in use, in polygon order, each
	// list in its order: polygon 0's link, then polygon 1's two (edge 0,
	// which it built last and so put first, then edge 2), then polygon
	// 2's.
	assert.Len(t, tile.Links, 4)
	assert.Equal(t, uint32(0), tile.Polys[0].FirstLink)
	assert.Equal(t, uint32(1), tile.Polys[1].FirstLink)
	assert.Equal(t, uint32(2), tile.Links[1].Next)
	assert.Equal(t, NullLink, tile.Links[2].Next)
	assert.Equal(t, uint32(3), tile.Polys[2].FirstLink)
}

// TestPublishedLinksAreCompact adds, removes and adds back tiles side by
// side: every version holds just the links its polygons use, and its
// polygons' lists are those a mesh that never dropped the unused room
// would hold (the lists built afresh by adding the tiles in the same
// order to a new mesh), so later edits find the room again.
func TestPublishedLinksAreCompact(t *testing.T) {
	lists := func(tile *Tile) [][]Link {
		out := make([][]Link, len(tile.Polys))
		for i := range tile.Polys {
			for _, l := range linksOf(tile, i) {
				// B came back with another salt in one of the meshes.
				l.Next, l.Ref = 0, EncodeRef(0, l.Ref.TileIndex(), l.Ref.PolyIndex())
				out[i] = append(out[i], l)
			}
		}
		return out
	}
	m, err := New(testParams(4))
	require.NoError(t, err)
	refA, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	refB, err := m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	dataB, err := m.RemoveTile(refB)
	require.NoError(t, err)
	refB, err = m.AddTile(dataB, 0)
	require.NoError(t, err)

	fresh, err := New(testParams(4))
	require.NoError(t, err)
	freshA, err := fresh.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	freshB, err := fresh.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	for _, pair := range [][2]*Tile{{m.TileByRef(refA), fresh.TileByRef(freshA)}, {m.TileByRef(refB), fresh.TileByRef(freshB)}} {
		got, want := pair[0], pair[1]
		used := 0
		for _, l := range lists(got) {
			used += len(l)
		}
		assert.Len(t, got.Links, used, "only the links in use")
		assert.Less(t, used, int(got.Data.Header.MaxLinkCount))
		assert.Equal(t, len(lists(want)), len(lists(got)))
		for i := range got.Polys {
			assert.Equal(t, lists(want)[i], lists(got)[i], "polygon %d", i)
		}
	}
}

// TestTwoTileBorderLinks adds tiles A (split at z=5) and B (split at z=3)
// side by side and checks every link across x=10, with the quantised portal
// fractions worked out by hand, then removes B.
func TestTwoTileBorderLinks(t *testing.T) {
	for _, bv := range []bool{false, true} {
		t.Run(map[bool]string{false: "linear", true: "bvtree"}[bv], func(t *testing.T) {
			m, err := New(testParams(4))
			require.NoError(t, err)
			specA, specB := tileA(), tileB()
			specA.bvTree, specB.bvTree = bv, bv
			refA, err := m.AddTile(buildTile(specA), 0)
			require.NoError(t, err)
			a0 := m.TileByRef(refA)
			refB, err := m.AddTile(buildTile(specB), 0)
			require.NoError(t, err)

			s := m.Snapshot()
			a, b := s.TileByRef(refA), s.TileByRef(refB)
			assert.NotSame(t, a0, a, "A got a new version with the border links")
			assert.Equal(t, 2, totalLinks(a0), "the published version of A is untouched")

			// A0's edge 2 runs (10,5)→(10,0): B0 covers z 0..3 → t 0.4..1,
			// B1 covers z 3..5 → t 0..0.4. Links are prepended: B1 first.
			assert.Equal(t, []Link{
				{Ref: refB | 1, Edge: 2, Side: 0, BMin: 0, BMax: 102},
				{Ref: refB | 0, Edge: 2, Side: 0, BMin: 102, BMax: 255},
				{Ref: refA | 1, Edge: 1, Side: noSide},
			}, fixNext(linksOf(a, 0)))
			// A1's edge 2 runs (10,10)→(10,5): only B1 (z 3..10) touches it.
			assert.Equal(t, []Link{
				{Ref: refB | 1, Edge: 2, Side: 0, BMin: 0, BMax: 255},
				{Ref: refA | 0, Edge: 3, Side: noSide},
			}, fixNext(linksOf(a, 1)))
			// B0's edge 0 runs (10,0)→(10,3): A0 covers all of it.
			assert.Equal(t, []Link{
				{Ref: refA | 0, Edge: 0, Side: 4, BMin: 0, BMax: 255},
				{Ref: refB | 1, Edge: 1, Side: noSide},
			}, fixNext(linksOf(b, 0)))
			// B1's edge 0 runs (10,3)→(10,10): A0 covers z 3..5 → t 0..2/7
			// (72.86 → 73), A1 covers z 5..10 → t 2/7..1.
			assert.Equal(t, []Link{
				{Ref: refA | 1, Edge: 0, Side: 4, BMin: 73, BMax: 255},
				{Ref: refA | 0, Edge: 0, Side: 4, BMin: 0, BMax: 73},
				{Ref: refB | 0, Edge: 3, Side: noSide},
			}, fixNext(linksOf(b, 1)))

			// Every link resolves in the snapshot and the portals pair up.
			for _, tile := range []*Tile{a, b} {
				for ip := range tile.Polys {
					for _, l := range linksOf(tile, ip) {
						assert.True(t, s.IsValid(l.Ref))
					}
				}
			}

			// Removing B removes exactly the links into B from A.
			_, err = m.RemoveTile(refB)
			require.NoError(t, err)
			a2 := m.TileByRef(refA)
			assert.Equal(t, []Link{{Ref: refA | 1, Edge: 1, Side: noSide}}, fixNext(linksOf(a2, 0)))
			assert.Equal(t, []Link{{Ref: refA | 0, Edge: 3, Side: noSide}}, fixNext(linksOf(a2, 1)))
			assert.Equal(t, 5, totalLinks(a), "the old snapshot's version of A keeps its links")

			// Freed links go back to A's free list in removal order and are
			// reused: adding B again restores the same portals.
			refB2, err := m.AddTile(buildTile(specB), 0)
			require.NoError(t, err)
			assert.Equal(t, EncodeRef(2, 1, 0), refB2)
			a3 := m.TileByRef(refA)
			assert.Equal(t, []uint8{0, 102}, []uint8{linksOf(a3, 0)[0].BMin, linksOf(a3, 0)[0].BMax})
			assert.Equal(t, 5, totalLinks(a3))
			assert.Equal(t, 5, totalLinks(m.TileByRef(refB2)))
		})
	}
}

// fixNext clears the Next fields (they only encode the list order, which the
// slice order already shows).
func fixNext(links []Link) []Link {
	for i := range links {
		links[i].Next = 0
	}
	return links
}

func TestBorderLinksNeedMatchingHeight(t *testing.T) {
	tests := []struct {
		name    string
		offsetY float32
		links   int
	}{
		{"same height", 0, 3},
		{"within 2*climb", 1.7, 3},
		{"beyond 2*climb", 1.9, 0},
		{"far below", -5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := New(testParams(4))
			require.NoError(t, err)
			refA, err := m.AddTile(buildTile(tileA()), 0)
			require.NoError(t, err)
			b := tileSpec{x: 1, polys: [][]mgl32.Vec3{rect(10, 0, 20, 3, tt.offsetY), rect(10, 3, 20, 10, tt.offsetY)}}
			_, err = m.AddTile(buildTile(b), 0)
			require.NoError(t, err)
			assert.Equal(t, 2+tt.links, totalLinks(m.TileByRef(refA)))
		})
	}
}

func TestOverlapSlabs(t *testing.T) {
	tests := []struct {
		name                   string
		amin, amax, bmin, bmax [2]float32
		want                   bool
	}{
		{"same segment", [2]float32{0, 0}, [2]float32{5, 0}, [2]float32{0, 0}, [2]float32{5, 0}, true},
		{"touching ends only", [2]float32{0, 0}, [2]float32{5, 0}, [2]float32{5, 0}, [2]float32{9, 0}, false},
		{"crossing slopes", [2]float32{0, 0}, [2]float32{10, 10}, [2]float32{0, 10}, [2]float32{10, 0}, true},
		{"parallel within climb", [2]float32{0, 0}, [2]float32{5, 0}, [2]float32{0, 1.7}, [2]float32{5, 1.7}, true},
		{"parallel above climb", [2]float32{0, 0}, [2]float32{5, 0}, [2]float32{0, 1.9}, [2]float32{5, 1.9}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, overlapSlabs(tt.amin, tt.amax, tt.bmin, tt.bmax, 0.01, 0.9))
		})
	}
}

// TestOffMeshConnectionAcrossTiles puts a bidirectional off-mesh connection
// in tile A from A0 to a point over B1, raised above the surface at both
// ends, and checks the links and snapped end points as B comes and goes.
func TestOffMeshConnectionAcrossTiles(t *testing.T) {
	start := mgl32.Vec3{5, 0.3, 2.5}
	end := mgl32.Vec3{15, 0.5, 5}
	specA := tileA()
	specA.offMesh = []offMeshSpec{{start: start, end: end, radius: 0.5, bidir: true, side: 0, userID: 77}}
	dataA := buildTile(specA)

	m, err := New(testParams(4))
	require.NoError(t, err)
	refA, err := m.AddTile(dataA, 0)
	require.NoError(t, err)
	conRef := refA | 2

	a := m.TileByRef(refA)
	// Base links: connection → A0 (edge 0) and A0 → connection, both
	// internal; the end has no tile to land on yet.
	assert.Equal(t, []Link{{Ref: refA | 0, Edge: 0, Side: noSide}}, fixNext(linksOf(a, 2)))
	a0Links := fixNext(linksOf(a, 0))
	require.Len(t, a0Links, 2)
	assert.Equal(t, Link{Ref: conRef, Edge: 0xff, Side: noSide}, a0Links[0])
	assert.Equal(t, mgl32.Vec3{5, 0, 2.5}, a.Verts[a.Polys[2].Verts[0]], "start snapped onto A0")
	assert.Equal(t, end, a.Verts[a.Polys[2].Verts[1]])
	assert.Equal(t, start, dataA.Verts[dataA.Polys[2].Verts[0]], "TileData is not modified")

	con, err := m.OffMeshConnectionByRef(conRef)
	require.NoError(t, err)
	assert.Equal(t, uint32(77), con.UserID)
	_, err = m.OffMeshConnectionByRef(refA | 0)
	assert.ErrorIs(t, err, ErrInvalidRef)

	refB, err := m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	a, b := m.TileByRef(refA), m.TileByRef(refB)
	assert.Equal(t, []Link{
		{Ref: refB | 1, Edge: 1, Side: 0},
		{Ref: refA | 0, Edge: 0, Side: noSide},
	}, fixNext(linksOf(a, 2)), "the end lands on B1 across side 0")
	assert.Equal(t, mgl32.Vec3{15, 0, 5}, a.Verts[a.Polys[2].Verts[1]], "end snapped onto B1")
	b1Links := fixNext(linksOf(b, 1))
	require.Len(t, b1Links, 4, "B0, A0, A1 and the connection")
	assert.Equal(t, Link{Ref: conRef, Edge: 0xff, Side: 4}, b1Links[0], "bidirectional: B1 links back")

	startPos, endPos, err := m.OffMeshConnectionEndPoints(refA|0, conRef)
	require.NoError(t, err)
	assert.Equal(t, [2]mgl32.Vec3{{5, 0, 2.5}, {15, 0, 5}}, [2]mgl32.Vec3{startPos, endPos})
	startPos, endPos, err = m.OffMeshConnectionEndPoints(refB|1, conRef)
	require.NoError(t, err)
	assert.Equal(t, [2]mgl32.Vec3{{15, 0, 5}, {5, 0, 2.5}}, [2]mgl32.Vec3{startPos, endPos}, "entered from the far end")
	_, _, err = m.OffMeshConnectionEndPoints(refA|0, refA|1)
	assert.ErrorIs(t, err, ErrInvalidRef)

	// Closest point on the connection: on the segment (5,0,2.5)→(15,0,5)
	// at t = 68.75/106.25, never "over" it.
	closest, over, err := m.ClosestPointOnPoly(conRef, mgl32.Vec3{10, 3, 10})
	require.NoError(t, err)
	assert.False(t, over)
	assert.InDelta(t, 5+10*68.75/106.25, closest[0], 1e-5)
	assert.InDelta(t, 0, closest[1], 1e-6)
	assert.InDelta(t, 2.5+2.5*68.75/106.25, closest[2], 1e-5)

	// Removing B drops the landing link and B's link; A keeps its base.
	_, err = m.RemoveTile(refB)
	require.NoError(t, err)
	a = m.TileByRef(refA)
	assert.Equal(t, []Link{{Ref: refA | 0, Edge: 0, Side: noSide}}, fixNext(linksOf(a, 2)))
	assert.Equal(t, 4, totalLinks(a), "2 internal + the 2 base links")
}

func TestOffMeshConnectionInsideOneTile(t *testing.T) {
	spec := tileA()
	spec.offMesh = []offMeshSpec{
		{start: mgl32.Vec3{2, 0, 2}, end: mgl32.Vec3{8, 0, 8}, radius: 0.5, side: noSide},
		{start: mgl32.Vec3{8, 0, 2}, end: mgl32.Vec3{2, 0, 8}, radius: 0.5, side: noSide, bidir: true},
		{start: mgl32.Vec3{5, 5, 5}, end: mgl32.Vec3{2, 0, 8}, radius: 0.5, side: noSide}, // start in the air
	}
	m, err := New(testParams(1))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(spec), 0)
	require.NoError(t, err)
	tile := m.TileByRef(ref)
	assert.Equal(t, []Link{{Ref: ref | 1, Edge: 1, Side: noSide}, {Ref: ref | 0, Edge: 0, Side: noSide}},
		fixNext(linksOf(tile, 2)), "one-way: start base link, then end link")
	assert.Equal(t, []Link{{Ref: ref | 1, Edge: 1, Side: noSide}, {Ref: ref | 0, Edge: 0, Side: noSide}},
		fixNext(linksOf(tile, 3)))
	assert.Empty(t, linksOf(tile, 4), "a start beyond climb height links nothing")
	// A1 only gets the link back from the bidirectional connection's end;
	// A0 gets the links back from both starts.
	assert.Equal(t, []Link{{Ref: ref | 3, Edge: 0xff, Side: noSide}, {Ref: ref | 0, Edge: 3, Side: noSide}},
		fixNext(linksOf(tile, 1)))
	assert.Equal(t, []Link{{Ref: ref | 3, Edge: 0xff, Side: noSide}, {Ref: ref | 2, Edge: 0xff, Side: noSide}, {Ref: ref | 1, Edge: 1, Side: noSide}},
		fixNext(linksOf(tile, 0)))
	assert.Equal(t, 2+4+3, totalLinks(tile), "2 internal, 2 per based start, 2 ends landed + 1 back-link")
}

func TestLinksRunOutSilently(t *testing.T) {
	tests := []struct {
		name      string
		maxLinks  int32
		wantLinks []int // per polygon of the three strips
	}{
		{"none", 0, []int{0, 0, 0}},
		{"one: the first polygon's only edge", 1, []int{1, 0, 0}},
		{"two: the middle polygon's second edge is dropped", 2, []int{1, 1, 0}},
		{"enough", 4, []int{1, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := buildTile(tileSpec{polys: [][]mgl32.Vec3{rect(0, 0, 3, 10, 0), rect(3, 0, 6, 10, 0), rect(6, 0, 9, 10, 0)}})
			data.Header.MaxLinkCount = tt.maxLinks
			m, err := New(testParams(1))
			require.NoError(t, err)
			ref, err := m.AddTile(data, 0)
			require.NoError(t, err)
			tile := m.TileByRef(ref)
			require.Len(t, tile.Links, int(tt.maxLinks))
			for ip, want := range tt.wantLinks {
				assert.Len(t, linksOf(tile, ip), want, "polygon %d", ip)
			}
		})
	}
}

// TestCompactLinksKeepRuntimeLinks edits a tile whose polygons link into a
// runtime link: the published versions keep the baked links in use first
// and the extra one after them, an edit finds the room for
// Header.MaxLinkCount baked links again, and removing the link leaves the
// baked links alone.
func TestCompactLinksKeepRuntimeLinks(t *testing.T) {
	// sorted returns the links of tile's polygons, each polygon's as a
	// sorted list with Next and salts cleared.
	sorted := func(tile *Tile) [][]Link {
		out := make([][]Link, len(tile.Polys))
		for i := range tile.Polys {
			for _, l := range linksOf(tile, i) {
				l.Next, l.Ref = 0, EncodeRef(0, l.Ref.TileIndex(), l.Ref.PolyIndex())
				out[i] = append(out[i], l)
			}
			slices.SortFunc(out[i], func(a, b Link) int { return cmp.Compare(a.Ref, b.Ref) })
		}
		return out
	}
	// layout checks a published version: only the links in use, the baked
	// ones below bakedLinkCount, the extra ones (into link tiles) above, and
	// the baked room an edit gets back.
	layout := func(tile *Tile, extra int) {
		t.Helper()
		used := 0
		baked := tile.bakedLinkCount(16)
		for i := range tile.Polys {
			for l := tile.Polys[i].FirstLink; l != NullLink; l = tile.Links[l].Next {
				used++
				isExtra := tile.Links[l].Ref.TileIndex() >= 16
				assert.Equal(t, isExtra, l >= baked, "link %d", l)
			}
		}
		assert.Len(t, tile.Links, used)
		assert.Equal(t, used-extra, int(baked))

		version := tile.newVersion()
		d := &draft{tile: version, bakedLinks: baked}
		d.expandLinks()
		free := 0
		for l := d.linksFreeList; l != NullLink; l = version.Links[l].Next {
			assert.Less(t, l, uint32(tile.Data.Header.MaxLinkCount))
			free++
		}
		assert.Equal(t, int(tile.Data.Header.MaxLinkCount)-(used-extra), free, "the baked room")
		assert.Equal(t, sorted(tile), sorted(version), "the same lists after expanding")
		for i := range version.Polys {
			for l := version.Polys[i].FirstLink; l != NullLink; l = version.Links[l].Next {
				isExtra := version.Links[l].Ref.TileIndex() >= 16
				assert.Equal(t, isExtra, l >= uint32(tile.Data.Header.MaxLinkCount), "expanded link %d", l)
			}
		}
	}

	m, a, b, _ := islandsMesh(t)
	bare := sorted(m.TileByRef(a))
	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	withLink := sorted(m.TileByRef(a))
	assert.NotEqual(t, bare, withLink)
	layout(m.TileByRef(a), 1)

	// Tile A's border links go and come back with B; its link into the
	// runtime link stays.
	dataB, err := m.RemoveTile(b)
	require.NoError(t, err)
	layout(m.TileByRef(a), 1)
	_, err = m.AddTile(dataB, 0)
	require.NoError(t, err)
	layout(m.TileByRef(a), 1)
	assert.Equal(t, withLink, sorted(m.TileByRef(a)))

	require.NoError(t, m.RemoveLink(id))
	layout(m.TileByRef(a), 0)
	assert.Equal(t, bare, sorted(m.TileByRef(a)))
}
