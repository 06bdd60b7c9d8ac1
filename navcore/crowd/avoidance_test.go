package crowd

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
)

type avoidanceCircle struct {
	position        geom.Vec3
	radius          float32
	velocity        geom.Vec3
	desiredVelocity geom.Vec3
}

type avoidanceScenario struct {
	position        geom.Vec3
	radius          float32
	maxSpeed        float32
	velocity        geom.Vec3
	desiredVelocity geom.Vec3
	circles         []avoidanceCircle
	segments        [][2]geom.Vec3
}

var avoidanceScenarios = map[string]avoidanceScenario{
	"free": {
		position: geom.Vec3{0, 0, 0}, radius: 0.6, maxSpeed: 3.5,
		velocity: geom.Vec3{1, 0, 0}, desiredVelocity: geom.Vec3{2, 0, 1},
	},
	"head-on": {
		position: geom.Vec3{0, 0, 0}, radius: 0.6, maxSpeed: 3.5,
		velocity: geom.Vec3{2, 0, 0}, desiredVelocity: geom.Vec3{3.5, 0, 0},
		circles: []avoidanceCircle{{geom.Vec3{3, 0, 0.2}, 0.6, geom.Vec3{-1, 0, 0}, geom.Vec3{-2, 0, 0}}},
	},
	"crowded": {
		position: geom.Vec3{1, 0.5, 2}, radius: 0.6, maxSpeed: 3.5,
		velocity: geom.Vec3{0.5, 0, 1.5}, desiredVelocity: geom.Vec3{1, 0, 3},
		circles: []avoidanceCircle{
			{geom.Vec3{1.5, 0.5, 3.5}, 0.6, geom.Vec3{0, 0, -1}, geom.Vec3{0, 0, -2}},
			{geom.Vec3{2.5, 0.5, 2.5}, 0.5, geom.Vec3{-0.5, 0, 0}, geom.Vec3{-1, 0, 0.2}},
			{geom.Vec3{0.2, 0.5, 2.1}, 0.6, geom.Vec3{}, geom.Vec3{}},
		},
		segments: [][2]geom.Vec3{
			{{-1, 0.5, 4}, {4, 0.5, 4}},
			{{2.2, 0.5, 0}, {2.2, 0.5, 5}},
		},
	},
	"overlap-touch": {
		position: geom.Vec3{0, 0, 0}, radius: 0.6, maxSpeed: 2,
		velocity: geom.Vec3{0, 0, 1}, desiredVelocity: geom.Vec3{0, 0, 2},
		circles:  []avoidanceCircle{{geom.Vec3{0.3, 0, 0.5}, 0.6, geom.Vec3{}, geom.Vec3{}}},
		segments: [][2]geom.Vec3{{{-3, 0, 0.005}, {3, 0, 0.005}}},
	},
	"still": {
		position: geom.Vec3{5, 0, 5}, radius: 0.5, maxSpeed: 3,
		circles: []avoidanceCircle{{geom.Vec3{6, 0, 5}, 0.5, geom.Vec3{}, geom.Vec3{}}},
	},
	"zero-speed": {
		position: geom.Vec3{0, 0, 0}, radius: 0.5, maxSpeed: 0,
		desiredVelocity: geom.Vec3{1, 0, 0},
	},
}

func testAvoidanceParams(divisions, rings, depth int, bias float32) AvoidanceParams {
	p := DefaultAvoidanceParams()
	p.VelocityBias = bias
	p.AdaptiveDivisions, p.AdaptiveRings, p.AdaptiveDepth = divisions, rings, depth
	return p
}

