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

// TestAreaCosts runs the example: both groups arrive; the one that finds
// grass costly walks farther and hardly sets foot in it, the other goes
// straight through.
func TestAreaCosts(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Equal(t, [2]int{perTeam, perTeam}, r.arrived)
	assert.Greater(t, r.inGrass[0], 300, "straight through the grass")
	assert.Less(t, r.inGrass[1], r.inGrass[0]/10, "round it")
	assert.Greater(t, r.walked[1], r.walked[0]+5)

	f, err := os.Open(filepath.Join(out, "areacosts.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
