package debugdraw

import (
	"image/color"
	"math"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIndexColorSpreadsBitsOverChannels(t *testing.T) {
	// duIntToCol: r = bit1 + 2*bit3 + 1, g = bit2 + 2*bit4 + 1,
	// b = bit0 + 2*bit5 + 1, each times 63.
	tests := []struct {
		i    int
		want color.NRGBA
	}{
		{0, color.NRGBA{63, 63, 63, 200}},
		{1, color.NRGBA{63, 63, 126, 200}},
		{2, color.NRGBA{126, 63, 63, 200}},
		{4, color.NRGBA{63, 126, 63, 200}},
		{8, color.NRGBA{189, 63, 63, 200}},
		{63, color.NRGBA{252, 252, 252, 200}},
		{64, color.NRGBA{63, 63, 63, 200}}, // bits above 5 ignored
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IndexColor(tt.i, 200), "i=%d", tt.i)
	}
	seen := map[color.NRGBA]bool{}
	for i := range 64 {
		seen[IndexColor(i, 255)] = true
	}
	assert.Len(t, seen, 64, "64 numbers, 64 colours")
}

func TestAreaColor(t *testing.T) {
	assert.Equal(t, color.NRGBA{0, 192, 255, 64}, AreaColor(0, 64))
	assert.Equal(t, color.NRGBA{0, 192, 255, 64}, AreaColor(63, 64))
	assert.Equal(t, IndexColor(5, 10), AreaColor(5, 10))
}

func TestColorBlends(t *testing.T) {
	c := color.NRGBA{200, 101, 50, 128}
	assert.Equal(t, color.NRGBA{200, 101, 50, 7}, WithAlpha(c, 7))
	assert.Equal(t, color.NRGBA{100, 50, 25, 128}, Darken(c))
	assert.Equal(t, color.NRGBA{100, 50, 25, 128}, Scale(c, 0.5))
	assert.Equal(t, color.NRGBA{255, 202, 100, 128}, Scale(c, 2), "saturates")
	assert.Equal(t, color.NRGBA{0, 0, 0, 128}, Scale(c, float32(math.NaN())))
	black, white := color.NRGBA{0, 0, 0, 0}, color.NRGBA{255, 255, 255, 255}
	assert.Equal(t, black, Lerp(black, white, 0))
	assert.Equal(t, white, Lerp(black, white, 1))
	assert.Equal(t, color.NRGBA{128, 128, 128, 128}, Lerp(black, white, 0.5))
	assert.Equal(t, black, Lerp(black, white, -3))
	assert.Equal(t, white, Lerp(black, white, 7))
	assert.Equal(t, black, Lerp(black, white, float32(math.NaN())))
}

func TestRecorderCountsReplaysAndBounds(t *testing.T) {
	var r Recorder
	_, _, ok := r.Bounds()
	assert.False(t, ok)
	red := color.NRGBA{255, 0, 0, 255}
	r.Triangle(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, red)
	r.Line(mgl32.Vec3{-1, 2, 0}, mgl32.Vec3{0, 0, 0}, 2, red)
	r.Point(mgl32.Vec3{0, -3, 5}, 4, red)
	assert.Equal(t, 3, r.Len())
	assert.Equal(t, 1, r.Count(KindTriangle))
	assert.Equal(t, 1, r.Count(KindLine))
	assert.Equal(t, 1, r.Count(KindPoint))
	bmin, bmax, ok := r.Bounds()
	require.True(t, ok)
	assert.Equal(t, mgl32.Vec3{-1, -3, 0}, bmin, "unused vertex slots are not counted")
	assert.Equal(t, mgl32.Vec3{1, 2, 5}, bmax)

	var copied Recorder
	r.Replay(&copied)
	assert.Equal(t, r.Primitives, copied.Primitives)
	r.Reset()
	assert.Zero(t, r.Len())
	r.Replay(Discard)
	assert.Equal(t, "triangle", KindTriangle.String())
	assert.Equal(t, "unknown", Kind(9).String())
}

func near(t *testing.T, want, got mgl32.Vec3, tolerance float32, msg string) {
	t.Helper()
	assert.LessOrEqual(t, geom.Dist(want, got), tolerance, "%s: want %v, got %v", msg, want, got)
}

