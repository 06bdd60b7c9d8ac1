package crowd

import (
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
)

// orcaBody is one agent of a small ORCA simulation.
type orcaBody struct {
	position, velocity, goal geom.Vec3
	radius, speed            float32
}

// orcaWorld is a small simulation: bodies walking to their goals, each
// avoiding the others and the walls with ORCA, all moving at once.
type orcaWorld struct {
	bodies []orcaBody
	walls  [][2]geom.Vec3
	params ORCAParams
	dt     float32

	// Measured while stepping.
	minGap        float32 // least distance between bodies minus their radii
	minWallGap    float32 // least distance from a centre to a wall it faced
	wallCrossings int     // steps that took a centre across a wall
	infeasible    int     // solves that fell back
}

func newORCAWorld(bodies []orcaBody, walls [][2]geom.Vec3) *orcaWorld {
	return &orcaWorld{
		bodies: bodies, walls: walls, params: DefaultORCAParams(), dt: 0.05,
		minGap: floatMax, minWallGap: floatMax,
	}
}

// preferred heads straight for the goal at full speed, slowing within a
// body radius of it.
func (b *orcaBody) preferred() geom.Vec3 {
	to := geom.Sub(b.goal, b.position)
	to[1] = 0
	d := geom.Len(to)
	if d < 1e-4 {
		return geom.Vec3{}
	}
	return geom.Scale(to, min(b.speed, b.speed*d/b.radius)/d)
}

func (w *orcaWorld) step(t *testing.T, oa *ReciprocalAvoidance) {
	t.Helper()
	next := make([]geom.Vec3, len(w.bodies))
	order := make([]int, 0, len(w.bodies))
	for i := range w.bodies {
		b := &w.bodies[i]
		oa.Reset()
		order = order[:0]
		for j := range w.bodies {
			if j != i {
				order = append(order, j)
			}
		}
		slices.SortStableFunc(order, func(x, y int) int {
			dx, dy := geom.Dist2DSqr(b.position, w.bodies[x].position), geom.Dist2DSqr(b.position, w.bodies[y].position)
			switch {
			case dx < dy:
				return -1
			case dx > dy:
				return 1
			}
			return 0
		})
		for _, j := range order[:min(len(order), oa.cap())] {
			o := &w.bodies[j]
			require.NoError(t, oa.AddNeighbour(ORCANeighbour{Position: o.position, Velocity: o.velocity, Radius: o.radius, Responsibility: 0.5}))
		}
		for _, wall := range w.walls {
			require.NoError(t, oa.AddSegment(wall[0], wall[1]))
		}
		agent := ORCAAgent{Position: b.position, Radius: b.radius, MaxSpeed: b.speed, Velocity: b.velocity, PreferredVelocity: b.preferred()}
		v, result, err := oa.Solve(&agent, &w.params, w.dt)
		require.NoError(t, err)
		require.True(t, geom.IsFinite(v))
		require.LessOrEqual(t, geom.Len(v), b.speed*1.0001)
		if result.Infeasible {
			w.infeasible++
		}
		next[i] = v
	}
	for i := range w.bodies {
		b := &w.bodies[i]
		from := b.position
		b.velocity = next[i]
		b.position = geom.Mad(b.position, b.velocity, w.dt)
		for _, wall := range w.walls {
			if geom.TriArea2D(from, wall[0], wall[1]) > 0 {
				distSqr, _ := geom.DistancePtSegSqr2D(b.position, wall[0], wall[1])
				w.minWallGap = min(w.minWallGap, geom.Sqrt(distSqr))
			}
			if s, t, ok := geom.IntersectSegSeg2D(from, b.position, wall[0], wall[1]); ok && s >= 0 && s <= 1 && t >= 0 && t <= 1 {
				w.wallCrossings++
			}
		}
	}
	for i := range w.bodies {
		for j := i + 1; j < len(w.bodies); j++ {
			gap := geom.Dist2D(w.bodies[i].position, w.bodies[j].position) - w.bodies[i].radius - w.bodies[j].radius
			w.minGap = min(w.minGap, gap)
		}
	}
}

func (a *ReciprocalAvoidance) cap() int { return cap(a.neighbours) }

func (w *orcaWorld) run(t *testing.T, steps int) {
	t.Helper()
	oa, err := NewReciprocalAvoidance(8, 8)
	require.NoError(t, err)
	for range steps {
		w.step(t, oa)
	}
}

