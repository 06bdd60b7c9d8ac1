package query

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

func TestNewFilterDefaults(t *testing.T) {
	f := NewFilter()
	assert.Equal(t, uint16(0xffff), f.IncludeFlags)
	assert.Zero(t, f.ExcludeFlags)
	for area, cost := range f.AreaCost {
		assert.Equal(t, float32(1), cost, "area %d", area)
	}
	assert.Nil(t, f.Custom)
}

func TestFilterPass(t *testing.T) {
	for _, tc := range []struct {
		name             string
		include, exclude uint16
		flags            uint16
		want             bool
	}{
		{"included", 0x0001, 0, 0x0001, true},
		{"one of several", 0x0006, 0, 0x0004, true},
		{"not included", 0x0001, 0, 0x0002, false},
		{"no flags", 0xffff, 0, 0, false},
		{"excluded wins", 0xffff, 0x0010, 0x0011, false},
		{"exclude other bit", 0xffff, 0x0010, 0x0001, true},
		{"zero filter passes nothing", 0, 0, 0xffff, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFilter()
			f.IncludeFlags, f.ExcludeFlags = tc.include, tc.exclude
			poly := &navmesh.Poly{Flags: tc.flags}
			assert.Equal(t, tc.want, f.Passes(1, nil, poly))
			assert.Equal(t, tc.want, f.DefaultPasses(poly))
			assert.Equal(t, tc.want, f.Passes(1, nil, poly))
		})
	}
}

func TestFilterCost(t *testing.T) {
	f := NewFilter()
	f.AreaCost[5] = 2.5
	poly := &navmesh.Poly{}
	poly.SetArea(5)
	a, b := geom.Vec3{1, 2, 3}, geom.Vec3{4, 6, 3}
	assert.Equal(t, float32(12.5), f.Cost(a, b, PolyContext{}, PolyContext{Poly: poly}, PolyContext{}))
	assert.Equal(t, float32(12.5), f.DefaultCost(a, b, poly))
	assert.Equal(t, float32(12.5), f.cost(&a, &b, 0, nil, nil, 1, nil, poly, 0, nil, nil))
}

// avoidFilter rejects one polygon and charges double elsewhere.
type avoidFilter struct {
	avoid navmesh.Ref
	calls *int
}

func (a avoidFilter) Passes(ref navmesh.Ref, _ *navmesh.Tile, poly *navmesh.Poly) bool {
	*a.calls++
	return ref != a.avoid && poly.Flags&0xffef != 0
}

func (a avoidFilter) Cost(from, to geom.Vec3, _, _, _ PolyContext) float32 {
	return 2 * geom.Dist(from, to)
}

func TestCustomFilterIsUsed(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	base := referenceFilter()
	pairs := testmesh.ReferencePairs(t)

	// Find a complete path of at least 5 polygons, then forbid its middle.
	path := make([]navmesh.Ref, 256)
	var p testmesh.ReferencePair
	var n int
	var start, end NearestPoly
	for _, p = range pairs {
		if p.Partial || p.PolyCount < 5 {
			continue
		}
		start, _ = q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, base)
		end, _ = q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, base)
		n, _, err = q.FindPath(start.Ref, end.Ref, p.Start, p.End, base, path)
		require.NoError(t, err)
		break
	}
	require.GreaterOrEqual(t, n, 5)
	middle := path[n/2]

	calls := 0
	custom := referenceFilter()
	custom.Custom = avoidFilter{avoid: middle, calls: &calls}
	m, _, err := q.FindPath(start.Ref, end.Ref, p.Start, p.End, custom, path)
	require.NoError(t, err)
	assert.Positive(t, calls, "the custom filter was asked")
	assert.NotContains(t, path[:m], middle, "the path avoids the rejected polygon")

	assert.False(t, q.IsValidPolyRef(middle, custom))
	assert.True(t, q.IsValidPolyRef(middle, base))

	// The rejected polygon is invisible to box queries too.
	polys := make([]navmesh.Ref, 64)
	center, _, err := q.ClosestPointOnPoly(middle, p.Start)
	require.NoError(t, err)
	k, _, err := q.QueryPolygons(center, geom.Vec3{1, 1, 1}, custom, polys)
	require.NoError(t, err)
	assert.NotContains(t, polys[:k], middle)
	k, _, err = q.QueryPolygons(center, geom.Vec3{1, 1, 1}, base, polys)
	require.NoError(t, err)
	assert.Contains(t, polys[:k], middle)
}

