package crowd

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/archenav/archenav/navcore/geom"
)

func TestLocalBoundaryInsertKeepsNearest(t *testing.T) {
	b := NewLocalBoundary()
	assert.Equal(t, geom.Vec3{floatMax, floatMax, floatMax}, b.Center())
	// Label each segment by P.x; equal distances are told apart by P.z.
	inserts := []struct{ dist, label, tie float32 }{
		{5, 5, 0}, {3, 3, 0}, {9, 9, 0}, {3, 3, 1}, {7, 7, 0}, {1, 1, 0},
		{12, 12, 0}, {4, 4, 0}, {8, 8, 0}, {2, 2, 0}, {20, 20, 0}, {8, 8, 1},
	}
	for _, in := range inserts {
		b.insertSegment(in.dist, geom.Vec3{in.label, 0, in.tie}, geom.Vec3{in.label, 1, in.tie})
	}
	// Worked by hand: a new segment goes before the first one at least as
	// far, unless it is at least as far as the last, then after it; the
	// ninth nearest falls off the end.
	want := [][2]float32{{1, 0}, {2, 0}, {3, 1}, {3, 0}, {4, 0}, {5, 0}, {7, 0}, {8, 0}}
	is := assert.New(t)
	is.Equal(MaxLocalSegments, b.SegmentCount())
	for i, s := range b.Segments() {
		is.Equal(want[i], [2]float32{s.P[0], s.P[2]}, "segment %d", i)
		is.Equal(s.P[0], s.DistanceSqr)
		is.Equal(geom.Vec3{s.P[0], 1, s.P[2]}, s.Q)
		is.Equal(s, b.Segment(i))
	}

	b.Reset()
	is.Zero(b.SegmentCount())
	is.Empty(b.Segments())
	is.Empty(b.Polys())
}
