package navmesh

import (
	"bytes"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertSameContent checks that two tile data hold the same tile: the same
// C++ blob, which leaves out the polygons' FirstLink (runtime state).
func assertSameContent(t *testing.T, want, got *TileData) {
	t.Helper()
	wantBlob, err := MarshalDNAV(want)
	require.NoError(t, err)
	gotBlob, err := MarshalDNAV(got)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(wantBlob, gotBlob), "tile data differ beyond FirstLink")
}

// polysWithoutLinks returns a copy of polys with every FirstLink zeroed: what
// a Mesh promises to leave unchanged in the data it was given.
func polysWithoutLinks(polys []Poly) []Poly {
	out := append([]Poly(nil), polys...)
	for i := range out {
		out[i].FirstLink = 0
	}
	return out
}

// versionCopy is a deep copy of what a published tile version shows.
type versionCopy struct {
	polys []Poly
	links []Link
	verts []mgl32.Vec3
}

func copyVersions(s *Snapshot) map[TileRef]versionCopy {
	out := map[TileRef]versionCopy{}
	forEachTile(s, func(tile *Tile) {
		out[tile.Ref()] = versionCopy{
			polys: append([]Poly(nil), tile.Polys...),
			links: append([]Link(nil), tile.Links...),
			verts: append([]mgl32.Vec3(nil), tile.Verts...),
		}
	})
	return out
}

// assertVersionsUnchanged checks that every tile version of s still shows
// what was copied from it.
func assertVersionsUnchanged(t *testing.T, s *Snapshot, want map[TileRef]versionCopy) {
	t.Helper()
	require.Equal(t, len(want), s.TileCount())
	forEachTile(s, func(tile *Tile) {
		w := want[tile.Ref()]
		assert.Equal(t, w.polys, tile.Polys, "tile %#x polygons", uint64(tile.Ref()))
		assert.Equal(t, w.links, tile.Links, "tile %#x links", uint64(tile.Ref()))
		assert.Equal(t, w.verts, tile.Verts, "tile %#x vertices", uint64(tile.Ref()))
	})
}

// assertLinkedLike checks that got's tiles have the polygons (first links
// included) and links of want's: the same mesh, whether its tiles use
// their data's polygons in place or copies.
func assertLinkedLike(t *testing.T, want, got *Mesh) {
	t.Helper()
	wantTiles, gotTiles := meshState(want), meshState(got)
	require.Len(t, gotTiles, len(wantTiles))
	for i := range wantTiles {
		assert.Equal(t, wantTiles[i].ref, gotTiles[i].ref, "tile %d ref", i)
		assert.Equal(t, wantTiles[i].polys, gotTiles[i].polys, "tile %d polygons", i)
		assert.Equal(t, wantTiles[i].links, gotTiles[i].links, "tile %d links", i)
	}
}

func claimTestParams() Params {
	return Params{Origin: mgl32.Vec3{0, 0, 0}, TileWidth: 6, TileHeight: 3, MaxTiles: 8, MaxPolys: 16}
}

// batchMesh adds tiles to a new mesh in one Apply.
func batchMesh(t *testing.T, tiles []*TileData) *Mesh {
	t.Helper()
	m, err := New(claimTestParams())
	require.NoError(t, err)
	var b Batch
	for _, data := range tiles {
		b.Add(data, 0)
	}
	_, err = m.Apply(&b, nil)
	require.NoError(t, err)
	return m
}

