package navmesh

import (
	"encoding/csv"
	"os"
	"strconv"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadSoloDungeon loads the C++ solo tile of dungeon.obj into a one-tile
// mesh set up as dtNavMesh::init(data) does: origin at the tile's bmin, tile
// size its extent, MaxPolys its polygon count.
func loadSoloDungeon(t testing.TB) (*Mesh, *Tile) {
	t.Helper()
	blob, err := os.ReadFile("../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	data, err := ReadDNAV(blob)
	require.NoError(t, err)
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
