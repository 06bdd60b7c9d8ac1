package query

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestQueriesDoNotAllocate checks that every query allocates nothing once
// its buffers exist.
func TestQueriesDoNotAllocate(t *testing.T) {
	q, filter, pair, start, end := walkSetup(t, 2048)
	custom := referenceFilter()
	custom.Custom = passThroughFilter{base: referenceFilter()}
	s, e := pair.Start, pair.End
	sr, er := start.Ref, end.Ref

	path := make([]navmesh.Ref, 256)
	n, _, err := q.FindPath(sr, er, s, e, filter, path)
	require.NoError(t, err)
	corridor := append([]navmesh.Ref(nil), path[:n]...)
	refs := make([]navmesh.Ref, 64)
	parents := make([]navmesh.Ref, 64)
	costs := make([]float32, 64)
	points := make([]StraightPathPoint, 64)
	segments := make([]WallSegment, 32)
	shape := []geom.Vec3{{s[0] - 2, s[1], s[2] - 2}, {s[0] - 2, s[1], s[2] + 2}, {s[0] + 2, s[1], s[2] + 2}, {s[0] + 2, s[1], s[2] - 2}}
	rng := &testmesh.LCG{State: 3}
	random := rng.Next
	count := 0
	visit := func(_ *navmesh.Tile, refs []navmesh.Ref) { count += len(refs) }

	for name, run := range map[string]func(){
		"FindNearestPoly":       func() { _, _ = q.FindNearestPoly(s, testmesh.DungeonHalfExtents, filter) },
		"FindNearestPolyCustom": func() { _, _ = q.FindNearestPoly(s, testmesh.DungeonHalfExtents, custom) },
		"QueryPolygons":         func() { _, _, _ = q.QueryPolygons(s, geom.Vec3{5, 5, 5}, filter, refs) },
		"QueryPolygonsFunc":     func() { _ = q.QueryPolygonsFunc(s, geom.Vec3{5, 5, 5}, filter, visit) },
		"FindPath":              func() { _, _, _ = q.FindPath(sr, er, s, e, filter, path) },
		"FindPathCustom":        func() { _, _, _ = q.FindPath(sr, er, s, e, custom, path) },
		"SlicedFindPath": func() {
			st, _ := q.InitSlicedFindPath(sr, er, s, e, filter, FindPathAnyAngle)
			for st.InProgress() {
				_, st, _ = q.UpdateSlicedFindPath(8)
			}
			_, _, _ = q.FinalizeSlicedFindPath(path)
		},
		"SlicedFindPathPartial": func() {
			_, _ = q.InitSlicedFindPath(sr, er, s, e, filter, 0)
			_, _, _ = q.UpdateSlicedFindPath(4)
			_, _, _ = q.FinalizeSlicedFindPathPartial(corridor, path)
		},
		"FindStraightPath":      func() { _, _, _ = q.FindStraightPath(s, e, corridor, points, StraightPathAllCrossings) },
		"MoveAlongSurface":      func() { _, _, _, _ = q.MoveAlongSurface(sr, s, geom.Vec3{s[0] + 3, s[1], s[2] + 1}, filter, refs) },
		"Raycast":               func() { _, _, _ = q.Raycast(sr, s, e, filter, RaycastUseCosts, 0, refs) },
		"FindDistanceToWall":    func() { _, _, _ = q.FindDistanceToWall(sr, s, 5, filter) },
		"FindPolysAroundCircle": func() { _, _, _ = q.FindPolysAroundCircle(sr, s, 5, filter, refs, parents, costs) },
		"FindPolysAroundShape":  func() { _, _, _ = q.FindPolysAroundShape(sr, shape, filter, refs, parents, costs) },
		"PathFromDijkstraSearch": func() {
			m, _, _ := q.FindPolysAroundCircle(sr, s, 5, filter, refs, parents, costs)
			_, _, _ = q.PathFromDijkstraSearch(refs[m-1], path)
		},
		"FindLocalNeighbourhood":      func() { _, _, _ = q.FindLocalNeighbourhood(sr, s, 4, filter, refs, parents) },
		"PolyWallSegments":            func() { _, _, _ = q.PolyWallSegments(sr, filter, true, segments) },
		"FindRandomPoint":             func() { _, _ = q.FindRandomPoint(filter, random) },
		"FindRandomPointAroundCircle": func() { _, _, _ = q.FindRandomPointAroundCircle(sr, s, 4, filter, random) },
		"ClosestPointOnPoly":          func() { _, _, _ = q.ClosestPointOnPoly(sr, s) },
		"ClosestPointOnPolyBoundary":  func() { _, _ = q.ClosestPointOnPolyBoundary(sr, s) },
		"PolyHeight":                  func() { _, _ = q.PolyHeight(sr, s) },
		"PolyHeightOutside":           func() { _, _ = q.PolyHeight(sr, e) },
		"PortalPoints":                func() { _, _, _, _, _ = q.PortalPoints(corridor[0], corridor[1]) },
		"EdgeMidPoint":                func() { _, _ = q.EdgeMidPoint(corridor[0], corridor[1]) },
		"IsValidPolyRef":              func() { _ = q.IsValidPolyRef(sr, filter) },
		"IsInClosedList":              func() { _ = q.IsInClosedList(sr) },
	} {
		t.Run(name, func(t *testing.T) {
			run()
			assert.Zero(t, testing.AllocsPerRun(50, run))
		})
	}
}

// TestWideBoxQuery checks a box query spanning more tile-grid cells than it
// walks one by one: it finds the same polygons and, once warm, allocates
// nothing.
func TestWideBoxQuery(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 64)
	require.NoError(t, err)
	filter := referenceFilter()
	center := geom.Vec3{0, 10, -40}
	wide := make([]navmesh.Ref, 256)
	n, status, err := q.QueryPolygons(center, geom.Vec3{1e6, 100, 1e6}, filter, wide)
	require.NoError(t, err)
	assert.False(t, status.BufferTooSmall())
	// The tile spans about 75×99 units: a 100-unit box covers it in one cell.
	narrow := make([]navmesh.Ref, 256)
	m, _, err := q.QueryPolygons(center, geom.Vec3{100, 100, 100}, filter, narrow)
	require.NoError(t, err)
	assert.Equal(t, narrow[:m], wide[:n])
	distinct := map[navmesh.Ref]bool{}
	for _, ref := range wide[:n] {
		distinct[ref] = true
	}
	assert.Len(t, distinct, 118, "every polygon of the tile passes the filter")
	// As in Detour, the unused zeroed node at the end of the BV tree reads
	// as a leaf for polygon 0 at the tile's minimum corner, so a box reaching
	// that corner lists polygon 0 twice.
	assert.Equal(t, 119, n)
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		_, _, _ = q.QueryPolygons(center, geom.Vec3{1e6, 100, 1e6}, filter, wide)
	}))
}
