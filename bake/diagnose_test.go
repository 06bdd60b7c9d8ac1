package bake

import (
	"context"
	"testing"

	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// floor returns a square floor of side size at height 0, its two triangles
// wound counter-clockwise seen from above (x right, z down the picture):
// (v1-v0)×(v2-v0) points up.
func floor(size float32) *Geometry {
	return &Geometry{
		Vertices:  []mgl32.Vec3{{0, 0, 0}, {0, 0, size}, {size, 0, size}, {size, 0, 0}},
		Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
	}
}

// floorPair returns two floors of side size, height apart.
func floorPair(size, height float32) *Geometry {
	g := floor(size)
	for i := range 4 {
		g.Vertices = append(g.Vertices, g.Vertices[i].Add(mgl32.Vec3{0, height, 0}))
	}
	g.Triangles = append(g.Triangles, [3]int32{4, 5, 6}, [3]int32{4, 6, 7})
	return g
}

// flipped returns g with every triangle's winding reversed.
func flipped(g *Geometry) *Geometry {
	out := *g
	out.Triangles = nil
	for _, t := range g.Triangles {
		out.Triangles = append(out.Triangles, [3]int32{t[0], t[2], t[1]})
	}
	return &out
}

// zUp returns g with its y and z axes swapped, as a level exported z-up.
func zUp(g *Geometry) *Geometry {
	out := *g
	out.Vertices = nil
	for _, v := range g.Vertices {
		out.Vertices = append(out.Vertices, mgl32.Vec3{v[0], v[2], v[1]})
	}
	return &out
}

// scaled returns g with its vertices multiplied by factor.
func scaled(g *Geometry, factor float32) *Geometry {
	out := *g
	out.Vertices = nil
	for _, v := range g.Vertices {
		out.Vertices = append(out.Vertices, v.Mul(factor))
	}
	return &out
}

func TestFloorWindingDecidesWalkability(t *testing.T) {
	// The rule the docs and the hint state: counter-clockwise seen from
	// above bakes, clockwise does not.
	result, err := Solo(context.Background(), floor(10), DefaultSettings())
	require.NoError(t, err)
	assert.Positive(t, result.PolyMesh.PolyCount)

	_, err = Solo(context.Background(), flipped(floor(10)), DefaultSettings())
	require.ErrorIs(t, err, ErrNoPolygons)
}

func TestNoPolygonsSaysWhatToCheck(t *testing.T) {
	terrain := loadTestMesh(t, "undulating")
	tests := []struct {
		name  string
		level *Geometry
		want  []string
	}{
		{"clockwise faces", flipped(terrain), []string{"bake: solo: no walkable polygons", "5202 triangles, 39 face up and 4841 face down", "wind the wrong way", "reverse the order"}},
		{"z up", zUp(floorPair(10, 3)), []string{"of the level's 4 triangles, 0 are flatter than AgentMaxSlope 45° from +y and 4 from the z axis", "swap y and z"}},
		{"a wall", &Geometry{
			Vertices:  []mgl32.Vec3{{0, 0, 0}, {0, 10, 5}, {10, 10, 5}, {10, 0, 0}},
			Triangles: [][3]int32{{0, 1, 2}, {0, 2, 3}},
		}, []string{"flatter than AgentMaxSlope 45°"}},
		{"in decimetres", scaled(floor(10), 0.1), []string{"2 of the level's 2 triangles are walkable, but nothing is left", "1 × 0 × 1 world units", "check its scale", "AgentRadius 0.6"}},
		{"in kilometres", scaled(terrain, 0.001), []string{"grid 0×0 is empty", "less than a cell of 0.3", "check its scale"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Solo(context.Background(), tt.level, DefaultSettings())
			require.Error(t, err)
			for _, want := range tt.want {
				assert.ErrorContains(t, err, want)
			}
		})
	}
}

func TestTiledBakeOfNothingSaysWhatToCheck(t *testing.T) {
	settings := DefaultSettings()
	settings.TileSize = 32
	r, err := Tiled(context.Background(), flipped(floor(20)), settings, TiledOptions{Workers: 1})
	require.NoError(t, err)
	require.Empty(t, r.Tiles)
	require.Len(t, r.Stats.Warnings, 1)
	assert.Contains(t, r.Stats.Warnings[0], "wind the wrong way")
}

func TestSoloResultNavMesh(t *testing.T) {
	result, err := Solo(context.Background(), loadTestMesh(t, "dungeon"), DefaultSettings())
	require.NoError(t, err)
	mesh, err := result.NavMesh()
	require.NoError(t, err)

	// The mesh holds the one tile, placed as the C++ loads a DNAV tile.
	snap := mesh.Snapshot()
	require.Equal(t, 1, snap.TileCount())
	tile := snap.Tile(0)
	require.NotNil(t, tile)
	assert.Equal(t, result.TileData, tile.Data)
	assert.Equal(t, result.TileData.Header.BMin, mesh.Params().Origin)

	// It answers queries: the nearest polygon to a dungeon floor point.
	q, err := query.New(mesh, 512)
	require.NoError(t, err)
	nearest, err := q.FindNearestPoly(mgl32.Vec3{-9.17, 10.2, -20.34}, mgl32.Vec3{2, 4, 2}, query.NewFilter())
	require.NoError(t, err)
	assert.NotZero(t, nearest.Ref)

	var empty *SoloResult
	_, err = empty.NavMesh()
	assert.Error(t, err)
}