var avoidanceParamSets = map[string]struct {
	params AvoidanceParams
	grid   bool
}{
	"grid-default":  {func() AvoidanceParams { p := DefaultAvoidanceParams(); p.GridSize = 9; return p }(), true},
	"default":       {DefaultAvoidanceParams(), false},
	"low":           {AvoidancePreset(AvoidanceLow), false},
	"medium":        {AvoidancePreset(AvoidanceMedium), false},
	"good":          {AvoidancePreset(AvoidanceGood), false},
	"high":          {AvoidancePreset(AvoidanceHigh), false},
	"divs1-rings1":  {testAvoidanceParams(1, 1, 1, 0.5), false},
	"divs2-rings1":  {testAvoidanceParams(2, 1, 2, 0.5), false},
	"divs8-rings4":  {testAvoidanceParams(8, 4, 3, 0.5), false},
	"divs31-rings4": {testAvoidanceParams(31, 4, 3, 0.5), false},
	"divs32-rings4": {testAvoidanceParams(32, 4, 4, 0.5), false},
}

// Expected results from the C++ reference (DetourObstacleAvoidance.cpp,
// g++ -O2, x86-64), with the even-division pattern fix of recast #496
// applied so that the even cases read defined memory: new velocity x and z,
// samples scored, samples that reached the debug recorder (not cut short),
// and the least recorded penalty.
var avoidanceExpected = []struct {
	scenario, params string
	x, z             float32
	samples, scored  int
	minPenalty       float32
}{
	{"free", "grid-default", 1.8499999, 0.925000191, 80, 19, 2.63775182},
	{"free", "default", 1.97239351, 0.993290007, 75, 13, 2.58682442},
	{"free", "low", 1.86316335, 0.35656321, 11, 3, 2.84875154},
	{"free", "medium", 2.06473756, 0.744859576, 22, 6, 2.70158815},
	{"free", "good", 1.98995399, 0.941278517, 45, 9, 2.59948874},
	{"free", "high", 1.91306114, 0.956530571, 66, 12, 2.61163282},
	{"free", "divs1-rings1", 1, 0.5, 2, 1, 3.01874685},
	{"free", "divs2-rings1", 1.78262377, 0.891311884, 6, 3, 2.66577744},
	{"free", "divs8-rings4", 1.99307001, 1.01591873, 99, 9, 2.58707571},
	{"free", "divs31-rings4", 1.98717296, 0.968843758, 375, 8, 2.58837485},
	{"free", "divs32-rings4", 1.98692644, 0.969491124, 516, 9, 2.58814788},
	{"head-on", "grid-default", 2.97500014, -1.05000007, 77, 15, 3.25059199},
	{"head-on", "default", 2.76631165, -0.817143321, 68, 12, 3.14031792},
	{"head-on", "low", 1.47961009, -0.83217448, 11, 4, 3.7316525},
	{"head-on", "medium", 2.35460997, -0.83217448, 22, 6, 3.27558255},
	{"head-on", "good", 2.81970572, -0.853061914, 45, 7, 3.14973021},
	{"head-on", "high", 2.91490436, -0.912136793, 61, 6, 3.16880345},
	{"head-on", "divs1-rings1", 1.75, 0, 2, 1, 7.45258236},
	{"head-on", "divs2-rings1", 0.875, -1.52989855e-07, 6, 4, 4.07981157},
	{"head-on", "divs8-rings4", 2.71993375, -0.827028394, 90, 9, 3.15733004},
	{"head-on", "divs31-rings4", 2.85468388, -0.843861043, 364, 7, 3.13714385},
	{"head-on", "divs32-rings4", 2.72044849, -0.796957076, 501, 10, 3.13998556},
	{"crowded", "grid-default", 0.400000095, 0.149999857, 79, 11, 10.6904697},
	{"crowded", "default", 0.445602655, 0.398981273, 75, 14, 7.48603249},
	{"crowded", "low", 0.223300755, 0.669902086, 11, 3, 10.128355},
	{"crowded", "medium", 0.575283349, 0.410066545, 22, 5, 7.57999325},
	{"crowded", "good", 0.274610937, 0.416576296, 45, 9, 8.03089905},
	{"crowded", "high", 0.566496372, 0.35067898, 66, 11, 8.15911961},
	{"crowded", "divs1-rings1", 0.5, 1.5, 2, 1, 16.4882145},
	{"crowded", "divs2-rings1", 0.223300785, 0.669902146, 6, 4, 10.1283579},
	{"crowded", "divs8-rings4", 0.468435019, 0.401248395, 99, 9, 7.46760082},
	{"crowded", "divs31-rings4", 0.365783244, 0.416071028, 375, 20, 7.38131952},
	{"crowded", "divs32-rings4", 0.388058364, 0.414110214, 516, 40, 7.3408823},
	{"overlap-touch", "grid-default", 0, -0.100000024, 77, 7, 9.14410782},
	{"overlap-touch", "default", -0.0939983055, -0.00171114597, 75, 15, 8.09447765},
	{"overlap-touch", "low", 0, 2, 11, 2, 25.375},
	{"overlap-touch", "medium", 0, 2, 17, 3, 25.375},
	{"overlap-touch", "good", 0, 2, 31, 4, 25.375},
	{"overlap-touch", "high", 0, 2, 46, 4, 25.375},
	{"overlap-touch", "divs1-rings1", 0, 2, 2, 2, 25.375},
	{"overlap-touch", "divs2-rings1", 0, 2, 5, 3, 25.375},
	{"overlap-touch", "divs8-rings4", 0, 2, 63, 4, 25.375},
	{"overlap-touch", "divs31-rings4", 0, 2, 245, 4, 25.375},
	{"overlap-touch", "divs32-rings4", 0, 2, 320, 5, 25.375},
	{"still", "grid-default", 0, 0, 81, 13, 2.27272725},
	{"still", "default", 0, 0, 75, 5, 2.27272725},
	{"still", "low", 0, 0, 11, 1, 2.27272725},
	{"still", "medium", 0, 0, 22, 2, 2.27272725},
	{"still", "good", 0, 0, 45, 3, 2.27272725},
	{"still", "high", 0, 0, 66, 3, 2.27272725},
	{"still", "divs1-rings1", 0, 0, 2, 1, 2.27272725},
	{"still", "divs2-rings1", 0, 0, 6, 2, 2.27272725},
	{"still", "divs8-rings4", 0, 0, 99, 3, 2.27272725},
	{"still", "divs31-rings4", 0, 0, 375, 3, 2.27272725},
	{"still", "divs32-rings4", 0, 0, 516, 4, 2.27272725},
	{"zero-speed", "grid-default", 0, 0, 0, 0, 1e30},
	{"zero-speed", "default", 0, 0, 60, 60, 1e30},
	{"zero-speed", "low", 0, 0, 0, 0, 1e30},
	{"zero-speed", "medium", 0, 0, 11, 11, 1e30},
	{"zero-speed", "good", 0, 0, 30, 30, 1e30},
	{"zero-speed", "high", 0, 0, 44, 44, 1e30},
	{"zero-speed", "divs1-rings1", 0, 0, 0, 0, 1e30},
	{"zero-speed", "divs2-rings1", 0, 0, 3, 3, 1e30},
	{"zero-speed", "divs8-rings4", 0, 0, 66, 66, 1e30},
	{"zero-speed", "divs31-rings4", 0, 0, 250, 250, 1e30},
	{"zero-speed", "divs32-rings4", 0, 0, 387, 387, 1e30},
}

