package navdraw_test

import (
	"image/color"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// dungeonPath runs reference pair 1 on the dungeon tile: its corridor, its
// straight path and the query that searched it.
func dungeonPath(t *testing.T) (*navmesh.Mesh, *query.Query, []navmesh.Ref, []query.StraightPathPoint) {
	t.Helper()
	mesh := testmesh.Dungeon(t)
	q, err := query.New(mesh, 2048)
	require.NoError(t, err)
	filter := query.NewFilter()
	pair := testmesh.ReferencePairs(t)[1]
	start, err := q.FindNearestPoly(pair.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	end, err := q.FindNearestPoly(pair.End, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)
	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(start.Ref, end.Ref, pair.Start, pair.End, filter, path)
	require.NoError(t, err)
	points := make([]query.StraightPathPoint, 64)
	ns, _, err := q.FindStraightPath(pair.Start, pair.End, path[:n], points, 0)
	require.NoError(t, err)
	require.Equal(t, pair.StraightCount, ns)
	return mesh, q, path[:n], points[:ns]
}

// detailTriangles returns the number of detail triangles of polygon ref.
func detailTriangles(t *testing.T, snap *navmesh.Snapshot, ref navmesh.Ref) int {
	tile, _, err := snap.TileAndPoly(ref)
	require.NoError(t, err)
	return int(tile.Data.DetailMeshes[ref.PolyIndex()].TriCount)
}

func TestCorridorFillsItsPolygons(t *testing.T) {
	mesh, _, path, _ := dungeonPath(t)
	snap := mesh.Snapshot()
	style := navdraw.DefaultStyle()
	r := record(func(d debugdraw.Drawer) { navdraw.Corridor(d, snap, path, style) })
	want := 0
	for _, ref := range path {
		want += detailTriangles(t, snap, ref)
	}
	assert.Equal(t, want, r.Count(debugdraw.KindTriangle))
	assert.Equal(t, want, r.Len())
	for _, p := range r.Primitives {
		assert.Equal(t, style.Corridor, p.Color)
	}
	// The corridor's triangles are the polygons' own, as Mesh fills them.
	one := record(func(d debugdraw.Drawer) { navdraw.Polygon(d, snap, path[0], color.NRGBA{1, 2, 3, 4}, style) })
	all := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Polygons, style) })
	for i, p := range one.Primitives {
		assert.Equal(t, all.Primitives[countBefore(t, snap, path[0])+i].Vertices, p.Vertices)
	}
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.Polygon(d, snap, 0, style.Corridor, style) }).Len(), "no polygon 0")
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.Polygon(d, nil, path[0], style.Corridor, style) }).Len())
}

// countBefore returns how many detail triangles the polygons before ref
// have in its tile.
func countBefore(t *testing.T, snap *navmesh.Snapshot, ref navmesh.Ref) int {
	tile, _, err := snap.TileAndPoly(ref)
	require.NoError(t, err)
	n := 0
	for i := range int(ref.PolyIndex()) {
		n += int(tile.Data.DetailMeshes[i].TriCount)
	}
	return n
}

func TestStraightPathDrawsLegsAndCorners(t *testing.T) {
	_, _, _, points := dungeonPath(t)
	style := navdraw.DefaultStyle()
	r := record(func(d debugdraw.Drawer) { navdraw.StraightPath(d, points, style) })
	require.Equal(t, len(points)-1, r.Count(debugdraw.KindLine))
	require.Equal(t, len(points), r.Count(debugdraw.KindPoint))
	lift := mgl32.Vec3{0, style.PathLift, 0}
	for i := range len(points) - 1 {
		line := r.Primitives[i]
		assert.Equal(t, points[i].Pos.Add(lift), line.Vertices[0])
		assert.Equal(t, points[i+1].Pos.Add(lift), line.Vertices[1])
	}
	// An off-mesh step becomes an arc with a head at its end.
	jump := []query.StraightPathPoint{
		{Pos: mgl32.Vec3{0, 0, 0}, Flags: query.StraightPathStart},
		{Pos: mgl32.Vec3{1, 0, 0}, Flags: query.StraightPathOffMeshConnection},
		{Pos: mgl32.Vec3{5, 0, 0}},
		{Pos: mgl32.Vec3{6, 0, 0}, Flags: query.StraightPathEnd},
	}
	r = record(func(d debugdraw.Drawer) { navdraw.StraightPath(d, jump, style) })
	assert.Equal(t, 2+debugdraw.ArcSegments+2, r.Count(debugdraw.KindLine))
	assert.Equal(t, 4, r.Count(debugdraw.KindPoint))
}

