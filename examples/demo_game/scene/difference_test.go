package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
)

// TestMeshDifferenceHatchesWhereOnlyTheSmallMeshIs bakes the dungeon for
// the demo's two types and draws their difference: the tower's top floor,
// which only the small mesh has, is hatched; the band along the walls that
// the large mesh's wider erosion leaves is not, nor the middle of a room;
// a mesh minus itself hatches nothing.
func TestMeshDifferenceHatchesWhereOnlyTheSmallMeshIs(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	lvl, err := level.Load("", level.Options{Types: level.DefaultTypes()})
	require.NoError(t, err)
	small, err := NewNavmeshLayer(lvl.Types[0].Mesh)
	require.NoError(t, err)
	large, err := NewNavmeshLayer(lvl.Types[1].Mesh)
	require.NoError(t, err)
	difference, err := NewMeshDifference(small, large, 2*(1.8-0.6)+1.2)
	require.NoError(t, err)

	canvas := render.NewRaster(800, 1000)
	view := Fit(small.Min, small.Max, 800, 1000, 8)
	canvas.Clear(Background)
	difference.Draw(canvas, view)
	assert.Positive(t, countPixels(canvas, SmallOnlyHatch), "hatch lines drawn")
	marked := func(p geom.Vec3) bool {
		s := view.ToScreen(p)
		return difference.marked[int(s.Y)*800+int(s.X)]
	}
	assert.True(t, marked(geom.Vec3{20.1, 19.25, -80.8}), "the tower's top floor")
	assert.False(t, marked(geom.Vec3{42.7, 10.2, 4.4}), "the middle of the east room")

	// 0.3 m inside every long wall of the small mesh outside the tower
	// (z > -70), next to the large mesh (within 1.8 m): in the band the
	// large mesh lacks, not hatched.
	q, err := query.New(lvl.Types[0].Mesh, 64)
	require.NoError(t, err)
	qLarge, err := query.New(lvl.Types[1].Mesh, 64)
	require.NoError(t, err)
	band, hatched := 0, 0
	for _, w := range small.walls {
		if geom.Dist2D(w.a, w.b) < 4 {
			continue
		}
		middle := geom.Lerp(w.a, w.b, 0.5)
		if middle[2] < -70 {
			continue // the tower, where the ramp narrows
		}
		along := geom.Normalize(geom.Sub(w.b, w.a))
		for _, side := range []float32{-0.3, 0.3} {
			p := geom.Add(middle, geom.Vec3{-along[2] * side, 0, along[0] * side})
			nearest, err := q.FindNearestPoly(p, geom.Vec3{0.05, 0.5, 0.05}, query.NewFilter())
			require.NoError(t, err)
			if nearest.Ref == 0 || geom.Dist2D(nearest.Point, p) > 0.01 {
				continue // the wall's outer side
			}
			if nearest, err = qLarge.FindNearestPoly(p, geom.Vec3{1.8, 1, 1.8}, query.NewFilter()); err != nil || nearest.Ref == 0 || geom.Dist2D(nearest.Point, p) > 1.8 {
				continue // no large mesh near: a place only the small agents get to
			}
			band++
			if marked(p) {
				hatched++
			}
		}
	}
	require.Greater(t, band, 20)
	assert.Zero(t, hatched, "%d of %d points of the band along the walls hatched", hatched, band)

	same, err := NewMeshDifference(small, small, 1)
	require.NoError(t, err)
	same.Draw(canvas, view)
	assert.Zero(t, same.Pixels())

	_, err = NewMeshDifference(small, nil, 1)
	assert.Error(t, err)
	_, err = NewMeshDifference(small, large, 0)
	assert.Error(t, err)
}

func countPixels(r *render.Raster, c interface{ RGBA() (r, g, b, a uint32) }) int {
	want := r.Image().ColorModel().Convert(c)
	n := 0
	img := r.Image()
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			if img.At(x, y) == want {
				n++
			}
		}
	}
	return n
}

// BenchmarkMeshDifference computes the demo's hatching once, as it does
// whenever the tile cache changes a mesh: both meshes filled into masks at
// the GIF's size (478×660), two distance fields and the hatch lines.
func BenchmarkMeshDifference(b *testing.B) {
	lvl, err := level.Load("", level.Options{Types: level.DefaultTypes()})
	require.NoError(b, err)
	small, err := NewNavmeshLayer(lvl.Types[0].Mesh)
	require.NoError(b, err)
	large, err := NewNavmeshLayer(lvl.Types[1].Mesh)
	require.NoError(b, err)
	difference, err := NewMeshDifference(small, large, 2*(1.8-0.6)+1.2)
	require.NoError(b, err)
	canvas := render.NewRaster(478, 660)
	view := Fit(small.Min, small.Max, 478, 660, 8)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		difference.compute(478, 660, view)
	}
	_ = canvas
}
