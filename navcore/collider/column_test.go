package collider

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/internal/longtest"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testShape is a shape at a pose, for the table tests.
type testShape struct {
	name  string
	shape Shape
	pose  Pose
}

func rotation(axis geom.Vec3, degrees float32) mgl32.Quat {
	return mgl32.QuatRotate(mgl32.DegToRad(degrees), normalize(axis))
}

// testShapes covers every primitive upright, tilted and lying down.
func testShapes() []testShape {
	at := geom.Vec3{1.1, 2.3, -0.7}
	return []testShape{
		{"box", NewBox(geom.Vec3{1.5, 0.4, 0.8}), Pose{Position: at}},
		{"box ignores rotation", NewBox(geom.Vec3{1.5, 0.4, 0.8}), Pose{Position: at, Rotation: rotation(geom.Vec3{1, 1, 0}, 30)}},
		{"oriented box yaw", NewOrientedBox(geom.Vec3{1.5, 0.4, 0.8}), Pose{Position: at, Rotation: rotation(geom.Vec3{0, 1, 0}, 27)}},
		{"ramp", NewOrientedBox(geom.Vec3{2, 0.2, 1}), Pose{Position: at, Rotation: rotation(geom.Vec3{0, 0, 1}, 20)}},
		{"tumbled box", NewOrientedBox(geom.Vec3{1, 0.7, 0.5}), Pose{Position: at, Rotation: rotation(geom.Vec3{1, 2, 3}, 50)}},
		{"sphere", NewSphere(1.3), Pose{Position: at}},
		{"capsule upright", NewCapsule(0.6, 1), Pose{Position: at}},
		{"capsule lying", NewCapsule(0.5, 1.5), Pose{Position: at, Rotation: rotation(geom.Vec3{0, 0, 1}, 90)}},
		{"capsule tilted", NewCapsule(0.7, 1.2), Pose{Position: at, Rotation: rotation(geom.Vec3{1, 0, 1}, 35)}},
		{"cylinder upright", NewCylinder(0.9, 0.8), Pose{Position: at}},
		{"cylinder lying", NewCylinder(0.6, 1.4), Pose{Position: at, Rotation: rotation(geom.Vec3{1, 0, 0}, 90)}},
		{"cylinder tilted", NewCylinder(0.8, 1.1), Pose{Position: at, Rotation: rotation(geom.Vec3{2, 0, 1}, 40)}},
		{"cylinder steep", NewCylinder(0.5, 2), Pose{Position: at, Rotation: rotation(geom.Vec3{0, 0, 1}, 8)}},
	}
}

// lineOracle returns the lowest and highest y of the vertical line through
// (x, z) inside p, by scanning and bisecting Contains.
func lineOracle(p *Placed, x, z float32) (lo, hi float32, ok bool) {
	bmin, bmax := p.Bounds()
	const steps = 400
	step := (bmax[1] - bmin[1] + 0.2) / steps
	inside := func(y float32) bool { return p.Contains(geom.Vec3{x, y, z}) }
	first := float32(math.NaN())
	for i := 0; i <= steps; i++ {
		if y := bmin[1] - 0.1 + float32(float32(i)*step); inside(y) {
			first = y
			break
		}
	}
	if math.IsNaN(float64(first)) {
		return 0, 0, false
	}
	bisect := func(in, out float32) float32 {
		for range 40 {
			mid := (in + out) / 2
			if inside(mid) {
				in = mid
			} else {
				out = mid
			}
		}
		return in
	}
	return bisect(first, bmin[1]-0.2), bisect(first, bmax[1]+0.2), true
}

// columnOracle samples n × n vertical lines over the square (boundary
// included) and returns the extremes of the shape over them.
func columnOracle(p *Placed, x0, z0, x1, z1 float32, n int) (lo, hi float32, ok bool) {
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			x := x0 + (x1-x0)*float32(i)/float32(n-1)
			z := z0 + (z1-z0)*float32(j)/float32(n-1)
			if l, h, found := lineOracle(p, x, z); found {
				lo, hi, ok = min(lo, l), max(hi, h), true
			}
		}
	}
	return lo, hi, ok
}

