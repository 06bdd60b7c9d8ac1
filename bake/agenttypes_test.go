package bake

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// typeTestLevels are the levels the agent-type bakes are compared on:
// dungeon by default, nav_test too with ARCHENAV_LONG=1 (CI).
func typeTestLevels() []string {
	if longtest.Enabled() {
		return []string{"dungeon", "nav_test"}
	}
	return []string{"dungeon"}
}

// testAgentTypes returns five types over the default settings that share
// in every way there is: ogre shares the soldier's rasterization only (it
// is taller), scout and jumper (with automatic links) share its compact
// stages too (they differ from it in radius and links alone), and cart
// (another climb and slope) shares nothing.
func testAgentTypes() []AgentType {
	soldier := DefaultSettings()
	ogre := soldier
	ogre.AgentRadius, ogre.AgentHeight = 1.5, 3
	scout := soldier
	scout.AgentRadius = 0.3
	cart := soldier
	cart.AgentRadius, cart.AgentMaxClimb, cart.AgentMaxSlope = 0.9, 0.3, 30
	jumper := soldier
	jumper.Links = DefaultLinkSettings()
	return []AgentType{
		{Name: "soldier", Settings: soldier},
		{Name: "ogre", Settings: ogre},
		{Name: "scout", Settings: scout},
		{Name: "cart", Settings: cart},
		{Name: "jumper", Settings: jumper},
	}
}

// requireSameSolo checks that got holds the products of want byte for byte:
// configuration, meshes, tile blob, links, fingerprints, counts and
// warnings (the stage times aside).
func requireSameSolo(t *testing.T, want, got *SoloResult, name string) {
	t.Helper()
	require.Equal(t, want.Config, got.Config, "%s: config", name)
	require.Equal(t, want.PolyMesh, got.PolyMesh, "%s: poly mesh", name)
	require.Equal(t, want.DetailMesh, got.DetailMesh, "%s: detail mesh", name)
	wantBlob, err := navmesh.MarshalDNAV(want.TileData)
	require.NoError(t, err)
	gotBlob, err := navmesh.MarshalDNAV(got.TileData)
	require.NoError(t, err)
	require.Equal(t, wantBlob, gotBlob, "%s: tile blob", name)
	require.Equal(t, want.Links, got.Links, "%s: links", name)
	require.Equal(t, want.Fingerprints, got.Fingerprints, "%s: fingerprints", name)
	require.Equal(t, want.Stats.Counts, got.Stats.Counts, "%s: counts", name)
	require.Equal(t, want.Stats.Warnings, got.Stats.Warnings, "%s: warnings", name)
	require.Equal(t, want.Stats.DroppedWarnings, got.Stats.DroppedWarnings, "%s: dropped warnings", name)
}

func TestSoloTypesEqualSeparateBakes(t *testing.T) {
	types := testAgentTypes()
	for _, level := range typeTestLevels() {
		t.Run(level, func(t *testing.T) {
			g := loadTestMesh(t, level)
			separate := make([]*SoloResult, len(types))
			for i, at := range types {
				var err error
				separate[i], err = Solo(context.Background(), g, at.Settings)
				require.NoError(t, err, at.Name)
			}
			for _, workers := range []int{1, 3} {
				var calls []int
				result, err := SoloTypes(context.Background(), g, types, SoloTypesOptions{
					Workers:  workers,
					Progress: func(done, total int) { calls = append(calls, done); assert.Equal(t, len(types), total) },
				})
				require.NoError(t, err, "%d workers", workers)
				require.Len(t, result.Results, len(types))
				for i := range types {
					requireSameSolo(t, separate[i], result.Results[i], fmt.Sprintf("%s, %d workers", types[i].Name, workers))
				}
				assert.Equal(t, []int{1, 2, 3, 4, 5}, calls)
				assert.Equal(t, TypesStats{Bakes: 5, Rasterizations: 2, Compactions: 3, Workers: workers, Wall: result.Stats.Wall}, result.Stats)
				assert.Equal(t, types, result.Types)
			}
		})
	}
}

// smallAndLarge are a 0.6 m and a 1.5 m agent of the default height.
func smallAndLarge() []AgentType {
	small, large := DefaultSettings(), DefaultSettings()
	large.AgentRadius = 1.5
	return []AgentType{{Name: "small", Settings: small}, {Name: "large", Settings: large}}
}