func TestSearchShowsNodesParentsAndClosedPolygons(t *testing.T) {
	mesh, q, _, _ := dungeonPath(t)
	snap := mesh.Snapshot()
	style := navdraw.DefaultStyle()
	nodes := q.SearchNodes(nil)
	r := record(func(d debugdraw.Drawer) { navdraw.Search(d, snap, nodes, style) })
	closed, parents := map[navmesh.Ref]bool{}, 0
	wantTriangles := 0
	for _, n := range nodes {
		if n.Closed && !closed[n.Ref] {
			closed[n.Ref] = true
			wantTriangles += detailTriangles(t, snap, n.Ref)
		}
		if n.Parent >= 0 {
			parents++
		}
	}
	assert.Equal(t, wantTriangles, r.Count(debugdraw.KindTriangle))
	assert.Equal(t, parents, r.Count(debugdraw.KindLine))
	assert.Equal(t, len(nodes), r.Count(debugdraw.KindPoint))
	for _, p := range r.Primitives {
		switch p.Kind {
		case debugdraw.KindTriangle:
			assert.Equal(t, style.ClosedPolygon, p.Color)
		case debugdraw.KindLine:
			assert.Equal(t, style.SearchParent, p.Color)
		case debugdraw.KindPoint:
			assert.Equal(t, style.SearchNode, p.Color)
		}
	}
}

func TestAgentsDrawTheirLayers(t *testing.T) {
	style := navdraw.DefaultStyle()
	agents := []navdraw.Agent{
		{
			Position: mgl32.Vec3{0, 0, 0}, Radius: 0.5, Height: 2,
			Velocity: mgl32.Vec3{1, 0, 0}, DesiredVelocity: mgl32.Vec3{1, 0, 1},
			Target: mgl32.Vec3{5, 0, 5}, HasTarget: true,
			Corners:    []query.StraightPathPoint{{Pos: mgl32.Vec3{2, 0, 0}}, {Pos: mgl32.Vec3{3, 0, 2}, Flags: query.StraightPathOffMeshConnection}},
			Neighbours: []mgl32.Vec3{{1, 0, 1}, {-1, 0, 0}},
			Selected:   true,
		},
		{Position: mgl32.Vec3{3, 0, 0}, Radius: 0.5, Height: 2, Color: color.NRGBA{1, 2, 3, 255}},
		{Position: mgl32.Vec3{6, 0, 0}, Radius: 0.5, Height: 2},
	}
	count := func(layers navdraw.AgentLayers) int {
		return record(func(d debugdraw.Drawer) { navdraw.Agents(d, agents, layers, style) }).Count(debugdraw.KindLine)
	}
	assert.Equal(t, 2+1, count(navdraw.AgentCorners), "a line per corner and the off-mesh mark")
	corners := record(func(d debugdraw.Drawer) { navdraw.Agents(d, agents, navdraw.AgentCorners, style) })
	assert.Equal(t, 2, corners.Count(debugdraw.KindPoint), "a dot per corner")
	assert.Equal(t, 2, count(navdraw.AgentNeighbours))
	assert.Equal(t, 3, count(navdraw.AgentTargets), "one cross")
	assert.Equal(t, 3*(2*debugdraw.CircleSegments+4), count(navdraw.AgentBodies))
	assert.Equal(t, 2*3, count(navdraw.AgentVelocities), "two arrows with a head each, none for the agents standing still")
	assert.Equal(t, 3+2+3+3*(2*debugdraw.CircleSegments+4)+6, count(navdraw.DefaultAgentLayers))

	bodies := record(func(d debugdraw.Drawer) { navdraw.Agents(d, agents, navdraw.AgentBodies, style) })
	per := 2*debugdraw.CircleSegments + 4
	assert.Equal(t, style.AgentSelected, bodies.Primitives[0].Color)
	assert.Equal(t, color.NRGBA{1, 2, 3, 255}, bodies.Primitives[per].Color)
	assert.Equal(t, style.Agent, bodies.Primitives[2*per].Color)
	bmin, bmax, _ := (&debugdraw.Recorder{Primitives: bodies.Primitives[:per]}).Bounds()
	assert.InDelta(t, -0.5, bmin[0], 1e-5)
	assert.InDelta(t, 0.5, bmax[2], 1e-5)
	assert.InDelta(t, 2, bmax[1], 1e-5, "as tall as the agent")

	velocities := record(func(d debugdraw.Drawer) { navdraw.Agents(d, agents[:1], navdraw.AgentVelocities, style) })
	assert.Equal(t, mgl32.Vec3{1, 2, 1}, velocities.Primitives[0].Vertices[1], "desired velocity from the head")
	assert.Equal(t, mgl32.Vec3{1, 2, 0}, velocities.Primitives[3].Vertices[1], "actual velocity from the head")
}

