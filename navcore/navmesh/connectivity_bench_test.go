package navmesh

import (
	"fmt"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"
)

// quadTile is a tile of side×side square polygons.
func quadTile(x, y int32, side int) *TileData {
	x0, z0 := float32(float32(x)*testTileSize), float32(float32(y)*testTileSize)
	step := testTileSize / float32(side)
	spec := tileSpec{x: x, y: y, bvTree: true}
	for i := range side {
		for j := range side {
			spec.polys = append(spec.polys, rect(x0+float32(float32(i)*step), z0+float32(float32(j)*step), x0+float32(float32(i+1)*step), z0+float32(float32(j+1)*step), 0))
		}
	}
	return buildTile(spec)
}

// BenchmarkComputeConnectivity labels a square grid of tiles of 8×8
// polygons each. cold: no tile has its tile components yet (a first call);
// warm: every tile has them, as all but the changed tiles do after a tile
// change.
func BenchmarkComputeConnectivity(b *testing.B) {
	for _, tiles := range []int{4, 16, 40} {
		m, err := New(Params{TileWidth: testTileSize, TileHeight: testTileSize, MaxTiles: tiles * tiles, MaxPolys: 64})
		require.NoError(b, err)
		data := quadTile(0, 0, 8)
		for y := range int32(tiles) {
			for x := range int32(tiles) {
				d := cloneTileData(data)
				d.Header.X, d.Header.Y = x, y
				offset := mgl32.Vec3{float32(x) * testTileSize, 0, float32(y) * testTileSize}
				for i := range d.Verts {
					d.Verts[i] = d.Verts[i].Add(offset)
				}
				d.Header.BMin = d.Header.BMin.Add(offset)
				d.Header.BMax = d.Header.BMax.Add(offset)
				_, err := m.AddTile(d, 0)
				require.NoError(b, err)
			}
		}
		s := m.Snapshot()
		c := computeConnectivity(s, allPass)
		require.Equal(b, 1, c.ComponentCount())
		require.Equal(b, tiles*tiles*64, c.PolyCount())
		forget := func() {
			s.eachTile(func(t *Tile) { t.components.Store(nil) })
		}
		for _, warm := range []bool{false, true} {
			name := fmt.Sprintf("polys=%d/cold", c.PolyCount())
			if warm {
				name = fmt.Sprintf("polys=%d/warm", c.PolyCount())
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for range b.N {
					if !warm {
						b.StopTimer()
						forget()
						b.StartTimer()
					}
					computeConnectivity(s, allPass)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.PolyCount()), "ns/poly")
			})
		}
	}
}
