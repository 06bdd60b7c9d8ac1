package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestElevator runs the example: every agent queues (or walks straight
// in), rides up in a group of four, is let off and walks to its target,
// with its events in that order; no walking agent stands off the navmesh
// and none reaches the mezzanine without the ride.
func TestElevator(t *testing.T) {
	out := t.TempDir()
	var stdout bytes.Buffer
	r, err := run(out, &stdout)
	require.NoError(t, err)
	assert.Equal(t, r.agents, r.arrived)
	assert.Equal(t, []int{4, 4, 4}, r.groups)
	assert.Zero(t, r.offMesh)
	assert.Zero(t, r.skipped)
	require.Len(t, r.events, r.agents)
	for e, kinds := range r.events {
		if len(kinds) > 0 && kinds[0] == components.EventLinkQueued {
			kinds = kinds[1:]
		}
		assert.Equal(t, []components.EventKind{components.EventLinkReached, components.EventLinkCompleted, components.EventTargetReached}, kinds, "agent %v", e)
	}
	assert.Contains(t, stdout.String(), "wrote "+filepath.Join(out, "elevator.png"))

	f, err := os.Open(filepath.Join(out, "elevator.png"))
	require.NoError(t, err)
	defer f.Close()
	_, err = png.Decode(f)
	require.NoError(t, err)
}