func loadAvoidanceScenario(t testing.TB, a *ObstacleAvoidance, s avoidanceScenario) {
	a.Reset()
	for _, c := range s.circles {
		require.NoError(t, a.AddCircle(c.position, c.radius, c.velocity, c.desiredVelocity))
	}
	for _, seg := range s.segments {
		require.NoError(t, a.AddSegment(seg[0], seg[1]))
	}
}

func TestObstacleAvoidanceMatchesReference(t *testing.T) {
	avoidance, err := NewObstacleAvoidance(6, 8)
	require.NoError(t, err)
	debug, err := NewAvoidanceDebug(4096)
	require.NoError(t, err)

	for _, want := range avoidanceExpected {
		t.Run(want.scenario+"/"+want.params, func(t *testing.T) {
			s := avoidanceScenarios[want.scenario]
			ps := avoidanceParamSets[want.params]
			loadAvoidanceScenario(t, avoidance, s)
			sample := avoidance.SampleVelocityAdaptive
			if ps.grid {
				sample = avoidance.SampleVelocityGrid
			}
			got, samples, err := sample(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &ps.params, debug)
			require.NoError(t, err)
			assert.Equal(t, want.x, got[0], "x")
			assert.Equal(t, float32(0), got[1], "y")
			assert.Equal(t, want.z, got[2], "z")
			assert.Equal(t, want.samples, samples, "samples")
			require.Len(t, debug.Samples(), want.scored, "recorded samples")

			minPenalty := float32(1e30)
			for _, rec := range debug.Samples() {
				minPenalty = min(minPenalty, rec.Penalty)
			}
			assert.Equal(t, want.minPenalty, minPenalty, "least penalty")
		})
	}
}

