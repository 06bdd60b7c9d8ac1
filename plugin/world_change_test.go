package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doorHall is a tiled 60 m × 8 m hall with a door across it at x 50..51
// (polygons of navmesh.AreaDoor, flagged FlagWalk|FlagDoor), in tiles of
// 2.4 m so that a corridor from one end to the door crosses more than the
// 10 polygons the reference checks each tick.
func doorHall(tb testing.TB) (*navmesh.Mesh, []navmesh.Ref) {
	tb.Helper()
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 60, 8, 0)
	g.BoxVolumes = []bake.BoxVolume{{Min: geom.Vec3{50, -1, -1}, Max: geom.Vec3{51, 1, 9}, Area: navmesh.AreaDoor}}
	tiled, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{TileSize: 8})
	require.NoError(tb, err)
	mesh, err := tiled.NavMesh()
	require.NoError(tb, err)
	var door []navmesh.Ref
	snap := mesh.Snapshot()
	for i := range snap.MaxTiles() {
		tile := snap.Tile(i)
		if tile == nil {
			continue
		}
		for k := range tile.Polys {
			if tile.Polys[k].Area() == navmesh.AreaDoor {
				door = append(door, tile.PolyRefBase()|navmesh.Ref(k))
			}
		}
	}
	require.NotEmpty(tb, door)
	return mesh, door
}

// setDoor opens or closes the door by navmesh.FlagDisabled.
func setDoor(tb testing.TB, mesh *navmesh.Mesh, door []navmesh.Ref, closed bool) {
	tb.Helper()
	for _, ref := range door {
		flags, err := mesh.PolyFlags(ref)
		require.NoError(tb, err)
		if closed {
			flags |= navmesh.FlagDisabled
		} else {
			flags &^= navmesh.FlagDisabled
		}
		require.NoError(tb, mesh.SetPolyFlags(ref, flags))
	}
}

// spawnAt spawns agents at starts and sends each to its target.
func spawnAt(tb testing.TB, p *Plugin, world *ecs.World, starts, targets []geom.Vec3) []ecs.Entity {
	tb.Helper()
	var agents []ecs.Entity
	for i, start := range starts {
		e, err := p.Spawn(world, start, components.DefaultAgentParams())
		require.NoError(tb, err)
		if targets != nil {
			require.NoError(tb, p.RequestMoveTarget(world, e, targets[i]))
		}
		agents = append(agents, e)
	}
	return agents
}

// TestClosedDoorWithDefaultFilters: a door closed with RecastDemo's
// "disabled" flag keeps a crowd with the default configuration out (the
// default filters exclude navmesh.FlagDisabled; they used to pass it).
func TestClosedDoorWithDefaultFilters(t *testing.T) {
	mesh, door := doorHall(t)
	setDoor(t, mesh, door, true)
	p, err := New(Config{Mesh: mesh, MaxAgents: 10})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	var starts, targets []geom.Vec3
	for i := range 6 {
		starts = append(starts, geom.Vec3{40 + float32(float32(i%3)*2), 0, 2 + float32(float32(i/3)*3)})
		targets = append(targets, geom.Vec3{57, 0, 4})
	}
	agents := spawnAt(t, p, &world, starts, targets)
	for tick := 0; tick < 600; tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
		for _, e := range agents {
			info, err := p.State(&world, e)
			require.NoError(t, err)
			require.Less(t, info.Position[0], float32(50), "tick %d: an agent walked through the closed door", tick)
		}
	}
	// Opened, the door lets them through.
	setDoor(t, mesh, door, false)
	for tick := 0; tick < 600; tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	for _, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		assert.Greater(t, info.Position[0], float32(51))
	}
}

// TestDoorClosedOnAgentsWalksThemOut: agents standing in a doorway when
// the door closes walk out under their own speed (no step longer than
// MaxSpeed·dt) and walk again beside it; the reference moves them to the
// nearest open polygon in one tick.
func TestDoorClosedOnAgentsWalksThemOut(t *testing.T) {
	mesh, door := doorHall(t)
	log := &eventLog{}
	p, err := New(Config{Mesh: mesh, MaxAgents: 10, OnEvent: log.record})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	starts := []geom.Vec3{{50.5, 0, 2}, {50.3, 0, 4}, {50.7, 0, 6}}
	agents := spawnAt(t, p, &world, starts, nil)
	require.NoError(t, p.Step(&world, 1.0/60))
	setDoor(t, mesh, door, true)

	params := components.DefaultAgentParams()
	limit := params.MaxSpeed/60 + 1e-4
	last := make([]geom.Vec3, len(agents))
	for i, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		last[i] = info.Position
	}
	for log.tick = 0; log.tick < 120; log.tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
		for i, e := range agents {
			info, err := p.State(&world, e)
			require.NoError(t, err)
			require.LessOrEqual(t, geom.Dist2D(info.Position, last[i]), limit, "tick %d agent %d jumped", log.tick, i)
			last[i] = info.Position
		}
	}
	lost, regained := 0, 0
	for _, ev := range log.events {
		switch ev.Kind {
		case components.EventGroundLost:
			lost++
		case components.EventGroundRegained:
			regained++
		}
	}
	assert.Equal(t, len(agents), lost)
	assert.Equal(t, len(agents), regained)
	for _, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		assert.Equal(t, components.AgentWalking, info.Mode)
		flags, err := mesh.PolyFlags(info.Poly)
		require.NoError(t, err)
		assert.Zero(t, flags&navmesh.FlagDisabled, "standing on the closed door")
		assert.True(t, info.Position[0] < 50 || info.Position[0] > 51, "out of the doorway: %v", info.Position)
	}
}

