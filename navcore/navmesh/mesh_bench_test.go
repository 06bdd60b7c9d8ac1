package navmesh

import (
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"
)

func benchGrid(b *testing.B, maxTiles int) (*Mesh, []Ref) {
	b.Helper()
	m, err := New(testParams(maxTiles))
	require.NoError(b, err)
	var refs []Ref
	for y := range int32(3) {
		for x := range int32(3) {
			ref, err := m.AddTile(gridTile(x, y), 0)
			require.NoError(b, err)
			refs = append(refs, ref, ref|1)
		}
	}
	return m, refs[:16] // a power of two: the loops index with i&15
}

func BenchmarkSnapshot(b *testing.B) {
	m, _ := benchGrid(b, 16)
	b.ReportAllocs()
	b.ResetTimer()
	var s *Snapshot
	for range b.N {
		s = m.Snapshot()
	}
	_ = s
}

func BenchmarkTileAndPoly(b *testing.B) {
	m, refs := benchGrid(b, 16)
	s := m.Snapshot()
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for range b.N {
		_, _, err := s.TileAndPoly(refs[i&15])
		if err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkTileAndPolyStale(b *testing.B) {
	m, refs := benchGrid(b, 16)
	s := m.Snapshot()
	stale := refs[0] ^ EncodeRef(3, 0, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, _, err := s.TileAndPoly(stale); err == nil {
			b.Fatal("stale ref accepted")
		}
	}
}

func BenchmarkTileAndPolyUnchecked(b *testing.B) {
	m, refs := benchGrid(b, 16)
	s := m.Snapshot()
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for range b.N {
		if _, p := s.TileAndPolyUnchecked(refs[i&15]); p == nil {
			b.Fatal("nil poly")
		}
		i++
	}
}

func BenchmarkFindNearestPolyInTile(b *testing.B) {
	m, _ := benchGrid(b, 16)
	tile := m.TileAt(1, 1, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if ref, _ := tile.FindNearestPoly(mgl32.Vec3{14, 0.5, 17}, mgl32.Vec3{2, 4, 2}); ref == 0 {
			b.Fatal("nothing found")
		}
	}
}

// BenchmarkRemoveAddTile measures the writer: unlink, relink and publish the
// centre tile of a 3×3 grid, for a small and a huge slot table (the cost
// must not grow with MaxTiles).
func BenchmarkRemoveAddTile(b *testing.B) {
	for _, maxTiles := range []int{16, 1 << 20, 1 << 28} {
		b.Run(map[int]string{16: "16", 1 << 20: "2^20", 1 << 28: "2^28"}[maxTiles], func(b *testing.B) {
			m, refs := benchGrid(b, maxTiles)
			ref := refs[8] &^ polyMask
			b.ReportAllocs()
			b.ResetTimer()
			b.ResetTimer()
			for range b.N {
				data, err := m.RemoveTile(ref)
				if err != nil {
					b.Fatal(err)
				}
				if ref, err = m.AddTile(data, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// soloProbes returns points over the solo dungeon tile and their polygons.
func soloProbes(b *testing.B, tile *Tile) ([]mgl32.Vec3, []*Poly) {
	var points []mgl32.Vec3
	var polys []*Poly
	for i := range tile.Polys {
		p := &tile.Polys[i]
		var c mgl32.Vec3
		for _, v := range p.Verts[:p.VertCount] {
			c = c.Add(tile.Verts[v])
		}
		points = append(points, c.Mul(1/float32(p.VertCount)))
		polys = append(polys, p)
	}
	return points[:64], polys[:64]
}

func BenchmarkPolyHeightSoloDungeon(b *testing.B) {
	_, tile := loadSoloDungeon(b)
	points, polys := soloProbes(b, tile)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, ok := tile.PolyHeight(polys[i&63], points[i&63]); !ok {
			b.Fatal("centre not over its polygon")
		}
	}
}

func BenchmarkClosestPointOnPolySoloDungeon(b *testing.B) {
	m, tile := loadSoloDungeon(b)
	s := m.Snapshot()
	points, _ := soloProbes(b, tile)
	base := tile.PolyRefBase()
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		// A polygon and the centre of another: mostly the boundary path.
		if _, _, err := s.ClosestPointOnPoly(base|Ref(i&63), points[(i+7)&63]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindNearestPolySoloDungeon(b *testing.B) {
	_, tile := loadSoloDungeon(b)
	points, _ := soloProbes(b, tile)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if ref, _ := tile.FindNearestPoly(points[i&63], mgl32.Vec3{2, 4, 2}); ref == 0 {
			b.Fatal("nothing found")
		}
	}
}
