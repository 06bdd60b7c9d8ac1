package tilecache

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObstacleMessagesNameTheCause: the messages the audit of issue 27
// found misleading say what is wrong: a NaN prism corner was "not convex at
// corner 1", a prism of 20 corners had "17 corners", and a cylinder of
// radius 0, which the crowd refuses, passed here.
func TestObstacleMessagesNameTheCause(t *testing.T) {
	nan := float32(math.NaN())
	square := []mgl32.Vec2{{0, 0}, {1, 0}, {1, 1}, {0, 1}}
	var twenty []mgl32.Vec2
	for i := range 20 {
		a := 2 * math.Pi * float64(i) / 20
		twenty = append(twenty, mgl32.Vec2{float32(math.Cos(a)), float32(math.Sin(a))})
	}
	for _, tc := range []struct {
		name     string
		obstacle Obstacle
		want     string
	}{
		{"NaN corner", Prism([]mgl32.Vec2{{0, 0}, {nan, 0}, {1, 1}}, 0, 1), "prism obstacle: corner 1 is [NaN 0], not finite"},
		{"20 corners", Prism(twenty, 0, 1), "prism obstacle: 20 corners, want 3..16"},
		{"radius 0", Cylinder(mgl32.Vec3{}, 0, 1), "cylinder obstacle: radius 0, want a finite number > 0"},
		{"negative height", Cylinder(mgl32.Vec3{}, 1, -1), "cylinder obstacle: height -1, want a finite number >= 0"},
		{"box upside down", Box(mgl32.Vec3{0, 10, 0}, mgl32.Vec3{2, 0, 2}), "box obstacle: min y 10 is not below max y 0"},
		{"box flat in x", Box(mgl32.Vec3{1, 0, 0}, mgl32.Vec3{1, 1, 2}), "box obstacle: min x 1 is not below max x 1"},
		{"oriented box flat", OrientedBox(mgl32.Vec3{}, mgl32.Vec3{1, 1, 0}, 0), "orientedbox obstacle: half extents [1 1 0], want finite numbers > 0 in x and z, >= 0 in y"},
	} {
		err := tc.obstacle.Validate()
		require.ErrorIs(t, err, ErrInvalidObstacle, tc.name)
		assert.Contains(t, err.Error(), tc.want, tc.name)
	}
	for _, ok := range []Obstacle{
		Prism(square, 0, 0), Cylinder(mgl32.Vec3{}, 0.1, 0), Box(mgl32.Vec3{0, 1, 0}, mgl32.Vec3{1, 1, 1}),
		OrientedBox(mgl32.Vec3{}, mgl32.Vec3{1, 0, 1}, 1), Prism(twenty[:16], 0, 1),
	} {
		assert.NoError(t, ok.Validate(), "%v", ok.Shape)
	}
}
