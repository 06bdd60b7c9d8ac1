package crowd

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The linear programs checked against brute force on random half-plane
// sets: every candidate optimum of the problem is listed and the best
// feasible one kept, in float64.

type point64 struct{ x, z float64 }

func to64(v vec2) point64 { return point64{float64(v.x), float64(v.z)} }

func (p point64) sub(q point64) point64   { return point64{p.x - q.x, p.z - q.z} }
func (p point64) add(q point64) point64   { return point64{p.x + q.x, p.z + q.z} }
func (p point64) scale(s float64) point64 { return point64{float64(p.x * s), float64(p.z * s)} }
func (p point64) dot(q point64) float64   { return float64(p.x*q.x) + float64(p.z*q.z) }
func (p point64) length() float64         { return math.Hypot(p.x, p.z) }
func det64(a, b point64) float64          { return float64(a.x*b.z) - float64(a.z*b.x) }

// line64 is a plane's line with the violation of a point, in float64.
type line64 struct{ point, direction point64 }

func lines64(planes []halfPlane) []line64 {
	out := make([]line64, len(planes))
	for i, p := range planes {
		out[i] = line64{to64(p.point), to64(p.direction)}
	}
	return out
}

func (l line64) violation(v point64) float64 { return det64(l.direction, l.point.sub(v)) }

// crossings returns where two lines meet, if they are not parallel.
func crossings(a, b line64) (point64, bool) {
	d := det64(a.direction, b.direction)
	if math.Abs(d) < 1e-12 {
		return point64{}, false
	}
	t := det64(b.direction, a.point.sub(b.point)) / d
	return a.point.add(a.direction.scale(t)), true
}

// onCircle returns where a line meets the circle of radius r around zero.
func onCircle(l line64, r float64) []point64 {
	along := l.point.dot(l.direction)
	disc := float64(along*along) + float64(r*r) - l.point.dot(l.point)
	if disc < 0 {
		return nil
	}
	root := math.Sqrt(disc)
	return []point64{l.point.add(l.direction.scale(-along - root)), l.point.add(l.direction.scale(-along + root))}
}

// nearestFeasible is the brute-force 2D program: the point of the disc of
// radius r inside every line's half-plane nearest goal, from the list of
// every point that can be the optimum (goal, its projections on the circle
// and on each line, the lines' crossings with each other and with the
// circle); ok false when none is feasible within tolerance.
func nearestFeasible(lines []line64, r float64, goal point64) (best point64, ok bool) {
	var candidates []point64
	candidates = append(candidates, goal)
	if l := goal.length(); l > 0 {
		candidates = append(candidates, goal.scale(r/l))
	}
	for i, a := range lines {
		t := a.direction.dot(goal.sub(a.point))
		candidates = append(candidates, a.point.add(a.direction.scale(t)))
		candidates = append(candidates, onCircle(a, r)...)
		for _, b := range lines[i+1:] {
			if p, ok := crossings(a, b); ok {
				candidates = append(candidates, p)
			}
		}
	}
	const tolerance = 1e-6
	bestDist := math.Inf(1)
	for _, c := range candidates {
		if c.length() > r+tolerance {
			continue
		}
		feasible := true
		for _, l := range lines {
			if l.violation(c) > tolerance {
				feasible = false
				break
			}
		}
		if feasible && c.sub(goal).length() < bestDist {
			best, bestDist, ok = c, c.sub(goal).length(), true
		}
	}
	return best, ok
}

// largestViolation is max over lines of the violation of v.
func largestViolation(lines []line64, v point64) float64 {
	worst := math.Inf(-1)
	for _, l := range lines {
		worst = math.Max(worst, l.violation(v))
	}
	return worst
}

// leastLargestViolation is the brute-force fallback without hard planes:
// the least, over the disc of radius r, of the largest violation. The
// function is convex and piecewise linear, so its minimum over the disc is
// at a point where three lines are violated alike, or on the circle where
// two are, or on the circle farthest into one line.
func leastLargestViolation(lines []line64, r float64) float64 {
	var candidates []point64
	bisector := func(a, b line64) (line64, bool) {
		// The points where a and b are violated alike.
		d := b.direction.sub(a.direction)
		l := d.length()
		if l < 1e-12 {
			return line64{}, false
		}
		var through point64
		if p, ok := crossings(a, b); ok {
			through = p
		} else {
			through = a.point.add(b.point).scale(0.5)
		}
		return line64{through, d.scale(1 / l)}, true
	}
	var bisectors []line64
	for i, a := range lines {
		candidates = append(candidates, point64{-a.direction.z, a.direction.x}.scale(r))
		for _, b := range lines[i+1:] {
			if bl, ok := bisector(a, b); ok {
				bisectors = append(bisectors, bl)
				candidates = append(candidates, onCircle(bl, r)...)
			}
		}
	}
	for i, a := range bisectors {
		for _, b := range bisectors[i+1:] {
			if p, ok := crossings(a, b); ok {
				candidates = append(candidates, p)
			}
		}
	}
	best := math.Inf(1)
	for _, c := range candidates {
		if c.length() <= r+1e-6 {
			best = math.Min(best, largestViolation(lines, c))
		}
	}
	return best
}