// TestClosedDoorReplansWholeCorridors: when a door closes far ahead of an
// agent, its corridor is checked in full that tick and replanned, so that
// it no longer leads through the door; the reference checks only the next
// 10 polygons and keeps walking towards the door.
func TestClosedDoorReplansWholeCorridors(t *testing.T) {
	mesh, door := doorHall(t)
	p, err := New(Config{Mesh: mesh, MaxAgents: 2})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	agents := spawnAt(t, p, &world, []geom.Vec3{{2, 0, 4}}, []geom.Vec3{{57, 0, 4}})
	for tick := 0; tick < 10; tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	isDoor := map[navmesh.Ref]bool{}
	for _, ref := range door {
		isDoor[ref] = true
	}
	corridor, err := p.Corridor(&world, agents[0], nil)
	require.NoError(t, err)
	doorAt := -1
	for i, ref := range corridor {
		if isDoor[ref] {
			doorAt = i
			break
		}
	}
	require.Greater(t, doorAt, 10, "the door lies beyond the reference's look-ahead")

	setDoor(t, mesh, door, true)
	require.NoError(t, p.Step(&world, 1.0/60))
	corridor, err = p.Corridor(&world, agents[0], corridor[:0])
	require.NoError(t, err)
	for _, ref := range corridor {
		assert.False(t, isDoor[ref], "the corridor still leads through the closed door")
	}
}

// TestTileRemovedAndAddedBackAgentsRecover: agents on a tile that is
// removed become invalid (or walk to the nearest tile left); when the tile
// comes back they walk again on their own and reach their targets (within
// a metre: two neighbours' separation can hold one a little short). In
// the reference they stay invalid until teleported.
func TestTileRemovedAndAddedBackAgentsRecover(t *testing.T) {
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 60, 30, 0)
	tiled, err := bake.Tiled(context.Background(), g, bake.DefaultSettings(), bake.TiledOptions{TileSize: 48})
	require.NoError(t, err)
	mesh, err := tiled.NavMesh()
	require.NoError(t, err)
	log := &eventLog{}
	p, err := New(Config{Mesh: mesh, MaxAgents: 20, OnEvent: log.record})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))

	// The agents stand on the tile at (21, 21), 14.4 m square.
	center := geom.Vec3{21.6, 0, 21.6}
	tx, ty := mesh.CalcTileLoc(center)
	var starts, targets []geom.Vec3
	for i := range 9 {
		starts = append(starts, geom.Add(center, geom.Vec3{float32(i%3-1) * 1.5, 0, float32(i/3-1) * 1.5}))
		targets = append(targets, geom.Vec3{3 + float32(float32(i)*5), 0, 3})
	}
	agents := spawnAt(t, p, &world, starts, nil)
	require.NoError(t, p.Step(&world, 1.0/60))

	ref := mesh.TileRefAt(tx, ty, 0)
	require.NotZero(t, ref)
	data, err := mesh.RemoveTile(ref)
	require.NoError(t, err)
	for log.tick = 0; log.tick < 60; log.tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	invalid := 0
	for _, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		if info.Mode == components.AgentInvalid {
			invalid++
		}
	}
	require.Greater(t, invalid, 0, "some agents stand too far from every other tile")
	for i, e := range agents {
		require.NoError(t, p.RequestMoveTarget(&world, e, targets[i]))
	}

	_, err = mesh.AddTile(data, 0)
	require.NoError(t, err)
	for ; log.tick < 60*20; log.tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
	}
	recovered := 0
	for _, ev := range log.events {
		if ev.Kind == components.EventAgentRecovered {
			recovered++
		}
	}
	assert.Equal(t, invalid, recovered)
	for i, e := range agents {
		info, err := p.State(&world, e)
		require.NoError(t, err)
		assert.Equal(t, components.AgentWalking, info.Mode, "agent %d", i)
		assert.Less(t, geom.Dist2D(info.Position, targets[i]), float32(1), "agent %d", i)
	}
}
