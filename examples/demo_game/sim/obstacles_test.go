package sim

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
)

// cachedDungeon bakes the embedded dungeon into a tile cache.
func cachedDungeon(t *testing.T) *level.Level {
	t.Helper()
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	l, err := level.Load("", level.Options{TileCache: true, Workers: 2})
	require.NoError(t, err)
	require.NotNil(t, l.Cache)
	return l
}

// TestScriptDropsCratesAndSwingsTheDoor: the default run places a door
// across a passage the agents use, drops crates in their ways that carve
// the navmesh, closes the door and opens it again; agents stay on the
// navmesh and out of the carved crates throughout.
func TestScriptDropsCratesAndSwingsTheDoor(t *testing.T) {
	l := cachedDungeon(t)
	config := DefaultConfig()
	config.Agents = 30
	config.TileCache = l.Cache
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	require.True(t, s.HasTileCache())

	var obstacles []scene.Obstacle
	closedSeen := false
	for tick := 0; tick < 9*30; tick++ {
		require.NoError(t, s.Step(1.0/30))
		obstacles = s.Obstacles(obstacles, -1)
		for _, o := range obstacles {
			closedSeen = closedSeen || o.Kind == scene.DoorClosed
		}
		if tick == 2*30 {
			crates := 0
			for _, o := range obstacles {
				if o.Kind == scene.Crate {
					crates++
				}
			}
			assert.Equal(t, cratesAhead, crates, "crates dropped at 1.5 s")
			assert.Equal(t, 1, len(obstacles)-crates, "and a door")
		}
		if tick == 4*30 {
			assert.True(t, s.DoorClosed(), "closed at 3 s")
			for _, o := range obstacles {
				assert.False(t, o.Pending, "every crate and the closed door have carved by 4 s")
			}
		}
	}
	assert.True(t, closedSeen)
	assert.False(t, s.DoorClosed(), "open again at 7 s")
	for i, a := range s.Agents(nil) {
		p, ok := s.PointAt(a.Position[0], a.Position[2], a.Position[1]-0.5, a.Position[1]+0.5)
		require.True(t, ok, "agent %d at %v is on the navmesh", i, a.Position)
		assert.Less(t, geom.Dist2D(p, a.Position), float32(0.02))
	}
}

// TestDropAndDragCrate: a crate dropped at a point stands there and can be
// dragged (picked where it stands); without a tile cache there are no
// crates.
func TestDropAndDragCrate(t *testing.T) {
	l := cachedDungeon(t)
	config := DefaultConfig()
	config.Agents, config.Script, config.TileCache = 4, false, l.Cache
	s, err := New(l.Mesh, config)
	require.NoError(t, err)
	at := geom.Vec3{-0.6, 9.7, -11.0}
	i, err := s.DropCrate(at)
	require.NoError(t, err)
	assert.Equal(t, i, s.ObstacleAt(at[0], at[2]))
	assert.Equal(t, -1, s.ObstacleAt(at[0]+5, at[2]))
	run(t, s, 1)
	obstacles := s.Obstacles(nil, i)
	require.Len(t, obstacles, 1)
	assert.False(t, obstacles[0].Pending, "carved after standing still")
	assert.True(t, obstacles[0].Selected)

	require.NoError(t, s.MoveObstacle(i, at[0]+2, at[2]))
	require.NoError(t, s.Step(1.0/30))
	obstacles = s.Obstacles(obstacles, -1)
	assert.True(t, obstacles[0].Pending, "its hole goes while it moves")
	assert.Equal(t, i, s.ObstacleAt(at[0]+2, at[2]))
	run(t, s, 1)
	assert.False(t, s.Obstacles(obstacles, -1)[0].Pending)

	plain, err := New(dungeon(t).Mesh, DefaultConfig())
	require.NoError(t, err)
	_, err = plain.DropCrate(at)
	assert.ErrorIs(t, err, ErrNoTileCache)
	assert.False(t, plain.HasTileCache())
}
