package bake

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// soloReference holds the recastnavigation 1.6.0 figures of a solo bake with
// RecastDemo's default settings.
type soloReference struct {
	mesh                                                         string
	heightfieldSpans, compactSpans, walkableSpans                int
	regions, contours, polyVerts, polys, detailVerts, detailTris int
	tileBytes                                                    int
	fingerprints                                                 Fingerprints
}

var soloReferences = []soloReference{
	{"dungeon", 52106, 23569, 17500, 16, 15, 223, 118, 513, 291, 19064,
		Fingerprints{PolyMesh: 0xb610cb7db5148d78, DetailMesh: 0x9daa27fc585abb5e, TileData: 0x9acbed5cd350892d}},
	{"nav_test", 120183, 56795, 45117, 48, 47, 349, 155, 812, 561, 28056,
		Fingerprints{PolyMesh: 0x9b663514e2baef8e, DetailMesh: 0x1f075631ff20f3df, TileData: 0xe8bf2566e9f8bd5e}},
	{"undulating", 108710, 105795, 97773, 42, 41, 374, 216, 2805, 3198, 67456,
		Fingerprints{PolyMesh: 0xc039b46c5944b82c, DetailMesh: 0x4c6cb229650aa467, TileData: 0x7d5b8435c56c980b}},
}

func TestSoloMatchesRecast(t *testing.T) {
	for _, ref := range soloReferences {
		t.Run(ref.mesh, func(t *testing.T) {
			g := loadTestMesh(t, ref.mesh)
			result, err := Solo(context.Background(), g, DefaultSettings())
			require.NoError(t, err)

			c := result.Stats.Counts
			assert.Equal(t, ref.heightfieldSpans, c.HeightfieldSpans, "heightfield spans")
			assert.Equal(t, ref.compactSpans, c.CompactSpans, "compact spans")
			assert.Equal(t, ref.walkableSpans, c.WalkableSpans, "walkable spans")
			assert.Equal(t, ref.regions, c.Regions, "regions")
			assert.Equal(t, ref.contours, c.Contours, "contours")
			assert.Equal(t, ref.polyVerts, c.PolyVerts, "poly verts")
			assert.Equal(t, ref.polys, c.Polys, "polys")
			assert.Equal(t, ref.detailVerts, c.DetailVerts, "detail verts")
			assert.Equal(t, ref.detailTris, c.DetailTris, "detail tris")
			assert.Equal(t, ref.tileBytes, c.TileBytes, "tile bytes")
			assert.Equal(t, ref.fingerprints, result.Fingerprints)
			assert.Empty(t, result.Stats.Warnings)
			for stage := Stage(0); stage < NumStages; stage++ {
				if stage == StageDistanceField || stage == StageRegions || stage == StageErode {
					continue // may round to nothing on a fast machine
				}
				if stage == StageLinks || stage == StageLayers {
					assert.Zero(t, result.Stats.StageTimes[stage], "links are off and no tile cache stage runs")
					continue
				}
				assert.Positive(t, result.Stats.StageTimes[stage], "%s time", stage)
			}

			for i, area := range result.PolyMesh.Areas {
				require.Equal(t, DemoAreaGround, area, "polygon %d area", i)
				require.Equal(t, DemoFlagWalk, result.PolyMesh.Flags[i], "polygon %d flags", i)
			}
			assert.Equal(t, int32(ref.polys), result.TileData.Header.PolyCount)
			assert.Nil(t, result.CompactHeightfield)
			assert.Nil(t, result.Contours)
		})
	}
}

func TestSoloDungeonTileIsTheRecastTile(t *testing.T) {
	want, err := os.ReadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	result, err := Solo(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), WithIntermediates())
	require.NoError(t, err)
	var blob bytes.Buffer
	require.NoError(t, navmesh.WriteDNAV(&blob, result.TileData))
	require.Equal(t, len(want), blob.Len())
	assert.True(t, bytes.Equal(want, blob.Bytes()), "the DNAV blob differs from the C++ tile")
	assert.NotNil(t, result.CompactHeightfield)
	assert.NotNil(t, result.Contours)
}

func TestSoloPartitions(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	for _, partition := range []PartitionType{PartitionMonotone, PartitionLayers} {
		t.Run(partition.String(), func(t *testing.T) {
			settings := DefaultSettings()
			settings.Partition = partition
			result, err := Solo(context.Background(), g, settings)
			require.NoError(t, err)
			c := result.Stats.Counts
			assert.Equal(t, 17500, c.WalkableSpans, "the partition does not change the stages before it")
			assert.Positive(t, c.Regions)
			assert.Positive(t, c.Polys)
			assert.Equal(t, c.Polys, int(result.TileData.Header.PolyCount))
			assert.Zero(t, result.Stats.StageTimes[StageDistanceField], "only watershed builds a distance field")
			assert.NotEqual(t, uint64(0xb610cb7db5148d78), result.Fingerprints.PolyMesh)
		})
	}
}

func TestSoloStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Solo(ctx, loadTestMesh(t, "dungeon"), DefaultSettings())
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSoloAreaFlagsOption(t *testing.T) {
	result, err := Solo(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), WithAreaFlags(func(area uint8) (uint8, uint16) {
		return 7, 0x42
	}))
	require.NoError(t, err)
	for i := range result.TileData.Polys {
		p := &result.TileData.Polys[i]
		require.Equal(t, uint8(7), p.Area())
		require.Equal(t, uint16(0x42), p.Flags)
	}
	assert.Equal(t, uint64(0xb610cb7db5148d78), result.Fingerprints.PolyMesh, "the poly mesh fingerprint is taken before the mapping")
	assert.NotEqual(t, uint64(0x9acbed5cd350892d), result.Fingerprints.TileData)

	_, err = Solo(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings(), WithAreaFlags(func(uint8) (uint8, uint16) { return 64, 0 }))
	assert.ErrorContains(t, err, "area 64")
}

func TestSoloErrors(t *testing.T) {
	_, err := Solo(context.Background(), nil, DefaultSettings())
	assert.Error(t, err)

	bad := DefaultSettings()
	bad.CellSize = 0
	_, err = Solo(context.Background(), loadTestMesh(t, "dungeon"), bad)
	assert.ErrorContains(t, err, "CellSize")

	// A 63° slope has nothing to walk on.
	wall := &Geometry{
		Vertices:  []mgl32.Vec3{{0, 0, 0}, {0, 10, 5}, {10, 10, 5}, {10, 0, 0}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
	_, err = Solo(context.Background(), wall, DefaultSettings())
	assert.ErrorIs(t, err, ErrNoPolygons)
}

func TestRecastDemoAreaFlags(t *testing.T) {
	tests := []struct {
		area     uint8
		wantArea uint8
		flags    uint16
	}{
		{WalkableArea, DemoAreaGround, DemoFlagWalk},
		{DemoAreaGround, DemoAreaGround, DemoFlagWalk},
		{DemoAreaGrass, DemoAreaGrass, DemoFlagWalk},
		{DemoAreaRoad, DemoAreaRoad, DemoFlagWalk},
		{DemoAreaWater, DemoAreaWater, DemoFlagSwim},
		{DemoAreaDoor, DemoAreaDoor, DemoFlagWalk | DemoFlagDoor},
		{DemoAreaJump, DemoAreaJump, 0},
		{42, 42, 0},
	}
	for _, tt := range tests {
		area, flags := RecastDemoAreaFlags(tt.area)
		assert.Equal(t, tt.wantArea, area, "area %d", tt.area)
		assert.Equal(t, tt.flags, flags, "area %d", tt.area)
	}
}
