package dynamic

import (
	"context"
	"hash/crc32"
	"sync"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"
)

var levels sync.Map // name → *bake.Geometry

// loadLevel returns a test level of the repository's testdata.
func loadLevel(tb testing.TB, name string) *bake.Geometry {
	tb.Helper()
	if g, ok := levels.Load(name); ok {
		return g.(*bake.Geometry)
	}
	g, err := bake.LoadOBJ("../../testdata/" + name + ".obj")
	require.NoError(tb, err)
	levels.Store(name, g)
	return g
}

// newMesh makes a dynamic mesh of a test level with the default settings.
func newTestMesh(tb testing.TB, level string, opts Options) *Mesh {
	tb.Helper()
	m, err := New(context.Background(), loadLevel(tb, level), bake.DefaultSettings(), opts)
	require.NoError(tb, err)
	return m
}

// tileFingerprints returns the fingerprint of every tile's data in nav,
// by location.
func tileFingerprints(tb testing.TB, nav *navmesh.Mesh) map[[2]int32]uint64 {
	tb.Helper()
	prints := map[[2]int32]uint64{}
	for t := range nav.Snapshot().Tiles() {
		fp, err := navmesh.TileDataFingerprint(t.Data)
		require.NoError(tb, err)
		prints[[2]int32{t.Data.Header.X, t.Data.Header.Y}] = fp
	}
	return prints
}

// bakedFingerprints returns the fingerprint of every tile bake.Tiled
// makes of g, by location.
func bakedFingerprints(tb testing.TB, g *bake.Geometry, opts bake.TiledOptions) map[[2]int32]uint64 {
	tb.Helper()
	result, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), opts)
	require.NoError(tb, err)
	prints := map[[2]int32]uint64{}
	for _, t := range result.Tiles {
		fp, err := navmesh.TileDataFingerprint(t.Data)
		require.NoError(tb, err)
		prints[[2]int32{int32(t.X), int32(t.Y)}] = fp
	}
	return prints
}

// update brings m up to date, failing the test on an error.
func update(tb testing.TB, m *Mesh) {
	tb.Helper()
	for range 10000 {
		done, err := m.Update(budgetAll)
		require.NoError(tb, err)
		if done {
			return
		}
	}
	tb.Fatal("update never finished")
}

// mgl32QuatY returns a turn of radians about +y.
func mgl32QuatY(radians float32) mgl32.Quat { return mgl32.QuatRotate(radians, geom.Vec3{0, 1, 0}) }

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
