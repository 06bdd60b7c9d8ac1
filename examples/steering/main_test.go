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

// TestSteering runs the example: without the system agents walk through
// the fire, with it none comes within its radius, and all arrive either
// way.
func TestSteering(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Equal(t, [2]int{agentsNum, agentsNum}, r.arrived)
	assert.Less(t, r.closest[0], fire.Radius)
	assert.Greater(t, r.closest[1], fire.Radius)

	f, err := os.Open(filepath.Join(out, "steering.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
