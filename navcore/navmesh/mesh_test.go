package navmesh

import (
	"errors"
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewValidatesParams(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	good := testParams(4)
	tests := []struct {
		name   string
		change func(*Params)
		ok     bool
	}{
		{"good", func(*Params) {}, true},
		{"one tile one poly", func(p *Params) { p.MaxTiles, p.MaxPolys = 1, 1 }, true},
		{"max limits", func(p *Params) { p.MaxTiles, p.MaxPolys = 1<<28, 1<<20 }, true},
		{"zero tiles", func(p *Params) { p.MaxTiles = 0 }, false},
		{"too many tiles", func(p *Params) { p.MaxTiles = 1<<28 + 1 }, false},
		{"zero polys", func(p *Params) { p.MaxPolys = 0 }, false},
		{"too many polys", func(p *Params) { p.MaxPolys = 1<<20 + 1 }, false},
		{"NaN origin", func(p *Params) { p.Origin[1] = nan }, false},
		{"infinite origin", func(p *Params) { p.Origin[2] = inf }, false},
		{"zero width", func(p *Params) { p.TileWidth = 0 }, false},
		{"negative height", func(p *Params) { p.TileHeight = -1 }, false},
		{"NaN width", func(p *Params) { p.TileWidth = nan }, false},
		{"infinite height", func(p *Params) { p.TileHeight = inf }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := good
			tt.change(&p)
			m, err := New(p)
			if !tt.ok {
				require.ErrorIs(t, err, ErrInvalidParams)
				assert.Nil(t, m)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, p, m.Params())
			assert.Equal(t, p.MaxTiles, m.Snapshot().MaxTiles())
			assert.Equal(t, 0, m.TileCount())
		})
	}
}

func TestCalcTileLoc(t *testing.T) {
	m, err := New(Params{Origin: mgl32.Vec3{-5, 0, 2}, TileWidth: 10, TileHeight: 4, MaxTiles: 4, MaxPolys: 4})
	require.NoError(t, err)
	tests := []struct {
		pos    mgl32.Vec3
		tx, ty int
	}{
		{mgl32.Vec3{-5, 0, 2}, 0, 0},
		{mgl32.Vec3{4.99, 100, 5.99}, 0, 0},
		{mgl32.Vec3{5, 0, 6}, 1, 1},
		{mgl32.Vec3{-5.01, 0, 1.99}, -1, -1}, // floor, not truncation
		{mgl32.Vec3{-25, 0, -10}, -2, -3},
		// Far away: saturated to int32; NaN gives 0.
		{mgl32.Vec3{1e30, 0, -1e30}, math.MaxInt32, math.MinInt32},
		{mgl32.Vec3{float32(math.Inf(-1)), 0, float32(math.Inf(1))}, math.MinInt32, math.MaxInt32},
		{mgl32.Vec3{float32(math.NaN()), 0, 3}, 0, 0},
	}
	for _, tt := range tests {
		tx, ty := m.CalcTileLoc(tt.pos)
		assert.Equal(t, [2]int{tt.tx, tt.ty}, [2]int{tx, ty}, "pos %v", tt.pos)
		tx, ty = m.Snapshot().CalcTileLoc(tt.pos)
		assert.Equal(t, [2]int{tt.tx, tt.ty}, [2]int{tx, ty}, "snapshot, pos %v", tt.pos)
	}
}

