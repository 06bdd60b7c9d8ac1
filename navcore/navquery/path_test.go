package navquery

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// crossingsCost is the default-rule cost of the straight path through
// corridor with a point at every edge crossed, summed in float64 by the
// test: each piece's length times the area cost of the polygon it lies in.
func crossingsCost(t *testing.T, q *query.Query, corridor []navmesh.Ref, start, end geom.Vec3, filter *query.Filter) float64 {
	t.Helper()
	points := make([]query.StraightPathPoint, 4*len(corridor)+8)
	n, _, err := q.FindStraightPath(start, end, corridor, points, query.StraightPathAllCrossings)
	require.NoError(t, err)
	snap := q.Mesh().Snapshot()
	var cost float64
	for i := 0; i+1 < n; i++ {
		_, poly, err := snap.TileAndPoly(points[i].Ref)
		require.NoError(t, err)
		cost += float64(float64(geom.Dist(points[i].Pos, points[i+1].Pos)) * float64(filter.AreaCost[poly.Area()]))
	}
	return cost
}

// TestCalculatePathMatchesTheQueries: on 150 random pairs per level (a
// third of them to anywhere, often out of reach) CalculatePath gives the corridor and corners of
// FindNearestPoly, FindPath and FindStraightPath called by hand, their
// length, a cost within 1e-5 of the test's own sum over the path with a
// point at every edge crossed (area costs 1 to 3), PathPartial exactly when
// FindPath's result is partial; PathLength and PathCost of its corridor
// agree to the bit.
func TestCalculatePathMatchesTheQueries(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 3))
	random := func() float32 { return float32(rng.Float64()) } // float64 then converted: rand.Float32 scales by 2^-24, which fuses with a later add
	filter := DefaultFilter()
	for i := range filter.AreaCost {
		filter.AreaCost[i] = float32(1 + i%3)
	}
	for _, level := range testLevels(t) {
		n, err := New(level.mesh, Config{})
		require.NoError(t, err)
		q, err := query.New(level.mesh, DefaultNodeLimit)
		require.NoError(t, err)
		sampler, err := query.LargestComponentSampler(level.mesh.Snapshot(), filter)
		require.NoError(t, err)
		partial := 0
		refs := make([]navmesh.Ref, DefaultMaxPath)
		points := make([]query.StraightPathPoint, 2*DefaultMaxPath)
		for c := range 150 {
			a, err := sampler.RandomPoint(random)
			require.NoError(t, err)
			b, err := sampler.RandomPoint(random)
			if c%3 == 0 {
				b, err = q.FindRandomPoint(filter, random) // anywhere: often out of reach
			}
			require.NoError(t, err)
			name := fmt.Sprintf("%s pair %d", level.name, c)
			got, err := n.CalculatePath(a.Pos, b.Pos, filter)
			require.NoError(t, err, name)

			ext := geom.Vec3{2, 4, 2}
			sa, err := q.FindNearestPoly(a.Pos, ext, filter)
			require.NoError(t, err)
			sb, err := q.FindNearestPoly(b.Pos, ext, filter)
			require.NoError(t, err)
			count, status, err := q.FindPath(sa.Ref, sb.Ref, sa.Point, sb.Point, filter, refs)
			require.NoError(t, err)
			assert.Equal(t, refs[:count], got.Polygons, name)
			m, _, err := q.FindStraightPath(sa.Point, sb.Point, refs[:count], points, 0)
			require.NoError(t, err)
			require.Len(t, got.Points, m, name)
			var length float32
			for i := range m {
				assert.Equal(t, points[i].Pos, got.Points[i], name)
				if i > 0 {
					length += geom.Dist(points[i-1].Pos, points[i].Pos)
				}
			}
			assert.Equal(t, length, got.Length, name)
			want := crossingsCost(t, q, refs[:count], sa.Point, sb.Point, filter)
			assert.InDelta(t, want, float64(got.Cost), float64(1e-5*want)+1e-5, name)
			assert.GreaterOrEqual(t, float32(got.Cost*1.00001)+1e-5, got.Length, "%s: every area costs at least 1", name)
			if status.Partial() {
				partial++
				assert.Equal(t, PathPartial, got.Status, name)
			} else {
				assert.Equal(t, PathComplete, got.Status, name)
				assert.Equal(t, sb.Point, got.Points[len(got.Points)-1], name)
			}

			l, err := n.PathLength(got.Polygons, sa.Point, sb.Point)
			require.NoError(t, err)
			assert.Equal(t, got.Length, l, name)
			cost, err := n.PathCost(got.Polygons, sa.Point, sb.Point, filter)
			require.NoError(t, err)
			assert.Equal(t, got.Cost, cost, name)
		}
		t.Logf("%s: %d of 150 partial", level.name, partial)
	}
}

