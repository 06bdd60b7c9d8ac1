package navmesh

import (
	"bytes"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// savedWithLinks is testSavedMesh with two links, one of them wide and
// one-way, at slots above the grid with salts of their own.
func savedWithLinks(t testing.TB) *savedMesh {
	m := testSavedMesh(t)
	m.links = []savedLink{
		{id: LinkID(EncodeRef(3, 8, 0)), desc: LinkDesc{Start: mgl32.Vec3{1, 0, 1}, End: mgl32.Vec3{4, 1, 2}, Radius: 0.5, Bidirectional: true, Area: 2, Flags: 5, Cost: 0.25, UserID: 9}},
		{id: LinkID(EncodeRef(1, 11, 0)), desc: LinkDesc{Start: mgl32.Vec3{2, 0, 1}, End: mgl32.Vec3{2, 3, 1}, Radius: 0.3, Width: 1, Flags: 1}},
	}
	return m
}

func TestLinksSaveAndLoad(t *testing.T) {
	m, a, _, far := islandsMesh(t)
	plain := saveBytes(t, m)
	id, err := m.AddLink(farLink())
	require.NoError(t, err)
	wide := farLink()
	wide.Start, wide.End, wide.Width, wide.Bidirectional, wide.Cost = mgl32.Vec3{5, 0, 5}, mgl32.Vec3{55, 2, 5}, 2, false, 0.5
	wideID, err := m.AddLink(wide)
	require.NoError(t, err)
	require.NoError(t, m.SetPolyFlags(wideID.Ref()|1, 3), "a lane's flags")

	loaded, err := Load(bytes.NewReader(saveBytes(t, m)))
	require.NoError(t, err)
	snap, want := loaded.Snapshot(), m.Snapshot()
	assert.Equal(t, 2, snap.LinkCount())
	for _, link := range []LinkID{id, wideID} {
		desc, ok := snap.Link(link)
		require.True(t, ok, "the link keeps its id")
		wantDesc, _ := want.Link(link)
		assert.Equal(t, wantDesc, desc)
		for lane := range desc.LaneCount() {
			s, e, _ := snap.LinkEnds(link, lane)
			ws, we, _ := want.LinkEnds(link, lane)
			assert.Equal(t, [2]Ref{ws, we}, [2]Ref{s, e}, "lane %d lands where it did", lane)
		}
	}
	flags, err := snap.PolyFlags(wideID.Ref() | 1)
	require.NoError(t, err)
	assert.Equal(t, uint16(1), flags, "lane 0's flags stand for the link's")
	assert.True(t, snap.SameComponent(a|0, far|0))
	assert.Equal(t, want.MaxTiles(), snap.MaxTiles())

	// The next link takes the next slot, as it would have before saving.
	next, err := loaded.AddLink(farLink())
	require.NoError(t, err)
	nextOriginal, err := m.AddLink(farLink())
	require.NoError(t, err)
	assert.Equal(t, nextOriginal, next)

	// Without links the file is what it was before links existed.
	require.NoError(t, m.RemoveLink(id))
	require.NoError(t, m.RemoveLink(wideID))
	require.NoError(t, m.RemoveLink(nextOriginal))
	assert.Equal(t, plain, saveBytes(t, m))
}

func saveBytes(t *testing.T, m *Mesh) []byte {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, Save(&out, m))
	return out.Bytes()
}

func TestLinksFileRoundTrip(t *testing.T) {
	saved := savedWithLinks(t)
	file, err := encodeOwn(saved)
	require.NoError(t, err)
	decoded, err := decodeOwn(file)
	require.NoError(t, err)
	assert.Equal(t, saved, decoded)
	m, err := meshFromSaved(decoded)
	require.NoError(t, err)
	assert.Equal(t, 2, m.Snapshot().LinkCount())
	assert.Equal(t, 12, m.Snapshot().MaxTiles())
}

