package plugin

import (
	"fmt"
	"math"
	"testing"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nearestPolyDistanceBruteForce looks at every polygon of mesh that filter
// passes.
func nearestPolyDistanceBruteForce(mesh *navmesh.Mesh, pos geom.Vec3, filter *query.Filter) float32 {
	snap := mesh.Snapshot()
	best := float32(math.MaxFloat32)
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil {
			continue
		}
		for p := range tile.Polys {
			poly := &tile.Polys[p]
			ref := tile.PolyRefBase() | navmesh.Ref(p)
			if poly.Type() != navmesh.PolyTypeGround || !filter.Passes(ref, tile, poly) {
				continue
			}
			closest, _ := tile.ClosestPointOnPoly(poly, pos)
			best = min(best, geom.Dist(pos, closest))
		}
	}
	return best
}

// targetFixture is one agent on the dungeon's lower floor.
func targetFixture(t *testing.T, config Config) (*Plugin, *ecs.World, ecs.Entity) {
	t.Helper()
	config.Mesh = loadDungeon(t)
	config.MaxAgents = 4
	p, err := New(config)
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	e, err := p.Spawn(&world, geom.Vec3{-9.17, 10.2, -20.34}, components.DefaultAgentParams())
	require.NoError(t, err)
	return p, &world, e
}

// TestMoveTargetsSnapWithinTheTargetBox: a target off the navmesh within
// Settings.TargetHalfExtents goes to the nearest polygon point; one beyond
// it is refused, the error naming the distance to the nearest polygon and
// the setting to widen; widening it, by Config or by the Settings resource,
// snaps it.
func TestMoveTargetsSnapWithinTheTargetBox(t *testing.T) {
	floor := geom.Vec3{11.2181969, 10.1972942, -0.930570245} // on the dungeon's floor
	above := func(height float32) geom.Vec3 { return geom.Add(floor, geom.Vec3{0, height, 0}) }

	t.Run("default box", func(t *testing.T) {
		p, world, e := targetFixture(t, Config{})
		assert.Equal(t, geom.Vec3{2, 4, 2}, p.settings.Get().TargetHalfExtents)
		require.NoError(t, p.RequestMoveTarget(world, e, above(3)), "3 m above the floor: snapped")
		info, err := p.State(world, e)
		require.NoError(t, err)
		assert.InDelta(t, floor[1], info.TargetPosition[1], 0.2, "on the floor")
		assert.InDelta(t, 0, geom.Dist2D(floor, info.TargetPosition), 1e-3)

		target := above(7)
		err = p.RequestMoveTarget(world, e, target)
		require.ErrorIs(t, err, ErrOffMesh)
		want := nearestPolyDistanceBruteForce(p.config.Mesh, target, query.NewFilter())
		assert.ErrorContains(t, err, fmt.Sprintf("no polygon within ±(2, 4, 2) of it, the nearest is %.3g away", want))
		assert.ErrorContains(t, err, "widen Config.TargetHalfExtents")
		info, err = p.State(world, e)
		require.NoError(t, err)
		assert.InDelta(t, floor[1], info.TargetPosition[1], 0.2, "the failed request changed nothing")

		// Widened at run time through the Settings resource.
		settings := generic.NewResource[components.Settings](world)
		settings.Get().TargetHalfExtents = geom.Vec3{2, 8, 2}
		require.NoError(t, p.RequestMoveTarget(world, e, target))
	})
	t.Run("widened by config", func(t *testing.T) {
		p, world, e := targetFixture(t, Config{TargetHalfExtents: geom.Vec3{2, 8, 2}})
		require.NoError(t, p.RequestMoveTarget(world, e, above(7)))
		for range 600 {
			require.NoError(t, p.Step(world, 1.0/60))
		}
		info, err := p.State(world, e)
		require.NoError(t, err)
		assert.True(t, info.Arrived, "walked to the snapped target")
	})
	t.Run("reference", func(t *testing.T) {
		// The reference searches the placement box (2, 1.5, 2 radii).
		p, world, e := targetFixture(t, Config{Reference: true})
		assert.Equal(t, p.settings.Get().PlacementHalfExtents, p.settings.Get().TargetHalfExtents)
		err := p.RequestMoveTarget(world, e, above(3))
		require.ErrorIs(t, err, ErrOffMesh)
		assert.ErrorContains(t, err, "no polygon within ±(1.2, 0.9, 1.2) of it, the nearest is 3 away")
	})
	t.Run("spawn", func(t *testing.T) {
		p, world, _ := targetFixture(t, Config{})
		_, err := p.Spawn(world, above(3), components.DefaultAgentParams())
		require.ErrorIs(t, err, ErrOffMesh)
		assert.ErrorContains(t, err, "widen Settings.PlacementHalfExtents (2, 1.5, 2 × Config.MaxAgentRadius)")
	})
	t.Run("far away", func(t *testing.T) {
		// Issue 27: at 1e30 the float32 distances overflow and no polygon
		// is found; the message blamed the filter, which passes polygons.
		p, world, e := targetFixture(t, Config{})
		err := p.RequestMoveTarget(world, e, geom.Vec3{1e30, 0, 0})
		require.ErrorIs(t, err, ErrOffMesh)
		assert.ErrorContains(t, err, "it lies 1e+30 world units from the navmesh of agent type")
		assert.ErrorContains(t, err, "too far to search for a polygon")
		assert.NotContains(t, err.Error(), "filter")
		_, err = p.Spawn(world, geom.Vec3{0, -1e30, 0}, components.DefaultAgentParams())
		require.ErrorIs(t, err, ErrOffMesh)
		assert.ErrorContains(t, err, "it lies 1e+30 world units from the navmesh")
	})
	t.Run("nothing passes the filter", func(t *testing.T) {
		none := query.NewFilter()
		none.IncludeFlags = 0
		p, world, e := targetFixture(t, Config{Filters: []query.Filter{*query.NewFilter(), *none}})
		params := components.DefaultAgentParams()
		params.Filter = 1
		require.NoError(t, p.UpdateParams(world, e, params))
		err := p.RequestMoveTarget(world, e, floor)
		require.ErrorIs(t, err, ErrOffMesh)
		assert.ErrorContains(t, err, "no polygon the agent's filter 1 passes on the whole navmesh")
	})
}

