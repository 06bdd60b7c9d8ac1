package bake

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tiledReference holds what RecastDemo's Sample_TileMesh (tile size 32,
// default settings) produces for a test mesh, per tile and summed.
type tiledReference struct {
	mesh           string
	tilesX, tilesY int
	// tilesWithTriangles counts the tiles some chunk overlaps.
	tilesWithTriangles int
	// Sums over the tiles: triangles looked at, heightfield spans after
	// rasterization, compact spans, walkable spans after erosion, region id
	// bounds, contours.
	triangles, heightfieldSpans, compactSpans, walkableSpans, regions, contours int
	// tilesWithContours counts the tiles that go on to build a poly mesh.
	tilesWithContours int
	// stageHash is FNV-1a over, for every tile with triangles in grid
	// order, x, y, triangles, heightfield spans, compact spans, walkable
	// spans, region bound and contours as little-endian int32.
	stageHash uint64
}

var tiledReferences = []tiledReference{
	{"dungeon", 8, 11, 56, 55728, 86940, 36085, 22085, 339, 59, 41, 0x081286ce2ff92d33},
	{"nav_test", 10, 9, 87, 42496, 206218, 88323, 56975, 595, 155, 66, 0xcd7e1943d40c3484},
	{"undulating", 11, 11, 121, 52669, 185224, 164107, 123425, 750, 144, 121, 0x03cfae03eba32451},
}

func newTestBaker(tb testing.TB, mesh string) *TileBaker {
	tb.Helper()
	g := loadTestMesh(tb, mesh)
	baker, err := NewTileBaker(g, DefaultSettings(), TiledOptions{})
	require.NoError(tb, err)
	return baker
}

// TestTileStagesMatchRecastDemo builds every tile of the test meshes one by
// one and compares the counts of every stage up to the contours with the
// C++ demo, tile by tile (through the hash) and summed.
func TestTileStagesMatchRecastDemo(t *testing.T) {
	for _, ref := range tiledReferences {
		t.Run(ref.mesh, func(t *testing.T) {
			baker := newTestBaker(t, ref.mesh)
			tx, ty := baker.Grid()
			require.Equal(t, [2]int{ref.tilesX, ref.tilesY}, [2]int{tx, ty})

			var got tiledReference
			got.mesh, got.tilesX, got.tilesY = ref.mesh, tx, ty
			h := fnv.New64a()
			for y := range ty {
				for x := range tx {
					tile, err := baker.BuildTile(context.Background(), x, y)
					require.NoError(t, err)
					if tile.Triangles == 0 {
						assert.Zero(t, tile.Stats.Counts)
						continue
					}
					c := tile.Stats.Counts
					got.tilesWithTriangles++
					got.triangles += tile.Triangles
					got.heightfieldSpans += c.HeightfieldSpans
					got.compactSpans += c.CompactSpans
					got.walkableSpans += c.WalkableSpans
					got.regions += c.Regions
					got.contours += c.Contours
					if c.Contours > 0 {
						got.tilesWithContours++
					}
					var buf []byte
					for _, v := range []int{x, y, tile.Triangles, c.HeightfieldSpans, c.CompactSpans, c.WalkableSpans, c.Regions, c.Contours} {
						buf = binary.LittleEndian.AppendUint32(buf, uint32(int32(v)))
					}
					h.Write(buf)
				}
			}
			got.stageHash = h.Sum64()
			assert.Equal(t, ref, got)
		})
	}
}