func (w *orcaWorld) assertArrived(t *testing.T, within float32) {
	t.Helper()
	for i, b := range w.bodies {
		assert.LessOrEqual(t, geom.Dist2D(b.position, b.goal), within, "body %d at %v, goal %v", i, b.position, b.goal)
	}
}

func TestORCAHeadOnPassEachOther(t *testing.T) {
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{-4, 0, 0}, goal: geom.Vec3{4, 0, 0}, radius: 0.5, speed: 1.5},
		{position: geom.Vec3{4, 0, 0}, goal: geom.Vec3{-4, 0, 0}, radius: 0.5, speed: 1.5},
	}, nil)
	var swerve [2]float32
	oa, err := NewReciprocalAvoidance(1, 0)
	require.NoError(t, err)
	for range 300 { // 15 s; straight through would take 5.3 s
		w.step(t, oa)
		for i, b := range w.bodies {
			if geom.Abs(b.position[2]) > geom.Abs(swerve[i]) {
				swerve[i] = b.position[2]
			}
		}
	}
	assert.GreaterOrEqual(t, w.minGap, float32(-1e-3), "the bodies never overlap")
	w.assertArrived(t, 0.05)
	// They step aside, each to its right: +z for the one walking along +x
	// (right = forward × up).
	assert.Greater(t, swerve[0], float32(0.2))
	assert.Less(t, swerve[1], float32(-0.2))
	assert.Zero(t, w.infeasible)
}

func TestORCACrossingOfFour(t *testing.T) {
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{-4, 0, 0}, goal: geom.Vec3{4, 0, 0}, radius: 0.5, speed: 1.5},
		{position: geom.Vec3{4, 0, 0}, goal: geom.Vec3{-4, 0, 0}, radius: 0.5, speed: 1.5},
		{position: geom.Vec3{0, 0, -4}, goal: geom.Vec3{0, 0, 4}, radius: 0.5, speed: 1.5},
		{position: geom.Vec3{0, 0, 4}, goal: geom.Vec3{0, 0, -4}, radius: 0.5, speed: 1.5},
	}, nil)
	w.run(t, 400) // 20 s
	assert.GreaterOrEqual(t, w.minGap, float32(-0.01), "the bodies never overlap (beyond a centimetre)")
	w.assertArrived(t, 0.05)
}

// The walls of the corner tests follow the navmesh's winding: the walkable
// side on the left of P→Q seen from above, where geom.TriArea2D(position,
// P, Q) > 0, as the local boundary and the sampler have it.

// convexCorner is the corner of a block filling x < 0, z < 0: the wall
// along x = 0 up to the corner, then along z = 0 away from it.
var convexCorner = [][2]geom.Vec3{
	{{0, 0, -3}, {0, 0, 0}},
	{{0, 0, 0}, {-3, 0, 0}},
}

// concaveCorner is the corner of a room filling x > 0, z > 0.
var concaveCorner = [][2]geom.Vec3{
	{{3, 0, 0}, {0, 0, 0}},
	{{0, 0, 0}, {0, 0, 3}},
}

func TestORCACornerWindingIsTheNavmesh(t *testing.T) {
	for _, wall := range convexCorner {
		assert.Positive(t, geom.TriArea2D(geom.Vec3{1, 0, 1}, wall[0], wall[1]), "%v faces the free quadrant", wall)
	}
	for _, wall := range concaveCorner {
		assert.Positive(t, geom.TriArea2D(geom.Vec3{1, 0, 1}, wall[0], wall[1]), "%v faces the room", wall)
	}
}

func TestORCAAroundAConvexCorner(t *testing.T) {
	// Straight to the goal cuts the block's corner.
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{2, 0, -2}, goal: geom.Vec3{-2, 0, 2}, radius: 0.5, speed: 1.5},
	}, convexCorner)
	w.run(t, 200)
	assert.Zero(t, w.wallCrossings)
	assert.GreaterOrEqual(t, w.minWallGap, WallClearance*0.9)
	w.assertArrived(t, 0.05)
}

