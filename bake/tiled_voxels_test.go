package bake

import (
	"context"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildTileFromRasterizedSpans bakes every tile of the test levels
// twice, with BuildTile and with BuildTileFrom over the spans RasterizeTile
// gives, sent through the heightfield codec: the tiles are the same byte
// for byte, and so are the tiles without data.
func TestBuildTileFromRasterizedSpans(t *testing.T) {
	for _, level := range []string{"dungeon", "nav_test"} {
		t.Run(level, func(t *testing.T) {
			baker := newTestBaker(t, level)
			tilesX, tilesY := baker.Grid()
			var codec HeightfieldCodec
			var field Heightfield
			var encoded []byte
			withData := 0
			for y := range tilesY {
				for x := range tilesX {
					want, err := baker.BuildTile(context.Background(), x, y)
					require.NoError(t, err)
					near, err := baker.RasterizeTile(x, y, &field)
					require.NoError(t, err)
					if !near {
						assert.Nil(t, want.Data, "tile (%d, %d) without triangles", x, y)
						assert.Zero(t, field.SpanCount())
						continue
					}
					encoded, err = codec.Encode(encoded[:0], &field)
					require.NoError(t, err)
					got, err := baker.BuildTileFrom(context.Background(), x, y, func(hf *Heightfield) error {
						return codec.Decode(encoded, hf)
					})
					require.NoError(t, err)
					assert.Equal(t, want.Fingerprints, got.Fingerprints, "tile (%d, %d)", x, y)
					if want.Data == nil {
						assert.Nil(t, got.Data, "tile (%d, %d)", x, y)
						continue
					}
					withData++
					assertSameTileData(t, want.Data, got.Data)
				}
			}
			assert.Positive(t, withData)
		})
	}
}

func assertSameTileData(t *testing.T, want, got *navmesh.TileData) {
	t.Helper()
	wantFP, err := navmesh.TileDataFingerprint(want)
	require.NoError(t, err)
	gotFP, err := navmesh.TileDataFingerprint(got)
	require.NoError(t, err)
	assert.Equal(t, wantFP, gotFP, "tile (%d, %d)", want.Header.X, want.Header.Y)
}

func TestBuildTileFromErrors(t *testing.T) {
	baker := newTestBaker(t, "dungeon")
	_, err := baker.BuildTileFrom(context.Background(), 0, 0, nil)
	assert.ErrorContains(t, err, "nil fill")
	_, err = baker.BuildTileFrom(context.Background(), -1, 0, func(*Heightfield) error { return nil })
	assert.ErrorIs(t, err, errTileOutOfGrid)
	_, err = baker.BuildTileFrom(context.Background(), 0, 0, func(hf *Heightfield) error {
		return hf.Reset(4, 4, hf.BMin, hf.BMax, hf.CellSize, hf.CellHeight)
	})
	assert.ErrorContains(t, err, "changed the field's grid")
	_, err = baker.RasterizeTile(0, 0, nil)
	assert.Error(t, err)
	_, err = baker.RasterizeTile(99, 0, &Heightfield{})
	assert.ErrorIs(t, err, errTileOutOfGrid)
}

// TestHeadroomRaisesOnlyTheTop bakes dungeon with and without headroom:
// the poly and detail meshes are the same, the tiles differ only in their
// upper bound.
func TestHeadroomRaisesOnlyTheTop(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	plain, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{})
	require.NoError(t, err)
	raised, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Headroom: 30})
	require.NoError(t, err)
	require.Equal(t, len(plain.Tiles), len(raised.Tiles))
	_, plainTop := plain.Baker.Bounds()
	_, raisedTop := raised.Baker.Bounds()
	assert.Equal(t, plainTop[1]+30, raisedTop[1])
	for i, want := range plain.Tiles {
		got := raised.Tiles[i]
		assert.Equal(t, want.Fingerprints.PolyMesh, got.Fingerprints.PolyMesh)
		assert.Equal(t, want.Fingerprints.DetailMesh, got.Fingerprints.DetailMesh)
		assert.Equal(t, want.Data.Header.BMax[1]+30, got.Data.Header.BMax[1])
		header := got.Data.Header
		header.BMax[1] = want.Data.Header.BMax[1]
		assert.Equal(t, want.Data.Header, header)
		assert.Equal(t, want.Data.Polys, got.Data.Polys)
		assert.Equal(t, want.Data.BVTree, got.Data.BVTree)
	}
	_, err = NewTileBaker(g, DefaultSettings(), TiledOptions{Headroom: -1})
	assert.ErrorContains(t, err, "Headroom")
}