// walk returns the straight path from a to b on q's mesh and its length in
// 3D, ok false when either end is off the mesh or b cannot be reached.
func walk(t *testing.T, q *query.Query, a, b geom.Vec3) (points []geom.Vec3, length float32, ok bool) {
	t.Helper()
	filter := query.NewFilter()
	extents := geom.Vec3{0.5, 2, 0.5}
	start, err := q.FindNearestPoly(a, extents, filter)
	require.NoError(t, err)
	end, err := q.FindNearestPoly(b, extents, filter)
	require.NoError(t, err)
	if start.Ref == 0 || end.Ref == 0 {
		return nil, 0, false
	}
	corridor := make([]navmesh.Ref, 256)
	n, status, err := q.FindPath(start.Ref, end.Ref, start.Point, end.Point, filter, corridor)
	require.NoError(t, err)
	if status.Partial() {
		return nil, 0, false
	}
	corners := make([]query.StraightPathPoint, 256)
	m, _, err := q.FindStraightPath(start.Point, end.Point, corridor[:n], corners, 0)
	require.NoError(t, err)
	for i := range m {
		points = append(points, corners[i].Pos)
		if i > 0 {
			length += geom.Dist(corners[i].Pos, corners[i-1].Pos)
		}
	}
	return points, length, true
}

// onMesh reports whether a polygon of q's mesh lies within 0.3 m of p in xz
// (and 2 m in y).
func onMesh(t *testing.T, q *query.Query, p geom.Vec3) bool {
	t.Helper()
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.3, 2, 0.3}, query.NewFilter())
	require.NoError(t, err)
	return nearest.Ref != 0
}

// wallDistance returns the distance from p to the nearest wall of q's mesh
// (up to 5 m).
func wallDistance(t *testing.T, q *query.Query, p geom.Vec3) float32 {
	t.Helper()
	filter := query.NewFilter()
	nearest, err := q.FindNearestPoly(p, geom.Vec3{0.3, 2, 0.3}, filter)
	require.NoError(t, err)
	hit, _, err := q.FindDistanceToWall(nearest.Ref, nearest.Point, 5, filter)
	require.NoError(t, err)
	return hit.Distance
}

// typeQueries bakes the types on level and returns a query per type's mesh.
func typeQueries(t *testing.T, level string, types []AgentType) []*query.Query {
	t.Helper()
	result, err := SoloTypes(context.Background(), loadTestMesh(t, level), types, SoloTypesOptions{})
	require.NoError(t, err)
	set, err := result.MeshSet()
	require.NoError(t, err)
	queries := make([]*query.Query, len(set))
	for i := range set {
		queries[i], err = query.New(set[i].Mesh, 2048)
		require.NoError(t, err)
	}
	return queries
}

// TestLargeAgentLosesTheNarrowPassages bakes a 0.6 m and a 1.5 m agent and
// walks both through a narrow passage of each level: the small agent goes
// through, the large one's mesh does not have it.
func TestLargeAgentLosesTheNarrowPassages(t *testing.T) {
	t.Run("dungeon stair", func(t *testing.T) {
		// The narrow stair up from the courtyard at the north end: its
		// middle lies less than 0.9 m (1.5 - 0.6) from the small agent's
		// walls, so the large agent's erosion takes it all.
		queries := typeQueries(t, "dungeon", smallAndLarge())
		small, large := queries[0], queries[1]
		bottom, middle, top := geom.Vec3{18.18, 15, -71.74}, geom.Vec3{19.0, 17.5, -76.2}, geom.Vec3{18.71, 20.05, -80.07}
		points, length, ok := walk(t, small, bottom, top)
		require.True(t, ok, "the small agent climbs the stair")
		assert.InDelta(t, 9.83, length, 0.01)
		assert.InDelta(t, 5, points[len(points)-1][1]-points[0][1], 0.1, "5 m up")
		assert.True(t, onMesh(t, small, middle))
		assert.Less(t, wallDistance(t, small, middle), float32(0.9))

		assert.True(t, onMesh(t, large, bottom), "the large agent reaches the foot of the stair")
		assert.False(t, onMesh(t, large, middle), "but its mesh has no stair")
		assert.False(t, onMesh(t, large, top))
		_, _, ok = walk(t, large, bottom, top)
		assert.False(t, ok)
	})
	t.Run("nav_test gap", func(t *testing.T) {
		// A gap between two blocks at (-13, -10.5) on the lower floor: the
		// small agent's path turns through it, the large one walks around.
		queries := typeQueries(t, "nav_test", smallAndLarge())
		small, large := queries[0], queries[1]
		a, b, gap := geom.Vec3{-4.06, -2.27, -15.55}, geom.Vec3{-15.03, -2.27, -6.94}, geom.Vec3{-12.99, -2.27, -10.45}
		smallPath, smallLength, ok := walk(t, small, a, b)
		require.True(t, ok)
		largePath, largeLength, ok := walk(t, large, a, b)
		require.True(t, ok)
		assert.InDelta(t, 14.40, smallLength, 0.01)
		assert.InDelta(t, 39.09, largeLength, 0.01)
		assert.Less(t, distanceToPath(gap, smallPath), float32(0.1), "the small agent walks through the gap")
		assert.Greater(t, distanceToPath(gap, largePath), float32(3), "the large agent keeps away from it")
	})
}