// TestORCACornerLinks: the corner's walls are linked end to end (the
// corner is convex), and with a millimetre between them they are not (two
// open ends); either way the body goes round without crossing them.
func TestORCACornerLinks(t *testing.T) {
	oa, err := NewReciprocalAvoidance(0, 2)
	require.NoError(t, err)
	for _, wall := range convexCorner {
		require.NoError(t, oa.AddSegment(wall[0], wall[1]))
	}
	oa.prepareWalls(vec2{2, -0.5}, 10)
	assert.Equal(t, 1, oa.walls[0].next)
	assert.True(t, oa.convexAt(0, 1))
	assert.False(t, oa.walls[1].inReach, "the second wall faces away from (2, -0.5)")
	assert.Equal(t, -1, oa.walls[1].previous, "only walls in reach are linked")

	gapped := [][2]geom.Vec3{convexCorner[0], {{-0.001, 0, 0}, {-3, 0, 0}}}
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{2, 0, -2}, goal: geom.Vec3{-2, 0, 2}, radius: 0.5, speed: 1.5},
	}, gapped)
	w.run(t, 200)
	assert.Zero(t, w.wallCrossings)
	assert.GreaterOrEqual(t, w.minWallGap, WallClearance*0.9)
	w.assertArrived(t, 0.05)

	oa.Reset()
	for _, wall := range concaveCorner {
		require.NoError(t, oa.AddSegment(wall[0], wall[1]))
	}
	oa.prepareWalls(vec2{1, 1}, 10)
	assert.False(t, oa.convexAt(0, 1), "a room's corner is concave")
}

func TestORCAIntoAConcaveCorner(t *testing.T) {
	// The goal lies beyond the corner, out of the room: the body stops at
	// the corner, a clearance from both walls.
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{2, 0, 1.5}, goal: geom.Vec3{-1, 0, -1}, radius: 0.5, speed: 1.5},
	}, concaveCorner)
	w.run(t, 200)
	assert.Zero(t, w.wallCrossings)
	assert.GreaterOrEqual(t, w.minWallGap, WallClearance*0.9)
	p := w.bodies[0].position
	assert.InDelta(t, 0, p[0], 0.1, "at the corner: %v", p)
	assert.InDelta(t, 0, p[2], 0.1, "at the corner: %v", p)
}

func TestORCAStopsAtAWall(t *testing.T) {
	wall := [][2]geom.Vec3{{{-3, 0, 2}, {3, 0, 2}}}
	require.Positive(t, geom.TriArea2D(geom.Vec3{}, wall[0][0], wall[0][1]))
	w := newORCAWorld([]orcaBody{
		{position: geom.Vec3{0, 0, 0}, goal: geom.Vec3{0.5, 0, 5}, radius: 0.5, speed: 2},
	}, wall)
	w.run(t, 100)
	assert.Zero(t, w.wallCrossings)
	assert.GreaterOrEqual(t, w.minWallGap, WallClearance*0.9)
	assert.InDelta(t, 2-WallClearance, w.bodies[0].position[2], 0.02, "against the wall")
}

// TestORCAWallSidesAndEnds: a wall seen from behind constrains nothing; one
// seen from the front slows a velocity into it; past a free end it does not.
func TestORCAWallSidesAndEnds(t *testing.T) {
	oa, err := NewReciprocalAvoidance(0, 2)
	require.NoError(t, err)
	params := DefaultORCAParams()
	solve := func(wall [2]geom.Vec3, preferred geom.Vec3) (geom.Vec3, ORCAResult) {
		oa.Reset()
		require.NoError(t, oa.AddSegment(wall[0], wall[1]))
		agent := ORCAAgent{Radius: 0.5, MaxSpeed: 3, Velocity: preferred, PreferredVelocity: preferred}
		v, result, err := oa.Solve(&agent, &params, 1.0/60)
		require.NoError(t, err)
		return v, result
	}
	front := [2]geom.Vec3{{-2, 0, 0.5}, {2, 0, 0.5}}
	require.Positive(t, geom.TriArea2D(geom.Vec3{}, front[0], front[1]))
	back := [2]geom.Vec3{front[1], front[0]}
	into := geom.Vec3{0, 0, 3}

	v, result := solve(back, into)
	assert.Equal(t, into, v, "from behind")
	assert.Zero(t, result.WallPlanes)

	v, result = solve(front, into)
	assert.Equal(t, 1, result.WallPlanes)
	// Reaching the wall (less the clearance) at the horizon at the latest.
	assert.InDelta(t, (0.5-WallClearance)/params.ObstacleTimeHorizon, v[2], 1e-4)
	assert.InDelta(t, 0, v[0], 1e-5)

	past := geom.Vec3{2.5, 0, 0.4} // passes beyond the end at x = 2
	v, _ = solve(front, past)
	assert.Equal(t, past, v, "past the free end")
}