// TestColumnRangeMatchesOracle compares ColumnRange over random cells
// around each shape with a brute-force search of the shape's points over
// the cell: the analytic range covers every point found and reaches no
// further than the sampling's error (a 9 × 9 grid of lines over a 0.3
// cell, 13 × 13 in the long run, each bisected to 1e-6: far below a 0.2
// voxel). 40 cells a shape, 150 in the long run (ARCHENAV_LONG=1 without
// the race detector, which adds nothing to this arithmetic).
func TestColumnRangeMatchesOracle(t *testing.T) {
	const cell = 0.3
	cells, lines := 40, 9
	if longtest.Enabled() && !longtest.Race {
		cells, lines = 150, 13
	}
	random := rand.New(rand.NewPCG(29, 1))
	for _, test := range testShapes() {
		t.Run(test.name, func(t *testing.T) {
			p, err := Place(test.shape, test.pose)
			require.NoError(t, err)
			bmin, bmax := p.Bounds()
			hits, misses := 0, 0
			for range cells {
				x0 := bmin[0] - 2*cell + float32(random.Float32()*(bmax[0]-bmin[0]+float32(3*cell)))
				z0 := bmin[2] - 2*cell + float32(random.Float32()*(bmax[2]-bmin[2]+float32(3*cell)))
				x1, z1 := x0+cell, z0+cell
				column, ok := p.ColumnRange(x0, z0, x1, z1)
				lo, hi, found := columnOracle(&p, x0, z0, x1, z1, lines)
				where := fmt.Sprintf("column [%v, %v] × [%v, %v]", x0, x1, z0, z1)
				if !found {
					misses++
					if ok {
						// Only a graze the sampling missed: the shape must be
						// within a hair of the square.
						_, _, near := columnOracle(&p, x0-0.01, z0-0.01, x1+0.01, z1+0.01, 33)
						assert.True(t, near, "%s: range %+v where the oracle finds nothing", where, column)
					}
					continue
				}
				hits++
				require.True(t, ok, "%s: no range, the oracle finds [%v, %v]", where, lo, hi)
				assert.LessOrEqual(t, column.Bottom, lo+1e-4, where)
				assert.GreaterOrEqual(t, column.Top, hi-1e-4, where)
				assert.InDelta(t, lo, column.Bottom, 0.05, where)
				assert.InDelta(t, hi, column.Top, 0.05, where)
				assert.LessOrEqual(t, column.TopNormalY, float32(1))
				assert.GreaterOrEqual(t, column.TopNormalY, float32(-1))
			}
			assert.Positive(t, hits)
			assert.Positive(t, misses)
		})
	}
}

// TestColumnRangeNormals checks the slope the range reports on surfaces
// whose slope is known.
func TestColumnRangeNormals(t *testing.T) {
	cos := func(degrees float64) float32 { return float32(math.Cos(degrees * math.Pi / 180)) }
	tests := []struct {
		name       string
		shape      Shape
		pose       Pose
		x, z       float32 // the column's corner
		top, floor float32 // normal y at top and floor
	}{
		{"box top", NewBox(geom.Vec3{2, 1, 2}), Pose{}, 0, 0, 1, 1},
		{"ramp middle", NewOrientedBox(geom.Vec3{3, 0.2, 2}), Pose{Rotation: rotation(geom.Vec3{0, 0, 1}, 20)}, 0, 0, cos(20), cos(20)},
		{"steep ramp", NewOrientedBox(geom.Vec3{3, 0.2, 2}), Pose{Rotation: rotation(geom.Vec3{0, 0, 1}, 60)}, 0, 0, cos(60), cos(60)},
		{"sphere top", NewSphere(2), Pose{}, -0.15, -0.15, 1, 1},
		{"sphere side", NewSphere(2), Pose{}, 1.5, -0.15, float32(math.Sqrt(4-1.5*1.5) / 2), float32(math.Sqrt(4-1.5*1.5) / 2)},
		{"cylinder cap", NewCylinder(1, 1), Pose{}, 0, 0, 1, 1},
		{"lying cylinder ridge", NewCylinder(1, 2), Pose{Rotation: rotation(geom.Vec3{1, 0, 0}, 90)}, -0.15, -0.15, 1, 1},
		{"capsule top", NewCapsule(1, 1), Pose{}, -0.15, -0.15, 1, 1},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			p, err := Place(test.shape, test.pose)
			require.NoError(t, err)
			column, ok := p.ColumnRange(test.x, test.z, test.x+0.3, test.z+0.3)
			require.True(t, ok)
			assert.InDelta(t, test.top, column.TopNormalY, 1e-3)
			assert.InDelta(t, test.floor, column.FloorNormalY, 1e-3)
		})
	}
}

func TestMeshCollidersHaveNoColumnRange(t *testing.T) {
	mesh := &Mesh{Vertices: []geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 0}}, Triangles: [][3]int32{{0, 1, 2}}}
	p, err := Place(NewTriangleMesh(mesh), Pose{})
	require.NoError(t, err)
	_, ok := p.ColumnRange(0, 0, 1, 1)
	assert.False(t, ok)
	assert.False(t, p.Contains(geom.Vec3{0.1, 0, 0.1}))
}

func TestMaxSqrtAffine(t *testing.T) {
	// Brute force over t.
	random := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		constant := float32(random.Float32()*4) - 2
		slope := float32(random.Float32()*4) - 2
		k := float32(float32(random.Float32()) * 2)
		radiusSqr := float32(random.Float32() * 3)
		alpha := float32(random.Float32()*4) - 2
		beta := float32(random.Float32()*6) - 3
		if random.IntN(10) == 0 {
			beta = 0
		}
		best, found := float32(math.Inf(-1)), false
		for i := 0; i <= 20000; i++ {
			tt := float32(i) / 20000
			s := alpha + float32(beta*tt)
			if float32(s*s) <= radiusSqr {
				found = true
				best = max(best, constant+float32(slope*tt)+float32(k*geom.Sqrt(radiusSqr-float32(s*s))))
			}
		}
		_, value, _, ok := maxSqrtAffine(constant, slope, k, radiusSqr, alpha, beta)
		if !found {
			// The feasible stretch may be thinner than the brute force's
			// step.
			continue
		}
		require.True(t, ok)
		assert.GreaterOrEqual(t, value, best-1e-4)
		assert.LessOrEqual(t, value, best+0.02)
	}
}
