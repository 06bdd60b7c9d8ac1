package crowd

import (
	"errors"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// TestMovePositionNoFartherRefusesBorderJumps: after a tile cache carve
// next to a tile border, the border edge of the rebuilt tile covers only
// part of its neighbour's, and Detour's moveAlongSurface moves a point that
// steps across the uncovered part to the rebuilt tile's nearest wall, a
// jump of up to half a metre. MovePositionNoFarther refuses exactly the
// moves that end farther from their goal than they start or go beyond it;
// every other move it makes as MovePositionToSurface does.
func TestMovePositionNoFartherRefusesBorderJumps(t *testing.T) {
	file, err := os.ReadFile("../tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, mesh, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(t, err)
	// A carving cylinder east of the border x = 18.185 between tiles (2, 2)
	// and (3, 2).
	_, err = cache.AddObstacle(tilecache.Cylinder(geom.Vec3{19.546595, 9.736411, -52.390026}, 1.6, 2.9))
	require.NoError(t, err)
	for done := false; !done; {
		done, err = cache.Update(tilecache.Budget{})
		require.NoError(t, err)
	}
	q, err := query.New(mesh, 512)
	require.NoError(t, err)
	filter := query.NewFilter()
	plain, err := NewCorridor(16)
	require.NoError(t, err)
	guarded, err := NewCorridor(16)
	require.NoError(t, err)

	jumps, ordinary, refusals := 0, 0, 0
	for z := float32(-53.5); z <= -50; z += 0.02 {
		start := geom.Vec3{18.1840, 10.2, z}
		nearest, err := q.FindNearestPoly(start, geom.Vec3{0.05, 1, 0.05}, filter)
		require.NoError(t, err)
		if nearest.Ref == 0 || geom.Dist2D(nearest.Point, start) > 0.001 {
			continue
		}
		goal := geom.Add(nearest.Point, geom.Vec3{0.01, 0, 0.05})
		plain.Reset(nearest.Ref, nearest.Point)
		guarded.Reset(nearest.Ref, nearest.Point)
		require.NoError(t, plain.MovePositionToSurface(goal, q, filter))
		err = guarded.MovePositionNoFarther(goal, q, filter, true)
		moved := geom.Dist2D(plain.Position(), nearest.Point)
		step := geom.Dist2D(goal, nearest.Point)
		away := geom.Dist2D(plain.Position(), goal) > step+moveAwayTolerance || moved > step+moveAwayTolerance
		if moved > 0.1 {
			jumps++
		}
		if away {
			assert.True(t, errors.Is(err, ErrMoveAway), "z %v: a %.2f m move for a %.2f m step is refused", z, moved, step)
			assert.Equal(t, nearest.Point, guarded.Position(), "nothing changes")
			refusals++
			if refusals == 1 {
				// A crowd meets refusals every tick: they must not allocate.
				allocs := testing.AllocsPerRun(20, func() {
					_ = guarded.MovePositionNoFarther(goal, q, filter, true)
				})
				assert.Zero(t, allocs, "a refused move allocates nothing")
			}
			continue
		}
		ordinary++
		require.NoError(t, err, "z %v", z)
		assert.Equal(t, plain.Position(), guarded.Position())
		assert.Equal(t, plain.Path(), guarded.Path())
	}
	assert.Positive(t, jumps, "the border jump happens")
	assert.Greater(t, ordinary, 50)
}