func TestAddRemoveTileSaltAndStaleRefs(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	data := buildTile(tileA())

	ref, err := m.AddTile(data, 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(1, 0, 0), ref, "first tile: slot 0, salt 1")
	assert.Equal(t, 1, m.TileCount())

	s := m.Snapshot()
	tile := s.TileAt(0, 0, 0)
	require.NotNil(t, tile)
	assert.Same(t, data, tile.Data)
	assert.Equal(t, ref, tile.Ref())
	assert.Equal(t, ref, tile.PolyRefBase())
	assert.Equal(t, ref, s.TileRefAt(0, 0, 0))
	assert.Same(t, tile, s.TileByRef(ref))
	assert.Same(t, tile, s.Tile(0))
	assert.Nil(t, s.Tile(1))
	assert.Nil(t, s.Tile(-1))
	assert.Nil(t, s.Tile(4))
	assert.Equal(t, uint32(1), tile.Salt())
	assert.Equal(t, 0, tile.Index())

	poly1 := ref | 1
	gotTile, gotPoly, err := s.TileAndPoly(poly1)
	require.NoError(t, err)
	assert.Same(t, tile, gotTile)
	assert.Same(t, &tile.Polys[1], gotPoly)
	assert.True(t, s.IsValid(poly1))
	assert.False(t, s.IsValid(ref|2), "tile A has 2 polygons")

	removed, err := m.RemoveTile(ref)
	require.NoError(t, err)
	assert.Same(t, data, removed)
	assert.Equal(t, 0, m.TileCount())
	assert.Nil(t, m.TileAt(0, 0, 0))

	// The old snapshot still sees the tile; the new one does not.
	assert.True(t, s.IsValid(poly1))
	_, _, err = m.TileAndPoly(poly1)
	assert.ErrorIs(t, err, ErrInvalidRef)

	// Re-adding reuses slot 0 with salt 2; the old refs stay invalid.
	ref2, err := m.AddTile(data, 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(2, 0, 0), ref2)
	assert.False(t, m.IsValid(poly1))
	assert.True(t, m.IsValid(ref2|1))
	assert.Nil(t, m.TileByRef(ref))
	_, err = m.RemoveTile(ref)
	assert.ErrorIs(t, err, ErrInvalidRef, "removing with a stale ref fails")
	assert.Equal(t, 1, m.TileCount())
}

func TestTileAndPolyErrors(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	s := m.Snapshot()
	tests := []struct {
		name string
		ref  Ref
		want error
	}{
		{"zero", 0, errNullRef},
		{"tile index beyond MaxTiles", EncodeRef(1, 4, 0), errTileIndexRange},
		{"empty slot", EncodeRef(1, 3, 0), errEmptySlot},
		{"stale salt", EncodeRef(2, 0, 0), errStaleSalt},
		{"poly beyond count", ref | 2, errPolyIndexRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tile, poly, err := s.TileAndPoly(tt.ref)
			assert.ErrorIs(t, err, ErrInvalidRef)
			assert.Equal(t, tt.want, err)
			assert.Nil(t, tile)
			assert.Nil(t, poly)
			assert.False(t, s.IsValid(tt.ref))
			_, err = s.PolyFlags(tt.ref)
			assert.ErrorIs(t, err, ErrInvalidRef)
			_, _, err = s.ClosestPointOnPoly(tt.ref, mgl32.Vec3{})
			assert.ErrorIs(t, err, ErrInvalidRef)
		})
	}
	// Unchecked never panics: a bad index gives nil, a wrong salt still
	// resolves the slot.
	tile, poly := s.TileAndPolyUnchecked(EncodeRef(1, 4, 0))
	assert.Nil(t, tile)
	assert.Nil(t, poly)
	tile, poly = s.TileAndPolyUnchecked(ref | 7)
	assert.Nil(t, tile)
	assert.Nil(t, poly)
	tile, poly = s.TileAndPolyUnchecked(EncodeRef(9, 0, 1))
	require.NotNil(t, tile)
	assert.Same(t, &tile.Polys[1], poly)
}

func TestSlotOrderFollowsCppFreeList(t *testing.T) {
	m, err := New(testParams(5))
	require.NoError(t, err)
	add := func(x int32, lastRef TileRef) (TileRef, error) {
		return m.AddTile(buildTile(tileSpec{x: x, y: 5, polys: tileA().polys}), lastRef)
	}
	slotOf := func(ref TileRef) uint32 { return ref.TileIndex() }

	r0, err := add(0, 0)
	require.NoError(t, err)
	r3, err := add(1, EncodeRef(7, 3, 0)) // out of order: slot 3, salt restored
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(7, 3, 0), r3)
	r1, err := add(2, 0)
	require.NoError(t, err)
	r2, err := add(3, 0)
	require.NoError(t, err)
	r4, err := add(4, 0)
	require.NoError(t, err)
	assert.Equal(t, []uint32{0, 1, 2, 4}, []uint32{slotOf(r0), slotOf(r1), slotOf(r2), slotOf(r4)},
		"fresh slots go upwards, skipping the one taken at a ref")
	_, err = add(5, 0)
	assert.ErrorIs(t, err, ErrOutOfTiles)

	// Freed slots are reused most recent first, with bumped salts.
	_, err = m.RemoveTile(r1)
	require.NoError(t, err)
	_, err = m.RemoveTile(r4)
	require.NoError(t, err)
	_, err = m.RemoveTile(r3)
	require.NoError(t, err)
	a, err := add(10, 0)
	require.NoError(t, err)
	b, err := add(11, 0)
	require.NoError(t, err)
	c, err := add(12, 0)
	require.NoError(t, err)
	assert.Equal(t, []Ref{EncodeRef(8, 3, 0), EncodeRef(2, 4, 0), EncodeRef(2, 1, 0)}, []Ref{a, b, c})
}

