package navmesh

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dungeonTilePath = "../../testdata/navmesh_solo_dungeon.bin"

// dungeonTileFingerprint is the reference "tile data" fingerprint of the
// C++ solo dungeon tile.
const dungeonTileFingerprint = 0x9acbed5cd350892d

func readDungeonBlob(t testing.TB) []byte {
	t.Helper()
	blob, err := os.ReadFile(dungeonTilePath)
	require.NoError(t, err)
	return blob
}

func readDungeonTile(t testing.TB) *TileData {
	t.Helper()
	data, err := ReadDNAV(readDungeonBlob(t))
	require.NoError(t, err)
	return data
}

func TestReadDNAVDungeon(t *testing.T) {
	data := readDungeonTile(t)
	h := data.Header

	assert.Equal(t, int32(118), h.PolyCount)
	assert.Equal(t, int32(223), h.VertCount)
	assert.Equal(t, int32(453), h.MaxLinkCount)
	assert.Equal(t, int32(118), h.DetailMeshCount)
	assert.Equal(t, int32(60), h.DetailVertCount)
	assert.Equal(t, int32(291), h.DetailTriCount)
	assert.Equal(t, int32(236), h.BVNodeCount)
	assert.Equal(t, int32(0), h.OffMeshConCount)
	assert.Equal(t, int32(118), h.OffMeshBase)
	assert.Equal(t, float32(2), h.WalkableHeight)
	assert.Equal(t, float32(0.6), h.WalkableRadius)
	assert.Equal(t, float32(0.9), h.WalkableClimb)
	assert.Equal(t, float32(1)/float32(0.3), h.BVQuantFactor)
	assert.InDeltaSlice(t, []float32{-25.015217, -0.0027058611, -90.041275}, h.BMin[:], 1e-5)
	assert.InDeltaSlice(t, []float32{49.305145, 42.176586, 8.8912}, h.BMax[:], 1e-5)

	assert.Len(t, data.Verts, 223)
	assert.Len(t, data.Polys, 118)
	assert.Len(t, data.DetailMeshes, 118)
	assert.Len(t, data.DetailVerts, 60)
	assert.Len(t, data.DetailTris, 291)
	assert.Len(t, data.BVTree, 236)
	assert.Empty(t, data.OffMeshConnections)

	first := data.Polys[0]
	assert.Equal(t, NullLink, first.FirstLink)
	assert.Equal(t, [MaxVertsPerPoly]uint16{0, 1, 2, 9, 0, 0}, first.Verts)
	assert.Equal(t, [MaxVertsPerPoly]uint16{0, 0, 2, 0, 0, 0}, first.Neighbours)
	assert.Equal(t, uint16(1), first.Flags)
	assert.Equal(t, uint8(4), first.VertCount)
	assert.Equal(t, uint8(0), first.Area())
	assert.Equal(t, PolyTypeGround, first.Type())

	assert.Equal(t, PolyDetail{VertBase: 0, TriBase: 0, VertCount: 0, TriCount: 2}, data.DetailMeshes[0])
	assert.Equal(t, BVNode{BMin: [3]uint16{2, 1, 3}, BMax: [3]uint16{245, 86, 327}, Index: -235}, data.BVTree[0])
	assert.Equal(t, BVNode{}, data.BVTree[235], "the last node of the C++ layout stays zero")
}

func TestWriteDNAVReproducesDungeonBlob(t *testing.T) {
	blob := readDungeonBlob(t)
	data := readDungeonTile(t)

	assert.Equal(t, len(blob), DNAVSize(data))
	var out bytes.Buffer
	require.NoError(t, WriteDNAV(&out, data))
	assert.True(t, bytes.Equal(blob, out.Bytes()), "written blob differs from the C++ file")

	sum, err := TileDataFingerprint(data)
	require.NoError(t, err)
	assert.Equal(t, uint64(dungeonTileFingerprint), sum)
	assert.Equal(t, uint64(dungeonTileFingerprint), Fingerprint(blob))
}