func randomPlanes(rng *rand.Rand, n int, spread float32) []halfPlane {
	planes := make([]halfPlane, n)
	for i := range planes {
		angle := float64(rng.Float64()) * 2 * math.Pi
		planes[i] = halfPlane{
			point:     vec2{float32((float32(float32(rng.Float32())*2) - 1) * spread), float32((float32(float32(rng.Float32())*2) - 1) * spread)},
			direction: vec2{float32(math.Cos(angle)), float32(math.Sin(angle))},
		}
	}
	return planes
}

func TestSolvePlanesMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	var feasible, infeasible int
	for trial := 0; trial < 4000; trial++ {
		n := 1 + rng.IntN(10)
		planes := randomPlanes(rng, n, 3)
		maxSpeed := 0.5 + float32(rng.Float32()*3.5)
		goal := vec2{float32((float32(float32(rng.Float32())*2) - 1) * 5), float32((float32(float32(rng.Float32())*2) - 1) * 5)}

		got, met := solvePlanes(planes, maxSpeed, goal, false)
		want, ok := nearestFeasible(lines64(planes), float64(maxSpeed), to64(goal))
		if !ok {
			infeasible++
			// No feasible point within 1e-9: the solver must fail too,
			// unless the problem is feasible within float32 rounding.
			if met == n {
				assert.LessOrEqual(t, largestViolation(lines64(planes), to64(got)), 1e-4, "trial %d: claims feasible", trial)
			}
			continue
		}
		feasible++
		if !assert.Equal(t, n, met, "trial %d: feasible, brute force found %v", trial, want) {
			continue
		}
		assert.InDelta(t, want.x, got.x, 2e-4, "trial %d", trial)
		assert.InDelta(t, want.z, got.z, 2e-4, "trial %d", trial)
		assert.LessOrEqual(t, to64(got).length(), float64(maxSpeed)+1e-5, "trial %d: in the speed circle", trial)
	}
	// Both kinds of problem were met often enough to mean something.
	assert.Greater(t, feasible, 1000)
	assert.Greater(t, infeasible, 1000)
}

func TestLeastViolationMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	projected := make([]halfPlane, 0, 16)
	checked := 0
	for trial := 0; trial < 1200; trial++ {
		n := 2 + rng.IntN(9)
		planes := randomPlanes(rng, n, 3)
		maxSpeed := 0.5 + float32(rng.Float32()*3.5)
		goal := vec2{float32((float32(float32(rng.Float32())*2) - 1) * 5), float32((float32(float32(rng.Float32())*2) - 1) * 5)}
		v, met := solvePlanes(planes, maxSpeed, goal, false)
		if met == n {
			continue
		}
		checked++
		got := leastViolation(planes, 0, met, maxSpeed, v, projected)
		lines := lines64(planes)
		want := leastLargestViolation(lines, float64(maxSpeed))
		require.LessOrEqual(t, to64(got).length(), float64(maxSpeed)+1e-4, "trial %d: in the speed circle", trial)
		assert.InDelta(t, want, largestViolation(lines, to64(got)), 2e-4, "trial %d: the least largest violation", trial)
	}
	assert.Greater(t, checked, 500)
}

// TestLeastViolationKeepsHardPlanes: with hard planes (feasible together,
// as walls around a standing agent are), the fallback meets them and does
// as well on the soft ones as the best point of a fine grid over the disc
// that meets them too.
func TestLeastViolationKeepsHardPlanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	projected := make([]halfPlane, 0, 16)
	checked := 0
	for trial := 0; trial < 150; trial++ {
		hard := 1 + rng.IntN(3)
		planes := randomPlanes(rng, hard+2+rng.IntN(6), 3)
		// Hard planes that zero meets, as standing still always meets the
		// walls.
		for i := range planes[:hard] {
			if planes[i].violation(vec2{}) > 0 {
				planes[i].direction = planes[i].direction.scale(-1)
			}
		}
		maxSpeed := 0.5 + float32(rng.Float32()*3.5)
		goal := vec2{float32((float32(float32(rng.Float32())*2) - 1) * 5), float32((float32(float32(rng.Float32())*2) - 1) * 5)}
		v, met := solvePlanes(planes, maxSpeed, goal, false)
		if met == len(planes) || met < hard {
			continue
		}
		checked++
		got := leastViolation(planes, hard, met, maxSpeed, v, projected)
		lines := lines64(planes)
		for i := range lines[:hard] {
			require.LessOrEqual(t, lines[i].violation(to64(got)), 1e-4, "trial %d: hard plane %d", trial, i)
		}
		const steps = 200
		r := float64(maxSpeed)
		best := math.Inf(1)
		for i := 0; i <= steps; i++ {
			for j := 0; j <= steps; j++ {
				p := point64{-r + 2*r*float64(i)/steps, -r + 2*r*float64(j)/steps}
				if p.length() > r || largestViolation(lines[:hard], p) > 0 {
					continue
				}
				best = math.Min(best, largestViolation(lines[hard:], p))
			}
		}
		assert.LessOrEqual(t, largestViolation(lines[hard:], to64(got)), best+1e-4, "trial %d", trial)
	}
	assert.Greater(t, checked, 30)
}
