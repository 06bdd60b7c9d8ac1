package bake

import (
	"context"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sideOffsets are the tile offsets of the border sides a portal edge can
// face (Detour: 0 is +x, 2 is +z, 4 is -x, 6 is -z).
var sideOffsets = map[uint8][2]int{0: {1, 0}, 2: {0, 1}, 4: {-1, 0}, 6: {0, -1}}

// TestTiledNavMeshLinksEveryBorder assembles each test level and checks that
// wherever a tile has portal edges facing a neighbour tile with data, links
// cross that border (as many as in the C++ navmesh, and missing on the same
// borders), and that links only lead to the tile across their side.
func TestTiledNavMeshLinksEveryBorder(t *testing.T) {
	tests := []struct {
		mesh                    string
		sharedBorders, extLinks int
		// unlinked are the borders (tile x, y, side) where a portal edge
		// meets no polygon of the neighbour: the C++ links none there either.
		unlinked [][3]int
	}{
		// Figures from the C++ demo's dtNavMesh after adding every tile.
		{"dungeon", 113, 136, [][3]int{{5, 3, 2}}},
		{"nav_test", 215, 336, [][3]int{{2, 7, 6}}},
		{"undulating", 438, 492, nil},
	}
	for _, tt := range tests {
		t.Run(tt.mesh, func(t *testing.T) {
			r, err := Tiled(context.Background(), loadTestMesh(t, tt.mesh), DefaultSettings(), TiledOptions{})
			require.NoError(t, err)
			m, err := r.NavMesh()
			require.NoError(t, err)

			params := m.Params()
			tilesX, tilesY := r.Baker.Grid()
			assert.Equal(t, r.Baker.bmin, params.Origin)
			assert.Equal(t, float32(32)*0.3, params.TileWidth)
			assert.Equal(t, int(nextPow2(tilesX*tilesY)), params.MaxTiles)
			assert.Equal(t, len(r.Tiles), m.TileCount())

			snap := m.Snapshot()
			sharedBorders, extLinks := 0, 0
			var unlinked [][3]int
			for _, tr := range r.Tiles {
				tile := snap.TileAt(tr.X, tr.Y, 0)
				require.NotNil(t, tile)
				portals := map[uint8]int{}
				for pi := range tile.Polys {
					p := &tile.Polys[pi]
					for e := range int(p.VertCount) {
						if n := p.Neighbours[e]; n&navmesh.ExternalLink != 0 {
							portals[uint8(n&0xff)]++
						}
					}
				}
				links := map[uint8]int{}
				for pi := range tile.Polys {
					for l := tile.Polys[pi].FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
						link := tile.Links[l]
						if link.Side == 0xff {
							continue
						}
						links[link.Side]++
						other, _, err := snap.TileAndPoly(link.Ref)
						require.NoError(t, err)
						off := sideOffsets[link.Side]
						assert.Equal(t, [2]int{tr.X + off[0], tr.Y + off[1]}, [2]int{int(other.Header.X), int(other.Header.Y)})
					}
				}
				for _, side := range []uint8{0, 2, 4, 6} {
					off := sideOffsets[side]
					neighbour := snap.TileAt(tr.X+off[0], tr.Y+off[1], 0)
					if neighbour == nil {
						assert.Zero(t, links[side], "tile (%d, %d) side %d: links to a missing tile", tr.X, tr.Y, side)
						continue
					}
					if portals[side] > 0 {
						sharedBorders++
						if links[side] == 0 {
							unlinked = append(unlinked, [3]int{tr.X, tr.Y, int(side)})
						}
					}
					extLinks += links[side]
				}
			}
			t.Logf("%s: %d tile borders with portals, %d links across borders", tt.mesh, sharedBorders, extLinks)
			assert.Equal(t, tt.sharedBorders, sharedBorders)
			assert.Equal(t, tt.extLinks, extLinks)
			assert.Equal(t, tt.unlinked, unlinked)
		})
	}
}

func nextPow2(v int) int {
	p := 1
	for p < v {
		p <<= 1
	}
	return p
}
