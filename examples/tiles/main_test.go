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

// TestTiles runs the example: tiles are swapped twice while the agents
// walk, no agent stands in the wall while it stands or leaves the mesh,
// every agent walks round through the gap and arrives, and the PNG is
// written.
func TestTiles(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Positive(t, r.rebuilt[0])
	assert.Equal(t, r.rebuilt[0], r.rebuilt[1])
	assert.Zero(t, r.inWall)
	assert.Zero(t, r.offMesh)
	assert.Equal(t, r.agents, r.arrived)
	assert.Equal(t, r.agents, r.gap)

	f, err := os.Open(filepath.Join(out, "tiles.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