func TestAddTileAtRef(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	data := buildTile(tileA())
	ref, err := m.AddTile(data, 0)
	require.NoError(t, err)
	_, err = m.RemoveTile(ref)
	require.NoError(t, err)

	// Restoring at the old ref brings the old polygon refs back.
	restored, err := m.AddTile(data, ref)
	require.NoError(t, err)
	assert.Equal(t, ref, restored)
	assert.True(t, m.IsValid(ref|1))

	tests := []struct {
		name    string
		lastRef TileRef
		x       int32
		want    error
	}{
		{"slot taken", EncodeRef(5, 0, 0), 1, ErrTileExists},
		{"slot beyond MaxTiles", EncodeRef(1, 4, 0), 1, ErrInvalidRef},
		{"salt 0", EncodeRef(0, 2, 0), 1, ErrInvalidRef},
		{"location taken", EncodeRef(1, 2, 0), 0, ErrTileExists},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := m.Snapshot()
			_, err := m.AddTile(buildTile(tileSpec{x: tt.x, polys: tileA().polys}), tt.lastRef)
			require.ErrorIs(t, err, tt.want)
			assert.Same(t, before, m.Snapshot(), "a failed add publishes nothing")
		})
	}
	// The failed attempts took no slot: the next free ones are still 1, 2.
	r, err := m.AddTile(buildTile(tileSpec{x: 1, polys: tileA().polys}), 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(1, 1, 0), r)
	r, err = m.AddTile(buildTile(tileSpec{x: 2, polys: tileA().polys}), EncodeRef(3, 2, 0))
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(3, 2, 0), r)
}

func TestSaltWrapsAfterManyReuses(t *testing.T) {
	m, err := New(testParams(1))
	require.NoError(t, err)
	data := buildTile(tileA())
	var ref TileRef
	for range 0xffff {
		ref, err = m.AddTile(data, 0)
		require.NoError(t, err)
		_, err = m.RemoveTile(ref)
		require.NoError(t, err)
	}
	assert.Equal(t, uint32(0xffff), ref.Salt())
	ref, err = m.AddTile(data, 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(1, 0, 0), ref, "salt wrapped past 0 to 1")
}

func TestSetPolyFlagsAndAreaCopyOnWrite(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	ref, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	before := m.Snapshot()
	oldTile := before.Tile(0)

	require.NoError(t, m.SetPolyFlags(ref|1, 0x0f0f))
	require.NoError(t, m.SetPolyArea(ref|1, 0xff)) // high bits dropped
	flags, err := m.PolyFlags(ref | 1)
	require.NoError(t, err)
	area, err := m.PolyArea(ref | 1)
	require.NoError(t, err)
	assert.Equal(t, uint16(0x0f0f), flags)
	assert.Equal(t, uint8(0x3f), area)
	assert.Equal(t, PolyTypeGround, m.Tile(0).Polys[1].Type())

	// The published tile and the old snapshot are untouched; links are
	// shared with the new version, polygons are not.
	oldFlags, err := before.PolyFlags(ref | 1)
	require.NoError(t, err)
	assert.Equal(t, uint16(1), oldFlags)
	assert.Equal(t, uint16(1), oldTile.Polys[1].Flags)
	assert.NotSame(t, oldTile, m.Tile(0))
	assert.Same(t, &oldTile.Links[0], &m.Tile(0).Links[0])
	assert.Equal(t, uint16(1), oldTile.Data.Polys[1].Flags, "TileData is never modified")

	assert.ErrorIs(t, m.SetPolyFlags(ref|5, 1), ErrInvalidRef)
	assert.ErrorIs(t, m.SetPolyArea(0, 1), ErrInvalidRef)
}