// distanceToPath returns the distance in xz from p to the polyline.
func distanceToPath(p geom.Vec3, path []geom.Vec3) float32 {
	best := float32(math.MaxFloat32)
	for i := 1; i < len(path); i++ {
		a, b := path[i-1], path[i]
		ab := geom.Vec3{b[0] - a[0], 0, b[2] - a[2]}
		ap := geom.Vec3{p[0] - a[0], 0, p[2] - a[2]}
		s := float32(0)
		if d := geom.Dot(ab, ab); d > 0 {
			s = min(max(geom.Dot(ap, ab)/d, 0), 1)
		}
		best = min(best, geom.Dist(ap, geom.Scale(ab, s)))
	}
	return best
}

func TestSoloTypesChecksEverythingFirst(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	good := DefaultSettings()
	bad := good
	bad.CellSize = -1
	tests := []struct {
		name  string
		types []AgentType
		want  string
	}{
		{"no types", nil, "0 meshes"},
		{"duplicate names", []AgentType{{Name: "a", Settings: good}, {Name: "a", Settings: good}}, `name "a" already used`},
		{"unnamed among several", []AgentType{{Name: "a", Settings: good}, {Settings: good}}, "empty name"},
		{"bad settings", []AgentType{{Name: "a", Settings: good}, {Name: "b", Settings: bad}}, `agent type "b": bake: settings: CellSize -1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var progress atomic.Int32
			result, err := SoloTypes(context.Background(), g, tt.types, SoloTypesOptions{Progress: func(int, int) { progress.Add(1) }})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Nil(t, result)
			assert.Zero(t, progress.Load(), "nothing baked")
		})
	}
	one, err := SoloTypes(context.Background(), g, []AgentType{{Settings: good}}, SoloTypesOptions{})
	require.NoError(t, err, "one type may be unnamed")
	assert.Equal(t, TypesStats{Bakes: 1, Rasterizations: 1, Compactions: 1, Workers: 1, Wall: one.Stats.Wall}, one.Stats)
}

func TestSoloTypesFailureAndCancellation(t *testing.T) {
	g := loadTestMesh(t, "dungeon")
	types := testAgentTypes()[:3]
	// Area flags outside the navmesh's areas fail every type at its tile
	// data.
	bad := WithAreaFlags(func(uint8) (uint8, uint16) { return navmesh.MaxAreas, 0 })
	result, err := SoloTypes(context.Background(), g, types, SoloTypesOptions{Workers: 3, Options: []SoloOption{bad}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "area mapping gave area 64")
	assert.Nil(t, result)
	// A giant's radius erodes the whole level: its bake fails alone, and
	// its error is returned whatever the others were doing.
	giant := types[0].Settings
	giant.AgentRadius = 50
	withGiant := []AgentType{types[0], {Name: "giant", Settings: giant}, types[1], types[2]}
	for _, workers := range []int{1, 2, 4} {
		result, err := SoloTypes(context.Background(), g, withGiant, SoloTypesOptions{Workers: workers})
		require.ErrorIs(t, err, ErrNoPolygons, "%d workers", workers)
		assert.Contains(t, err.Error(), `agent type "giant"`)
		assert.Nil(t, result)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	result, err = SoloTypes(ctx, g, types, SoloTypesOptions{Workers: 2})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, result)

	// Cancelled after the first type: the bakes waiting for a shared stage
	// or between stages stop.
	ctx, cancel = context.WithCancel(context.Background())
	result, err = SoloTypes(ctx, g, testAgentTypes(), SoloTypesOptions{Workers: 1, Progress: func(done, _ int) {
		if done == 1 {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, result)
}

func TestSoloTypesMeshSet(t *testing.T) {
	types := testAgentTypes()[:2]
	result, err := SoloTypes(context.Background(), loadTestMesh(t, "dungeon"), types, SoloTypesOptions{})
	require.NoError(t, err)
	set, err := result.MeshSet()
	require.NoError(t, err)
	require.Equal(t, []string{"soldier", "ogre"}, set.Names())
	for i, m := range set {
		require.Equal(t, 1, m.Mesh.TileCount())
		assert.Same(t, result.Results[i].TileData, m.Mesh.TileAt(0, 0, 0).Data)
	}
	_, err = (&SoloResult{}).NavMesh()
	require.Error(t, err)
	assert.False(t, errors.Is(err, context.Canceled))
}

// TestTypesCopyTheClampWarning bakes a level taller than the span height
// range for types that share its rasterization: each type warns as its own
// bake does.
func TestTypesCopyTheClampWarning(t *testing.T) {
	small, large := DefaultSettings(), DefaultSettings()
	small.TileSize, large.TileSize = 0, 0
	large.AgentRadius = 1.5
	types := []AgentType{{Name: "small", Settings: small}, {Name: "large", Settings: large}}
	g := twoFloors(2000)
	result, err := SoloTypes(context.Background(), g, types, SoloTypesOptions{})
	require.NoError(t, err)
	assert.Equal(t, 1, result.Stats.Rasterizations)
	for i, at := range types {
		alone, err := Solo(context.Background(), g, at.Settings)
		require.NoError(t, err)
		require.Len(t, alone.Stats.Warnings, 1)
		requireSameSolo(t, alone, result.Results[i], at.Name)
	}
}
