package components_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// footprintBounds returns the footprint of o at pose as its xz bounds.
func footprintBounds(o components.Obstacle, pose components.ObstaclePose) [4]float32 {
	f := o.Footprint(pose)
	minX, minZ, maxX, maxZ := f.Bounds()
	return [4]float32{minX, minZ, maxX, maxZ}
}

func near(t *testing.T, want, got [4]float32, what string) {
	t.Helper()
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-5, "%s: bound %d", what, i)
	}
}

// TestConventions checks what docs/conventions.md states: y is up; a yaw
// turns about +y by the right-hand rule, so that a positive yaw turns the
// local +x axis towards world -z (counter-clockwise seen from above, where
// +x points right and +z down the page); HalfExtents[0] lies along the
// local x axis, [1] along local z; a prism's Points are (x, z) in local
// axes around the pose; a box ignores the yaw; a cylinder stands on the
// pose; DoorBetween puts the door's local x axis from jamb to jamb.
func TestConventions(t *testing.T) {
	at := components.ObstaclePose{Position: geom.Vec3{10, 2, 20}}
	quarter := at
	quarter.Yaw = math.Pi / 2

	box := components.OrientedBoxObstacle(2, 0.5, 1)
	near(t, [4]float32{8, 19.5, 12, 20.5}, footprintBounds(box, at), "oriented box, yaw 0")
	near(t, [4]float32{9.5, 18, 10.5, 22}, footprintBounds(box, quarter), "oriented box, a quarter turn")
	near(t, [4]float32{8, 19.5, 12, 20.5}, footprintBounds(components.BoxObstacle(2, 0.5, 1), quarter), "a box ignores the yaw")

	// A prism's local +x corner goes to world -z under a quarter turn.
	prism := components.PrismObstacle([][2]float32{{3, 0}, {0, 0.5}, {0, -0.5}}, 1)
	near(t, [4]float32{9.5, 17, 10.5, 20}, footprintBounds(prism, quarter), "prism, a quarter turn")
	small := at
	small.Yaw = 0.1
	f := prism.Footprint(small)
	var tip [2]float32
	for _, p := range f.Points[:f.Count] {
		if p[0] > tip[0] {
			tip = p
		}
	}
	assert.Less(t, tip[1], at.Position[2], "a small positive yaw turns local +x towards -z")

	cylinderObstacle := components.CylinderObstacle(1.5, 2)
	cylinder := cylinderObstacle.Footprint(at)
	assert.Equal(t, [2]float32{10, 20}, cylinder.Center)
	assert.Equal(t, float32(2), cylinder.MinY, "standing on the pose")
	assert.Equal(t, float32(4), cylinder.MaxY, "reaching Height above it")

	pose, door := components.DoorBetween(geom.Vec3{0, 1, 0}, geom.Vec3{0, 1, 4}, 0.25, 2, false)
	near(t, [4]float32{-0.25, 0, 0.25, 4}, footprintBounds(door, pose), "door between jambs along +z")
	assert.InDelta(t, -math.Pi/2, pose.Yaw, 1e-6, "local +x along world +z is a yaw of -90°")
	assert.False(t, door.DoorOpen())
	open := door.WithDoorOpen(true)
	assert.True(t, open.DoorOpen())
}

// Colours of docs/conventions.png.
var (
	pictureBackground = color.NRGBA{250, 250, 247, 255}
	pictureGrid       = color.NRGBA{222, 222, 215, 255}
	pictureAxisX      = color.NRGBA{214, 39, 40, 255}
	pictureAxisY      = color.NRGBA{44, 160, 44, 255}
	pictureAxisZ      = color.NRGBA{31, 119, 180, 255}
	pictureShape      = color.NRGBA{70, 70, 70, 255}
	pictureFill       = color.NRGBA{180, 180, 172, 120}
	pictureYaw        = color.NRGBA{255, 150, 0, 255}
)

