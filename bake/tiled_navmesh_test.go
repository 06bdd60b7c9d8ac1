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
						assert.Equal(t, [2]int{tr.X + off[0], tr.Y + off[1]}, [2]int{int(other.Data.Header.X), int(other.Data.Header.Y)})
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

// TestBakedNavMeshLinksPolysInPlace checks that the mesh of a fresh bake
// (tiled, and solo, with and without links, whose link search used a mesh
// of its own) is published once and links every tile's polygons in its
// data's array, as a loaded mesh does, and that its links are those of a
// mesh built from copies of the data with AddTile one tile at a time.
func TestBakedNavMeshLinksPolysInPlace(t *testing.T) {
	tests := []struct {
		name  string
		level string
		links bool
		solo  bool
	}{
		{"tiled dungeon", "dungeon", false, false},
		{"tiled links level with links", "links_level", true, false},
		{"solo links level with links", "links_level", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := DefaultSettings()
			if tt.links {
				settings.Links = DefaultLinkSettings()
			}
			g := loadTestMesh(t, tt.level)
			var mesh *navmesh.Mesh
			var data []*navmesh.TileData
			if tt.solo {
				r, err := Solo(context.Background(), g, settings)
				require.NoError(t, err)
				mesh, err = r.NavMesh()
				require.NoError(t, err)
				data = []*navmesh.TileData{r.TileData}
			} else {
				r, err := Tiled(context.Background(), g, settings, TiledOptions{})
				require.NoError(t, err)
				if tt.links {
					links := 0
					for _, tile := range r.Tiles {
						links += len(tile.Links)
					}
					require.Positive(t, links, "the level must get links for the case to mean something")
				}
				mesh, err = r.NavMesh()
				require.NoError(t, err)
				for _, tile := range r.Tiles {
					data = append(data, tile.Data)
				}
			}
			require.NotEmpty(t, data)

			oneByOne, err := navmesh.New(mesh.Params())
			require.NoError(t, err)
			for _, d := range data {
				_, err := oneByOne.AddTile(d.WithOwnPolys(), 0)
				require.NoError(t, err)
			}

			snap, want := mesh.Snapshot(), oneByOne.Snapshot()
			assert.Equal(t, uint64(1), snap.Version(), "one publish")
			assert.Equal(t, uint64(len(data)), want.Version())
			for _, d := range data {
				h := &d.Header
				tile := snap.TileAt(int(h.X), int(h.Y), int(h.Layer))
				require.NotNil(t, tile)
				require.NotEmpty(t, tile.Polys)
				assert.Same(t, &d.Polys[0], &tile.Polys[0], "tile (%d, %d): polygons linked in place", h.X, h.Y)
				other := want.TileAt(int(h.X), int(h.Y), int(h.Layer))
				require.NotNil(t, other)
				assert.Equal(t, polyLinks(other), polyLinks(tile), "tile (%d, %d): links", h.X, h.Y)
			}
		})
	}
}

// polyLinks lists each polygon's links of tile in chain order, without
// their Next indices (which depend on where the links are stored).
func polyLinks(tile *navmesh.Tile) [][]navmesh.Link {
	out := make([][]navmesh.Link, len(tile.Polys))
	for i := range tile.Polys {
		for l := tile.Polys[i].FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
			link := tile.Links[l]
			link.Next = 0
			out[i] = append(out[i], link)
		}
	}
	return out
}