func TestCircleAndDiscLieOnTheirRadius(t *testing.T) {
	center := mgl32.Vec3{3, 2, -1}
	var r Recorder
	Circle(&r, center, 2, 1, color.NRGBA{A: 255})
	require.Equal(t, CircleSegments, r.Count(KindLine))
	for i, p := range r.Primitives {
		for _, v := range p.Vertices[:2] {
			assert.InDelta(t, 2, geom.Dist(v, center), 1e-5)
			assert.Equal(t, center[1], v[1], "horizontal")
		}
		if i > 0 {
			assert.Equal(t, r.Primitives[i-1].Vertices[1], p.Vertices[0], "segments chain")
		}
	}
	assert.Equal(t, r.Primitives[len(r.Primitives)-1].Vertices[1], r.Primitives[0].Vertices[0], "closed")

	r.Reset()
	Disc(&r, center, 2, color.NRGBA{A: 255})
	assert.Equal(t, CircleSegments, r.Count(KindTriangle))
	area := float32(0)
	for _, p := range r.Primitives {
		area += float32(geom.Len(geom.Cross(p.Vertices[1].Sub(p.Vertices[0]), p.Vertices[2].Sub(p.Vertices[0]))) / 2)
	}
	assert.InDelta(t, math.Pi*4, area, 0.1, "a 32-gon covers nearly the disc")
}

func TestArcAndArrow(t *testing.T) {
	from, to := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 0}
	var r Recorder
	Arc(&r, from, to, 0.25, 0, 0, 1, color.NRGBA{A: 255})
	require.Equal(t, ArcSegments, r.Count(KindLine))
	near(t, mgl32.Vec3{0.5, 2.5 * 0.19, 0}, r.Primitives[0].Vertices[0], 1e-4, "starts 5 % in") // bow 1-(0.1-1)^2
	top := float32(0)
	for _, p := range r.Primitives {
		top = max(top, p.Vertices[1][1])
	}
	assert.InDelta(t, 2.5, top, 1e-5, "rises a quarter of the distance in the middle")

	r.Reset()
	Arc(&r, from, to, 0.25, 1, 1, 1, color.NRGBA{A: 255})
	assert.Equal(t, ArcSegments+4, r.Count(KindLine), "two lines per head")

	r.Reset()
	Arrow(&r, from, to, 0, 2, 1, color.NRGBA{A: 255})
	require.Equal(t, 3, r.Count(KindLine))
	for _, head := range r.Primitives[1:] {
		assert.Equal(t, to, head.Vertices[0], "the head's tip is at to")
		length := head.Vertices[1].Sub(head.Vertices[0])
		assert.InDelta(t, -2, length[0], 1e-5, "the head reaches back 2 units")
		assert.InDelta(t, 2.0/3, math.Abs(float64(length[2])), 1e-5)
	}
	r.Reset()
	Arrow(&r, from, mgl32.Vec3{0, 5, 0}, 1, 1, 1, color.NRGBA{A: 255})
	assert.Equal(t, 5, r.Count(KindLine), "an upright arrow still gets its heads")
	r.Reset()
	Arrow(&r, from, from, 1, 1, 1, color.NRGBA{A: 255})
	assert.Equal(t, 1, r.Count(KindLine), "no heads on a zero-length arrow")
}

func TestBoxesCrossAndCylinder(t *testing.T) {
	bmin, bmax := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 2, 3}
	var r Recorder
	BoxWire(&r, bmin, bmax, 1, color.NRGBA{A: 255})
	require.Equal(t, 12, r.Count(KindLine))
	total := float32(0)
	for _, p := range r.Primitives {
		total += geom.Dist(p.Vertices[1], p.Vertices[0])
	}
	assert.InDelta(t, 4*(1+2+3), total, 1e-5, "every edge once")

	r.Reset()
	faces := ShadedBox(color.NRGBA{200, 200, 200, 255}, color.NRGBA{100, 100, 100, 255})
	Box(&r, bmin, bmax, faces)
	require.Equal(t, 12, r.Count(KindTriangle))
	area := float32(0)
	for i, p := range r.Primitives {
		area += float32(geom.Len(geom.Cross(p.Vertices[1].Sub(p.Vertices[0]), p.Vertices[2].Sub(p.Vertices[0]))) / 2)
		assert.Equal(t, faces[i/2], p.Color)
	}
	assert.InDelta(t, 2*(1*2+2*3+1*3), area, 1e-4, "the faces cover the box")
	for _, p := range r.Primitives[:2] {
		for _, v := range p.Vertices {
			assert.Equal(t, float32(2), v[1], "the top face is at max y")
		}
	}

	r.Reset()
	Cross(&r, mgl32.Vec3{1, 1, 1}, 2, 1, color.NRGBA{A: 255})
	assert.Equal(t, 3, r.Count(KindLine))
	r.Reset()
	CylinderWire(&r, bmin, bmax, 1, color.NRGBA{A: 255})
	assert.Equal(t, 2*CircleSegments+4, r.Count(KindLine))
}