func TestReadDNAVBigEndian(t *testing.T) {
	blob := readDungeonBlob(t)
	want := readDungeonTile(t)

	got, err := ReadDNAV(swapDNAVEndian(t, blob, want))
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestReadDNAVWith64BitLinks(t *testing.T) {
	blob := readDungeonBlob(t)
	want := readDungeonTile(t)

	// A DT_POLYREF64 build stores 16-byte links; the rest is the same.
	wide := widenLinks(blob, want)
	require.Len(t, wide, len(blob)+4*int(want.Header.MaxLinkCount))

	got, err := ReadDNAV(wide)
	require.NoError(t, err)
	assert.Equal(t, want, got)
}

func TestReadDNAVIgnoresLinksWrittenAtRuntime(t *testing.T) {
	blob := readDungeonBlob(t)
	want := readDungeonTile(t)
	layout := newDNAVLayout(headerCounts(&want.Header), dnavLinkSize)

	// A blob saved from a live C++ mesh has firstLink and links filled in.
	live := append([]byte{}, blob...)
	for i := range want.Polys {
		binary.LittleEndian.PutUint32(live[layout.offset(sectionPolys, i):], uint32(i))
	}
	for i := layout.start[sectionLinks]; i < layout.start[sectionDetailMeshes]; i++ {
		live[i] = byte(i)
	}
	got, err := ReadDNAV(live)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	var out bytes.Buffer
	require.NoError(t, WriteDNAV(&out, got))
	assert.True(t, bytes.Equal(blob, out.Bytes()), "links are written back zeroed")
}

func TestReadDNAVEveryTruncationFails(t *testing.T) {
	blob := readDungeonBlob(t)
	for n := 0; n < len(blob); n++ {
		_, err := ReadDNAV(blob[:n])
		require.ErrorIs(t, err, ErrMalformedFile, "prefix of %d bytes", n)
	}
	_, err := ReadDNAV(append(append([]byte{}, blob...), 0))
	require.ErrorIs(t, err, ErrMalformedFile, "one byte too many")
}

func TestReadDNAVRejectsHostileInput(t *testing.T) {
	base := readDungeonTile(t)
	layout := newDNAVLayout(headerCounts(&base.Header), dnavLinkSize)
	polyOffset := func(i int) int { return int(layout.offset(sectionPolys, i)) }
	put32 := func(off int, v uint32) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint32(b[off:], v) }
	}
	put16 := func(off int, v uint16) func([]byte) {
		return func(b []byte) { binary.LittleEndian.PutUint16(b[off:], v) }
	}

	tests := []struct {
		name    string
		mutate  func([]byte)
		wantErr error
		wantMsg string
	}{
		{"wrong magic", put32(0, 0x12345678), ErrUnknownFormat, "magic"},
		{"MSET magic", func(b []byte) { copy(b, "TESM") }, ErrUnknownFormat, "magic"},
		{"wrong version", put32(4, 6), ErrUnsupportedVersion, "version 6"},
		{"negative poly count", put32(24, math.MaxUint32), ErrMalformedFile, "polygons count -1"},
		{"huge poly count", put32(24, math.MaxInt32), ErrMalformedFile, "the counts need"},
		{"huge link count", put32(32, math.MaxInt32), ErrMalformedFile, "the counts need"},
		{"poly count short of its section", put32(24, 117), ErrMalformedFile, "the counts need"},
		{"vertex index out of range", put16(polyOffset(5)+4, 223), ErrMalformedFile, "polygons[5] at offset"},
		{"neighbour out of range", put16(polyOffset(0)+18, 500), ErrMalformedFile, "neighbour 499 out of range"},
		{"border side out of range", put16(polyOffset(0)+18, 0x8009), ErrMalformedFile, "border side 9"},
		{"too many poly vertices", func(b []byte) { b[polyOffset(3)+30] = 7 }, ErrMalformedFile, "7 vertices"},
		{"off-mesh type among ground polys", func(b []byte) { b[polyOffset(3)+31] |= 0x40 }, ErrMalformedFile, "type 1"},
		{"detail mesh past vertices", put32(int(layout.offset(sectionDetailMeshes, 7)), 1000), ErrMalformedFile, "detail meshes[7]"},
		{"detail triangle index", func(b []byte) { b[layout.offset(sectionDetailTris, 0)] = 200 }, ErrMalformedFile, "detail triangles[0]"},
		{"BV leaf past polygons", put32(int(layout.offset(sectionBVTree, 235))+12, 118), ErrMalformedFile, "BV tree[235]"},
		{"BV escape past end", put32(int(layout.offset(sectionBVTree, 0))+12, uint32(0xffffffff-236)), ErrMalformedFile, "escape offset 237"},
		{"NaN vertex", put32(int(layout.offset(sectionVerts, 9))+4, 0x7fc00000), ErrMalformedFile, "vertices[9]"},
		{"infinite bounds", put32(72, 0xff800000), ErrMalformedFile, "bounds"},
		{"zero quantisation", put32(96, 0), ErrMalformedFile, "BVQuantFactor"},
		{"off-mesh base beyond polys", put32(56, 119), ErrMalformedFile, "OffMeshBase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blob := readDungeonBlob(t)
			tt.mutate(blob)
			data, err := ReadDNAV(blob)
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Nil(t, data)
		})
	}
}

