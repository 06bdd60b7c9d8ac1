package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestObstacles runs the example: the crate's hole lands half a second
// after it drops (Unity's stationary time) plus a tick or so, no agent
// stands over the crate once it has carved, every agent takes the long
// corridor and arrives, the moving cart is steered round (the bodies touch
// at most), and the PNG is written.
func TestObstacles(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, r.landedAt, float32(dropAt+0.5))
	assert.Less(t, r.landedAt, float32(dropAt+0.75))
	assert.Zero(t, r.inCrate)
	assert.Equal(t, r.agents, r.arrived)
	assert.Equal(t, r.agents, r.longWay, "the short corridor is shut")
	// The short way is 16 m, under 5 s at 3.5 m/s; the long way is 40 m.
	assert.Greater(t, r.seconds, float32(10))
	assert.Less(t, r.cartClearance, float32(1), "the agents pass close to the cart")
	assert.Greater(t, r.cartClearance, float32(-0.1), "and do not walk into it")
	assert.Contains(t, stdout.String(), "its hole is in the navmesh")
	assert.Contains(t, stdout.String(), "wrote "+filepath.Join(out, "obstacles.png"))

	f, err := os.Open(filepath.Join(out, "obstacles.png"))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 640, img.Bounds().Dx())
}
