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

// TestOffMesh runs the example: every agent takes the jump, the only way
// down, once, and arrives; the PNG is written.
func TestOffMesh(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Equal(t, r.agents, r.arrived)
	assert.Equal(t, r.agents, r.started)
	assert.Equal(t, r.agents, r.finished)

	f, err := os.Open(filepath.Join(out, "offmesh.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
