package components

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObstacleMessagesNameTheCause: a prism of 20 corners was refused for
// "17 corners", one with a NaN corner as "not convex at corner 1"; the
// tile cache's rules (tilecache.Obstacle.Validate) decide, and say so.
func TestObstacleMessagesNameTheCause(t *testing.T) {
	var twenty [][2]float32
	for i := range 20 {
		a := 2 * math.Pi * float64(i) / 20
		twenty = append(twenty, [2]float32{float32(math.Cos(a)), float32(math.Sin(a))})
	}
	nan := float32(math.NaN())
	for _, tc := range []struct {
		obstacle Obstacle
		want     string
	}{
		{PrismObstacle(twenty, 1), "prism 20 corners, want 3..16"},
		{PrismObstacle([][2]float32{{0, 0}, {nan, 0}, {1, 1}}, 1), "prism obstacle: corner 1 is [NaN NaN], not finite"},
		{CylinderObstacle(0, 1), "radius 0, want a finite number > 0"},
	} {
		err := tc.obstacle.Validate()
		require.ErrorIs(t, err, ErrInvalidObstacle, tc.want)
		assert.Contains(t, err.Error(), tc.want)
	}
	sixteen := PrismObstacle(twenty[:16], 1)
	assert.NoError(t, sixteen.Validate())
}
