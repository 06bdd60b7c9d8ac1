package raster

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
)

var update = flag.Bool("update", false, "rewrite the golden images")

var (
	black  = color.NRGBA{0, 0, 0, 255}
	blue   = color.NRGBA{40, 120, 220, 255}
	orange = color.NRGBA{255, 140, 0, 160}
	white  = color.NRGBA{255, 255, 255, 255}
	red    = color.NRGBA{220, 30, 30, 255}
)

// twoFloors draws a lower floor (opaque, 0..8 × 0..6 at height 0) with a
// wall outline, an upper floor (translucent, over half of it at height 2)
// with its own outline, a few points and a circle.
func twoFloors(d debugdraw.Drawer) {
	debugdraw.Quad(d, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{8, 0, 0}, mgl32.Vec3{8, 0, 6}, mgl32.Vec3{0, 0, 6}, blue)
	outline(d, 0, 0, 0, 8, 6, black)
	debugdraw.Quad(d, mgl32.Vec3{4, 2, 1}, mgl32.Vec3{9, 2, 1}, mgl32.Vec3{9, 2, 5}, mgl32.Vec3{4, 2, 5}, orange)
	outline(d, 4, 2, 1, 9, 5, white)
	for _, p := range []mgl32.Vec3{{1, 0, 1}, {6, 0, 3}, {6, 2, 3}} {
		d.Point(p, 4, red)
	}
	debugdraw.Circle(d, mgl32.Vec3{2, 0, 4}, 1.2, 1, white)
}

func outline(d debugdraw.Drawer, x0, y, z0, x1, z1 float32, c color.NRGBA) {
	corners := []mgl32.Vec3{{x0, y, z0}, {x1, y, z0}, {x1, y, z1}, {x0, y, z1}}
	for i := range corners {
		d.Line(corners[i], corners[(i+1)%4], 2, c)
	}
}

var sceneMin, sceneMax = mgl32.Vec3{0, 0, 0}, mgl32.Vec3{9, 2, 6}

// compareGolden checks img against testdata/name: at most 0.5 % of the
// pixels may differ by more than 8 in a channel (float rounding may move an
// edge by a pixel on another machine). With -update it writes the file.
func compareGolden(t *testing.T, name string, img image.Image) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
		return
	}
	f, err := os.Open(path)
	require.NoError(t, err, "run go test -update to make the golden images")
	defer f.Close()
	want, err := png.Decode(f)
	require.NoError(t, err)
	require.Equal(t, want.Bounds(), img.Bounds())
	differing := 0
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			w := color.NRGBAModel.Convert(want.At(x, y)).(color.NRGBA)
			g := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if channelDistance(w, g) > 8 {
				differing++
			}
		}
	}
	assert.LessOrEqual(t, differing, b.Dx()*b.Dy()/200, "%s: %d pixels differ from the golden image", name, differing)
}

func channelDistance(a, b color.NRGBA) int {
	d := 0
	for _, pair := range [][2]uint8{{a.R, b.R}, {a.G, b.G}, {a.B, b.B}, {a.A, b.A}} {
		d = max(d, int(math.Abs(float64(pair[0])-float64(pair[1]))))
	}
	return d
}

func TestGoldenImages(t *testing.T) {
	tests := []struct {
		name    string
		view    debugdraw.View
		samples int
	}{
		{"top.png", debugdraw.TopView(sceneMin, sceneMax, 96, 64, 4), 1},
		{"iso.png", debugdraw.IsoView(sceneMin, sceneMax, 96, 64, 4), 1},
		{"iso_smooth.png", debugdraw.IsoView(sceneMin, sceneMax, 96, 64, 4), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := New(tt.view, Options{Samples: tt.samples})
			require.NoError(t, err)
			c.Clear(color.NRGBA{30, 30, 36, 255})
			twoFloors(c)
			compareGolden(t, tt.name, c.Image())
		})
	}
}

// at returns pixel x, y of the canvas as straight colour.
func at(c *Canvas, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(c.Image().At(x, y)).(color.NRGBA)
}

