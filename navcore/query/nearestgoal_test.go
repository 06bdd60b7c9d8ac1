package query

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linked reports whether polygon a has a link to polygon b.
func linked(s *navmesh.Snapshot, a, b navmesh.Ref) bool {
	tile, poly, err := s.TileAndPoly(a)
	if err != nil {
		return false
	}
	for i := poly.FirstLink; i != navmesh.NullLink; i = tile.Links[i].Next {
		if tile.Links[i].Ref == b {
			return true
		}
	}
	return false
}

// TestFindNearestGoalMatchesSeparateSearches: on 1000 random cases over
// three levels (the dungeon, nav_test in one tile and in tiles of 32 cells)
// and three filters (the default, area costs of 1 to 4, a custom filter
// passing every other polygon), the goal one search picks among 1 to 8
// random goals costs the least any of the searches for one goal alone
// finds, to the bit; it is unreachable exactly when every goal is; its
// corridor runs from the start's polygon to the goal's through linked
// polygons; and its cost is at least the straight-line distance (every
// area cost is at least 1).
func TestFindNearestGoalMatchesSeparateSearches(t *testing.T) {
	costly := NewFilter()
	for i := range costly.AreaCost {
		costly.AreaCost[i] = float32(1 + i%4)
	}
	even := NewFilter()
	even.Custom = evenPolys{}
	filters := []*Filter{NewFilter(), costly, even}
	levels := []struct {
		name  string
		mesh  *navmesh.Mesh
		cases int
	}{
		{"dungeon", testmesh.Dungeon(t), 400},
		{"nav_test solo", bakedNavTest(t), 300},
		{"nav_test tiled", tiledNavTest(t), 300},
	}
	rng := rand.New(rand.NewPCG(24, 1))
	random := func() float32 { return rng.Float32() }
	path := make([]navmesh.Ref, 1024)
	single := make([]navmesh.Ref, 1024)
	reachedSome, unreachable := 0, 0
	for _, level := range levels {
		q, err := New(level.mesh, 4096)
		require.NoError(t, err)
		snap := level.mesh.Snapshot()
		// Starts and most goals on the largest connected part; every
		// fourth goal anywhere, often out of reach.
		samplers := make([]*ComponentSampler, len(filters))
		for i, f := range filters {
			samplers[i], err = LargestComponentSampler(snap, f)
			require.NoError(t, err)
		}
		for c := range level.cases {
			filter := filters[c%len(filters)]
			start, err := samplers[c%len(filters)].RandomPoint(random)
			require.NoError(t, err)
			goals := make([]Goal, 1+rng.IntN(8))
			for i := range goals {
				p, err := samplers[c%len(filters)].RandomPoint(random)
				if rng.IntN(4) == 0 {
					p, err = q.FindRandomPoint(filter, random)
				}
				require.NoError(t, err)
				goals[i] = Goal{Ref: p.Ref, Pos: p.Pos}
			}
			name := fmt.Sprintf("%s case %d", level.name, c)
			got, err := q.FindNearestGoal(start.Ref, start.Pos, goals, filter, path)
			require.NoError(t, err, name)
			require.False(t, got.Status.OutOfNodes(), name)

			want, wantIndex := float32(0), -1
			for i := range goals {
				one, err := q.FindNearestGoal(start.Ref, start.Pos, goals[i:i+1], filter, single)
				require.NoError(t, err, name)
				if one.Index < 0 {
					continue
				}
				if wantIndex < 0 || one.Cost < want {
					want, wantIndex = one.Cost, i
				}
			}
			if wantIndex < 0 {
				unreachable++
				assert.Equal(t, -1, got.Index, name)
				assert.Zero(t, got.PathCount, name)
				continue
			}
			reachedSome++
			require.GreaterOrEqual(t, got.Index, 0, name)
			assert.Equal(t, want, got.Cost, "%s: the least cost of the separate searches", name)
			corridor := path[:got.PathCount]
			require.NotEmpty(t, corridor, name)
			assert.Equal(t, start.Ref, corridor[0], name)
			assert.Equal(t, goals[got.Index].Ref, corridor[len(corridor)-1], name)
			for k := 1; k < len(corridor); k++ {
				assert.True(t, linked(snap, corridor[k-1], corridor[k]), "%s: polygons %d and %d", name, k-1, k)
			}
			assert.GreaterOrEqual(t, float32(got.Cost*1.0001)+1e-4, geom.Dist(start.Pos, goals[got.Index].Pos), name)
		}
	}
	t.Logf("%d cases with a reachable goal, %d without", reachedSome, unreachable)
	assert.Greater(t, reachedSome, 750, "most cases reach a goal")
}

// TestFindNearestGoalChecksArguments: bad arguments give ErrInvalidParam
// (or ErrInvalidRef, ErrBufferTooSmall) and no goal.
func TestFindNearestGoalChecksArguments(t *testing.T) {
	q, filter, _, start, end := walkSetup(t, 512)
	goal := Goal{Ref: end.Ref, Pos: end.Point}
	path := make([]navmesh.Ref, 64)
	tooMany := make([]Goal, MaxGoals+1)
	for i := range tooMany {
		tooMany[i] = goal
	}
	for _, c := range []struct {
		name  string
		start navmesh.Ref
		pos   geom.Vec3
		goals []Goal
		f     *Filter
		path  []navmesh.Ref
		want  error
	}{
		{"no goals", start.Ref, start.Point, nil, filter, path, ErrInvalidParam},
		{"too many goals", start.Ref, start.Point, tooMany, filter, path, ErrInvalidParam},
		{"stale start", 0, start.Point, []Goal{goal}, filter, path, ErrInvalidRef},
		{"bad goal ref", start.Ref, start.Point, []Goal{{Ref: 1 << 50, Pos: end.Point}}, filter, path, ErrInvalidRef},
		{"NaN goal", start.Ref, start.Point, []Goal{{Ref: end.Ref, Pos: geom.Vec3{float32(math.NaN()), 0, 0}}}, filter, path, ErrInvalidParam},
		{"NaN start", start.Ref, geom.Vec3{0, float32(math.NaN()), 0}, []Goal{goal}, filter, path, ErrInvalidParam},
		{"nil filter", start.Ref, start.Point, []Goal{goal}, nil, path, ErrInvalidParam},
		{"no path buffer", start.Ref, start.Point, []Goal{goal}, filter, nil, ErrBufferTooSmall},
	} {
		got, err := q.FindNearestGoal(c.start, c.pos, c.goals, c.f, c.path)
		assert.ErrorIs(t, err, c.want, c.name)
		assert.Equal(t, -1, got.Index, c.name)
	}
	got, err := q.FindNearestGoal(start.Ref, start.Point, []Goal{goal}, filter, path[:3])
	require.NoError(t, err)
	assert.True(t, got.Status.BufferTooSmall(), "a 22-polygon corridor in 3")
	assert.Equal(t, 3, got.PathCount)
}