func TestBoundaryDarkensSegmentsFacingAway(t *testing.T) {
	style := navdraw.DefaultStyle()
	position := mgl32.Vec3{0, 0, 0}
	segments := []crowd.BoundarySegment{
		{P: mgl32.Vec3{-1, 0, 1}, Q: mgl32.Vec3{1, 0, 1}},
		{P: mgl32.Vec3{1, 0, 1}, Q: mgl32.Vec3{-1, 0, 1}},
	}
	r := record(func(d debugdraw.Drawer) { navdraw.Boundary(d, position, segments, style) })
	require.Equal(t, 2*3, r.Count(debugdraw.KindLine), "an arrow with one head per segment")
	// TriArea2D(position, P, Q) is negative for the second.
	assert.Equal(t, style.Boundary, r.Primitives[0].Color)
	assert.Equal(t, debugdraw.Darken(style.Boundary), r.Primitives[3].Color)
	assert.Equal(t, float32(0.2), r.Primitives[0].Vertices[0][1], "raised")
}

func TestAvoidanceSamplesAreSquaresByPenalty(t *testing.T) {
	style := navdraw.DefaultStyle()
	center := mgl32.Vec3{10, 2, 10}
	samples := []crowd.AvoidanceSample{
		{Velocity: mgl32.Vec3{1, 0, 0}, Size: 0.1, Penalty: 0},
		{Velocity: mgl32.Vec3{0, 0, 1}, Size: 0.2, Penalty: 1},
	}
	r := record(func(d debugdraw.Drawer) { navdraw.AvoidanceSamples(d, center, samples, style) })
	require.Equal(t, 4, r.Count(debugdraw.KindTriangle))
	assert.Equal(t, style.SampleBest, r.Primitives[0].Color)
	assert.Equal(t, style.SampleWorst, r.Primitives[2].Color)
	square := &debugdraw.Recorder{Primitives: r.Primitives[2:]}
	bmin, bmax, _ := square.Bounds()
	assert.Equal(t, mgl32.Vec3{9.8, 2, 10.8}, bmin, "centred on where the velocity leads in a second")
	assert.Equal(t, mgl32.Vec3{10.2, 2, 11.2}, bmax)
}
