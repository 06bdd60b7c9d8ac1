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

// TestAgentTypes runs the example: every agent arrives; the soldiers take
// the narrow gap, no ogre does, and the ogres walk farther round by the
// wide one.
func TestAgentTypes(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	t.Log(stdout.String())
	assert.Equal(t, [2]int{perType, perType}, r.arrived)
	assert.Equal(t, perType, r.throughNarrow[0], "the soldiers take the narrow gap")
	assert.Zero(t, r.throughNarrow[1], "an ogre squeezed through the narrow gap")
	assert.Greater(t, r.walked[1], r.walked[0]+5, "the ogres go round")

	f, err := os.Open(filepath.Join(out, "agenttypes.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