// conventionsPicture draws the shapes of TestConventions seen from above
// (+x right, +z down, +y towards the viewer): the world axes, a cylinder,
// a box, an oriented box and a prism turned by 30°, each with its local
// axes, and the yaw's turn from world +x to local +x.
func conventionsPicture(t *testing.T) *image.RGBA {
	t.Helper()
	const width, height = 880, 300
	view := debugdraw.TopView(mgl32.Vec3{-2, 0, -4.5}, mgl32.Vec3{23, 0, 4}, width, height, 10)
	canvas, err := raster.New(view, raster.Options{Samples: 2})
	require.NoError(t, err)
	canvas.Clear(pictureBackground)
	for x := -2; x <= 23; x++ {
		canvas.Line(mgl32.Vec3{float32(x), 0, -4.5}, mgl32.Vec3{float32(x), 0, 4}, 1, pictureGrid)
	}
	for z := -4; z <= 4; z++ {
		canvas.Line(mgl32.Vec3{-2, 0, float32(z)}, mgl32.Vec3{23, 0, float32(z)}, 1, pictureGrid)
	}
	// World axes at the origin; y points at the viewer.
	debugdraw.Arrow(canvas, mgl32.Vec3{}, mgl32.Vec3{3, 0, 0}, 0, 0.5, 4, pictureAxisX)
	debugdraw.Arrow(canvas, mgl32.Vec3{}, mgl32.Vec3{0, 0, 3}, 0, 0.5, 4, pictureAxisZ)
	canvas.Point(mgl32.Vec3{}, 16, pictureAxisY)

	const yaw = math.Pi / 6
	shapes := []struct {
		obstacle components.Obstacle
		pose     components.ObstaclePose
		axes     bool
	}{
		{components.CylinderObstacle(1.2, 2), components.ObstaclePose{Position: geom.Vec3{5.5, 0, 0}}, false},
		{components.BoxObstacle(1.5, 0.8, 2), components.ObstaclePose{Position: geom.Vec3{10, 0, 0}, Yaw: yaw}, true},
		{components.OrientedBoxObstacle(1.5, 0.8, 2), components.ObstaclePose{Position: geom.Vec3{14.5, 0, 0}, Yaw: yaw}, true},
		{components.PrismObstacle([][2]float32{{-1.2, -1}, {1.6, -0.2}, {0.6, 1.2}, {-1, 0.8}}, 2),
			components.ObstaclePose{Position: geom.Vec3{19.5, 0, 0}, Yaw: yaw}, true},
	}
	for _, s := range shapes {
		f := s.obstacle.Footprint(s.pose)
		centre := mgl32.Vec3(s.pose.Position)
		if f.Circle {
			debugdraw.Disc(canvas, centre, f.Radius, pictureFill)
			debugdraw.Circle(canvas, centre, f.Radius, 3, pictureShape)
			canvas.Line(centre, centre.Add(mgl32.Vec3{f.Radius, 0, 0}), 2, pictureShape)
		} else {
			for i := 1; i+1 < f.Count; i++ {
				a, b, c := f.Points[0], f.Points[i], f.Points[i+1]
				canvas.Triangle(mgl32.Vec3{a[0], 0, a[1]}, mgl32.Vec3{b[0], 0, b[1]}, mgl32.Vec3{c[0], 0, c[1]}, pictureFill)
			}
			for i := range f.Count {
				a, b := f.Points[i], f.Points[(i+1)%f.Count]
				canvas.Line(mgl32.Vec3{a[0], 0, a[1]}, mgl32.Vec3{b[0], 0, b[1]}, 3, pictureShape)
			}
		}
		canvas.Point(centre, 10, pictureShape)
		if !s.axes {
			continue
		}
		turn := s.pose.Yaw
		if s.obstacle.Shape == components.ObstacleBox {
			turn = 0 // a box ignores the yaw
		}
		// Local +x is (cos, -sin) in world (x, z), local +z (sin, cos).
		cos, sin := float32(math.Cos(float64(turn))), float32(math.Sin(float64(turn)))
		debugdraw.Arrow(canvas, centre, centre.Add(mgl32.Vec3{2 * cos, 0, -2 * sin}), 0, 0.4, 3, pictureAxisX)
		debugdraw.Arrow(canvas, centre, centre.Add(mgl32.Vec3{2 * sin, 0, 2 * cos}), 0, 0.4, 3, pictureAxisZ)
		if turn == 0 {
			continue
		}
		// The yaw: from world +x round to local +x.
		const radius, steps = 2.6, 12
		previous := centre.Add(mgl32.Vec3{radius, 0, 0})
		for i := 1; i <= steps; i++ {
			a := float64(turn) * float64(i) / steps
			p := centre.Add(mgl32.Vec3{radius * float32(math.Cos(a)), 0, -radius * float32(math.Sin(a))})
			canvas.Line(previous, p, 3, pictureYaw)
			previous = p
		}
		canvas.Line(centre, centre.Add(mgl32.Vec3{radius, 0, 0}), 1, pictureYaw)
	}
	return canvas.Image()
}

// TestConventionsPicture draws docs/conventions.png and compares it with
// the file (at most 1 % of the pixels may differ by more than a little:
// rounding may differ between CPUs); ARCHENAV_UPDATE_DOCS=1 writes it.
func TestConventionsPicture(t *testing.T) {
	img := conventionsPicture(t)
	const path = "../docs/conventions.png"
	if os.Getenv("ARCHENAV_UPDATE_DOCS") == "1" {
		var buf bytes.Buffer
		require.NoError(t, png.Encode(&buf, img))
		require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o644))
	}
	file, err := os.ReadFile(path)
	require.NoError(t, err)
	stored, err := png.Decode(bytes.NewReader(file))
	require.NoError(t, err)
	require.Equal(t, img.Bounds(), stored.Bounds())
	differ := 0
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := stored.At(x, y).RGBA()
			if diff(r1, r2)+diff(g1, g2)+diff(b1, b2) > 3*8*257 {
				differ++
			}
		}
	}
	assert.LessOrEqual(t, differ, img.Bounds().Dx()*img.Bounds().Dy()/100, "pixels differing from %s (ARCHENAV_UPDATE_DOCS=1 redraws it)", path)
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