// TestORCAInfeasibleFallsBack: four neighbours overlapping the agent from
// four sides, and a wall ahead: no velocity meets every half-plane, so the
// fallback keeps the wall's and makes the largest violation of the others
// as small as brute force can.
func TestORCAInfeasibleFallsBack(t *testing.T) {
	oa, err := NewReciprocalAvoidance(4, 1)
	require.NoError(t, err)
	for _, offset := range []geom.Vec3{{0.8, 0, 0}, {-0.8, 0, 0}, {0, 0, 0.7}, {0, 0, -0.9}} {
		require.NoError(t, oa.AddNeighbour(ORCANeighbour{Position: offset, Radius: 0.5, Responsibility: 0.5}))
	}
	wall := [2]geom.Vec3{{-2, 0, 0.3}, {2, 0, 0.3}}
	require.NoError(t, oa.AddSegment(wall[0], wall[1]))
	agent := ORCAAgent{Radius: 0.5, MaxSpeed: 1, PreferredVelocity: geom.Vec3{0.5, 0, 0.5}}
	params := DefaultORCAParams()
	v, result, err := oa.Solve(&agent, &params, 1.0/60)
	require.NoError(t, err)
	assert.True(t, result.Infeasible)
	assert.Equal(t, 1, result.WallPlanes)
	assert.Equal(t, 4, result.NeighbourPlanes)
	assert.LessOrEqual(t, geom.Len(v), agent.MaxSpeed*1.0001)

	lines := lines64(oa.planes)
	got := to64(xz(v))
	assert.LessOrEqual(t, lines[0].violation(got), 1e-5, "the wall holds")
	// Brute force over a fine grid of the disc, keeping the wall.
	best := math.Inf(1)
	const steps = 400
	for i := 0; i <= steps; i++ {
		for j := 0; j <= steps; j++ {
			p := point64{-1 + 2*float64(i)/steps, -1 + 2*float64(j)/steps}
			if p.length() <= 1 && lines[0].violation(p) <= 0 {
				best = math.Min(best, largestViolation(lines[1:], p))
			}
		}
	}
	assert.LessOrEqual(t, largestViolation(lines[1:], got), best+1e-4)
	assert.Positive(t, largestViolation(lines[1:], got), "infeasible indeed")
}

// TestLeastViolationNearlyParallel: two soft planes facing almost opposite
// ways whose lines cross far away. Written through their crossing, the
// bisector loses its precision in float32 and the fallback leaves the
// speed circle; written through its point nearest zero it stays exact.
func TestLeastViolationNearlyParallel(t *testing.T) {
	angle := 3e-5
	planes := []halfPlane{
		{point: vec2{0, 2}, direction: vec2{1, 0}},
		{point: vec2{0, -2.5}, direction: vec2{-float32(math.Cos(angle)), float32(math.Sin(angle))}},
	}
	v, met := solvePlanes(planes, 1, vec2{0.3, 0.1}, false)
	require.Less(t, met, len(planes))
	got := leastViolation(planes, 0, met, 1, v, make([]halfPlane, 0, 2))
	lines := lines64(planes)
	assert.LessOrEqual(t, to64(got).length(), 1+1e-5)
	assert.InDelta(t, leastLargestViolation(lines, 1), largestViolation(lines, to64(got)), 1e-4)
}

func TestORCAResponsibility(t *testing.T) {
	// Head-on, closing at 3 m/s from 3 m: the plane's line lies
	// Responsibility·|u| from the current velocity.
	distance := func(responsibility float32) float32 {
		oa, err := NewReciprocalAvoidance(1, 0)
		require.NoError(t, err)
		require.NoError(t, oa.AddNeighbour(ORCANeighbour{Position: geom.Vec3{3, 0, 0.1}, Velocity: geom.Vec3{-1.5, 0, 0}, Radius: 0.5, Responsibility: responsibility}))
		agent := ORCAAgent{Radius: 0.5, MaxSpeed: 2, Velocity: geom.Vec3{1.5, 0, 0}, PreferredVelocity: geom.Vec3{1.5, 0, 0}}
		params := DefaultORCAParams()
		_, _, err = oa.Solve(&agent, &params, 1.0/60)
		require.NoError(t, err)
		return oa.planes[0].violation(vec2{1.5, 0})
	}
	half, full, none := distance(0.5), distance(1), distance(0)
	assert.Positive(t, half, "the current velocity collides")
	assert.InDelta(t, 2*half, full, 1e-5)
	assert.InDelta(t, 0, none, 1e-6)
}