func TestAvoidancePresets(t *testing.T) {
	tests := []struct {
		quality                 AvoidanceQuality
		name                    string
		divisions, rings, depth int
	}{
		{AvoidanceLow, "low", 5, 2, 1},
		{AvoidanceMedium, "medium", 5, 2, 2},
		{AvoidanceGood, "good", 7, 2, 3},
		{AvoidanceHigh, "high", 7, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := AvoidancePreset(tt.quality)
			require.NoError(t, p.Validate())
			assert.Equal(t, tt.name, tt.quality.String())
			assert.Equal(t, AvoidanceParams{
				VelocityBias: 0.5, WeightDesiredVelocity: 2, WeightCurrentVelocity: 0.75, WeightSide: 0.75,
				WeightTimeOfImpact: 2.5, HorizonTime: 2.5, GridSize: 33,
				AdaptiveDivisions: tt.divisions, AdaptiveRings: tt.rings, AdaptiveDepth: tt.depth,
				ORCA: DefaultORCAParams(),
			}, p)
		})
	}
	d := DefaultAvoidanceParams()
	require.NoError(t, d.Validate())
	assert.Equal(t, float32(0.4), d.VelocityBias)
	assert.Equal(t, 5, d.AdaptiveDepth)
}

func TestAvoidanceParamsValidate(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name   string
		modify func(*AvoidanceParams)
		ok     bool
	}{
		{"bias 0", func(p *AvoidanceParams) { p.VelocityBias = 0 }, true},
		{"bias 1", func(p *AvoidanceParams) { p.VelocityBias = 1 }, true},
		{"bias -0.1", func(p *AvoidanceParams) { p.VelocityBias = -0.1 }, false},
		{"bias 1.1", func(p *AvoidanceParams) { p.VelocityBias = 1.1 }, false},
		{"bias NaN", func(p *AvoidanceParams) { p.VelocityBias = nan }, false},
		{"weights 0", func(p *AvoidanceParams) {
			p.WeightDesiredVelocity, p.WeightCurrentVelocity, p.WeightSide, p.WeightTimeOfImpact = 0, 0, 0, 0
		}, true},
		{"desired weight negative", func(p *AvoidanceParams) { p.WeightDesiredVelocity = -1 }, false},
		{"current weight NaN", func(p *AvoidanceParams) { p.WeightCurrentVelocity = nan }, false},
		{"side weight infinite", func(p *AvoidanceParams) { p.WeightSide = inf }, false},
		{"toi weight negative", func(p *AvoidanceParams) { p.WeightTimeOfImpact = -0.5 }, false},
		{"horizon 0", func(p *AvoidanceParams) { p.HorizonTime = 0 }, false},
		{"horizon NaN", func(p *AvoidanceParams) { p.HorizonTime = nan }, false},
		{"grid 1", func(p *AvoidanceParams) { p.GridSize = 1 }, false},
		{"grid 2", func(p *AvoidanceParams) { p.GridSize = 2 }, true},
		{"grid 255", func(p *AvoidanceParams) { p.GridSize = 255 }, true},
		{"grid 256", func(p *AvoidanceParams) { p.GridSize = 256 }, false},
		{"divisions 0", func(p *AvoidanceParams) { p.AdaptiveDivisions = 0 }, false},
		{"divisions 1", func(p *AvoidanceParams) { p.AdaptiveDivisions = 1 }, true},
		{"divisions 32", func(p *AvoidanceParams) { p.AdaptiveDivisions = 32 }, true},
		{"divisions 33", func(p *AvoidanceParams) { p.AdaptiveDivisions = 33 }, false},
		{"rings 0", func(p *AvoidanceParams) { p.AdaptiveRings = 0 }, false},
		{"rings 4", func(p *AvoidanceParams) { p.AdaptiveRings = 4 }, true},
		{"rings 5", func(p *AvoidanceParams) { p.AdaptiveRings = 5 }, false},
		{"depth 0", func(p *AvoidanceParams) { p.AdaptiveDepth = 0 }, false},
		{"depth 255", func(p *AvoidanceParams) { p.AdaptiveDepth = 255 }, true},
		{"depth 256", func(p *AvoidanceParams) { p.AdaptiveDepth = 256 }, false},
	}
	avoidance, err := NewObstacleAvoidance(1, 1)
	require.NoError(t, err)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultAvoidanceParams()
			tt.modify(&p)
			err := p.Validate()
			_, _, gridErr := avoidance.SampleVelocityGrid(geom.Vec3{}, 0.5, 2, geom.Vec3{}, geom.Vec3{1, 0, 0}, &p, nil)
			_, _, adaptiveErr := avoidance.SampleVelocityAdaptive(geom.Vec3{}, 0.5, 2, geom.Vec3{}, geom.Vec3{1, 0, 0}, &p, nil)
			if tt.ok {
				assert.NoError(t, err)
				assert.NoError(t, gridErr)
				assert.NoError(t, adaptiveErr)
				return
			}
			assert.ErrorIs(t, err, ErrInvalidParam)
			assert.ErrorIs(t, gridErr, ErrInvalidParam)
			assert.ErrorIs(t, adaptiveErr, ErrInvalidParam)
		})
	}

	_, _, err = avoidance.SampleVelocityAdaptive(geom.Vec3{}, 0.5, 2, geom.Vec3{}, geom.Vec3{}, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
	p := DefaultAvoidanceParams()
	for _, speed := range []float32{-1, float32(math.NaN()), float32(math.Inf(1))} {
		_, _, err = avoidance.SampleVelocityGrid(geom.Vec3{}, 0.5, speed, geom.Vec3{}, geom.Vec3{}, &p, nil)
		assert.ErrorIs(t, err, ErrInvalidParam, "max speed %v", speed)
	}
}