func TestTopViewMapsXRightAndZDown(t *testing.T) {
	bmin, bmax := mgl32.Vec3{-10, 0, 20}, mgl32.Vec3{30, 5, 40}
	v := TopView(bmin, bmax, 100, 100, 10)
	assert.InDelta(t, 2, v.Scale(), 1e-5, "40 units over 80 pixels")
	x, y, _ := v.Project(mgl32.Vec3{-10, 0, 20})
	assert.InDelta(t, 10, x, 1e-4)
	assert.InDelta(t, 30, y, 1e-4, "the short side centred")
	x, y, _ = v.Project(mgl32.Vec3{30, 3, 40})
	assert.InDelta(t, 90, x, 1e-4)
	assert.InDelta(t, 70, y, 1e-4)
	_, _, low := v.Project(mgl32.Vec3{0, 0, 30})
	_, _, high := v.Project(mgl32.Vec3{0, 5, 30})
	assert.Less(t, high, low, "higher is nearer from above")
	w, h := v.Size()
	assert.Equal(t, []int{100, 100}, []int{w, h})
	yaw, pitch := v.Angles()
	assert.Equal(t, []float32{0, 90}, []float32{yaw, pitch})
}

func TestViewsRoundTripAndFit(t *testing.T) {
	bmin, bmax := mgl32.Vec3{-10, -2, 20}, mgl32.Vec3{30, 5, 40}
	for _, v := range []View{
		TopView(bmin, bmax, 320, 200, 8),
		IsoView(bmin, bmax, 320, 200, 8),
		FitView(-120, 20, bmin, bmax, 64, 300, 0),
		NewView(10, 60, 3, mgl32.Vec3{1, 2, 3}, 50, 50),
	} {
		for _, p := range boxCorners(bmin, bmax) {
			x, y, depth := v.Project(p)
			near(t, p, v.Unproject(x, y, depth), 1e-3, "round trip")
		}
	}
	v := IsoView(bmin, bmax, 320, 200, 8)
	minX, minY, maxX, maxY := float32(1e9), float32(1e9), float32(-1e9), float32(-1e9)
	for _, p := range boxCorners(bmin, bmax) {
		x, y, _ := v.Project(p)
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	assert.True(t, minX >= 8-1e-3 && maxX <= 312+1e-3 && minY >= 8-1e-3 && maxY <= 192+1e-3, "inside the margins")
	assert.True(t, math.Abs(float64(minX-8)) < 1e-3 || math.Abs(float64(minY-8)) < 1e-3, "touches one pair of margins")
	_, yLow, _ := v.Project(mgl32.Vec3{0, 0, 30})
	_, yHigh, _ := v.Project(mgl32.Vec3{0, 5, 30})
	assert.Less(t, yHigh, yLow, "up is up the image")
	near(t, geom.Normalize(mgl32.Vec3{-1, -1, -1}), v.Forward(), 1e-5, "looks down from the +x +z corner")

	large := v.Enlarged(3)
	x, y, _ := v.Project(bmax)
	x3, y3, _ := large.Project(bmax)
	assert.InDelta(t, 3*x, x3, 1e-3)
	assert.InDelta(t, 3*y, y3, 1e-3)
	w, h := large.Size()
	assert.Equal(t, []int{960, 600}, []int{w, h})
}

func TestViewsOfDegenerateInput(t *testing.T) {
	p := mgl32.Vec3{1, 1, 1}
	v := TopView(p, p, 10, 10, 2)
	assert.Equal(t, float32(1), v.Scale(), "a point gets 1 pixel per unit")
	x, y, _ := v.Project(p)
	assert.Equal(t, []float32{5, 5}, []float32{x, y}, "centred")
	nan := float32(math.NaN())
	v = NewView(nan, nan, nan, mgl32.Vec3{}, 0, -4)
	assert.Equal(t, float32(1), v.Scale())
	w, h := v.Size()
	assert.Equal(t, []int{1, 1}, []int{w, h})
	assert.Equal(t, mgl32.Vec3{}, View{}.Unproject(1, 2, 3))

	w, h = FitSize(0, 90, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{40, 1, 10}, 400, 50, 5)
	assert.Equal(t, []int{410, 110}, []int{w, h})
	w, h = FitSize(0, 90, mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 1, 40}, 400, 0, 0)
	assert.Equal(t, []int{100, 400}, []int{w, h})
	w, h = FitSize(0, 90, p, p, 64, 0, 0)
	assert.Equal(t, []int{64, 64}, []int{w, h})
}