func TestBatchLoadsLinkDataPolysInPlace(t *testing.T) {
	var file bytes.Buffer
	require.NoError(t, WriteMSET(&file, TileSetFromMesh(batchMesh(t, testTiles(t, 3)))))
	var own bytes.Buffer
	require.NoError(t, Save(&own, batchMesh(t, testTiles(t, 3))))

	tests := []struct {
		name string
		load func(t *testing.T) *Mesh
	}{
		{"Apply", func(t *testing.T) *Mesh { return batchMesh(t, testTiles(t, 3)) }},
		{"ReadMSET", func(t *testing.T) *Mesh {
			set, err := ReadMSET(file.Bytes())
			require.NoError(t, err)
			m, err := set.Mesh()
			require.NoError(t, err)
			return m
		}},
		{"Load", func(t *testing.T) *Mesh {
			m, err := Load(bytes.NewReader(own.Bytes()))
			require.NoError(t, err)
			return m
		}},
		{"LoadFile DNAV", func(t *testing.T) *Mesh {
			m, _, err := LoadFile(dungeonTilePath)
			require.NoError(t, err)
			return m
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.load(t)
			require.Positive(t, m.TileCount())
			forEachTile(m.Snapshot(), func(tile *Tile) {
				assert.True(t, tile.usesDataPolys(), "tile %#x uses a copy", uint64(tile.Ref()))
			})
		})
	}
	// The same mesh as tiles linked in copies (tiles added by hand).
	handMade := make([]*TileData, 3)
	for i, data := range testTiles(t, 3) {
		copied := *data
		copied.polysClaim = nil
		handMade[i] = &copied
	}
	copies := batchMesh(t, handMade)
	forEachTile(copies.Snapshot(), func(tile *Tile) {
		assert.False(t, tile.usesDataPolys(), "tile %#x of hand-made data", uint64(tile.Ref()))
	})
	assertLinkedLike(t, copies, batchMesh(t, testTiles(t, 3)))
}

// TestClaimedDataKeepsAllButFirstLink makes every kind of change to a mesh
// whose tiles use their data's polygons in place and checks that the data
// keeps its content (the blob, fingerprint and polygons but for FirstLink)
// and that no published version changes.
func TestClaimedDataKeepsAllButFirstLink(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, m *Mesh, tiles []*TileData)
	}{
		{"SetPolyFlags", func(t *testing.T, m *Mesh, _ []*TileData) {
			require.NoError(t, m.SetPolyFlags(m.Tile(0).PolyRefBase()|1, 0x40))
		}},
		{"SetPolyArea", func(t *testing.T, m *Mesh, _ []*TileData) {
			require.NoError(t, m.SetPolyArea(m.Tile(1).PolyRefBase()|0, 17))
		}},
		{"neighbour added", func(t *testing.T, m *Mesh, _ []*TileData) {
			_, err := m.AddTile(testTiles(t, 4)[3], 0)
			require.NoError(t, err)
		}},
		{"RemoveTile and add again", func(t *testing.T, m *Mesh, tiles []*TileData) {
			ref := m.TileAt(1, 0, 0).Ref()
			removed, err := m.RemoveTile(ref)
			require.NoError(t, err)
			require.Same(t, tiles[1], removed)
			readded, err := m.AddTile(removed, ref)
			require.NoError(t, err)
			assert.False(t, m.TileByRef(readded).usesDataPolys(), "data added again while old snapshots use it")
		}},
		{"added to a second mesh", func(t *testing.T, _ *Mesh, tiles []*TileData) {
			second := batchMesh(t, tiles)
			forEachTile(second.Snapshot(), func(tile *Tile) {
				assert.False(t, tile.usesDataPolys(), "tile %#x shares the first mesh's polygons", uint64(tile.Ref()))
			})
			assertLinkedLike(t, batchMesh(t, testTiles(t, 3)), second)
		}},
		{"copy of the struct added to a second mesh", func(t *testing.T, _ *Mesh, tiles []*TileData) {
			copied := make([]*TileData, len(tiles))
			for i, data := range tiles {
				shallow := *data
				copied[i] = &shallow
			}
			second := batchMesh(t, copied)
			forEachTile(second.Snapshot(), func(tile *Tile) {
				assert.False(t, tile.usesDataPolys(), "tile %#x shares the first mesh's polygons", uint64(tile.Ref()))
			})
			assertLinkedLike(t, batchMesh(t, testTiles(t, 3)), second)
		}},
		{"state saved with edits and restored", func(t *testing.T, m *Mesh, _ []*TileData) {
			require.NoError(t, m.SetPolyFlags(m.Tile(2).PolyRefBase()|0, 0x20))
			var state MeshState
			m.CaptureState(&state)
			blob, err := state.AppendBinary(nil)
			require.NoError(t, err)
			var decoded MeshState
			require.NoError(t, decoded.UnmarshalBinary(blob))
			forEachTile(decoded.Snapshot(), func(tile *Tile) {
				edited := tile.Index() == 2
				assert.Equal(t, !edited, tile.usesDataPolys(), "tile %d", tile.Index())
				for i := range tile.Polys {
					if edited && i == 0 {
						assert.Equal(t, uint16(0x20), tile.Polys[i].Flags)
						assert.NotEqual(t, uint16(0x20), tile.Data.Polys[i].Flags, "restored flags went into the data")
					}
				}
			})
			restored, err := New(m.Params())
			require.NoError(t, err)
			require.NoError(t, restored.RestoreState(&decoded))
			assertLinkedLike(t, m, restored)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tiles := testTiles(t, 3)
			wantPolys := make([][]Poly, len(tiles))
			wantFingerprints := make([]uint64, len(tiles))
			for i, data := range tiles {
				wantPolys[i] = polysWithoutLinks(data.Polys)
				var err error
				wantFingerprints[i], err = TileDataFingerprint(data)
				require.NoError(t, err)
			}
			m := batchMesh(t, tiles)
			before := m.Snapshot()
			published := copyVersions(before)

			tt.change(t, m, tiles)

			assertVersionsUnchanged(t, before, published)
			for i, data := range tiles {
				assert.Equal(t, wantPolys[i], polysWithoutLinks(data.Polys), "tile %d data polygons", i)
				fingerprint, err := TileDataFingerprint(data)
				require.NoError(t, err)
				assert.Equal(t, wantFingerprints[i], fingerprint, "tile %d fingerprint", i)
			}
		})
	}
}

