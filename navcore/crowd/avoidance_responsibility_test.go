package crowd

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
)

// sweepTime is an independent oracle of the time at which a circle of
// radius r at the origin moving with relative velocity rel first touches
// one of radius r at offset: the least t >= 0 with |offset - t·rel| = r,
// half the depth for an overlap, horizon when never.
func sweepTime(offset geom.Vec3, r float32, rel geom.Vec3, horizon float64) float64 {
	ox, oz, rx, rz := float64(offset[0]), float64(offset[2]), float64(rel[0]), float64(rel[2])
	a := float64(rx*rx) + float64(rz*rz)
	if a < 0.0001 {
		return horizon
	}
	b := float64(rx*ox) + float64(rz*oz)
	c := float64(ox*ox) + float64(oz*oz) - float64(float64(r)*float64(r))
	d := float64(b*b) - float64(a*c)
	if d < 0 {
		return horizon
	}
	enter := (b - math.Sqrt(d)) / a
	if enter < 0 {
		if exit := (b + math.Sqrt(d)) / a; exit > 0 {
			enter = -enter * 0.5
		}
	}
	if enter >= 0 && enter < horizon {
		return enter
	}
	return horizon
}

// TestCircleResponsibility: the time of impact scored for every candidate
// is the one of the relative velocity the circle's responsibility gives
// (2·c - v - v_o for the reciprocal half, c - v_o for all of it), and a
// responsibility of one half is the plain AddCircle to the bit.
func TestCircleResponsibility(t *testing.T) {
	params := DefaultAvoidanceParams()
	params.GridSize = 9
	position := geom.Vec3{0, 0, 0}
	velocity := geom.Vec3{0.5, 0, 0.2}
	desired := geom.Vec3{1.5, 0, 0}
	obstacle, obstacleVelocity := geom.Vec3{2.5, 0, 0.3}, geom.Vec3{-0.4, 0, 0}
	const radius = 0.5
	for _, tc := range []struct {
		responsibility float32
		relative       func(c geom.Vec3) geom.Vec3
	}{
		{0.5, func(c geom.Vec3) geom.Vec3 { return geom.Sub(geom.Sub(geom.Scale(c, 2), velocity), obstacleVelocity) }},
		{1, func(c geom.Vec3) geom.Vec3 { return geom.Sub(c, obstacleVelocity) }},
		{0.25, func(c geom.Vec3) geom.Vec3 {
			return geom.Sub(geom.Sub(geom.Scale(c, 4), geom.Scale(velocity, 3)), obstacleVelocity)
		}},
	} {
		oa, err := NewObstacleAvoidance(1, 0)
		require.NoError(t, err)
		debug, err := NewAvoidanceDebug(1024)
		require.NoError(t, err)
		require.NoError(t, oa.AddCircleWithResponsibility(obstacle, radius, obstacleVelocity, obstacleVelocity, tc.responsibility))
		_, _, err = oa.SampleVelocityGrid(position, radius, 2, velocity, desired, &params, debug)
		require.NoError(t, err)
		require.NotEmpty(t, debug.Samples())
		for _, sample := range debug.Samples() {
			toi := sweepTime(obstacle, 2*radius, tc.relative(sample.Velocity), float64(params.HorizonTime))
			want := float64(params.WeightTimeOfImpact) / (0.1 + toi/float64(params.HorizonTime))
			assert.InDelta(t, want, sample.TimeOfImpactPenalty, 1e-3*want, "responsibility %v, candidate %v", tc.responsibility, sample.Velocity)
		}
	}

	// One half is the reference's circle, bit for bit.
	for name, sc := range avoidanceScenarios {
		plain, err := NewObstacleAvoidance(8, 8)
		require.NoError(t, err)
		half, err := NewObstacleAvoidance(8, 8)
		require.NoError(t, err)
		for _, c := range sc.circles {
			require.NoError(t, plain.AddCircle(c.position, c.radius, c.velocity, c.desiredVelocity))
			require.NoError(t, half.AddCircleWithResponsibility(c.position, c.radius, c.velocity, c.desiredVelocity, 0.5))
		}
		for _, seg := range sc.segments {
			require.NoError(t, plain.AddSegment(seg[0], seg[1]))
			require.NoError(t, half.AddSegment(seg[0], seg[1]))
		}
		params := DefaultAvoidanceParams()
		a, _, err := plain.SampleVelocityAdaptive(sc.position, sc.radius, sc.maxSpeed, sc.velocity, sc.desiredVelocity, &params, nil)
		require.NoError(t, err)
		b, _, err := half.SampleVelocityAdaptive(sc.position, sc.radius, sc.maxSpeed, sc.velocity, sc.desiredVelocity, &params, nil)
		require.NoError(t, err)
		assert.Equal(t, a, b, name)
	}
}
