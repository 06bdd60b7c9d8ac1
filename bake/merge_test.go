package bake

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quarters splits a tilesX × tilesY grid into four ranges.
func quarters(tilesX, tilesY int) []TileRange {
	midX, midY := tilesX/2, tilesY/2
	return []TileRange{
		{MinX: 0, MinY: 0, MaxX: midX - 1, MaxY: midY - 1},
		{MinX: midX, MinY: 0, MaxX: tilesX - 1, MaxY: midY - 1},
		{MinX: 0, MinY: midY, MaxX: midX - 1, MaxY: tilesY - 1},
		{MinX: midX, MinY: midY, MaxX: tilesX - 1, MaxY: tilesY - 1},
	}
}

// rangeMeshes bakes each range of g and returns their meshes.
func rangeMeshes(t *testing.T, g *Geometry, settings Settings, ranges []TileRange) []*navmesh.Mesh {
	t.Helper()
	var meshes []*navmesh.Mesh
	for _, area := range ranges {
		r, err := Tiled(context.Background(), g, settings, TiledOptions{Workers: 2, Tiles: &area})
		require.NoError(t, err)
		assert.Equal(t, area, r.Stats.Range)
		for _, tile := range r.Tiles {
			assert.True(t, area.Contains(tile.X, tile.Y), "tile (%d, %d) outside %v", tile.X, tile.Y, area)
		}
		m, err := r.NavMesh()
		require.NoError(t, err)
		meshes = append(meshes, m)
	}
	return meshes
}

// saveBoth returns the mesh's file in the archenav format and as an MSET
// tile set.
func saveBoth(t *testing.T, m *navmesh.Mesh) (own, mset []byte) {
	t.Helper()
	var a, b bytes.Buffer
	require.NoError(t, navmesh.Save(&a, m))
	require.NoError(t, navmesh.WriteMSET(&b, navmesh.TileSetFromMesh(m)))
	return a.Bytes(), b.Bytes()
}

// TestRangeBakesMergeToTheWholeBake bakes each level in four quarters and
// merges them (in any order): the files are the whole bake's, byte for
// byte, in both formats, and so are those of a merge of the files read
// back.
func TestRangeBakesMergeToTheWholeBake(t *testing.T) {
	for _, level := range []string{"dungeon", "nav_test"} {
		t.Run(level, func(t *testing.T) {
			g := loadTestMesh(t, level)
			whole, err := Tiled(context.Background(), g, DefaultSettings(), TiledOptions{Workers: 2})
			require.NoError(t, err)
			wholeMesh, err := whole.NavMesh()
			require.NoError(t, err)
			wantOwn, wantMSET := saveBoth(t, wholeMesh)

			meshes := rangeMeshes(t, g, DefaultSettings(), quarters(whole.Baker.Grid()))
			merged, err := MergeNavMeshes(meshes[3], meshes[1], meshes[0], meshes[2])
			require.NoError(t, err)
			own, mset := saveBoth(t, merged)
			assert.Equal(t, wantOwn, own)
			assert.Equal(t, wantMSET, mset)

			// Through the files, MSET and own mixed.
			var reread []*navmesh.Mesh
			for i, m := range meshes {
				own, mset := saveBoth(t, m)
				file := own
				if i%2 == 1 {
					file = mset
				}
				back, _, err := navmesh.LoadBytes(file)
				require.NoError(t, err)
				reread = append(reread, back)
			}
			merged, err = MergeNavMeshes(reread...)
			require.NoError(t, err)
			own, _ = saveBoth(t, merged)
			assert.Equal(t, wantOwn, own)
		})
	}
}

