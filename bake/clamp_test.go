package bake

import (
	"context"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// twoFloors is a 20 × 20 floor at y = 0 and another at y = high, side by
// side.
func twoFloors(high float32) *Geometry {
	g := &Geometry{}
	for i, y := range []float32{0, high} {
		x := float32(30 * i)
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices,
			mgl32.Vec3{x, y, 0}, mgl32.Vec3{x, y, 20}, mgl32.Vec3{x + 20, y, 20}, mgl32.Vec3{x + 20, y, 0})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	return g
}

// TestSpanHeightClampWarns: a floor more than MaxSpanHeight cells above the
// level's bottom is flattened onto that height, as in Recast, and the bake
// says so, solo and tiled; a level within the range bakes without the
// warning.
func TestSpanHeightClampWarns(t *testing.T) {
	settings := DefaultSettings()
	settings.TileSize = 0

	solo, err := Solo(context.Background(), twoFloors(2000), settings)
	require.NoError(t, err)
	top := float32(0)
	for _, v := range solo.TileData.Verts {
		top = max(top, v[1])
	}
	assert.InDelta(t, float32(MaxSpanHeight)*settings.CellHeight, top, 0.01, "the upper floor is baked at 8191 cells (1638.2), not at 2000")
	require.Len(t, solo.Stats.Warnings, 1)
	warning := solo.Stats.Warnings[0]
	assert.Contains(t, warning, "clamped")
	assert.Contains(t, warning, "8191 cells")
	assert.Contains(t, warning, "1638.2 world units")
	assert.Contains(t, warning, "0.244", "the cell height that bakes 2000 units")

	settings.TileSize = 32
	tiled, err := Tiled(context.Background(), twoFloors(2000), settings, TiledOptions{Workers: 2})
	require.NoError(t, err)
	require.NotEmpty(t, tiled.Stats.Warnings)
	assert.Contains(t, tiled.Stats.Warnings[0], "clamped")

	// With a coarser cell height the same level is baked where it is.
	settings.TileSize = 0
	settings.CellHeight = 0.25
	settings.AgentMaxClimb = 1
	solo, err = Solo(context.Background(), twoFloors(2000), settings)
	require.NoError(t, err)
	assert.Empty(t, solo.Stats.Warnings)
	top = 0
	for _, v := range solo.TileData.Verts {
		top = max(top, v[1])
	}
	assert.InDelta(t, 2000, top, 0.5)

	settings = DefaultSettings()
	settings.TileSize = 0
	solo, err = Solo(context.Background(), twoFloors(1600), settings)
	require.NoError(t, err)
	assert.Empty(t, solo.Stats.Warnings, "1600 is within 8191 cells of 0.2")
}
