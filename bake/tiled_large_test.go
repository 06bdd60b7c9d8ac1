package bake

import (
	"context"
	"runtime"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stackedFloors returns square floors of side size stacked gap apart, each
// two triangles wound to face up.
func stackedFloors(size, gap float32, floors int) *Geometry {
	g := &Geometry{}
	for f := range floors {
		y := float32(f) * gap
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices,
			mgl32.Vec3{0, y, 0}, mgl32.Vec3{size, y, 0}, mgl32.Vec3{size, y, size}, mgl32.Vec3{0, y, size})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 2, base + 1}, [3]int32{base, base + 3, base + 2})
	}
	return g
}

// TestTiledLargeLevel bakes a level whose walkable surface has more than
// 2^24 spans: two floors of a square kilometre, 3334×3334 cells each. The
// C++ solo bake of such a level fails silently (its compact heightfield
// indexes spans with 24 bits); tiled, each tile holds a few thousand spans.
func TestTiledLargeLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes 22 million spans")
	}
	g := stackedFloors(1000, 3, 2)
	settings := DefaultSettings()
	settings.TileSize = 128
	r, err := Tiled(context.Background(), g, settings, TiledOptions{Workers: runtime.GOMAXPROCS(0)})
	require.NoError(t, err)

	width, height := CalcGridSize(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1000, 3, 1000}, settings.CellSize)
	require.Equal(t, [2]int{3333, 3333}, [2]int{width, height})
	assert.Greater(t, 2*width*height, 1<<24)
	assert.Equal(t, [2]int{27, 27}, [2]int{r.Stats.TilesX, r.Stats.TilesY})
	assert.Equal(t, 27*27, r.Stats.TilesWithData)
	t.Logf("%+v wall %v stages %v", r.Stats.Counts, r.Stats.Wall, r.Stats.StageTimes)
}