func TestORCANothingInTheWay(t *testing.T) {
	oa, err := NewReciprocalAvoidance(2, 2)
	require.NoError(t, err)
	params := DefaultORCAParams()
	agent := ORCAAgent{Radius: 0.5, MaxSpeed: 2, PreferredVelocity: geom.Vec3{1, 0.7, 1}}
	v, result, err := oa.Solve(&agent, &params, 1.0/60)
	require.NoError(t, err)
	assert.Equal(t, geom.Vec3{1, 0, 1}, v)
	assert.Equal(t, ORCAResult{}, result)

	agent.PreferredVelocity = geom.Vec3{3, 0, 4}
	v, _, err = oa.Solve(&agent, &params, 1.0/60)
	require.NoError(t, err)
	assert.InDelta(t, 1.2, v[0], 1e-6, "clamped to the speed circle")
	assert.InDelta(t, 1.6, v[2], 1e-6)
}

// orcaCrowdScene is a busy input: six neighbours around, walls on two
// sides.
func orcaCrowdScene(t testing.TB, oa *ReciprocalAvoidance) ORCAAgent {
	oa.Reset()
	for i := range 6 {
		angle := float64(i) * 1.1
		p := geom.Vec3{float32(math.Cos(angle)) * (1.1 + float32(float32(i)*0.3)), 0, float32(math.Sin(angle)) * (1.1 + float32(float32(i)*0.3))}
		require.NoError(t, oa.AddNeighbour(ORCANeighbour{Position: p, Velocity: geom.Vec3{-p[2], 0, p[0]}, Radius: 0.6, Responsibility: 0.5}))
	}
	for _, wall := range [][2]geom.Vec3{{{1, 0, 2}, {4, 0, 2}}, {{1, 0, 5}, {1, 0, 2}}, {{-2, 0, 3}, {-2, 0, -3}}} {
		require.NoError(t, oa.AddSegment(wall[0], wall[1]))
	}
	return ORCAAgent{Radius: 0.6, MaxSpeed: 3.5, Velocity: geom.Vec3{1, 0, 1}, PreferredVelocity: geom.Vec3{2.5, 0, 2.4}}
}

func TestORCADeterministic(t *testing.T) {
	params := DefaultORCAParams()
	solve := func(oa *ReciprocalAvoidance) (geom.Vec3, ORCAResult) {
		agent := orcaCrowdScene(t, oa)
		v, result, err := oa.Solve(&agent, &params, 1.0/60)
		require.NoError(t, err)
		return v, result
	}
	oa, err := NewReciprocalAvoidance(8, 8)
	require.NoError(t, err)
	first, firstResult := solve(oa)
	again, againResult := solve(oa)
	other, err := NewReciprocalAvoidance(8, 8)
	require.NoError(t, err)
	fresh, freshResult := solve(other)
	for _, v := range []geom.Vec3{again, fresh} {
		for i := range v {
			assert.Equal(t, math.Float32bits(first[i]), math.Float32bits(v[i]))
		}
	}
	assert.Equal(t, firstResult, againResult)
	assert.Equal(t, firstResult, freshResult)
	assert.Positive(t, firstResult.WallPlanes+firstResult.NeighbourPlanes)
}

func TestORCADoesNotAllocate(t *testing.T) {
	oa, err := NewReciprocalAvoidance(8, 8)
	require.NoError(t, err)
	params := DefaultORCAParams()
	allocs := testing.AllocsPerRun(50, func() {
		agent := orcaCrowdScene(t, oa)
		if _, _, err := oa.Solve(&agent, &params, 1.0/60); err != nil {
			t.Fatal(err)
		}
	})
	assert.Zero(t, allocs)
}