func TestAddTileRejectsBadData(t *testing.T) {
	tests := []struct {
		name    string
		corrupt func(*TileData)
	}{
		{"poly count mismatch", func(d *TileData) { d.Header.PolyCount++ }},
		{"vert count mismatch", func(d *TileData) { d.Verts = d.Verts[:len(d.Verts)-1] }},
		{"detail mesh count mismatch", func(d *TileData) { d.Header.DetailMeshCount = 1 }},
		{"detail tri count mismatch", func(d *TileData) { d.Header.DetailTriCount-- }},
		{"BV node count mismatch", func(d *TileData) { d.Header.BVNodeCount = 1 }},
		{"off-mesh count mismatch", func(d *TileData) { d.Header.OffMeshConCount = 0 }},
		{"too many polys for the mesh", func(d *TileData) {
			for len(d.Polys) <= 64 {
				d.Polys = append(d.Polys, d.Polys[0])
			}
			d.Header.PolyCount = int32(len(d.Polys))
		}},
		{"negative link count", func(d *TileData) { d.Header.MaxLinkCount = -1 }},
		{"absurd link count", func(d *TileData) { d.Header.MaxLinkCount = 1 << 30 }},
		{"vertex index out of range", func(d *TileData) { d.Polys[1].Verts[2] = uint16(len(d.Verts)) }},
		{"neighbour out of range", func(d *TileData) { d.Polys[0].Neighbours[0] = uint16(len(d.Polys) + 1) }},
		{"bad border code", func(d *TileData) { d.Polys[0].Neighbours[0] = ExternalLink | 0x10 }},
		{"ground poly with 2 verts", func(d *TileData) { d.Polys[0].VertCount = 2 }},
		{"ground poly with 7 verts", func(d *TileData) { d.Polys[0].VertCount = 7 }},
		{"unknown poly type", func(d *TileData) { d.Polys[0].AreaAndType = 2 << 6 }},
		{"off-mesh poly with 3 verts", func(d *TileData) { d.Polys[2].VertCount = 3 }},
		{"off-mesh base too high", func(d *TileData) { d.Header.OffMeshBase = d.Header.PolyCount + 1 }},
		{"off-mesh poly without connection", func(d *TileData) { d.Header.OffMeshBase = 3 }},
		{"off-mesh connection to ground poly", func(d *TileData) { d.OffMeshConnections[0].Poly = 0 }},
		{"off-mesh connection poly out of range", func(d *TileData) { d.OffMeshConnections[0].Poly = 9 }},
		{"detail verts beyond array", func(d *TileData) { d.DetailMeshes[1].VertCount = 1 }},
		{"detail tris beyond array", func(d *TileData) { d.DetailMeshes[1].TriBase = uint32(len(d.DetailTris)) }},
		{"detail tri vertex beyond poly", func(d *TileData) { d.DetailTris[0][1] = 4 }},
		{"BV leaf out of range", func(d *TileData) { d.BVTree[1].Index = 3 }},
		{"BV escape beyond tree", func(d *TileData) { d.BVTree[0].Index = -4 }},
		{"BV escape overflow", func(d *TileData) { d.BVTree[0].Index = math.MinInt32 }},
		{"NaN climb", func(d *TileData) { d.Header.WalkableClimb = float32(math.NaN()) }},
	}
	spec := tileA()
	spec.bvTree = true
	spec.offMesh = []offMeshSpec{{start: mgl32.Vec3{5, 0, 2}, end: mgl32.Vec3{5, 0, 8}, radius: 0.5, side: noSide}}
	good := buildTile(spec)

	m, err := New(testParams(4))
	require.NoError(t, err)
	other, err := m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)
	before := m.Snapshot()

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := cloneTileData(good)
			tt.corrupt(data)
			ref, err := m.AddTile(data, 0)
			require.ErrorIs(t, err, ErrInvalidData)
			assert.Contains(t, err.Error(), "tile (0, 0, layer 0)")
			assert.Zero(t, ref)
			assert.Same(t, before, m.Snapshot(), "nothing changed")
			assert.Equal(t, 1, m.TileCount())
		})
	}
	_, err = m.AddTile(nil, 0)
	require.ErrorIs(t, err, ErrInvalidData)

	// The good data goes in, into slot 1, and links to B.
	ref, err := m.AddTile(good, 0)
	require.NoError(t, err)
	assert.Equal(t, EncodeRef(1, 1, 0), ref)
	assert.Equal(t, other, m.TileRefAt(1, 0, 0))
	assert.Equal(t, 5, totalLinks(m.TileByRef(other)), "2 internal + 3 border links")
}

