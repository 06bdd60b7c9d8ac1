package plugin

import (
	"context"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/systems"
	"github.com/mlange-42/arche/ecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// addBox adds the top and the four sides of a box [x0, x1] × [z0, z1]
// from height y0 up to y1, the sides facing out.
func addBox(g *bake.Geometry, x0, z0, x1, z1, y0, y1 float32) {
	addFloor(g, x0, z0, x1, z1, y1)
	side := func(a, b geom.Vec3) { // a quad from a to b, standing from y0 to y1, outside on the left of a→b seen from above
		base := int32(len(g.Vertices))
		g.Vertices = append(g.Vertices, geom.Vec3{a[0], y0, a[2]}, geom.Vec3{b[0], y0, b[2]}, geom.Vec3{b[0], y1, b[2]}, geom.Vec3{a[0], y1, a[2]})
		g.Triangles = append(g.Triangles, [3]int32{base, base + 1, base + 2}, [3]int32{base, base + 2, base + 3})
	}
	side(geom.Vec3{x0, 0, z0}, geom.Vec3{x1, 0, z0})
	side(geom.Vec3{x1, 0, z0}, geom.Vec3{x1, 0, z1})
	side(geom.Vec3{x1, 0, z1}, geom.Vec3{x0, 0, z1})
	side(geom.Vec3{x0, 0, z1}, geom.Vec3{x0, 0, z0})
}

// bakeWithLinks bakes g as one tile with the automatic links on.
func bakeWithLinks(tb testing.TB, g *bake.Geometry) (*navmesh.Mesh, []bake.OffMeshConnection) {
	tb.Helper()
	s := bake.DefaultSettings()
	s.Links = bake.DefaultLinkSettings()
	result, err := bake.Solo(context.Background(), g, s)
	require.NoError(tb, err)
	require.NotEmpty(tb, result.Links)
	mesh, err := navmesh.New(navmesh.SingleTileParams(result.TileData))
	require.NoError(tb, err)
	_, err = mesh.AddTile(result.TileData, 0)
	require.NoError(tb, err)
	return mesh, result.Links
}

// crossing follows one agent from start to goal for 10 s and records its
// events and its heights while it crosses an off-mesh connection.
type crossing struct {
	log     *eventLog
	heights []float32
	info    AgentInfo
}

func crossLevel(t *testing.T, mesh *navmesh.Mesh, start, goal geom.Vec3) crossing {
	log := &eventLog{}
	p, err := New(Config{Mesh: mesh, MaxAgents: 4, OnEvent: log.record})
	require.NoError(t, err)
	world := ecs.NewWorld()
	require.NoError(t, p.Install(&world))
	params := components.DefaultAgentParams()
	e, err := p.Spawn(&world, start, params)
	require.NoError(t, err)
	require.NoError(t, p.RequestMoveTarget(&world, e, goal))
	c := crossing{log: log}
	for log.tick = 0; log.tick < 600; log.tick++ {
		require.NoError(t, p.Step(&world, 1.0/60))
		c.info, err = p.State(&world, e)
		require.NoError(t, err)
		if c.info.Mode == components.AgentOffMesh {
			c.heights = append(c.heights, c.info.Position[1])
		}
	}
	return c
}

// TestCrowdJumpsAGap: two floors 1.5 apart in the air, baked with links:
// the agent crosses by a jump (both ways are one two-way link), rising
// along the arc to about the jump height, 0.4, above the floors, in the
// ballistic time, and arrives.
func TestCrowdJumpsAGap(t *testing.T) {
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 10, 10, 0)
	addFloor(g, 11.5, 0, 21.5, 10, 0)
	mesh, links := bakeWithLinks(t, g)
	for _, l := range links {
		kind, _ := navmesh.ParseAutoLinkUserID(l.UserID)
		require.Equal(t, navmesh.LinkJump, kind)
		require.True(t, l.Bidirectional)
	}
	for _, way := range []struct{ from, to geom.Vec3 }{{geom.Vec3{3, 0, 5}, geom.Vec3{18, 0, 5}}, {geom.Vec3{18, 0, 5}, geom.Vec3{3, 0, 5}}} {
		c := crossLevel(t, mesh, way.from, way.to)
		require.Equal(t, []components.EventKind{
			components.EventOffMeshStarted, components.EventOffMeshFinished, components.EventTargetReached,
		}, c.log.kinds())
		require.NotEmpty(t, c.heights)
		floor, peak, airborne := c.heights[0], c.heights[0], 0
		for _, h := range c.heights {
			peak = max(peak, h)
			if h > floor+1e-3 {
				airborne++
			}
		}
		assert.InDelta(t, 0.4, peak-floor, 0.02, "the arc's apex above the floors")
		// Ballistic: up and down 0.4 take 2·√(0.8 / g) = 0.571 s.
		assert.InDelta(t, 0.571*60, airborne, 2)
		assert.True(t, c.info.Arrived)
		assert.Less(t, geom.Dist2D(c.info.Position, way.to), float32(0.5))
	}
}

// TestCrowdDropsOffALedge: from the top of a 2 high platform to the ground
// around it the only way is a drop: the agent walks off level, falls
// (never rising) to the ground in the time a fall of 2 takes, and arrives.
func TestCrowdDropsOffALedge(t *testing.T) {
	g := &bake.Geometry{}
	addFloor(g, 0, 0, 20, 20, 0)
	addBox(g, 6, 6, 14, 14, 0, 2)
	mesh, _ := bakeWithLinks(t, g)
	c := crossLevel(t, mesh, geom.Vec3{10, 2, 10}, geom.Vec3{10, 0, 17})
	require.Equal(t, []components.EventKind{
		components.EventOffMeshStarted, components.EventOffMeshFinished, components.EventTargetReached,
	}, c.log.kinds())
	started := c.log.events[0]
	con, err := mesh.OffMeshConnectionByRef(started.Poly)
	require.NoError(t, err)
	kind, _ := navmesh.ParseAutoLinkUserID(con.UserID)
	assert.Equal(t, navmesh.LinkDrop, kind)
	for i := 1; i < len(c.heights); i++ {
		assert.LessOrEqual(t, c.heights[i], c.heights[i-1]+1e-4, "never rises")
	}
	assert.InDelta(t, 2, c.heights[0], 0.3, "starts on the ledge")
	// A fall of 2 takes √(4 / g) = 0.64 s.
	falling := 0
	for _, h := range c.heights {
		if h < c.heights[0]-1e-3 {
			falling++
		}
	}
	fall := float64(geom.Sqrt(2 * 2 / systems.LinkGravity))
	assert.InDelta(t, fall*60, falling, 2)
	assert.True(t, c.info.Arrived)
}
