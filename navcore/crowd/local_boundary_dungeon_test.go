package crowd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

func TestLocalBoundaryUpdateDungeon(t *testing.T) {
	f := newDungeonFixture(t)
	b := NewLocalBoundary()
	require.NoError(t, b.Update(f.startRef, f.start, 7.2, f.query, f.filter))
	assert.Equal(t, f.start, b.Center())

	want := []BoundarySegment{
		{geom.Vec3{-8.51521683, 10.1972942, -22.241272}, geom.Vec3{-10.0152159, 10.1972942, -22.241272}, 3.61474752},
		{geom.Vec3{-8.21521568, 10.1972942, -24.041275}, geom.Vec3{-8.51521683, 10.1972942, -22.241272}, 4.04887819},
		{geom.Vec3{-10.0152159, 10.1972942, -22.241272}, geom.Vec3{-11.5152159, 9.99729443, -22.241272}, 4.32221889},
		{geom.Vec3{-10.0152159, 10.1972942, -17.741272}, geom.Vec3{-8.21521568, 10.1972942, -17.4412689}, 7.29902744},
		{geom.Vec3{-11.8152161, 9.99729443, -17.4412689}, geom.Vec3{-10.0152159, 10.1972942, -17.741272}, 7.46097851},
		{geom.Vec3{-11.5152159, 9.99729443, -22.241272}, geom.Vec3{-11.8152161, 9.99729443, -23.741272}, 9.09555817},
		{geom.Vec3{-8.21521568, 10.1972942, -17.4412689}, geom.Vec3{-8.21521568, 10.1972942, -15.6412735}, 9.32223988},
		{geom.Vec3{-4.6152153, 10.1972942, -24.041275}, geom.Vec3{-8.21521568, 10.1972942, -24.041275}, 14.6187305},
	}
	assert.Equal(t, want, b.Segments())

	// Every segment is a whole wall edge (no neighbour) of one of the
	// boundary's polygons, and the polygons start at the agent's.
	polys := b.Polys()
	require.NotEmpty(t, polys)
	assert.Equal(t, f.startRef, polys[0])
	tile := f.tile(t)
	for i, s := range b.Segments() {
		assert.True(t, isWallEdge(tile, polys, s.P, s.Q), "segment %d is not a wall edge", i)
		assert.LessOrEqual(t, s.DistanceSqr, float32(7.2*7.2))
	}
	assert.True(t, b.IsValid(f.query, f.filter))

	// A zero ref empties it.
	require.NoError(t, b.Update(0, f.start, 7.2, f.query, f.filter))
	assert.Zero(t, b.SegmentCount())
	assert.False(t, b.IsValid(f.query, f.filter))
	assert.Equal(t, geom.Vec3{floatMax, floatMax, floatMax}, b.Center())

	// A stale ref is an error and leaves it empty.
	err := b.Update(f.startRef+1<<(navmesh.PolyBits+navmesh.TileBits), f.start, 7.2, f.query, f.filter)
	assert.ErrorIs(t, err, navmesh.ErrInvalidRef)
	assert.Zero(t, b.SegmentCount())
	assert.Empty(t, b.Polys())
}

func isWallEdge(tile *navmesh.Tile, polys []navmesh.Ref, p, q geom.Vec3) bool {
	for _, ref := range polys {
		poly := &tile.Polys[ref.PolyIndex()]
		n := int(poly.VertCount)
		for j := 0; j < n; j++ {
			a, b := tile.Verts[poly.Verts[j]], tile.Verts[poly.Verts[(j+1)%n]]
			if poly.Neighbours[j] == 0 && a == p && b == q {
				return true
			}
		}
	}
	return false
}

func TestLocalBoundaryDoesNotAllocate(t *testing.T) {
	f := newDungeonFixture(t)
	b := NewLocalBoundary()
	allocs := testing.AllocsPerRun(50, func() {
		_ = b.Update(f.startRef, f.start, 7.2, f.query, f.filter)
		b.IsValid(f.query, f.filter)
	})
	assert.Zero(t, allocs)
	assert.Equal(t, MaxLocalSegments, b.SegmentCount())
}

func BenchmarkLocalBoundaryUpdate(b *testing.B) {
	f := newDungeonFixture(b)
	lb := NewLocalBoundary()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = lb.Update(f.startRef, f.start, 7.2, f.query, f.filter)
	}
}