func TestUpperFloorCoversLowerFromAbove(t *testing.T) {
	// Opaque floors: from above the upper one shows whichever is drawn
	// first; its outline shows over it, the lower floor's outline under it
	// does not.
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 2, 10}, 100, 100, 0)
	for _, upperFirst := range []bool{true, false} {
		c, err := New(view, Options{})
		require.NoError(t, err)
		lower := func() {
			debugdraw.Quad(c, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{10, 0, 10}, mgl32.Vec3{0, 0, 10}, blue)
			c.Line(mgl32.Vec3{0, 0, 5}, mgl32.Vec3{10, 0, 5}, 3, black)
		}
		upper := func() {
			debugdraw.Quad(c, mgl32.Vec3{2, 2, 2}, mgl32.Vec3{8, 2, 2}, mgl32.Vec3{8, 2, 8}, mgl32.Vec3{2, 2, 8}, red)
			c.Line(mgl32.Vec3{5, 2, 2}, mgl32.Vec3{5, 2, 8}, 3, white)
		}
		if upperFirst {
			upper()
			lower()
		} else {
			lower()
			upper()
		}
		assert.Equal(t, red, at(c, 30, 30), "upper first %v: the upper floor", upperFirst)
		assert.Equal(t, blue, at(c, 10, 10), "the lower floor beside it")
		assert.Equal(t, black, at(c, 10, 50), "the lower floor's edge where it is open")
		assert.Equal(t, red, at(c, 30, 50), "the lower floor's edge hidden under the upper floor")
		assert.Equal(t, white, at(c, 50, 30), "the upper floor's edge over it")
	}
}

func TestSharedEdgesBlendOnce(t *testing.T) {
	// A translucent fan of triangles: every covered pixel is blended exactly
	// once, so the fan shows one colour without seams.
	view := debugdraw.TopView(mgl32.Vec3{-1, 0, -1}, mgl32.Vec3{1, 0, 1}, 64, 64, 2)
	c, err := New(view, Options{})
	require.NoError(t, err)
	c.Clear(black)
	debugdraw.Disc(c, mgl32.Vec3{}, 1, color.NRGBA{255, 255, 255, 100})
	colours := map[color.NRGBA]int{}
	b := c.Image().Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			colours[at(c, x, y)]++
		}
	}
	assert.Len(t, colours, 2, "background and the fan's one colour: %v", colours)
	covered := 0
	for col, n := range colours {
		if col != black {
			covered = n
		}
	}
	assert.InDelta(t, math.Pi*30*30, covered, 2*math.Pi*30, "about the disc's area in pixels")
}

func TestTriangleCoverageMatchesArea(t *testing.T) {
	view := debugdraw.NewView(0, 90, 1, mgl32.Vec3{50, 0, 50}, 100, 100)
	c, err := New(view, Options{})
	require.NoError(t, err)
	// Pixel (x, y) has its centre at world (x+0.5, z = y+0.5).
	c.Triangle(mgl32.Vec3{10, 0, 10}, mgl32.Vec3{90, 0, 10}, mgl32.Vec3{10, 0, 90}, white)
	n := 0
	for y := range 100 {
		for x := range 100 {
			if at(c, x, y) == white {
				n++
				assert.LessOrEqual(t, float64(x)+0.5+float64(y)+0.5, 100.0, "inside the hypotenuse")
			}
		}
	}
	assert.InDelta(t, 80*80/2, n, 80, "half of 80×80, give or take the diagonal")
}

func TestSmoothingAveragesSamples(t *testing.T) {
	view := debugdraw.NewView(0, 90, 1, mgl32.Vec3{5, 0, 5}, 10, 10)
	c, err := New(view, Options{Samples: 2})
	require.NoError(t, err)
	c.Clear(black)
	// A square edge through the middle of column 5: half its samples white.
	debugdraw.Quad(c, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{5.5, 0, 0}, mgl32.Vec3{5.5, 0, 10}, mgl32.Vec3{0, 0, 10}, white)
	assert.Equal(t, white, at(c, 4, 3))
	assert.Equal(t, color.NRGBA{128, 128, 128, 255}, at(c, 5, 3))
	assert.Equal(t, black, at(c, 6, 3))
	assert.Equal(t, view, c.View())
}