func TestPassThroughCustomFilterMatchesDefault(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	base := referenceFilter()
	custom := referenceFilter()
	custom.Custom = passThroughFilter{base: referenceFilter()}
	pathA := make([]navmesh.Ref, 256)
	pathB := make([]navmesh.Ref, 256)
	for _, p := range testmesh.ReferencePairs(t)[:200] {
		a, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, base)
		require.NoError(t, err)
		b, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, custom)
		require.NoError(t, err)
		require.Equal(t, a, b)
		end, err := q.FindNearestPoly(p.End, testmesh.DungeonHalfExtents, base)
		require.NoError(t, err)
		na, sa, err := q.FindPath(a.Ref, end.Ref, p.Start, p.End, base, pathA)
		require.NoError(t, err)
		nb, sb, err := q.FindPath(a.Ref, end.Ref, p.Start, p.End, custom, pathB)
		require.NoError(t, err)
		require.Equal(t, sa, sb)
		require.Equal(t, pathA[:na], pathB[:nb])
	}
}

func TestAreaCostScalesDijkstraCosts(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	q, err := New(mesh, 2048)
	require.NoError(t, err)
	p := testmesh.ReferencePairs(t)[1]
	filter := referenceFilter()
	start, err := q.FindNearestPoly(p.Start, testmesh.DungeonHalfExtents, filter)
	require.NoError(t, err)

	refs := make([]navmesh.Ref, 32)
	costs := make([]float32, 32)
	n, _, err := q.FindPolysAroundCircle(start.Ref, p.Start, 8, filter, refs, nil, costs)
	require.NoError(t, err)
	require.Greater(t, n, 3)
	want := append([]float32(nil), costs[:n]...)
	wantRefs := append([]navmesh.Ref(nil), refs[:n]...)

	// The dungeon is all area 0: doubling its cost doubles every cost
	// exactly and keeps the order.
	filter.AreaCost[0] = 2
	m, _, err := q.FindPolysAroundCircle(start.Ref, p.Start, 8, filter, refs, nil, costs)
	require.NoError(t, err)
	require.Equal(t, n, m)
	assert.Equal(t, wantRefs, refs[:m])
	for i := range want {
		assert.Equal(t, 2*want[i], costs[i], "poly %d", i)
	}
}

// TestValidateMatchesValidCost: Validate's test on the bits accepts an
// area cost exactly when validCost (a finite number >= 0) does, on the
// float32 values at the edges and around them.
func TestValidateMatchesValidCost(t *testing.T) {
	for _, cost := range []float32{0, float32(math.Copysign(0, -1)), 1, math.MaxFloat32, math.SmallestNonzeroFloat32,
		-math.SmallestNonzeroFloat32, -1, -math.MaxFloat32, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00000), math.Float32frombits(0x7f7fffff), math.Float32frombits(0x00000001)} {
		for _, area := range []int{0, 17, navmesh.MaxAreas - 1} {
			f := NewFilter()
			f.AreaCost[area] = cost
			err := f.Validate()
			if validCost(cost) {
				assert.NoError(t, err, "cost %v (%#x) in area %d", cost, math.Float32bits(cost), area)
			} else {
				assert.ErrorIs(t, err, ErrInvalidParam, "cost %v (%#x) in area %d", cost, math.Float32bits(cost), area)
			}
		}
	}
}