func TestWriteDNAVRefusesInconsistentData(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(*TileData)
		wantMsg string
	}{
		{"nil", nil, "nil tile data"},
		{"count differs from slice", func(d *TileData) { d.Header.VertCount++ }, "VertCount is 224 but there are 223"},
		{"vertex index", func(d *TileData) { d.Polys[2].Verts[1] = 999 }, "polygons[2]: vertex 1 index 999"},
		{"detail mesh", func(d *TileData) { d.DetailMeshes[4].TriBase = 291 }, "detail meshes[4]"},
		{"negative links", func(d *TileData) { d.Header.MaxLinkCount = -1 }, "MaxLinkCount -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data *TileData
			if tt.mutate != nil {
				data = readDungeonTile(t)
				tt.mutate(data)
			}
			var out bytes.Buffer
			err := WriteDNAV(&out, data)
			require.ErrorIs(t, err, ErrInconsistentTileData)
			assert.Contains(t, err.Error(), tt.wantMsg)
			assert.Zero(t, out.Len(), "nothing written")
		})
	}
}

func TestDNAVRoundTripWithOffMeshConnections(t *testing.T) {
	data, err := BuildTileData(offMeshTestParams())
	require.NoError(t, err)
	require.NotEmpty(t, data.OffMeshConnections)

	var out bytes.Buffer
	require.NoError(t, WriteDNAV(&out, data))
	assert.Equal(t, DNAVSize(data), out.Len())
	got, err := ReadDNAV(out.Bytes())
	require.NoError(t, err)
	assert.Equal(t, data, got)
}

// swapDNAVEndian returns the blob with every multi-byte field byte-swapped,
// as a big-endian build would have written it.
func swapDNAVEndian(t *testing.T, blob []byte, data *TileData) []byte {
	t.Helper()
	out := append([]byte{}, blob...)
	swap := func(off int64, size int) {
		s := out[off : off+int64(size)]
		for i, j := 0, size-1; i < j; i, j = i+1, j-1 {
			s[i], s[j] = s[j], s[i]
		}
	}
	swapWords := func(off int64, count int, size int) {
		for i := 0; i < count; i++ {
			swap(off+int64(i*size), size)
		}
	}
	layout := newDNAVLayout(headerCounts(&data.Header), dnavLinkSize)
	swapWords(0, dnavHeaderSize/4, 4)
	swapWords(layout.start[sectionVerts], 3*len(data.Verts), 4)
	for i := range data.Polys {
		off := layout.offset(sectionPolys, i)
		swap(off, 4)
		swapWords(off+4, 2*MaxVertsPerPoly+1, 2)
	}
	for i := range data.DetailMeshes {
		swapWords(layout.offset(sectionDetailMeshes, i), 2, 4)
	}
	swapWords(layout.start[sectionDetailVerts], 3*len(data.DetailVerts), 4)
	for i := range data.BVTree {
		off := layout.offset(sectionBVTree, i)
		swapWords(off, 6, 2)
		swap(off+12, 4)
	}
	for i := range data.OffMeshConnections {
		off := layout.offset(sectionOffMeshCons, i)
		swapWords(off, 7, 4)
		swap(off+28, 2)
		swap(off+32, 4)
	}
	require.Equal(t, "DNAV", string(out[:4]))
	return out
}

// offMeshTestParams returns a small two-polygon tile with off-mesh
// connections in every class: stored, starting outside, starting too high.
func offMeshTestParams() *BuildParams {
	return &BuildParams{
		Verts: [][3]uint16{{0, 5, 0}, {0, 5, 10}, {10, 5, 10}, {10, 5, 0}, {20, 5, 10}, {20, 5, 0}},
		Polys: []uint16{
			0, 1, 2, 3, 0xffff, 0xffff, 0x800f, 0x800f, 1, 0x8000, 0xffff, 0xffff,
			3, 2, 4, 5, 0xffff, 0xffff, 0, 0x8001, 0x8002, 0x8003, 0xffff, 0xffff,
		},
		PolyFlags:    []uint16{1, 3},
		PolyAreas:    []uint8{0, 5},
		VertsPerPoly: 6,
		OffMeshConnections: []OffMeshConnectionParams{
			{Start: mgl32.Vec3{1, 1, 1}, End: mgl32.Vec3{5, 1, 2}, Radius: 0.5, Flags: 8, Area: 2, Bidirectional: true, UserID: 100},
			{Start: mgl32.Vec3{-1, 1, 1}, End: mgl32.Vec3{1, 1, 1}, Radius: 0.5, Flags: 8, Area: 2, UserID: 101},
			{Start: mgl32.Vec3{1, 9, 1}, End: mgl32.Vec3{1, 1, 1}, Radius: 0.5, Flags: 8, Area: 2, UserID: 102},
			{Start: mgl32.Vec3{2, 1, 2}, End: mgl32.Vec3{7, 1, -3}, Radius: 0.25, Flags: 16, Area: 3, UserID: 103},
		},
		UserID:         42,
		TileX:          3,
		TileY:          -2,
		TileLayer:      1,
		BMin:           mgl32.Vec3{0, 0, 0},
		BMax:           mgl32.Vec3{6, 4, 3},
		WalkableHeight: 2,
		WalkableRadius: 0.6,
		WalkableClimb:  0.9,
		CellSize:       0.3,
		CellHeight:     0.2,
		BuildBVTree:    true,
	}
}