func TestORCABadInput(t *testing.T) {
	_, err := NewReciprocalAvoidance(-1, 0)
	assert.ErrorIs(t, err, ErrInvalidParam)
	oa, err := NewReciprocalAvoidance(1, 1)
	require.NoError(t, err)

	require.NoError(t, oa.AddNeighbour(ORCANeighbour{Radius: 0.5, Responsibility: 0.5}))
	assert.ErrorIs(t, oa.AddNeighbour(ORCANeighbour{Radius: 0.5, Responsibility: 0.5}), ErrCapacity)
	assert.Equal(t, 1, oa.NeighbourCount())
	require.NoError(t, oa.AddSegment(geom.Vec3{}, geom.Vec3{1, 0, 0}))
	assert.ErrorIs(t, oa.AddSegment(geom.Vec3{}, geom.Vec3{1, 0, 0}), ErrCapacity)
	assert.Equal(t, 1, oa.SegmentCount())
	oa.Reset()
	assert.ErrorIs(t, oa.AddNeighbour(ORCANeighbour{Radius: 0.5, Responsibility: 1.5}), ErrInvalidParam)
	assert.ErrorIs(t, oa.AddNeighbour(ORCANeighbour{Radius: float32(math.NaN())}), ErrInvalidParam)
	assert.Zero(t, oa.NeighbourCount())

	good := DefaultORCAParams()
	agent := ORCAAgent{Radius: 0.5, MaxSpeed: 2}
	nan := float32(math.NaN())
	for name, c := range map[string]struct {
		agent  *ORCAAgent
		params ORCAParams
		dt     float32
	}{
		"nil agent":        {nil, good, 0.1},
		"zero horizon":     {&agent, ORCAParams{TimeHorizon: 0, ObstacleTimeHorizon: 1, MaxNeighbours: 1}, 0.1},
		"NaN wall horizon": {&agent, ORCAParams{TimeHorizon: 1, ObstacleTimeHorizon: nan, MaxNeighbours: 1}, 0.1},
		"neighbours":       {&agent, ORCAParams{TimeHorizon: 1, ObstacleTimeHorizon: 1, MaxNeighbours: MaxORCANeighbours + 1}, 0.1},
		"zero dt":          {&agent, good, 0},
		"NaN speed":        {&ORCAAgent{Radius: 0.5, MaxSpeed: nan}, good, 0.1},
		"negative radius":  {&ORCAAgent{Radius: -1, MaxSpeed: 1}, good, 0.1},
		"NaN position":     {&ORCAAgent{Position: geom.Vec3{nan, 0, 0}, Radius: 0.5, MaxSpeed: 1}, good, 0.1},
		"inf preferred":    {&ORCAAgent{PreferredVelocity: geom.Vec3{0, 0, float32(math.Inf(1))}, Radius: 0.5, MaxSpeed: 1}, good, 0.1},
	} {
		v, _, err := oa.Solve(c.agent, &c.params, c.dt)
		assert.ErrorIs(t, err, ErrInvalidParam, name)
		assert.Equal(t, geom.Vec3{}, v, name)
	}
	_, _, err = oa.Solve(&agent, nil, 0.1)
	assert.ErrorIs(t, err, ErrInvalidParam)
}

func TestAvoidanceMethodNames(t *testing.T) {
	for _, m := range []AvoidanceMethod{AvoidanceAdaptive, AvoidanceGrid, AvoidanceORCA} {
		parsed, err := ParseAvoidanceMethod(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, parsed)
	}
	_, err := ParseAvoidanceMethod("rvo")
	assert.ErrorIs(t, err, ErrInvalidParam)
	assert.Equal(t, "AvoidanceMethod(9)", AvoidanceMethod(9).String())
}

func TestAvoidanceParamsValidateByMethod(t *testing.T) {
	// ORCA reads only its own fields: sampling fields out of range do not
	// matter to it, and its own do not matter to sampling.
	orca := AvoidanceParams{Method: AvoidanceORCA, ORCA: DefaultORCAParams()}
	assert.NoError(t, orca.Validate())
	orca.ORCA.TimeHorizon = -1
	assert.ErrorIs(t, orca.Validate(), ErrInvalidParam)

	sampling := AvoidancePreset(AvoidanceHigh)
	sampling.ORCA = ORCAParams{}
	assert.NoError(t, sampling.Validate())
	sampling.Method = AvoidanceGrid
	assert.NoError(t, sampling.Validate())
	sampling.Method = 7
	assert.ErrorIs(t, sampling.Validate(), ErrInvalidParam)

	assert.Equal(t, AvoidanceORCA, ORCAPreset().Method)
	preset := ORCAPreset()
	assert.NoError(t, preset.Validate())
	assert.Equal(t, AvoidanceAdaptive, DefaultAvoidanceParams().Method, "the default is the reference's")

	// The sampler refuses bad sampling fields whatever Method says.
	oa, err := NewObstacleAvoidance(1, 1)
	require.NoError(t, err)
	bad := AvoidanceParams{Method: AvoidanceORCA, ORCA: DefaultORCAParams()}
	_, _, err = oa.SampleVelocityAdaptive(geom.Vec3{}, 0.5, 2, geom.Vec3{}, geom.Vec3{1, 0, 0}, &bad, nil)
	assert.ErrorIs(t, err, ErrInvalidParam)
}

