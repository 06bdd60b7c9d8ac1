package navmesh

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readSoloTileStandIn parses the C++ DNAV tile blob of the test data (x86-64
// layout, 32-bit refs). It is a private stand-in for ReadDNAV until the
// navmesh-files reader is on main; it trusts its input.
func readSoloTileStandIn(t testing.TB, blob []byte) *TileData {
	t.Helper()
	r := bytes.NewReader(blob)
	read := func(v any) { require.NoError(t, binary.Read(r, binary.LittleEndian, v)) }
	var header struct {
		Magic, Version, X, Y, Layer                      int32
		UserID                                           uint32
		PolyCount, VertCount, MaxLinkCount               int32
		DetailMeshCount, DetailVertCount, DetailTriCount int32
		BVNodeCount, OffMeshConCount, OffMeshBase        int32
		WalkableHeight, WalkableRadius, WalkableClimb    float32
		BMin, BMax                                       [3]float32
		BVQuantFactor                                    float32
	}
	read(&header)
	require.Equal(t, int32('D')<<24|int32('N')<<16|int32('A')<<8|int32('V'), header.Magic)
	require.Equal(t, int32(7), header.Version)

	d := &TileData{Header: TileHeader{
		X: header.X, Y: header.Y, Layer: header.Layer, UserID: header.UserID,
		PolyCount: header.PolyCount, VertCount: header.VertCount, MaxLinkCount: header.MaxLinkCount,
		DetailMeshCount: header.DetailMeshCount, DetailVertCount: header.DetailVertCount,
		DetailTriCount: header.DetailTriCount, BVNodeCount: header.BVNodeCount,
		OffMeshConCount: header.OffMeshConCount, OffMeshBase: header.OffMeshBase,
		WalkableHeight: header.WalkableHeight, WalkableRadius: header.WalkableRadius,
		WalkableClimb: header.WalkableClimb, BMin: header.BMin, BMax: header.BMax,
		BVQuantFactor: header.BVQuantFactor,
	}}
	d.Verts = make([]mgl32.Vec3, header.VertCount)
	read(d.Verts)
	d.Polys = make([]Poly, header.PolyCount)
	for i := range d.Polys {
		var raw struct {
			FirstLink          uint32
			Verts, Neighbours  [6]uint16
			Flags              uint16
			VertCount, AreaTyp uint8
		}
		read(&raw)
		d.Polys[i] = Poly{FirstLink: raw.FirstLink, Verts: raw.Verts, Neighbours: raw.Neighbours,
			Flags: raw.Flags, VertCount: raw.VertCount, AreaAndType: raw.AreaTyp}
	}
	_, err := r.Seek(int64(header.MaxLinkCount)*12, 1) // links: zero in the blob
	require.NoError(t, err)
	d.DetailMeshes = make([]PolyDetail, header.DetailMeshCount)
	for i := range d.DetailMeshes {
		var raw struct {
			VertBase, TriBase   uint32
			VertCount, TriCount uint8
			_                   [2]byte
		}
		read(&raw)
		d.DetailMeshes[i] = PolyDetail{VertBase: raw.VertBase, TriBase: raw.TriBase, VertCount: raw.VertCount, TriCount: raw.TriCount}
	}
	d.DetailVerts = make([]mgl32.Vec3, header.DetailVertCount)
	read(d.DetailVerts)
	d.DetailTris = make([]DetailTri, header.DetailTriCount)
	read(d.DetailTris)
	d.BVTree = make([]BVNode, header.BVNodeCount)
	read(d.BVTree)
	require.Zero(t, header.OffMeshConCount, "the stand-in reads no off-mesh connections")
	require.Zero(t, r.Len(), "the whole blob is read")
	return d
}

func loadSoloDungeon(t testing.TB) (*Mesh, *Tile) {
	t.Helper()
	blob, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	data := readSoloTileStandIn(t, blob)
	h := &data.Header
	m, err := New(Params{
		Origin:    h.BMin,
		TileWidth: h.BMax[0] - h.BMin[0], TileHeight: h.BMax[2] - h.BMin[2],
		MaxTiles: 1, MaxPolys: int(h.PolyCount),
	})
	require.NoError(t, err)
	ref, err := m.AddTile(data, 0)
	require.NoError(t, err)
	return m, m.TileByRef(ref)
}

// TestSoloDungeonLinks loads the C++ solo tile of dungeon.obj and checks its
// links against two independent counts of the polygons' shared edges.
func TestSoloDungeonLinks(t *testing.T) {
	_, tile := loadSoloDungeon(t)
	require.Len(t, tile.Polys, 118)
	require.Len(t, tile.Verts, 223)

	internalCodes, sharedEdges := 0, 0
	type edge struct{ a, b uint16 }
	owner := map[edge]int{}
	for i, p := range tile.Polys {
		nv := int(p.VertCount)
		for j := range nv {
			if nei := p.Neighbours[j]; nei != 0 && nei&ExternalLink == 0 {
				internalCodes++
			}
			owner[edge{p.Verts[j], p.Verts[(j+1)%nv]}] = i
		}
	}
	for e, i := range owner {
		if k, ok := owner[edge{e.b, e.a}]; ok && k != i {
			sharedEdges++ // counted once from each side, like links
		}
	}
	links := totalLinks(tile)
	assert.Equal(t, 230, links)
	assert.Equal(t, internalCodes, links)
	assert.Equal(t, sharedEdges, links)

	// Each polygon's list holds one link per internal edge, in edge order,
	// naming the neighbour of that edge.
	base := tile.PolyRefBase()
	for i, p := range tile.Polys {
		var want []Link
		for j := range int(p.VertCount) {
			if nei := p.Neighbours[j]; nei != 0 {
				want = append(want, Link{Ref: base | Ref(nei-1), Edge: uint8(j), Side: noSide})
			}
		}
		assert.Equal(t, want, fixNext(linksOf(tile, i)), "polygon %d", i)
	}
}

// TestSoloDungeonNearestPoly repeats the C++ findNearestPoly calls recorded
// in query_dungeon.csv (half extents 2, 4, 2) and expects the same polygon
// for every start and end point.
func TestSoloDungeonNearestPoly(t *testing.T) {
	_, tile := loadSoloDungeon(t)
	f, err := os.Open("../../testdata/query_dungeon.csv")
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	num := func(row []string, name string) float32 {
		v, err := strconv.ParseFloat(row[col[name]], 32)
		require.NoError(t, err)
		return float32(v)
	}
	cppPoly := func(row []string, name string) Ref {
		v, err := strconv.ParseUint(row[col[name]], 0, 32)
		require.NoError(t, err)
		if v == 0 {
			return 0
		}
		return tile.PolyRefBase() | Ref(v&0x7f) // 32-bit C++ ref: 7 poly bits for 118 polys
	}
	halfExtents := mgl32.Vec3{2, 4, 2}
	found, exactHeights := 0, 0
	for _, row := range rows[1:] {
		for _, end := range []string{"s", "e"} {
			pos := mgl32.Vec3{num(row, end+"x"), num(row, end+"y"), num(row, end+"z")}
			want := cppPoly(row, map[string]string{"s": "start_ref", "e": "end_ref"}[end])
			got, _ := tile.FindNearestPoly(pos, halfExtents)
			if !assert.Equal(t, want, got, "row %s %s point %v", row[0], end, pos) {
				return
			}
			if got == 0 {
				continue
			}
			found++
			// The points are C++ random points: their y is getPolyHeight at
			// their xz, which must come out bit for bit.
			h, over := tile.PolyHeight(&tile.Polys[got.PolyIndex()], pos)
			if over && h == pos[1] {
				exactHeights++
			}
		}
	}
	assert.Equal(t, 2000, found, "every recorded point found a polygon")
	assert.Equal(t, found, exactHeights, "PolyHeight reproduces every recorded y exactly")
	t.Logf("%d of 2000 points found a polygon, all as in the C++; %d heights bit-exact", found, exactHeights)
}