// TestAdaptivePatternEveryShape builds the pattern for every allowed
// division and ring count (the reference overruns its array at 32 × 4) and
// checks its geometry: the centre, then per ring (outside in) the ring's
// radius and AdaptiveDivisions directions one division apart, the first along
// the desired direction on even-numbered rings and half a division off on the
// others.
func TestAdaptivePatternEveryShape(t *testing.T) {
	avoidance, err := NewObstacleAvoidance(0, 0)
	require.NoError(t, err)
	desired := geom.Vec3{0, 0, 3} // along +z: angle π/2 from +x
	for divisions := 1; divisions <= MaxAdaptiveDivisions; divisions++ {
		for rings := 1; rings <= MaxAdaptiveRings; rings++ {
			avoidance.params = testAvoidanceParams(divisions, rings, 1, 0.5)
			n := avoidance.buildPattern(desired)
			require.Equal(t, divisions*rings+1, n, "%d divisions × %d rings", divisions, rings)
			require.Equal(t, [2]float32{0, 0}, avoidance.pattern[0])

			step := 2 * math.Pi / float64(divisions)
			for ring := 0; ring < rings; ring++ {
				radius := float64(rings-ring) / float64(rings)
				start := math.Pi / 2
				if ring%2 == 1 {
					start += float64(step / 2)
				}
				angles := map[int]bool{}
				for k := 0; k < divisions; k++ {
					e := avoidance.pattern[1+ring*divisions+k]
					x, z := float64(e[0]), float64(e[1])
					require.InDelta(t, radius, math.Hypot(x, z), 1e-5, "radius d%d r%d ring %d entry %d", divisions, rings, ring, k)
					turns := math.Mod(math.Atan2(z, x)-start+4*math.Pi, 2*math.Pi) / step
					index := int(math.Round(turns)) % divisions
					require.InDelta(t, math.Round(turns), turns, 1e-3, "off the division grid")
					angles[index] = true
				}
				assert.Len(t, angles, divisions, "every direction of ring %d once (d%d r%d)", ring, divisions, rings)
			}
		}
	}
}

