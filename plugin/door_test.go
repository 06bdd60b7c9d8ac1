package plugin

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDoorOpensAndCloses: a door spawned closed carves the floor under it
// at once; opened, the floor is back as navmesh.AreaDoor with flags
// FlagWalk|FlagDoor; closed again, gone again. Without a tile cache, or
// on an entity that is no obstacle, the calls fail and change nothing.
func TestDoorOpensAndCloses(t *testing.T) {
	w := newObstacleWorld(t, Config{})
	pose := components.ObstaclePose{Position: geom.Sub(dungeonFloor, geom.Vec3{0, 0.3, 0}), Yaw: 0.4}
	door, err := w.plugin.SpawnDoor(w.world, pose, 1.5, 0.4, 2, false)
	require.NoError(t, err)
	filter := components.DefaultFilter()
	floorArea := func() (uint8, uint16, bool) {
		nearest, err := w.q.FindNearestPoly(dungeonFloor, geom.Vec3{0.1, 1, 0.1}, &filter)
		require.NoError(t, err)
		if nearest.Ref == 0 {
			return 0, 0, false
		}
		area, err := w.cache.Mesh().PolyArea(nearest.Ref)
		require.NoError(t, err)
		flags, err := w.cache.Mesh().PolyFlags(nearest.Ref)
		require.NoError(t, err)
		return area, flags, true
	}
	for _, open := range []bool{false, true, false, true} {
		require.NoError(t, w.plugin.SetDoorOpen(w.world, door, open))
		w.step(t, 3)
		assert.True(t, w.state(t, door).Landed, "open %v", open)
		info, err := w.plugin.Obstacle(w.world, door)
		require.NoError(t, err)
		assert.Equal(t, open, info.Obstacle.DoorOpen())
		area, flags, found := floorArea()
		if !open {
			assert.False(t, found, "closed: carved")
			assert.Greater(t, w.ground(dungeonFloor), float32(0.3))
			continue
		}
		require.True(t, found, "open: floor")
		assert.Equal(t, navmesh.AreaDoor, area)
		assert.Equal(t, navmesh.FlagWalk|navmesh.FlagDoor, flags)
	}

	// Errors.
	agent, err := w.plugin.Spawn(w.world, geom.Add(dungeonFloor, geom.Vec3{0, 0, 6}), components.DefaultAgentParams())
	require.NoError(t, err)
	assert.ErrorIs(t, w.plugin.SetDoorOpen(w.world, agent, true), ErrNotObstacle)
	_, err = w.plugin.SpawnDoor(w.world, pose, 0, 0.4, 2, true)
	assert.ErrorIs(t, err, ErrInvalidInput)
	s := newArrivalScene(t, Config{})
	_, err = s.p.SpawnDoor(s.world, pose, 1.5, 0.4, 2, true)
	assert.ErrorIs(t, err, ErrNoTileCache)
}
