package navmesh

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"

	"github.com/archenav/archenav/navcore/geom"
)

func TestAutoLinkUserIDRoundTrip(t *testing.T) {
	for _, c := range []struct {
		kind      LinkKind
		arc, want float32
	}{
		{LinkDrop, 0, 0},
		{LinkJump, 0.4, 0.4},
		{LinkJump, 1.2345, 1.235}, // to the millimetre
		{LinkJump, -1, 0},
		{LinkJump, float32(math.NaN()), 0},
		{LinkJump, 1000, MaxLinkArcHeight},
	} {
		id := AutoLinkUserID(c.kind, c.arc)
		kind, arc := ParseAutoLinkUserID(id)
		assert.Equal(t, c.kind, kind, "%x", id)
		assert.InDelta(t, c.want, arc, 1e-6, "%x", id)
		assert.InDelta(t, c.want, QuantizeLinkArc(c.arc), 1e-6)
	}
	for _, id := range []uint32{0, 42, 0xffffffff, 0xa7100000, 0xa7130190, 0xa6120190} {
		kind, arc := ParseAutoLinkUserID(id)
		assert.Equal(t, LinkPlain, kind, "%x is no automatic link", id)
		assert.Zero(t, arc)
	}
	assert.Equal(t, "drop", LinkDrop.String())
	assert.Equal(t, "jump", LinkJump.String())
	assert.Equal(t, "plain", LinkPlain.String())
	assert.Equal(t, "LinkKind(9)", LinkKind(9).String())
}

func TestLinkPathEnds(t *testing.T) {
	start, end := mgl32.Vec3{1, 5, 2}, mgl32.Vec3{4, 2, -2}
	for _, kind := range []LinkKind{LinkPlain, LinkDrop, LinkJump} {
		assert.Equal(t, start, LinkPath(kind, start, end, 0.5, 0), "%v", kind)
		assert.Equal(t, start, LinkPath(kind, start, end, 0.5, -1), "%v clamps", kind)
		assert.InDelta(t, 0, geom.Dist(LinkPath(kind, start, end, 0.5, 1), end), 1e-5, "%v", kind)
		assert.InDelta(t, 0, geom.Dist(LinkPath(kind, start, end, 0.5, 7), end), 1e-5, "%v clamps", kind)
	}
	assert.Equal(t, mgl32.Vec3{2.5, 3.5, 0}, LinkPath(LinkPlain, start, end, 3, 0.5))
}

// TestLinkPathDrop: level with the start out to above the end, then
// straight down.
func TestLinkPathDrop(t *testing.T) {
	start, end := mgl32.Vec3{0, 3, 0}, mgl32.Vec3{2, 0, 1}
	assert.Equal(t, mgl32.Vec3{1, 3, 0.5}, LinkPath(LinkDrop, start, end, 0, 0.25))
	assert.Equal(t, mgl32.Vec3{2, 3, 1}, LinkPath(LinkDrop, start, end, 0, 0.5))
	assert.Equal(t, mgl32.Vec3{2, 1.5, 1}, LinkPath(LinkDrop, start, end, 0, 0.75))
}

// TestLinkPathJumpIsBallistic: the jump's height is one parabola in u
// (constant second difference, as under gravity at a steady horizontal
// speed), its apex lies the arc height above the higher end, and the way
// back is the same curve.
func TestLinkPathJumpIsBallistic(t *testing.T) {
	for _, c := range []struct{ startY, endY, arc float32 }{
		{0, 0, 0.4}, {2, 0, 0.4}, {0, 0.3, 0.5}, {1, -1.5, 0}, {0, 0, 0},
	} {
		start, end := mgl32.Vec3{0, c.startY, 0}, mgl32.Vec3{3, c.endY, 1}
		const n = 400
		apex := float32(math.Inf(-1))
		var second []float64
		heights := make([]float64, n+1)
		for i := 0; i <= n; i++ {
			u := float32(i) / n
			p := LinkPath(LinkJump, start, end, c.arc, u)
			heights[i] = float64(p[1])
			apex = max(apex, p[1])
			assert.InDelta(t, 3*u, p[0], 1e-5, "steady in x")
			back := LinkPath(LinkJump, end, start, c.arc, 1-u)
			assert.InDelta(t, 0, geom.Dist(p, back), 1e-4, "%+v u %v: the same curve back", c, u)
		}
		for i := 1; i < n; i++ {
			second = append(second, heights[i+1]-float64(2*heights[i])+heights[i-1])
		}
		for _, d := range second {
			assert.InDelta(t, second[0], d, 1e-5, "%+v: one parabola", c)
		}
		if c.arc > 0 || c.startY != c.endY {
			assert.Negative(t, second[0], "%+v: curves down", c)
		}
		assert.InDelta(t, max(c.startY, c.endY)+c.arc, apex, 1e-3, "%+v: apex", c)
	}
}