// TestTileCacheRangesCoverTheWholeBake: the layers of four range bakes,
// put in grid order, are the whole bake's, with its layer hash.
func TestTileCacheRangesCoverTheWholeBake(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	whole, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: 2})
	require.NoError(t, err)
	byTile := map[[2]int]*TileLayers{}
	for _, area := range quarters(whole.Baker.Grid()) {
		part, err := TileCache(context.Background(), g, tileCacheSettings(), TileCacheOptions{Workers: 2, Tiles: &area})
		require.NoError(t, err)
		assert.Equal(t, whole.Params(), part.Params())
		assert.Equal(t, whole.NavMeshParams(), part.NavMeshParams())
		for _, tile := range part.Tiles {
			byTile[[2]int{tile.X, tile.Y}] = tile
		}
	}
	require.Len(t, byTile, len(whole.Tiles))
	for _, tile := range whole.Tiles {
		assert.Equal(t, tile.Layers, byTile[[2]int{tile.X, tile.Y}].Layers)
	}
}

// TestMergeRefusesBakesThatDoNotFit: bakes of another origin, tile size,
// cell size or agent, and overlapping ranges, are refused with an error
// naming both inputs.
func TestMergeRefusesBakesThatDoNotFit(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	settings := DefaultSettings()
	left := TileRange{MinX: 0, MinY: 0, MaxX: 3, MaxY: 10}
	right := TileRange{MinX: 4, MinY: 0, MaxX: 7, MaxY: 10}
	base := rangeMeshes(t, g, settings, []TileRange{left})[0]

	moved := *g
	moved.Vertices = make([]mgl32.Vec3, len(g.Vertices))
	for i, v := range g.Vertices {
		moved.Vertices[i] = v.Add(mgl32.Vec3{0.5, 0, 0})
	}
	otherTiles := settings
	otherTiles.TileSize = 40
	otherCells := settings
	otherCells.CellSize = 0.25
	otherAgent := settings
	otherAgent.AgentRadius = 0.9

	tests := []struct {
		name  string
		other *navmesh.Mesh
		want  string
	}{
		{"origin", rangeMeshes(t, &moved, settings, []TileRange{right})[0], "origin"},
		{"tile size", rangeMeshes(t, g, otherTiles, []TileRange{{MinX: 4, MaxX: 5, MaxY: 8}})[0], "tiles 12 × 12 differ from 9.6 × 9.6 of input 0"},
		{"cell size", rangeMeshes(t, g, otherCells, []TileRange{{MinX: 4, MaxX: 7, MaxY: 10}})[0], "tiles 8 × 8 differ from 9.6 × 9.6 of input 0"},
		{"agent", rangeMeshes(t, g, otherAgent, []TileRange{right})[0], "was baked for agents 2 high, 0.9 in radius, climbing 0.9, tile (3, 0) for 2, 0.6, 0.9 in input 0"},
		{"overlap", rangeMeshes(t, g, settings, []TileRange{{MinX: 3, MinY: 0, MaxX: 4, MaxY: 10}})[0], "holds tile (3, 0, layer 0), as does input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			merged, err := MergeNavMeshes(base, tt.other)
			require.ErrorIs(t, err, ErrIncompatibleBakes)
			assert.Nil(t, merged)
			assert.ErrorContains(t, err, tt.want)
			var mergeErr *MergeError
			require.True(t, errors.As(err, &mergeErr))
			assert.ElementsMatch(t, []int{0, 1}, []int{mergeErr.Input, mergeErr.Other})
		})
	}

	// Cells of another size with the same tile size in world units.
	sameWorld := settings
	sameWorld.CellSize = 0.4
	sameWorld.TileSize = 24
	other := rangeMeshes(t, g, sameWorld, []TileRange{{MinX: 4, MaxX: 7, MaxY: 10}})[0]
	_, err := MergeNavMeshes(base, other)
	assert.ErrorIs(t, err, ErrIncompatibleBakes)
	assert.ErrorContains(t, err, "input 1: tile (4, 0) was baked with cells 0.4 wide, tile (3, 0) with 0.3 in input 0")

	_, err = MergeNavMeshes()
	assert.Error(t, err)
	_, err = MergeNavMeshes(base, nil)
	assert.ErrorContains(t, err, "input 1: nil mesh")
}
