package query

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// withTimeout runs call on its own goroutine and fails the test when it
// has not returned after limit: a hang is reported, not waited out.
func withTimeout(t *testing.T, limit time.Duration, call func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		call()
	}()
	select {
	case <-done:
	case <-time.After(limit):
		t.Fatalf("the call did not return within %v", limit)
	}
}

var (
	nan    = float32(math.NaN())
	posInf = float32(math.Inf(1))
)

// TestAreaCostOutsideItsLimit: a default filter whose area cost is NaN,
// negative or infinite is refused with ErrInvalidParam by every query that
// charges costs, and by SetAreaCost and Validate, before any search runs.
// FindPath looped for ever in pathToNode on such a filter (issue 27).
func TestAreaCostOutsideItsLimit(t *testing.T) {
	q, _, pair, start, end := walkSetup(t, 2048)
	for _, cost := range []float32{nan, -1, -1e-30, posInf, float32(math.Inf(-1))} {
		t.Run(fmtFloat(cost), func(t *testing.T) {
			f := referenceFilter()
			assert.ErrorIs(t, f.SetAreaCost(0, cost), ErrInvalidParam)
			assert.Equal(t, float32(1), f.AreaCost[0], "a refused cost is not set")
			f.AreaCost[0] = cost
			require.ErrorIs(t, f.Validate(), ErrInvalidParam)
			assert.Contains(t, f.Validate().Error(), "AreaCost[0]")

			path := make([]navmesh.Ref, 256)
			// Every area at that cost: with NaN, the search of pair 5 looped.
			for area := range f.AreaCost {
				f.AreaCost[area] = cost
			}
			for _, p := range testmesh.ReferencePairs(t)[:10] {
				s, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, f)
				require.NoError(t, err)
				e, err := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, f)
				require.NoError(t, err)
				if s.Ref == 0 || e.Ref == 0 {
					continue
				}
				withTimeout(t, 10*time.Second, func() {
					_, _, err := q.FindPath(s.Ref, e.Ref, p.Start, p.End, f, path)
					assert.ErrorIs(t, err, ErrInvalidParam)
				})
			}
			_, err := q.InitSlicedFindPath(start.Ref, end.Ref, pair.Start, pair.End, f, 0)
			assert.ErrorIs(t, err, ErrInvalidParam)
			refs := make([]navmesh.Ref, 64)
			_, _, err = q.FindPolysAroundCircle(start.Ref, pair.Start, 5, f, refs, nil, nil)
			assert.ErrorIs(t, err, ErrInvalidParam)
			shape := []geom.Vec3{pair.Start, geom.Vec3{pair.Start[0] + 2, pair.Start[1], pair.Start[2]}, geom.Vec3{pair.Start[0], pair.Start[1], pair.Start[2] + 2}}
			_, _, err = q.FindPolysAroundShape(start.Ref, shape, f, refs, nil, nil)
			assert.ErrorIs(t, err, ErrInvalidParam)
			_, _, err = q.Raycast(start.Ref, pair.Start, pair.End, f, RaycastUseCosts, 0, path)
			assert.ErrorIs(t, err, ErrInvalidParam)
			_, _, err = q.Raycast(start.Ref, pair.Start, pair.End, f, 0, 0, path)
			assert.NoError(t, err, "a raycast without costs does not read them")
		})
	}
	f := referenceFilter()
	for _, cost := range []float32{0, 1e-30, 1, math.MaxFloat32} {
		require.NoError(t, f.SetAreaCost(63, cost))
		assert.Equal(t, cost, f.AreaCost[63])
		assert.NoError(t, f.Validate())
	}
	assert.ErrorIs(t, f.SetAreaCost(64, 1), ErrInvalidParam)
	assert.ErrorIs(t, f.SetAreaCost(-1, 1), ErrInvalidParam)
	var nilFilter *Filter
	assert.ErrorIs(t, nilFilter.Validate(), ErrInvalidParam)
}

func fmtFloat(f float32) string {
	switch {
	case f != f:
		return "NaN"
	case f < 0:
		return "negative"
	}
	return "positive"
}

// costFunc is a CustomFilter that passes every polygon and charges what
// its function returns.
type costFunc func(a, b geom.Vec3) float32