func TestAddTileLocationTaken(t *testing.T) {
	m, err := New(testParams(4))
	require.NoError(t, err)
	_, err = m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	_, err = m.AddTile(buildTile(tileA()), 0)
	require.ErrorIs(t, err, ErrTileExists)
	assert.True(t, errors.Is(err, ErrTileExists))
	// Another layer of the same column is fine.
	spec := tileA()
	spec.layer = 1
	_, err = m.AddTile(buildTile(spec), 0)
	require.NoError(t, err)
	assert.Len(t, m.TilesAt(0, 0, nil), 2)
}

func TestTilesAtOrderAndNeighbours(t *testing.T) {
	m, err := New(testParams(16))
	require.NoError(t, err)
	var refs []TileRef
	for layer := range int32(3) {
		spec := tileA()
		spec.layer = layer
		ref, err := m.AddTile(buildTile(spec), 0)
		require.NoError(t, err)
		refs = append(refs, ref)
	}
	ref, err := m.AddTile(buildTile(tileB()), 0)
	require.NoError(t, err)

	s := m.Snapshot()
	var got []TileRef
	for _, tile := range s.TilesAt(0, 0, nil) {
		got = append(got, tile.Ref())
	}
	assert.Equal(t, []TileRef{refs[2], refs[1], refs[0]}, got, "most recently added first, like the C++ hash chain")

	// Removing the middle layer keeps the others' order.
	_, err = m.RemoveTile(refs[1])
	require.NoError(t, err)
	got = got[:0]
	for _, tile := range m.TilesAt(0, 0, nil) {
		got = append(got, tile.Ref())
	}
	assert.Equal(t, []TileRef{refs[2], refs[0]}, got)

	neighbours := s.NeighbourTilesAt(0, 0, 0, nil)
	require.Len(t, neighbours, 1)
	assert.Equal(t, ref, neighbours[0].Ref())
	assert.Len(t, s.NeighbourTilesAt(1, 0, 4, nil), 3)
	assert.Empty(t, s.NeighbourTilesAt(0, 0, 2, nil))
	assert.Empty(t, s.NeighbourTilesAt(0, 0, 8, nil), "side outside 0..7")
	if big := int64(math.MaxInt32) + 1; int64(int(big)) == big { // 64-bit int only
		assert.Nil(t, s.TileAt(int(big), 0, 0))
	}
	assert.Zero(t, s.TileRefAt(5, 5, 0))
}

func TestBigMeshPublishesSmall(t *testing.T) {
	m, err := New(Params{TileWidth: 10, TileHeight: 10, MaxTiles: 1 << 28, MaxPolys: 64})
	require.NoError(t, err)
	s := m.Snapshot()
	assert.Nil(t, s.tiles.root, "an empty mesh holds no table, whatever MaxTiles")

	ref, err := m.AddTile(buildTile(tileA()), 0)
	require.NoError(t, err)
	s2 := m.Snapshot()
	assert.Zero(t, s2.tiles.shift, "slot 0: a one-leaf table")
	assert.True(t, s2.IsValid(ref|1))
	assert.Same(t, s2.Tile(0), s2.TileAt(0, 0, 0))

	last := EncodeRef(3, 1<<28-1, 0)
	far := tileB()
	far.x = 5 // not a neighbour: tile A keeps its version
	for i := range far.polys {
		for j := range far.polys[i] {
			far.polys[i][j][0] += 40
		}
	}
	_, err = m.AddTile(buildTile(far), last)
	require.NoError(t, err)
	s3 := m.Snapshot()
	assert.Equal(t, uint32(25), s3.tiles.shift, "slot 2^28-1: six levels of 32")
	assert.Same(t, s3.TileAt(5, 0, 0), s3.Tile(1<<28-1))
	assert.Nil(t, s2.Tile(1<<28-1), "the old snapshot is unchanged")
	assert.Same(t, s2.Tile(0), s3.Tile(0), "the unchanged tile is shared")
	var slots []int
	for tile := range s3.Tiles() {
		slots = append(slots, tile.Index())
	}
	assert.Equal(t, []int{0, 1<<28 - 1}, slots)
}