func TestPatternRotationTable(t *testing.T) {
	// Each entry is within one float32 ulp of the float64 trigonometry of
	// the reference's float32 angle.
	for d := 1; d <= MaxAdaptiveDivisions; d++ {
		angle := float32(float32((1/float32(d))*float32(3.14159265)) * 2)
		half := angle * 0.5
		cosA, sinA, cosH, sinH := patternRotation(d)
		for i, pair := range [][2]float64{
			{float64(cosA), math.Cos(float64(angle))},
			{float64(sinA), math.Sin(float64(angle))},
			{float64(cosH), math.Cos(float64(half))},
			{float64(sinH), math.Sin(float64(half))},
		} {
			ulp := math.Abs(float64(math.Nextafter32(float32(pair[1]), float32(math.Inf(1)))) - pair[1])
			assert.LessOrEqual(t, math.Abs(pair[0]-pair[1]), 2*ulp, "divisions %d value %d", d, i)
		}
	}
}

func TestObstacleAvoidanceCapacity(t *testing.T) {
	_, err := NewObstacleAvoidance(-1, 0)
	assert.ErrorIs(t, err, ErrInvalidParam)

	a, err := NewObstacleAvoidance(2, 1)
	require.NoError(t, err)
	require.NoError(t, a.AddCircle(geom.Vec3{1, 0, 0}, 0.5, geom.Vec3{}, geom.Vec3{}))
	require.NoError(t, a.AddCircle(geom.Vec3{2, 0, 0}, 0.5, geom.Vec3{}, geom.Vec3{}))
	assert.ErrorIs(t, a.AddCircle(geom.Vec3{3, 0, 0}, 0.5, geom.Vec3{}, geom.Vec3{}), ErrCapacity)
	require.NoError(t, a.AddSegment(geom.Vec3{0, 0, 1}, geom.Vec3{1, 0, 1}))
	assert.ErrorIs(t, a.AddSegment(geom.Vec3{0, 0, 2}, geom.Vec3{1, 0, 2}), ErrCapacity)

	assert.Equal(t, 2, a.CircleCount())
	assert.Equal(t, geom.Vec3{2, 0, 0}, a.Circle(1).Position)
	assert.Equal(t, 1, a.SegmentCount())
	assert.Equal(t, geom.Vec3{1, 0, 1}, a.Segment(0).Q)

	a.Reset()
	assert.Zero(t, a.CircleCount())
	assert.Zero(t, a.SegmentCount())
}