func (costFunc) Passes(navmesh.Ref, *navmesh.Tile, *navmesh.Poly) bool { return true }
func (c costFunc) Cost(a, b geom.Vec3, _, _, _ PolyContext) float32    { return c(a, b) }

// TestCustomCostOutsideItsLimit: a Custom cost that comes out NaN or
// negative ends the search with ErrInvalidParam naming the cost, for the
// plain and the sliced search (with and without any-angle shortcuts);
// +Inf and huge costs are no error and give a path.
func TestCustomCostOutsideItsLimit(t *testing.T) {
	q, _, pair, start, end := walkSetup(t, 2048)
	path := make([]navmesh.Ref, 256)
	for _, tc := range []struct {
		name string
		cost costFunc
		bad  bool
	}{
		{"NaN", func(a, b geom.Vec3) float32 { return nan }, true},
		{"negative", func(a, b geom.Vec3) float32 { return -dist(a, b) }, true},
		{"NaN now and then", func(a, b geom.Vec3) float32 {
			if a[0] > b[0] {
				return nan
			}
			return dist(a, b)
		}, true},
		{"infinite", func(a, b geom.Vec3) float32 { return posInf }, false},
		{"huge", func(a, b geom.Vec3) float32 { return dist(a, b) * 1e37 }, false},
		{"zero", func(a, b geom.Vec3) float32 { return 0 }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := referenceFilter()
			f.Custom = tc.cost
			withTimeout(t, 10*time.Second, func() {
				n, _, err := q.FindPath(start.Ref, end.Ref, pair.Start, pair.End, f, path)
				if tc.bad {
					require.ErrorIs(t, err, ErrInvalidParam)
					assert.Contains(t, err.Error(), "custom filter cost")
					return
				}
				require.NoError(t, err)
				assert.Equal(t, start.Ref, path[0])
				assertCorridor(t, q, path[:n])
			})
			for _, options := range []FindPathOptions{0, FindPathAnyAngle} {
				withTimeout(t, 10*time.Second, func() {
					_, err := q.InitSlicedFindPath(start.Ref, end.Ref, pair.Start, pair.End, f, options)
					require.NoError(t, err)
					var status Status
					for range 10000 {
						_, status, err = q.UpdateSlicedFindPath(64)
						if err != nil || !status.InProgress() {
							break
						}
					}
					if tc.bad {
						require.ErrorIs(t, err, ErrInvalidParam)
						assert.Contains(t, err.Error(), "custom filter cost")
						return
					}
					require.NoError(t, err)
					require.False(t, status.InProgress())
					n, _, err := q.FinalizeSlicedFindPath(path)
					require.NoError(t, err)
					assert.Equal(t, start.Ref, path[0])
					assertCorridor(t, q, path[:n])
				})
			}
		})
	}
}

// assertCorridor checks that each polygon of path links to the next one.
func assertCorridor(t *testing.T, q *Query, path []navmesh.Ref) {
	t.Helper()
	snap := q.Mesh().Snapshot()
	for i := 1; i < len(path); i++ {
		tile, poly, err := snap.TileAndPoly(path[i-1])
		require.NoError(t, err)
		linked := false
		for l := poly.FirstLink; l != navmesh.NullLink; l = tile.Links[l].Next {
			linked = linked || tile.Links[l].Ref == path[i]
		}
		assert.True(t, linked, "polygon %d of the corridor does not lead to the next", i-1)
	}
}

// TestFarPositionsWithFreeAreas: positions 1e30 apart make the distances
// of the search infinite, and an area cost of 0 turns them into NaN costs;
// the search still ends, with a corridor, instead of looping.
func TestFarPositionsWithFreeAreas(t *testing.T) {
	q, _, _, start, end := walkSetup(t, 2048)
	f := referenceFilter()
	for i := range f.AreaCost {
		f.AreaCost[i] = 0
	}
	path := make([]navmesh.Ref, 256)
	far := geom.Vec3{-1e30, 0, 1e30}
	withTimeout(t, 10*time.Second, func() {
		n, _, err := q.FindPath(start.Ref, end.Ref, far, geom.Vec3{1e30, 0, -1e30}, f, path)
		require.NoError(t, err)
		require.NotZero(t, n)
		assert.Equal(t, start.Ref, path[0])
		assertCorridor(t, q, path[:n])
	})
}