// BenchmarkReciprocalAvoidance solves the busy scene of six neighbours and
// three walls (see BenchmarkObstacleAvoidance for ORCA beside the samplers).
func BenchmarkReciprocalAvoidance(b *testing.B) {
	oa, err := NewReciprocalAvoidance(8, 8)
	require.NoError(b, err)
	agent := orcaCrowdScene(b, oa)
	params := DefaultORCAParams()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _, _ = oa.Solve(&agent, &params, 1.0/60)
	}
}

// FuzzReciprocalAvoidance: whatever the neighbours and walls (finite, within
// a few hundred metres), Solve plans a finite velocity inside the speed
// circle, or reports bad input.
func FuzzReciprocalAvoidance(f *testing.F) {
	f.Add(float32(0.5), float32(3), float32(1), float32(0), float32(2), float32(0.5),
		float32(1), float32(0.1), float32(-1), float32(0), float32(-2), float32(1), float32(2), float32(1), float32(0.25), uint8(0))
	f.Add(float32(0.6), float32(3.5), float32(0), float32(0), float32(0), float32(0),
		float32(0.3), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(0), float32(1), uint8(7))
	f.Add(float32(0), float32(1), float32(1e-7), float32(-1e-7), float32(3), float32(-3),
		float32(1e-6), float32(1e-6), float32(0), float32(0), float32(1e-6), float32(0), float32(1e-6), float32(1e-6), float32(0.5), uint8(255))
	f.Fuzz(func(t *testing.T, radius, maxSpeed, vx, vz, px, pz, nx, nz, nvx, nvz, wx, wz, qx, qz, responsibility float32, shape uint8) {
		for _, v := range []float32{radius, maxSpeed, vx, vz, px, pz, nx, nz, nvx, nvz, wx, wz, qx, qz} {
			if !(v > -300 && v < 300) {
				t.Skip()
			}
		}
		oa, err := NewReciprocalAvoidance(6, 8)
		require.NoError(t, err)
		// Neighbours around (nx, nz), walls around (wx, wz) to (qx, qz),
		// some linked end to end, in shapes the low bits pick.
		for i := range int(shape%6) + 1 {
			o := float32(float32(i) * 0.4)
			_ = oa.AddNeighbour(ORCANeighbour{Position: geom.Vec3{nx + o, 0, nz - o}, Velocity: geom.Vec3{nvx, 0, nvz - o},
				Radius: geom.Abs(radius), Responsibility: geom.Clamp(responsibility, 0, 1)})
		}
		corner := geom.Vec3{wx, 0, wz}
		for i := range int(shape>>3%8) + 1 {
			next := geom.Vec3{qx + float32(float32(i)*0.7), 0, qz - float32(float32(i*i)*0.3)}
			if shape&(1<<(i%8)) != 0 {
				next = geom.Vec3{corner[0] - float32(i), 0, corner[2] + 0.5}
			}
			_ = oa.AddSegment(corner, next)
			corner = next
		}
		agent := ORCAAgent{Radius: geom.Abs(radius), MaxSpeed: geom.Abs(maxSpeed), Velocity: geom.Vec3{vx, 0, vz}, PreferredVelocity: geom.Vec3{px, 0, pz}}
		params := DefaultORCAParams()
		v, _, err := oa.Solve(&agent, &params, 1.0/60)
		require.NoError(t, err)
		require.True(t, geom.IsFinite(v), "velocity %v", v)
		require.LessOrEqual(t, geom.Len(v), float32(agent.MaxSpeed*1.001)+1e-5)
	})
}
