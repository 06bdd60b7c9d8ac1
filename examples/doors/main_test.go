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

// TestDoors runs the example: once the door closes no agent sets foot on
// it, every agent takes the long corridor and arrives, and the PNG is
// written.
func TestDoors(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Equal(t, r.agents, r.arrived)
	assert.Equal(t, r.agents, r.longWay)
	assert.Zero(t, r.crossedClosed)
	// The short way is 16 m, under 5 s at 3.5 m/s; the long way is 40 m.
	assert.Greater(t, r.seconds, float32(10))
	assert.Contains(t, stdout.String(), "wrote "+filepath.Join(out, "doors.png"))

	f, err := os.Open(filepath.Join(out, "doors.png"))
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, 640, img.Bounds().Dx())
}
