package crowd

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/query"
)

// TestNilQuery passes a nil Query to every method that takes one: each
// returns an ErrInvalidParam error (or false) and changes nothing.
func TestNilQuery(t *testing.T) {
	f := newDungeonFixture(t)
	c := newWalkCorridor(t, f)
	path := append(c.Path()[:0:0], c.Path()...)
	pos, target := c.Position(), c.Target()
	corners := make([]query.StraightPathPoint, 4)

	_, err := c.FindCorners(nil, corners)
	assert.ErrorIs(t, err, ErrInvalidParam, "FindCorners")
	assert.ErrorIs(t, c.OptimizePathVisibility(f.end, 18, nil, f.filter), ErrInvalidParam, "OptimizePathVisibility")
	changed, err := c.OptimizePathTopology(nil, f.filter)
	assert.ErrorIs(t, err, ErrInvalidParam, "OptimizePathTopology")
	assert.False(t, changed)
	_, _, _, err = c.MoveOverOffMeshConnection(path[1], nil)
	assert.ErrorIs(t, err, ErrInvalidParam, "MoveOverOffMeshConnection")
	assert.ErrorIs(t, c.MovePosition(geom.Vec3{pos[0] + 1, pos[1], pos[2]}, nil, f.filter), ErrInvalidParam, "MovePosition")
	assert.ErrorIs(t, c.MoveTargetPosition(pos, nil, f.filter), ErrInvalidParam, "MoveTargetPosition")
	assert.ErrorIs(t, c.TrimInvalidPath(f.startRef, f.start, nil, f.filter), ErrInvalidParam, "TrimInvalidPath")
	assert.False(t, c.IsValid(16, nil, f.filter))
	assert.Equal(t, path, c.Path())
	assert.Equal(t, pos, c.Position())
	assert.Equal(t, target, c.Target())
	assert.True(t, c.IsValid(16, f.query, f.filter), "still usable")

	b := NewLocalBoundary()
	require.NoError(t, b.Update(f.startRef, f.start, 7.2, f.query, f.filter))
	segments := append(b.Segments()[:0:0], b.Segments()...)
	assert.ErrorIs(t, b.Update(f.startRef, f.end, 7.2, nil, f.filter), ErrInvalidParam)
	assert.Equal(t, segments, b.Segments(), "a failed update changes nothing")
	assert.Equal(t, f.start, b.Center())
	assert.False(t, b.IsValid(nil, f.filter))
	assert.False(t, b.IsValid(f.query, nil))
	assert.True(t, b.IsValid(f.query, f.filter))
}

// TestAccessorsOutOfRange reads segments and circles by an index outside
// their count: the zero value, no panic.
func TestAccessorsOutOfRange(t *testing.T) {
	f := newDungeonFixture(t)
	b := NewLocalBoundary()
	require.NoError(t, b.Update(f.startRef, f.start, 7.2, f.query, f.filter))
	require.Equal(t, MaxLocalSegments, b.SegmentCount())
	assert.Equal(t, b.Segments()[0], b.Segment(0))
	for _, i := range []int{-1, b.SegmentCount(), MaxLocalSegments + 5} {
		assert.Zero(t, b.Segment(i), "boundary segment %d", i)
	}

	a, err := NewObstacleAvoidance(2, 2)
	require.NoError(t, err)
	require.NoError(t, a.AddCircle(geom.Vec3{1, 0, 1}, 0.5, geom.Vec3{}, geom.Vec3{}))
	require.NoError(t, a.AddSegment(geom.Vec3{0, 0, 0}, geom.Vec3{1, 0, 0}))
	assert.Equal(t, float32(0.5), a.Circle(0).Radius)
	assert.Equal(t, geom.Vec3{1, 0, 0}, a.Segment(0).Q)
	for _, i := range []int{-1, 1, 7} {
		assert.Zero(t, a.Circle(i), "circle %d", i)
		assert.Zero(t, a.Segment(i), "segment %d", i)
	}
}