// TestLinksFileRejectsHostileInput: each broken links block is refused
// with ErrMalformedFile and an error naming the problem.
func TestLinksFileRejectsHostileInput(t *testing.T) {
	encode := func(change func(m *savedMesh)) []byte {
		m := savedWithLinks(t)
		change(m)
		file, err := encodeOwn(m)
		require.NoError(t, err)
		return file
	}
	good := encode(func(*savedMesh) {})
	linksAt := bytes.Index(good, []byte(ownLinksTag))
	require.Positive(t, linksAt)
	patch := func(at int, b ...byte) []byte {
		file := bytes.Clone(good)
		copy(file[at:], b)
		return resealOwn(file)
	}
	for name, tc := range map[string]struct {
		file []byte
		want string
	}{
		"bad tag":          {patch(linksAt, 'X'), "bytes after the last tile"},
		"count too high":   {patch(linksAt+4, 3), "3 links in"},
		"zero count":       {patch(linksAt+4, 0), "0 links in"},
		"slot in the grid": {encode(func(m *savedMesh) { m.links[0].id = LinkID(EncodeRef(1, 7, 0)) }), "slot 7"},
		"salt 0":           {encode(func(m *savedMesh) { m.links[0].id = LinkID(EncodeRef(0, 9, 0)) }), "salt 0"},
		"polygon part":     {encode(func(m *savedMesh) { m.links[0].id = LinkID(EncodeRef(1, 9, 2)) }), "polygon 2"},
		"slot twice":       {encode(func(m *savedMesh) { m.links[1].id = LinkID(EncodeRef(2, 8, 0)) }), "already used"},
		"bad bidir byte":   {patch(linksAt+ownLinksHeader+47, 7), "bidirectional byte 7"},
		"negative radius":  {encode(func(m *savedMesh) { m.links[1].desc.Radius = -1 }), "radius -1"},
		"area too high":    {encode(func(m *savedMesh) { m.links[1].desc.Area = 64 }), "area 64"},
		"truncated":        {resealOwn(append(bytes.Clone(good[:len(good)-ownChecksumSize-3]), 0, 0, 0, 0)), "links in"},
	} {
		t.Run(name, func(t *testing.T) {
			m, err := Load(bytes.NewReader(tc.file))
			assert.Nil(t, m)
			assert.ErrorIs(t, err, ErrMalformedFile)
			assert.ErrorContains(t, err, tc.want)
		})
	}
}

// Bounds of the memory a file of links costs to load: each 52-byte link
// becomes a tile of its own (about 800 bytes with its polygon, links and
// records), so links cost more per byte of file than tiles do (see
// maxLoadAllocPerByte), within a bound all the same.
const (
	maxLinkLoadAllocPerByte = 30
	maxLinkLoadLivePerByte  = 20
)

// TestLinksFileBoundsMemory: a file of nothing but links (one tile, 2000
// links) loads within maxLinkLoadAllocPerByte and maxLinkLoadLivePerByte.
func TestLinksFileBoundsMemory(t *testing.T) {
	params := Params{TileWidth: 10, TileHeight: 10, MaxTiles: 1, MaxPolys: 1}
	saved := &savedMesh{params: params, tiles: []savedTile{{ref: EncodeRef(1, 0, 0), data: minimalTile(0, 0, 0), flags: []uint16{1}, areas: []uint8{0}}}}
	for i := range 2000 {
		saved.links = append(saved.links, savedLink{
			id:   LinkID(EncodeRef(1, uint32(1+i), 0)),
			desc: LinkDesc{Start: mgl32.Vec3{2, 0, 2}, End: mgl32.Vec3{float32(i), 0, 5}, Radius: 1, Flags: 1},
		})
	}
	file, err := encodeOwn(saved)
	require.NoError(t, err)
	allocated, live, m := loadCost(t, file)
	t.Logf("%d bytes: allocated %.1f×, keeps %.1f×", len(file), float64(allocated)/float64(len(file)), float64(live)/float64(len(file)))
	assert.Equal(t, 2000, m.Snapshot().LinkCount())
	assert.LessOrEqual(t, allocated, uint64(maxLinkLoadAllocPerByte*len(file)))
	assert.LessOrEqual(t, live, uint64(maxLinkLoadLivePerByte*len(file)))
}