func TestAvoidanceDebug(t *testing.T) {
	_, err := NewAvoidanceDebug(0)
	assert.ErrorIs(t, err, ErrInvalidParam)

	// A recorder smaller than the sample count keeps the first samples.
	small, err := NewAvoidanceDebug(4)
	require.NoError(t, err)
	a, err := NewObstacleAvoidance(6, 8)
	require.NoError(t, err)
	s := avoidanceScenarios["free"]
	p := AvoidancePreset(AvoidanceHigh)
	_, samples, err := a.SampleVelocityAdaptive(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &p, small)
	require.NoError(t, err)
	assert.Equal(t, 66, samples)
	require.Len(t, small.Samples(), 4)
	// The first sample is the pattern centre: the biased desired velocity.
	first := small.Samples()[0]
	assert.Equal(t, geom.Vec3{1, 0, 0.5}, first.Velocity)
	assert.Equal(t, float32(0.175), first.Size, "3.5·(1-0.5)/10")
	assert.Equal(t, first.DesiredVelocityPenalty+first.CurrentVelocityPenalty+first.SidePenalty+first.TimeOfImpactPenalty,
		first.Penalty)
	assert.Zero(t, first.SidePenalty, "no circles, no side term")
	// No obstacle: time of impact is the horizon, 2.5 / (0.1 + 1).
	assert.InDelta(t, 2.5/1.1, first.TimeOfImpactPenalty, 1e-6)

	small.NormalizeSamples()
	lowest, highest := float32(2), float32(-1)
	for _, rec := range small.Samples() {
		lowest = min(lowest, rec.Penalty)
		highest = max(highest, rec.Penalty)
		// Equal terms (a range under 0.001) all become 0.
		assert.Zero(t, rec.TimeOfImpactPenalty)
		assert.Zero(t, rec.SidePenalty)
	}
	assert.Equal(t, float32(0), lowest)
	assert.Equal(t, float32(1), highest)
}

func TestObstacleAvoidanceDoesNotAllocate(t *testing.T) {
	a, err := NewObstacleAvoidance(6, 8)
	require.NoError(t, err)
	debug, err := NewAvoidanceDebug(512)
	require.NoError(t, err)
	s := avoidanceScenarios["crowded"]
	high := AvoidancePreset(AvoidanceHigh)
	extreme := testAvoidanceParams(32, 4, 4, 0.5)
	grid := DefaultAvoidanceParams()
	allocs := testing.AllocsPerRun(50, func() {
		a.Reset()
		for _, c := range s.circles {
			_ = a.AddCircle(c.position, c.radius, c.velocity, c.desiredVelocity)
		}
		for _, seg := range s.segments {
			_ = a.AddSegment(seg[0], seg[1])
		}
		_, _, _ = a.SampleVelocityAdaptive(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &high, nil)
		_, _, _ = a.SampleVelocityAdaptive(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &extreme, debug)
		_, _, _ = a.SampleVelocityGrid(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &grid, debug)
		debug.NormalizeSamples()
	})
	assert.Zero(t, allocs)
}

func BenchmarkObstacleAvoidance(b *testing.B) {
	s := avoidanceScenarios["crowded"]
	for _, bench := range []struct {
		name   string
		params AvoidanceParams
		grid   bool
	}{
		{"adaptive-high", AvoidancePreset(AvoidanceHigh), false},
		{"adaptive-low", AvoidancePreset(AvoidanceLow), false},
		{"grid-33", DefaultAvoidanceParams(), true},
	} {
		b.Run(bench.name, func(b *testing.B) {
			a, err := NewObstacleAvoidance(6, 8)
			require.NoError(b, err)
			loadAvoidanceScenario(b, a, s)
			sample := a.SampleVelocityAdaptive
			if bench.grid {
				sample = a.SampleVelocityGrid
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, _, _ = sample(s.position, s.radius, s.maxSpeed, s.velocity, s.desiredVelocity, &bench.params, nil)
			}
		})
	}
	// ORCA on the same neighbours and walls, beside the samplers.
	b.Run("orca", func(b *testing.B) {
		a, err := NewReciprocalAvoidance(6, 8)
		require.NoError(b, err)
		for _, c := range s.circles {
			require.NoError(b, a.AddNeighbour(ORCANeighbour{Position: c.position, Velocity: c.velocity, Radius: c.radius, Responsibility: 0.5}))
		}
		for _, seg := range s.segments {
			require.NoError(b, a.AddSegment(seg[0], seg[1]))
		}
		agent := ORCAAgent{Position: s.position, Radius: s.radius, MaxSpeed: s.maxSpeed, Velocity: s.velocity, PreferredVelocity: s.desiredVelocity}
		params := DefaultORCAParams()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, _, _ = a.Solve(&agent, &params, 1.0/60)
		}
	})
}