func TestAbandonedEditGivesBackItsClaims(t *testing.T) {
	tiles := testTiles(t, 2)
	m, err := New(claimTestParams())
	require.NoError(t, err)
	var b Batch
	b.Add(tiles[0], 0)
	b.Add(tiles[1], 0)
	b.Add(tiles[1], 0) // the same location again: the batch fails
	_, err = m.Apply(&b, nil)
	require.ErrorIs(t, err, ErrTileExists)
	assert.Zero(t, m.TileCount())

	loaded := batchMesh(t, tiles)
	forEachTile(loaded.Snapshot(), func(tile *Tile) {
		assert.True(t, tile.usesDataPolys(), "tile %#x: the failed batch kept its claim", uint64(tile.Ref()))
	})
	assertLinkedLike(t, batchMesh(t, testTiles(t, 2)), loaded)
}

// TestSharedTileDataRace adds the same tile data to several meshes at once
// while readers walk their snapshots and save them; run with -race.
func TestSharedTileDataRace(t *testing.T) {
	const meshes = 4
	tiles := testTiles(t, 3)
	want := batchMesh(t, testTiles(t, 3))
	built := make([]*Mesh, meshes)
	var wg sync.WaitGroup
	for i := range built {
		m, err := New(claimTestParams())
		require.NoError(t, err)
		built[i] = m
		wg.Add(2)
		go func() {
			defer wg.Done()
			for _, data := range tiles {
				if _, err := m.AddTile(data, 0); err != nil {
					t.Error(err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 50 {
				var file bytes.Buffer
				if err := WriteMSET(&file, TileSetFromMesh(m)); err != nil {
					t.Error(err)
				}
				for _, data := range tiles {
					if _, err := TileDataFingerprint(data); err != nil {
						t.Error(err)
					}
				}
				forEachTile(m.Snapshot(), func(tile *Tile) {
					for ip := range tile.Polys {
						for l := tile.Polys[ip].FirstLink; l != NullLink; l = tile.Links[l].Next {
							_ = tile.Links[l].Ref
						}
					}
				})
			}
		}()
	}
	wg.Wait()
	claimed := 0
	for _, m := range built {
		forEachTile(m.Snapshot(), func(tile *Tile) {
			if tile.usesDataPolys() {
				claimed++
			}
		})
		assertLinkedLike(t, want, m)
	}
	assert.LessOrEqual(t, claimed, len(tiles), "one tile at most uses each data's polygons")
}
