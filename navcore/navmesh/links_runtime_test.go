package navmesh

import (
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Two islands far apart: tile (0, 0) and tile (5, 0), with nothing between
// them, and tile (1, 0) next to the first so that border links exist too.
func islandsMesh(t *testing.T) (*Mesh, TileRef, TileRef, TileRef) {
	t.Helper()
	m, err := New(testParams(16))
	require.NoError(t, err)
	a, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	b, err := m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	far, err := m.AddTile(buildTile(tileSpec{x: 5, y: 0, polys: [][]mgl32.Vec3{rect(50, 0, 60, 10, 2)}}), 0)
	require.NoError(t, err)
	return m, a, b, far
}

func farLink() LinkDesc {
	return LinkDesc{Start: mgl32.Vec3{2, 0, 2}, End: mgl32.Vec3{55, 2, 5}, Radius: 1, Bidirectional: true, Flags: 1, Area: 3, UserID: 77}
}

func TestAddLinkConnectsFarTiles(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	before := m.Snapshot()
	startRef, endRef := a|0, far|0
	require.False(t, before.SameComponent(startRef, endRef))

	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	snap := m.Snapshot()
	assert.Equal(t, 1, snap.LinkCount())
	assert.Equal(t, 3, snap.TileCount(), "a link tile is not a tile of the grid")
	assert.True(t, snap.SameComponent(startRef, endRef))
	assert.False(t, before.SameComponent(startRef, endRef), "the old snapshot does not change")
	assert.Equal(t, 0, before.LinkCount())

	desc, ok := snap.Link(id)
	require.True(t, ok)
	assert.Equal(t, farLink(), desc)
	starts, ends, ok := snap.LinkAttached(id)
	require.True(t, ok)
	assert.Equal(t, [2]int{1, 1}, [2]int{starts, ends})

	// The link tile: one off-mesh polygon linked to both landing polygons,
	// its vertices moved onto them.
	lt := snap.TileByRef(TileRef(id))
	require.NotNil(t, lt)
	assert.True(t, lt.IsLink())
	assert.Equal(t, int32(LinkLayer), lt.Data.Header.Layer)
	assert.GreaterOrEqual(t, lt.Index(), m.Params().MaxTiles)
	assert.Equal(t, lt.Index()+1, snap.MaxTiles())
	assert.Equal(t, []Link{{Ref: endRef, Next: linksOf(lt, 0)[0].Next, Edge: 1, Side: noSide}, {Ref: startRef, Next: NullLink, Edge: 0, Side: noSide}}, linksOf(lt, 0))
	assert.Equal(t, mgl32.Vec3{2, 0, 2}, lt.Verts[0])
	assert.Equal(t, mgl32.Vec3{55, 2, 5}, lt.Verts[1])
	poly := &lt.Polys[0]
	assert.Equal(t, PolyTypeOffMeshConnection, poly.Type())
	assert.Equal(t, uint8(3), poly.Area())
	con, err := snap.OffMeshConnectionByRef(id.Ref())
	require.NoError(t, err)
	assert.Equal(t, uint32(77), con.UserID)
	gotID, lane, ok := snap.LinkOf(id.Ref())
	assert.True(t, ok)
	assert.Equal(t, id, gotID)
	assert.Equal(t, 0, lane)
	_, _, ok = snap.LinkOf(startRef)
	assert.False(t, ok)

	// Both landing polygons link back (bidirectional), in links beyond the
	// baked ones.
	for _, land := range []Ref{startRef, endRef} {
		tile, _, err := snap.TileAndPoly(land)
		require.NoError(t, err)
		back := linksOf(tile, int(land.PolyIndex()))
		assert.Equal(t, Link{Ref: id.Ref(), Next: back[0].Next, Edge: 0xff, Side: noSide}, back[0])
		// A published version keeps the baked links in use, then the
		// extra one (link_compact.go).
		baked := tile.bakedLinkCount(uint32(m.Params().MaxTiles))
		assert.Len(t, tile.Links, int(baked)+1)
		assert.Equal(t, baked, tile.Polys[land.PolyIndex()].FirstLink)
	}

	start, end, err := snap.OffMeshConnectionEndPoints(endRef, id.Ref())
	require.NoError(t, err)
	assert.Equal(t, mgl32.Vec3{55, 2, 5}, start, "entered from its end, the link runs backwards")
	assert.Equal(t, mgl32.Vec3{2, 0, 2}, end)

	var listed []LinkID
	for got := range snap.Links() {
		listed = append(listed, got)
	}
	assert.Equal(t, []LinkID{id}, listed)
}

func TestRemoveLinkRestoresTheTiles(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	before := m.Snapshot()
	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	require.NoError(t, m.RemoveLink(id))
	snap := m.Snapshot()
	assert.Equal(t, 0, snap.LinkCount())
	assert.False(t, snap.SameComponent(a|0, far|0))
	assert.False(t, snap.IsValid(id.Ref()), "the link's polygon refs go stale")
	_, ok := snap.Link(id)
	assert.False(t, ok)
	for _, ref := range []TileRef{a, far} {
		assert.Equal(t, linksOf(before.TileByRef(ref), 0), linksOf(snap.TileByRef(ref), 0))
	}
	assert.ErrorIs(t, m.RemoveLink(id), ErrInvalidLink)

	// The slot is used again with the next salt.
	again, err := m.AddLink(farLink())
	require.NoError(t, err)
	assert.Equal(t, Ref(id).TileIndex(), Ref(again).TileIndex())
	assert.NotEqual(t, id, again)
	assert.True(t, m.Snapshot().SameComponent(a|0, far|0))
}

func TestLinkReattachesWhenItsTileComesBack(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	data, err := m.RemoveTile(far)
	require.NoError(t, err)
	starts, ends, _ := m.Snapshot().LinkAttached(id)
	assert.Equal(t, [2]int{1, 0}, [2]int{starts, ends})
	lt := m.Snapshot().TileByRef(TileRef(id))
	assert.Equal(t, mgl32.Vec3{55, 2, 5}, lt.Verts[1], "an end that landed nowhere is where the description has it")

	newFar, err := m.AddTile(data, 0)
	require.NoError(t, err)
	snap := m.Snapshot()
	starts, ends, _ = snap.LinkAttached(id)
	assert.Equal(t, [2]int{1, 1}, [2]int{starts, ends})
	assert.True(t, snap.SameComponent(a|0, newFar|0))

	// A batch that swaps the tile for a new version of itself (a tile
	// cache rebuild) keeps the link attached.
	var batch Batch
	batch.Replace(data)
	_, err = m.Apply(&batch, nil)
	require.NoError(t, err)
	snap = m.Snapshot()
	starts, ends, _ = snap.LinkAttached(id)
	assert.Equal(t, [2]int{1, 1}, [2]int{starts, ends})
	assert.True(t, snap.SameComponent(a|0, snap.TileRefAt(5, 0, 0)|0))
}

// A link's links never take the baked links' room: after a link landed on
// a tile, its neighbour leaving and coming back links the border as
// before.
func TestLinkLeavesBorderLinksTheirRoom(t *testing.T) {
	withLink, a, b, _ := islandsMesh(t)
	plain, _, _, _ := islandsMesh(t)
	_, err := withLink.AddLink(farLink())
	require.NoError(t, err)
	for _, m := range []*Mesh{withLink, plain} {
		data, err := m.RemoveTile(b)
		require.NoError(t, err)
		_, err = m.AddTile(data, b)
		require.NoError(t, err)
	}
	ta, tp := withLink.Snapshot().TileByRef(a), plain.Snapshot().TileByRef(a)
	for ip := range tp.Polys {
		assert.Equal(t, borderRefs(linksOf(tp, ip)), borderRefs(linksOf(ta, ip)), "polygon %d", ip)
	}
}

func borderRefs(links []Link) []Ref {
	var refs []Ref
	for _, l := range links {
		if l.Ref.TileIndex() < 16 { // not the link back into the runtime link
			refs = append(refs, l.Ref)
		}
	}
	return refs
}

func TestOneWayLinkHasNoWayBack(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	desc := farLink()
	desc.Bidirectional = false
	id, err := m.AddLink(desc)
	require.NoError(t, err)
	snap := m.Snapshot()
	endTile := snap.TileByRef(far)
	for _, l := range linksOf(endTile, 0) {
		assert.NotEqual(t, id.Ref(), l.Ref)
	}
	startTile := snap.TileByRef(a)
	assert.Equal(t, id.Ref(), linksOf(startTile, 0)[0].Ref)
	info, _ := snap.Connectivity().Info(snap.Component(a | 0))
	assert.True(t, info.OneWay)
}

func TestWideLinkLanes(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	desc := farLink()
	desc.Start = mgl32.Vec3{5, 0, 5}
	desc.End = mgl32.Vec3{55, 2, 5}
	desc.Width = 4
	desc.Radius = 0.5
	require.Equal(t, 5, desc.LaneCount())
	id, err := m.AddLink(desc)
	require.NoError(t, err)
	snap := m.Snapshot()
	lt := snap.TileByRef(TileRef(id))
	require.Len(t, lt.Polys, 5)
	for lane := range 5 {
		s, e := desc.LanePoints(lane)
		offset := float32(lane) - 2
		// The link runs along +x, so the lanes spread along +z... turned
		// a quarter left: across is (0, 1) in (x, z) for direction (1, 0).
		assert.Equal(t, mgl32.Vec3{5, 0, 5 + offset}, s)
		assert.Equal(t, mgl32.Vec3{55, 2, 5 + offset}, e)
		assert.Equal(t, s, lt.Verts[lt.Polys[lane].Verts[0]])
	}
	starts, ends, _ := snap.LinkAttached(id)
	assert.Equal(t, [2]int{5, 5}, [2]int{starts, ends})
	// Lanes at z 3, 4 land on polygon 0 of tile A (z <= 5), and so does
	// the one at 5 (on the edge, the first polygon found wins); 6, 7 on 1.
	lands := map[Ref]int{}
	for lane := range 5 {
		lands[lt.endLanding(uint32(lane), 0)]++
	}
	assert.Equal(t, map[Ref]int{a | 0: 3, a | 1: 2}, lands)
	assert.True(t, snap.SameComponent(a|1, far|0))
}

func TestAddLinkRejectsBadInput(t *testing.T) {
	m, _, _, _ := islandsMesh(t)
	nan := float32(0)
	nan /= nan
	ok := farLink()
	for name, change := range map[string]func(*LinkDesc){
		"start not finite": func(d *LinkDesc) { d.Start[1] = nan },
		"end not finite":   func(d *LinkDesc) { d.End[0] = nan },
		"negative radius":  func(d *LinkDesc) { d.Radius = -1 },
		"negative width":   func(d *LinkDesc) { d.Width = -1 },
		"area too high":    func(d *LinkDesc) { d.Area = MaxAreas },
		"cost not finite":  func(d *LinkDesc) { d.Cost = nan },
		"huge radius":      func(d *LinkDesc) { d.Radius = 1e6 },
	} {
		t.Run(name, func(t *testing.T) {
			d := ok
			change(&d)
			before := m.Snapshot()
			_, err := m.AddLink(d)
			assert.ErrorIs(t, err, ErrInvalidLink)
			assert.Same(t, before, m.Snapshot(), "nothing changes")
		})
	}
	id, err := m.AddLink(ok)
	require.NoError(t, err)
	_, err = m.RemoveTile(TileRef(id))
	assert.ErrorIs(t, err, ErrInvalidRef, "a link tile is removed with RemoveLink")
	for _, bad := range []LinkID{0, 1, LinkID(id.Ref() | 1), LinkID(EncodeRef(1, 3, 0))} {
		assert.ErrorIs(t, m.RemoveLink(bad), ErrInvalidLink, "%#x", uint64(bad))
	}
}

func TestLinkChangesAreRecorded(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	v := m.Snapshot().Version()
	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	changes, complete := m.Snapshot().ChangesSince(v, nil)
	require.True(t, complete)
	require.Len(t, changes, 1)
	assert.Equal(t, int(Ref(id).TileIndex()), changes[0].Slot)
	assert.Equal(t, int32(LinkLayer), changes[0].Layer)
	// The tiles it landed on have new versions (with a link more).
	before := m.Snapshot()
	require.NoError(t, m.RemoveLink(id))
	assert.NotSame(t, before.TileByRef(a), m.Snapshot().TileByRef(a))
	assert.NotSame(t, before.TileByRef(far), m.Snapshot().TileByRef(far))
}

// TestAddLinkAtTheGridsEdge adds a link whose ends lie in the last tile
// column of the int32 grid. Stepping x++ up to math.MaxInt32 wraps on
// 32-bit CPUs, where AddLink then never returned (GOARCH=386); it must
// give the same answer as on amd64, promptly.
func TestAddLinkAtTheGridsEdge(t *testing.T) {
	m, _, _, _ := islandsMesh(t)
	far := farLink()
	far.Start = mgl32.Vec3{3e38, 0, 3e38}
	far.End = mgl32.Vec3{3e38, 0, -3e38}
	done := make(chan error, 1)
	go func() {
		id, err := m.AddLink(far)
		if err == nil {
			err = m.RemoveLink(id)
		}
		done <- err
	}()
	select {
	case err := <-done:
		assert.NoError(t, err, "a link over no tile waits for its tiles")
	case <-time.After(20 * time.Second):
		t.Fatal("AddLink did not return within 20 s")
	}
}
