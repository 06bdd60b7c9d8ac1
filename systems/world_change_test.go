package systems

import (
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChangedTilesFollowTheSnapshots: the tiles a flag edit changed are
// known after the next update, and only then; a path through a polygon
// closed there is blocked for a filter that excludes the new flag, open for
// one that does not; an unchanged snapshot changes nothing.
func TestChangedTilesFollowTheSnapshots(t *testing.T) {
	mesh, _, err := navmesh.LoadFile("../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	q, err := query.New(mesh, 64)
	require.NoError(t, err)
	var c changedTiles
	c.update(mesh.Snapshot())
	assert.False(t, c.active, "the first snapshot is where it starts")

	tile := mesh.Tile(0)
	require.NotNil(t, tile)
	path := []navmesh.Ref{tile.PolyRefBase() | 3, tile.PolyRefBase() | 4, tile.PolyRefBase() | 5}
	exclude := components.DefaultFilter()
	all := query.NewFilter()
	require.NoError(t, mesh.SetPolyFlags(path[1], navmesh.FlagWalk|navmesh.FlagDisabled))
	assert.False(t, c.blocked(path, q, &exclude), "not known before the update")
	c.update(mesh.Snapshot())
	require.True(t, c.active)
	assert.False(t, c.all)
	assert.True(t, c.touches(path[0]))
	assert.True(t, c.blocked(path, q, &exclude))
	assert.False(t, c.blocked(path, q, all))
	assert.True(t, pathPasses(path, q, all))
	assert.False(t, pathPasses(path, q, &exclude))

	c.update(mesh.Snapshot())
	assert.False(t, c.active, "nothing changed since")
	assert.False(t, c.blocked(path, q, &exclude))
	allocs := testing.AllocsPerRun(50, func() { c.update(mesh.Snapshot()) })
	assert.Zero(t, allocs)
}

// TestPushSpeedLimit: agents spawned on top of each other part without
// moving further in a tick than the limit allows, and still part; with the
// limit off they jump apart.
func TestPushSpeedLimit(t *testing.T) {
	for _, limit := range []float32{0, components.DefaultPushSpeedLimit} {
		w := newTestWorld(t, 4)
		a := w.spawn(t, hallA)
		b := w.spawn(t, geom.Add(hallA, geom.Vec3{0.05, 0, 0}))
		w.settings().PushSpeedLimit = limit
		run(w, &BoundaryUpdate{}, 1)
		var s CollisionResolve
		s.Initialize(w.world)
		params, pa, _, _, _, _, _, _, _, _ := w.get(a)
		_, pb, _, _, _, _, _, _, _, _ := w.get(b)
		largest := float32(0)
		for range 30 {
			before := pa.Vec3()
			s.Update(w.world)
			largest = max(largest, geom.Dist2D(before, pa.Vec3()))
		}
		if limit == 0 {
			assert.Greater(t, largest, float32(0.2), "the reference's pushes jump")
		} else {
			assert.LessOrEqual(t, largest, limit*params.MaxSpeed/60+1e-4)
		}
		assert.Greater(t, geom.Dist2D(pa.Vec3(), pb.Vec3()), float32(2*params.Radius)-0.05, "parted all the same")
	}
}
