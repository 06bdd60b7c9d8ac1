package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
)

// TestDropRampSendsAgentsUp: on the dungeon baked into a dynamic navmesh,
// a crate with a ramp dropped in the round room lands in the navmesh and
// the agents walk up the ramp onto the crate.
func TestDropRampSendsAgentsUp(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	l, err := level.Load("", level.Options{Dynamic: true, Workers: 2})
	require.NoError(t, err)
	require.NotNil(t, l.Dynamic)
	config := DefaultConfig()
	config.Agents = 12
	config.DynamicMesh = l.Dynamic
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	require.True(t, s.HasDynamicMesh())

	floor := geom.Vec3{40.6, 10.2, 0.65}
	require.NoError(t, s.DropRamp(floor))
	for range 30 * 40 {
		require.NoError(t, s.Step(1.0/30))
	}
	top := floor[1] + rampCrateHeight
	onTop := 0
	for _, a := range s.Agents([]scene.Agent(nil)) {
		if a.Position[1] > top-0.3 && geom.Dist2D(a.Position, floor) < rampCrateHalf {
			onTop++
		}
	}
	assert.GreaterOrEqual(t, onTop, 3, "agents went up the ramp onto the crate")

	plain, err := New(l.Mesh, DefaultConfig())
	require.NoError(t, err)
	assert.ErrorContains(t, plain.DropRamp(floor), "no dynamic navmesh")
}