func TestTranslateAndCullBackFaces(t *testing.T) {
	var r Recorder
	moved := Translate(&r, mgl32.Vec3{0, -1, 0})
	moved.Triangle(mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 0, 1}, color.NRGBA{A: 255})
	moved.Line(mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, 1, color.NRGBA{A: 255})
	moved.Point(mgl32.Vec3{2, 2, 2}, 1, color.NRGBA{A: 255})
	assert.Equal(t, mgl32.Vec3{0, -1, 1}, r.Primitives[0].Vertices[2])
	assert.Equal(t, mgl32.Vec3{1, -1, 0}, r.Primitives[1].Vertices[1])
	assert.Equal(t, mgl32.Vec3{2, 1, 2}, r.Primitives[2].Vertices[0])

	r.Reset()
	fromAbove := CullBackFaces(&r, TopView(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}, 10, 10, 0).Forward())
	floor := [3]mgl32.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}} // clockwise from above: normal up
	fromAbove.Triangle(floor[0], floor[1], floor[2], color.NRGBA{R: 1, A: 255})
	fromAbove.Triangle(floor[0], floor[2], floor[1], color.NRGBA{R: 2, A: 255})                           // a ceiling
	fromAbove.Triangle(mgl32.Vec3{}, mgl32.Vec3{1, 0, 0}, mgl32.Vec3{0, 1, 0}, color.NRGBA{R: 3, A: 255}) // edge-on
	fromAbove.Line(floor[0], floor[1], 1, color.NRGBA{A: 255})
	fromAbove.Point(floor[0], 1, color.NRGBA{A: 255})
	require.Equal(t, 3, r.Len())
	assert.Equal(t, uint8(1), r.Primitives[0].Color.R, "the floor faces the viewer above")
	assert.Equal(t, KindLine, r.Primitives[1].Kind)
}

func TestRecorderFitsTheDrawingNotItsBox(t *testing.T) {
	// A diagonal line seen along its own direction from above at an angle:
	// it shows as an upright line, much shorter than its box's diamond is
	// wide.
	var r Recorder
	a, b := mgl32.Vec3{0, 0, 0}, mgl32.Vec3{10, 0, 10}
	r.Line(a, b, 1, color.NRGBA{A: 255})
	tight := r.FitView(IsoYaw, IsoPitch, 200, 200, 10)
	loose := IsoView(a, b, 200, 200, 10)
	assert.Greater(t, tight.Scale(), 1.5*loose.Scale())
	ax, ay, _ := tight.Project(a)
	bx, by, _ := tight.Project(b)
	assert.InDelta(t, 10, min(ay, by), 1e-3, "touches the top margin")
	assert.InDelta(t, 190, max(ay, by), 1e-3, "and the bottom one")
	assert.InDelta(t, 100, ax, 1e-3, "centred")
	assert.InDelta(t, 100, bx, 1e-3)

	r.Reset()
	r.Line(a, mgl32.Vec3{10, 0, -10}, 1, color.NRGBA{A: 255}) // across the view
	w, h := r.FitSize(IsoYaw, IsoPitch, 100, 20, 0)
	assert.Equal(t, []int{100, 20}, []int{w, h}, "a flat line gets the minimum height")

	var empty Recorder
	v := empty.FitView(0, 90, 10, 10, 0)
	assert.Equal(t, float32(1), v.Scale())
}

func TestPrismAndCylinderFillTopAndSides(t *testing.T) {
	square := []mgl32.Vec2{{0, 0}, {2, 0}, {2, 1}, {0, 1}}
	fill := color.NRGBA{200, 100, 50, 128}
	var r Recorder
	Prism(&r, square, 1, 3, fill)
	require.Equal(t, 2*4+2, r.Count(KindTriangle))
	top := 0.0
	for _, p := range r.Primitives {
		assert.Equal(t, fill.A, p.Color.A)
		if p.Vertices[0][1] == 3 && p.Vertices[1][1] == 3 && p.Vertices[2][1] == 3 {
			a, b, c := p.Vertices[0], p.Vertices[1], p.Vertices[2]
			top += float64(math.Abs(float64(float32((b[0]-a[0])*(c[2]-a[2]))-float32((c[0]-a[0])*(b[2]-a[2])))) / 2)
		}
	}
	assert.InDelta(t, 2, top, 1e-6, "the top covers the outline")
	bmin, bmax, _ := r.Bounds()
	assert.Equal(t, mgl32.Vec3{0, 1, 0}, bmin)
	assert.Equal(t, mgl32.Vec3{2, 3, 1}, bmax)

	r.Reset()
	PrismWire(&r, square, 1, 3, 2, fill)
	assert.Equal(t, 12, r.Count(KindLine))
	r.Reset()
	Prism(&r, square[:2], 1, 3, fill)
	PrismWire(&r, square[:1], 1, 3, 2, fill)
	assert.Zero(t, r.Len(), "too few corners")

	Cylinder(&r, mgl32.Vec3{-1, 0, -1}, mgl32.Vec3{1, 2, 1}, fill)
	assert.Equal(t, 3*CircleSegments, r.Count(KindTriangle))
	for _, p := range r.Primitives {
		for _, v := range p.Vertices {
			assert.LessOrEqual(t, math.Hypot(float64(v[0]), float64(v[2])), 1+1e-6)
		}
	}
}