// TestNearestGoalIsTheCheapest: on 150 random cases of 1 to 6 goals (some
// off the mesh) on the dungeon, NearestGoal picks a goal whose search cost
// is the least NearestGoal finds for each goal alone, its path runs from
// the start to that goal, and goals off the navmesh are skipped.
func TestNearestGoalIsTheCheapest(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	n, err := New(mesh, Config{})
	require.NoError(t, err)
	q, err := query.New(mesh, 256)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(24, 4))
	random := func() float32 { return float32(rng.Float64()) } // float64 then converted: rand.Float32 scales by 2^-24, which fuses with a later add
	filter := DefaultFilter()
	reached := 0
	for c := range 150 {
		start, err := q.FindRandomPoint(filter, random)
		require.NoError(t, err)
		goals := make([]geom.Vec3, 1+rng.IntN(6))
		for i := range goals {
			p, err := q.FindRandomPoint(filter, random)
			require.NoError(t, err)
			goals[i] = p.Pos
			if rng.IntN(8) == 0 {
				goals[i][1] += 100 // off the navmesh
			}
		}
		name := fmt.Sprintf("case %d", c)
		got, err := n.NearestGoal(start.Pos, goals, filter)
		require.NoError(t, err, name)
		best, bestIndex := float32(0), -1
		for i := range goals {
			one, err := n.NearestGoal(start.Pos, goals[i:i+1], filter)
			require.NoError(t, err)
			if one.Index >= 0 && (bestIndex < 0 || one.SearchCost < best) {
				best, bestIndex = one.SearchCost, i
			}
		}
		if bestIndex < 0 {
			assert.Equal(t, -1, got.Index, name)
			continue
		}
		reached++
		require.GreaterOrEqual(t, got.Index, 0, name)
		assert.Equal(t, best, got.SearchCost, name)
		assert.Less(t, goals[got.Index][1], float32(50), "%s: not a goal off the mesh", name)
		path := got.Path
		require.NotEmpty(t, path.Points, name)
		assert.Equal(t, PathComplete, path.Status, name)
		assert.Less(t, geom.Dist(path.Points[0], start.Pos), float32(1e-3), name)
		assert.Less(t, geom.Dist(path.Points[len(path.Points)-1], goals[got.Index]), float32(1e-3), name)
	}
	assert.Greater(t, reached, 100)
}