func TestLinesAndPointsShowOverTheirSurface(t *testing.T) {
	view := debugdraw.IsoView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 10}, 80, 80, 4)
	c, err := New(view, Options{})
	require.NoError(t, err)
	debugdraw.Quad(c, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}, mgl32.Vec3{10, 0, 10}, mgl32.Vec3{0, 0, 10}, blue)
	c.Line(mgl32.Vec3{0, 0, 5}, mgl32.Vec3{10, 0, 5}, 2, black)
	c.Point(mgl32.Vec3{2, 0, 2}, 5, red)
	x, y, _ := view.Project(mgl32.Vec3{7, 0, 5})
	assert.Equal(t, black, at(c, int(x), int(y)))
	x, y, _ = view.Project(mgl32.Vec3{2, 0, 2})
	assert.Equal(t, red, at(c, int(x), int(y)))
}

func TestBadInputDrawsNothingAndDoesNotPanic(t *testing.T) {
	view := debugdraw.TopView(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 10}, 20, 20, 0)
	c, err := New(view, Options{})
	require.NoError(t, err)
	c.Clear(black)
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	c.Triangle(mgl32.Vec3{nan, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, white)
	c.Triangle(mgl32.Vec3{-1e30, 0, 0}, mgl32.Vec3{1e30, 0, 0}, mgl32.Vec3{0, 0, 1e30}, white)
	c.Triangle(mgl32.Vec3{1, 0, 1}, mgl32.Vec3{2, 0, 2}, mgl32.Vec3{3, 0, 3}, white) // no area
	c.Line(mgl32.Vec3{inf, 0, 0}, mgl32.Vec3{1, 0, 0}, 3, white)
	c.Line(mgl32.Vec3{1, 0, 1}, mgl32.Vec3{2, 0, 2}, nan, color.NRGBA{})
	c.Point(mgl32.Vec3{nan, 0, 0}, 3, white)
	c.Point(mgl32.Vec3{-100, 0, -100}, 3, white) // off the image
	c.Point(mgl32.Vec3{5, 0, 5}, inf, color.NRGBA{})
	for i := 0; i < len(c.Image().Pix); i += 4 {
		require.Equal(t, []uint8{0, 0, 0, 255}, c.Image().Pix[i:i+4], "pixel %d", i/4)
	}
	// Width and size below 1 still draw one pixel.
	c.Point(mgl32.Vec3{5.2, 0, 5.2}, 0.1, white)
	assert.Equal(t, white, at(c, 10, 10))
	c.Line(mgl32.Vec3{1, 0, 8.2}, mgl32.Vec3{9, 0, 8.2}, 0, white)
	assert.Equal(t, white, at(c, 10, 16))
	c.Line(mgl32.Vec3{3, 0, 3}, mgl32.Vec3{3, 0, 3}, 4, red)
	assert.Equal(t, red, at(c, 6, 6), "a zero-length line is a dot")
}

func TestNewRejectsBadOptions(t *testing.T) {
	view := debugdraw.TopView(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 10, 10, 0)
	for _, o := range []Options{{Samples: -1}, {Samples: MaxSamples + 1}, {DepthBias: -1}, {DepthBias: float32(math.NaN())}} {
		_, err := New(view, o)
		assert.Error(t, err, "%+v", o)
	}
	_, err := New(debugdraw.TopView(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 1<<14, 1<<14, 0), Options{Samples: 2})
	assert.ErrorContains(t, err, "exceeds")
}

func TestEncodePNG(t *testing.T) {
	c, err := New(debugdraw.TopView(sceneMin, sceneMax, 30, 20, 1), Options{})
	require.NoError(t, err)
	twoFloors(c)
	var buf bytes.Buffer
	require.NoError(t, c.EncodePNG(&buf))
	img, err := png.Decode(&buf)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 30, 20), img.Bounds())
}