func TestTargetHalfExtentsIsChecked(t *testing.T) {
	mesh := loadDungeon(t)
	for _, extents := range []geom.Vec3{{0, 1, 1}, {-1, 1, 1}, {1, float32(math.NaN()), 1}, {1, 1, float32(math.Inf(1))}} {
		_, err := New(Config{Mesh: mesh, TargetHalfExtents: extents})
		assert.ErrorIs(t, err, ErrInvalidConfig, "%v", extents)
	}
}

func TestNearestPolyDistanceMatchesBruteForce(t *testing.T) {
	p, _, _ := targetFixture(t, Config{})
	filter := query.NewFilter()
	snap := p.config.Mesh.Snapshot()
	tile := snap.Tile(0)
	bmin, bmax := tile.Data.Header.BMin, tile.Data.Header.BMax
	for i := range 200 {
		// A grid of points around and above the level.
		f := func(k int, lo, hi float32) float32 { return lo - 10 + float32(float32(k)/9*(hi-lo+20)) }
		pos := geom.Vec3{f(i%10, bmin[0], bmax[0]), f((i/10)%10, bmin[1], bmax[1]), f(i/100*9, bmin[2], bmax[2])}
		got, found := p.nearestPolyDistance(&p.types[0], pos, geom.Vec3{1, 1, 1}, filter)
		require.True(t, found)
		assert.InDelta(t, nearestPolyDistanceBruteForce(p.config.Mesh, pos, filter), got, 1e-4, "%v", pos)
	}
}