// TestTileTrianglesInDemoOrder checks the triangles one tile looks at, in
// order, against the C++ demo (dungeon tile (3, 0): 4 chunks, 633
// triangles, FNV-1a over their vertex indices), and that the ones passed to
// the rasterizer are those of them whose box overlaps the tile's field, in
// the same order.
func TestTileTrianglesInDemoOrder(t *testing.T) {
	baker := newTestBaker(t, "dungeon")
	var scratch Baker
	tileMin, tileMax := baker.TileBounds(3, 0)
	cfg, err := baker.settings.TileConfig(tileMin, tileMax)
	require.NoError(t, err)
	triangles, ok := baker.gatherTriangles(&scratch, cfg)
	require.True(t, ok)
	assert.Len(t, scratch.tileChunks, 4)
	assert.Equal(t, 633, triangles)

	h := fnv.New64a()
	var buf []byte
	var overlapping [][3]int32
	for _, chunk := range scratch.tileChunks {
		for _, ti := range baker.chunks.chunkTriangles(chunk) {
			tri := baker.geometry.Triangles[ti]
			buf = buf[:0]
			for _, v := range tri {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
			}
			h.Write(buf)
			v0, v1, v2 := baker.geometry.Vertices[tri[0]], baker.geometry.Vertices[tri[1]], baker.geometry.Vertices[tri[2]]
			if overlapBoxes(geom.Min(geom.Min(v0, v1), v2), geom.Max(geom.Max(v0, v1), v2), cfg.BMin, cfg.BMax) {
				overlapping = append(overlapping, tri)
			}
		}
	}
	assert.Equal(t, uint64(0xfcd8e6b872ec3b24), h.Sum64())
	assert.Len(t, overlapping, 272)
	assert.Equal(t, overlapping, scratch.tileTriangles)
	assert.Len(t, scratch.triangleAreas, 272)
}

// TestTiledMatchesRecastDemoTable bakes the test meshes in tiles of 32 cells
// and compares them with the reference table and with the C++ demo's
// tiles: counts, and the fingerprints chained over the tiles (FNV-1a over
// every tile's poly mesh and detail mesh fingerprint and over every tile's
// DNAV blob, in grid order).
func TestTiledMatchesRecastDemoTable(t *testing.T) {
	tests := []struct {
		mesh                                       string
		tilesWithData, polys, verts, tris, bytes   int
		detailVerts                                int
		polyMeshHash, detailMeshHash, tileDataHash uint64
	}{
		{"dungeon", 41, 143, 398, 344, 32052, 621, 0x209b87fcc9409959, 0x046a5d3347dbd6b1, 0x2b6e853216bd9ccb},
		{"nav_test", 66, 272, 819, 710, 62992, 1215, 0x249d077561e1dcd7, 0x46d2a314a44acc92, 0xce640db3f74ec8d4},
		{"undulating", 121, 357, 884, 3080, 112296, 3168, 0x4f1bd43cbb344f85, 0x103d78eabd950cec, 0x904cf02e19afcd36},
	}
	for _, tt := range tests {
		t.Run(tt.mesh, func(t *testing.T) {
			r, err := Tiled(context.Background(), loadTestMesh(t, tt.mesh), DefaultSettings(), TiledOptions{})
			require.NoError(t, err)
			s := r.Stats
			assert.Equal(t, tt.tilesWithData, s.TilesWithData)
			assert.Len(t, r.Tiles, tt.tilesWithData)
			assert.Equal(t, tt.polys, s.Counts.Polys)
			assert.Equal(t, tt.verts, s.Counts.PolyVerts)
			assert.Equal(t, tt.tris, s.Counts.DetailTris)
			assert.Equal(t, tt.bytes, s.Counts.TileBytes)
			assert.Equal(t, tt.detailVerts, s.Counts.DetailVerts)
			fingerprints, err := r.Fingerprints()
			require.NoError(t, err)
			assert.Equal(t, Fingerprints{tt.polyMeshHash, tt.detailMeshHash, tt.tileDataHash}, fingerprints)
			assert.Empty(t, s.Warnings)

			// Every tile is the tile of its grid cell, with data, in grid order.
			for i, tile := range r.Tiles {
				require.NotNil(t, tile.Data)
				assert.Equal(t, [2]int32{int32(tile.X), int32(tile.Y)}, [2]int32{tile.Data.Header.X, tile.Data.Header.Y})
				if i > 0 {
					prev := r.Tiles[i-1]
					assert.Less(t, prev.Y*s.TilesX+prev.X, tile.Y*s.TilesX+tile.X)
				}
			}
		})
	}
}
