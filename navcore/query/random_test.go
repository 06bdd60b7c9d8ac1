package query

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
)

// TestRandomPointRejectsBadDraws: a random func that leaves [0, 1] at any
// draw (the tile choice, the polygon choice or the point in the polygon) is
// an error, never a NaN point or one off its polygon.
func TestRandomPointRejectsBadDraws(t *testing.T) {
	q, filter, _, start, _ := walkSetup(t, 2048)
	// count how many draws a good run takes, to put the bad value at each.
	counting := func(draws *int) func() float32 {
		rng := &testmesh.LCG{State: 7}
		return func() float32 { *draws++; return rng.Next() }
	}
	var wholeDraws, circleDraws int
	_, err := q.FindRandomPoint(filter, counting(&wholeDraws))
	require.NoError(t, err)
	_, _, err = q.FindRandomPointAroundCircle(start.Ref, start.Point, 6, filter, counting(&circleDraws))
	require.NoError(t, err)
	require.Greater(t, circleDraws, 4, "the circle search should sample several polygons")

	badAt := func(at int, bad float32) func() float32 {
		rng := &testmesh.LCG{State: 7}
		draw := 0
		return func() float32 {
			draw++
			if draw == at {
				return bad
			}
			return rng.Next()
		}
	}
	for _, bad := range []float32{-0.25, 1.5, float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -1e-30} {
		for at := 1; at <= wholeDraws; at++ {
			p, err := q.FindRandomPoint(filter, badAt(at, bad))
			assert.ErrorIs(t, err, ErrInvalidParam, "value %v at draw %d of %d", bad, at, wholeDraws)
			assert.Zero(t, p, "value %v at draw %d", bad, at)
		}
		for at := 1; at <= circleDraws; at++ {
			p, _, err := q.FindRandomPointAroundCircle(start.Ref, start.Point, 6, filter, badAt(at, bad))
			assert.ErrorIs(t, err, ErrInvalidParam, "value %v at draw %d of %d", bad, at, circleDraws)
			assert.Zero(t, p, "value %v at draw %d", bad, at)
		}
	}
}

// TestRandomPointAcceptsOne: 1 (what float32(rand.Float64()) can round to)
// and 0 give points on the mesh.
func TestRandomPointAcceptsOne(t *testing.T) {
	q, filter, _, start, _ := walkSetup(t, 2048)
	for _, value := range []float32{0, 1, math.Nextafter32(1, 0)} {
		constant := func() float32 { return value }
		p, err := q.FindRandomPoint(filter, constant)
		require.NoError(t, err, "value %v", value)
		assertOnPoly(t, q, p)
		p, _, err = q.FindRandomPointAroundCircle(start.Ref, start.Point, 6, filter, constant)
		require.NoError(t, err, "value %v", value)
		assertOnPoly(t, q, p)
	}
}

func assertOnPoly(t *testing.T, q *Query, p RandomPoint) {
	t.Helper()
	require.True(t, geom.IsFinite(p.Pos), "%v", p.Pos)
	tile, poly, err := q.Mesh().Snapshot().TileAndPoly(p.Ref)
	require.NoError(t, err)
	// on the polygon or its boundary (0 and 1 pick a vertex)
	closest, _ := tile.ClosestPointOnPoly(poly, p.Pos)
	for axis := range 3 {
		assert.InDelta(t, closest[axis], p.Pos[axis], 1e-3, "%v off polygon %#x", p.Pos, uint64(p.Ref))
	}
}