// TestQueriesRejectBadInput: bad input gives ErrInvalidInput (or
// ErrOffMesh) and PathInvalid, never a panic.
func TestQueriesRejectBadInput(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	_, err := New(nil, Config{})
	assert.ErrorIs(t, err, ErrInvalidInput)
	for _, c := range []Config{{MaxNodes: -1}, {NodeLimit: query.MaxNodes + 1}, {MaxPath: -2}, {SearchHalfExtents: geom.Vec3{1, 0, 1}}} {
		_, err := New(mesh, c)
		assert.ErrorIs(t, err, ErrInvalidInput, "%+v", c)
	}
	n, err := New(mesh, Config{})
	require.NoError(t, err)
	nan := float32(math.NaN())
	floor := geom.Vec3{40.75225, 10.197294, 0.29230645}
	_, _, err = n.SamplePosition(geom.Vec3{nan, 0, 0}, 1, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, _, err = n.SamplePosition(floor, 0, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, found, err := n.SamplePosition(geom.Add(floor, geom.Vec3{0, 50, 0}), 10, nil)
	assert.NoError(t, err)
	assert.False(t, found, "50 m above the floor, 10 m searched")
	path, err := n.CalculatePath(geom.Vec3{nan, 0, 0}, floor, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	assert.Equal(t, PathInvalid, path.Status)
	path, err = n.CalculatePath(floor, geom.Add(floor, geom.Vec3{0, 50, 0}), nil)
	assert.ErrorIs(t, err, ErrOffMesh)
	assert.Equal(t, PathInvalid, path.Status)
	_, err = n.PathLength(nil, floor, floor)
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, err = n.PathCost([]navmesh.Ref{1}, floor, geom.Vec3{0, nan, 0}, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	_, err = n.PathLength([]navmesh.Ref{12345}, floor, floor)
	assert.ErrorIs(t, err, query.ErrInvalidRef)
	g, err := n.NearestGoal(floor, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	assert.Equal(t, -1, g.Index)
	g, err = n.NearestGoal(floor, []geom.Vec3{{nan, 0, 0}}, nil)
	assert.ErrorIs(t, err, ErrInvalidInput)
	assert.Equal(t, -1, g.Index)
	g, err = n.NearestGoal(geom.Add(floor, geom.Vec3{0, 50, 0}), []geom.Vec3{floor}, nil)
	assert.True(t, errors.Is(err, ErrOffMesh))
	assert.Equal(t, -1, g.Index)
}

// TestConcurrentQueriesAgree: eight goroutines asking every kind of
// question at once, each in its own order, get the answers one goroutine
// got alone (run with -race).
func TestConcurrentQueriesAgree(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	n, err := New(mesh, Config{MaxNodes: 64}) // small pools: the path searches grow them
	require.NoError(t, err)
	q, err := query.New(mesh, 256)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(24, 5))
	random := func() float32 { return float32(rng.Float64()) } // float64 then converted: rand.Float32 scales by 2^-24, which fuses with a later add
	type answer struct {
		sample   Sample
		found    bool
		on       bool
		path     Path
		goal     GoalPath
		length   float32
		pathCost float32
	}
	const cases = 40
	points := make([]geom.Vec3, 3*cases)
	for i := range points {
		p, err := q.FindRandomPoint(DefaultFilter(), random)
		require.NoError(t, err)
		points[i] = geom.Add(p.Pos, geom.Vec3{random() - 0.5, random() - 0.5, random() - 0.5})
	}
	ask := func(i int) (answer, error) {
		var a answer
		var err error
		p0, p1, p2 := points[3*i], points[3*i+1], points[3*i+2]
		if a.sample, a.found, err = n.SamplePosition(p0, 1.5, nil); err != nil {
			return a, err
		}
		a.on = n.IsOnMesh(p1, 0.2)
		if a.path, err = n.CalculatePath(p0, p1, nil); err != nil {
			return a, err
		}
		if a.goal, err = n.NearestGoal(p0, []geom.Vec3{p1, p2}, nil); err != nil {
			return a, err
		}
		if a.length, err = n.PathLength(a.path.Polygons, a.path.Points[0], p1); err != nil {
			return a, err
		}
		a.pathCost, err = n.PathCost(a.path.Polygons, a.path.Points[0], p1, nil)
		return a, err
	}
	want := make([]answer, cases)
	for i := range want {
		want[i], err = ask(i)
		require.NoError(t, err)
	}
	const goroutines = 8
	got := make([][]answer, goroutines)
	errs := make([]error, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		got[g] = make([]answer, cases)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range cases {
				i := (k*7 + g) % cases // 7 is prime to cases: every case once
				a, err := ask(i)
				if err != nil {
					errs[g] = err
					return
				}
				got[g][i] = a
			}
		}()
	}
	wg.Wait()
	for g := range goroutines {
		require.NoError(t, errs[g])
		assert.Equal(t, want, got[g], "goroutine %d", g)
	}
}
