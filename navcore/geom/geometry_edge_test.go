package geom

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	nan    = float32(math.NaN())
	posInf = float32(math.Inf(1))
	negInf = float32(math.Inf(-1))
)

// unitSquare is the square [0,1]² in the xz-plane, wound the way Detour
// polygons are (inside lies left of each edge seen from +y).
var unitSquare = []Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}

func TestClosestPointOnTriangleEdgeCases(t *testing.T) {
	a, b, c := Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{0, 0, 2}
	tests := []struct {
		name    string
		p       Vec3
		a, b, c Vec3
		want    Vec3
	}{
		{"inside, above the face", Vec3{0.5, 3, 0.5}, a, b, c, Vec3{0.5, 0, 0.5}},
		{"exactly on vertex a", a, a, b, c, a},
		{"exactly on vertex b", b, a, b, c, b},
		{"exactly on vertex c", c, a, b, c, c},
		{"exactly on edge ab", Vec3{1, 0, 0}, a, b, c, Vec3{1, 0, 0}},
		{"exactly on edge bc", Vec3{1, 0, 1}, a, b, c, Vec3{1, 0, 1}},
		{"beyond edge ab", Vec3{1, 0, -5}, a, b, c, Vec3{1, 0, 0}},
		{"beyond vertex b", Vec3{5, 0, -1}, a, b, c, b},
		{"beyond edge bc", Vec3{2, 0, 2}, a, b, c, Vec3{1, 0, 1}},
		{"point triangle", Vec3{3, 4, 5}, Vec3{1, 1, 1}, Vec3{1, 1, 1}, Vec3{1, 1, 1}, Vec3{1, 1, 1}},
		{"collinear, middle of ab", Vec3{0.5, 1, 0}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{2, 0, 0}, Vec3{0.5, 0, 0}},
		{"collinear, middle of bc", Vec3{1.5, 1, 0}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{2, 0, 0}, Vec3{1.5, 0, 0}},
		{"collinear, past c", Vec3{3, 1, 0}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{2, 0, 0}, Vec3{2, 0, 0}},
		{"collinear, a in the middle", Vec3{1.5, 1, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{1.5, 0, 0}},
		{"a equals b, beside ac", Vec3{1, 1, 0}, Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{1, 0, 0}},
		{"b equals c, beside ab", Vec3{1, 1, 0}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{2, 0, 0}, Vec3{1, 0, 0}},
		{"a equals c, beside ab", Vec3{1, 1, 0}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{0, 0, 0}, Vec3{1, 0, 0}},
		{"a equals b, past c", Vec3{3, 0, 0}, Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{2, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ClosestPointOnTriangle(tt.p, tt.a, tt.b, tt.c)
			require.True(t, IsFinite(got), "got %v", got)
			assert.InDeltaSlice(t, tt.want[:], got[:], 1e-6)
		})
	}
}

func TestClosestHeightOnTriangleEdgeCases(t *testing.T) {
	a, b, c := Vec3{0, 1, 0}, Vec3{0, 2, 2}, Vec3{2, 3, 0}
	tests := []struct {
		name       string
		p          Vec3
		a, b, c    Vec3
		wantHeight float32
		wantOK     bool
	}{
		{"inside", Vec3{0.5, 99, 0.5}, a, b, c, 1.75, true},
		{"on vertex a", Vec3{0, 0, 0}, a, b, c, 1, true},
		{"on vertex b", Vec3{0, 0, 2}, a, b, c, 2, true},
		{"on vertex c", Vec3{2, 0, 0}, a, b, c, 3, true},
		{"on edge ab", Vec3{0, 0, 1}, a, b, c, 1.5, true},
		{"on edge ac", Vec3{1, 0, 0}, a, b, c, 2, true},
		{"on edge bc", Vec3{1, 0, 1}, a, b, c, 2.5, true},
		{"just outside edge ab", Vec3{-0.001, 0, 1}, a, b, c, 0, false},
		{"outside", Vec3{2, 0, 2}, a, b, c, 0, false},
		{"reversed winding", Vec3{0.5, 0, 0.5}, a, c, b, 1.75, true},
		{"collinear in xz (vertical wall)", Vec3{1, 0, 0}, Vec3{0, 0, 0}, Vec3{2, 5, 0}, Vec3{1, 9, 0}, 0, false},
		{"point triangle", Vec3{1, 0, 1}, Vec3{1, 0, 1}, Vec3{1, 0, 1}, Vec3{1, 0, 1}, 0, false},
		{"sliver below the area threshold", Vec3{0.5, 0, 0}, Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0.5, 0, 1e-7}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := ClosestHeightOnTriangle(tt.p, tt.a, tt.b, tt.c)
			assert.Equal(t, tt.wantOK, ok)
			assert.InDelta(t, tt.wantHeight, h, 1e-6)
		})
	}
}

func TestPointInPolygonOnEdgesAndVertices(t *testing.T) {
	// The crossing-number test is half-open: the -x and -z sides of the
	// square count as inside, the +x and +z sides as outside, as in Detour.
	tests := []struct {
		name string
		pt   Vec3
		want bool
	}{
		{"centre", Vec3{0.5, 7, 0.5}, true},
		{"on the -x edge", Vec3{0, 0, 0.5}, true},
		{"on the +x edge", Vec3{1, 0, 0.5}, false},
		{"on the -z edge", Vec3{0.5, 0, 0}, true},
		{"on the +z edge", Vec3{0.5, 0, 1}, false},
		{"on vertex (0,0)", Vec3{0, 0, 0}, true},
		{"on vertex (1,1)", Vec3{1, 0, 1}, false},
		{"on vertex (0,1)", Vec3{0, 0, 1}, false},
		{"on vertex (1,0)", Vec3{1, 0, 0}, false},
		{"outside", Vec3{1.5, 0, 0.5}, false},
		{"NaN", Vec3{nan, 0, nan}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, PointInPolygon(tt.pt, unitSquare))
		})
	}
	assert.False(t, PointInPolygon(Vec3{0.5, 0, 0.5}, nil), "empty polygon")
	assert.False(t, PointInPolygon(Vec3{0.5, 0, 0.5}, []Vec3{{0, 0, 0}, {1, 0, 1}}), "two-vertex polygon")
}

func TestDistancePtSegSqr2DEdgeCases(t *testing.T) {
	p, q := Vec3{0, 0, 0}, Vec3{4, 9, 0}
	tests := []struct {
		name     string
		pt, p, q Vec3
		wantDist float32
		wantT    float32
	}{
		{"on p", Vec3{0, 5, 0}, p, q, 0, 0},
		{"on q", Vec3{4, -5, 0}, p, q, 0, 1},
		{"on the middle", Vec3{2, 0, 0}, p, q, 0, 0.5},
		{"beside the middle", Vec3{1, 0, 3}, p, q, 9, 0.25},
		{"before p on the line", Vec3{-2, 0, 0}, p, q, 4, 0},
		{"past q on the line", Vec3{7, 0, 0}, p, q, 9, 1},
		{"zero-length segment", Vec3{3, 0, 4}, Vec3{0, 1, 0}, Vec3{0, 2, 0}, 25, 0},
		{"y is ignored", Vec3{2, 100, 0}, p, q, 0, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dist, param := DistancePtSegSqr2D(tt.pt, tt.p, tt.q)
			assert.InDelta(t, tt.wantDist, dist, 1e-6)
			assert.InDelta(t, tt.wantT, param, 1e-6)
		})
	}
}

func TestDistancePtPolyEdgesSqrOnEdgesAndVertices(t *testing.T) {
	tests := []struct {
		name       string
		pt         Vec3
		wantInside bool
		wantDist   []float32
		wantT      []float32
	}{
		// Edge j runs from vertex j to vertex j+1.
		{"centre", Vec3{0.5, 0, 0.5}, true, []float32{0.25, 0.25, 0.25, 0.25}, []float32{0.5, 0.5, 0.5, 0.5}},
		{"on vertex 0", Vec3{0, 0, 0}, true, []float32{0, 1, 1, 0}, []float32{0, 0, 1, 1}},
		{"on vertex 2", Vec3{1, 0, 1}, false, []float32{1, 0, 0, 1}, []float32{1, 1, 0, 0}},
		{"on edge 1", Vec3{0.25, 0, 1}, false, []float32{0.0625, 0, 0.75 * 0.75, 1}, []float32{1, 0.25, 0, 0.75}},
		{"outside", Vec3{2, 0, 0.5}, false, []float32{4, 1.25, 1, 1.25}, []float32{0.5, 1, 0.5, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dist := make([]float32, len(unitSquare))
			param := make([]float32, len(unitSquare))
			inside := DistancePtPolyEdgesSqr(tt.pt, unitSquare, dist, param)
			assert.Equal(t, tt.wantInside, inside)
			assert.InDeltaSlice(t, tt.wantDist, dist, 1e-6)
			assert.InDeltaSlice(t, tt.wantT, param, 1e-6)
			assert.Equal(t, PointInPolygon(tt.pt, unitSquare), inside, "agrees with PointInPolygon")
		})
	}
}

func TestIntersectSegSeg2DEdgeCases(t *testing.T) {
	tests := []struct {
		name           string
		ap, aq, bp, bq Vec3
		wantS, wantT   float32
		wantOK         bool
	}{
		{"crossing", Vec3{0, 0, 0}, Vec3{2, 0, 2}, Vec3{0, 0, 2}, Vec3{2, 0, 0}, 0.5, 0.5, true},
		{"touching at the ends", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 0, 1}, 1, 0, true},
		{"lines cross outside the segments", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{3, 0, -1}, Vec3{3, 0, 1}, 3, 0.5, true},
		{"parallel", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 1}, 0, 0, false},
		{"collinear overlapping", Vec3{0, 0, 0}, Vec3{2, 0, 0}, Vec3{1, 0, 0}, Vec3{3, 0, 0}, 0, 0, false},
		{"collinear disjoint", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{2, 0, 0}, Vec3{3, 0, 0}, 0, 0, false},
		{"zero-length segment", Vec3{0, 0, 0}, Vec3{0, 0, 0}, Vec3{-1, 0, 0}, Vec3{1, 0, 0}, 0, 0, false},
		{"nearly parallel", Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 0, 1}, Vec3{1, 0, 1 + 1e-7}, 0, 0, false},
		{"y is ignored", Vec3{0, 5, 0}, Vec3{2, -5, 2}, Vec3{0, 9, 2}, Vec3{2, 0, 0}, 0.5, 0.5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, param, ok := IntersectSegSeg2D(tt.ap, tt.aq, tt.bp, tt.bq)
			assert.Equal(t, tt.wantOK, ok)
			if ok {
				assert.InDelta(t, tt.wantS, s, 1e-6)
				assert.InDelta(t, tt.wantT, param, 1e-6)
			}
		})
	}
}

func TestIntersectSegmentPoly2DEdgeCases(t *testing.T) {
	tests := []struct {
		name               string
		p0, p1             Vec3
		wantOK             bool
		wantTMin, wantTMax float32
		wantSegMin         int
		wantSegMax         int
	}{
		{"through, left to right", Vec3{-1, 0, 0.5}, Vec3{2, 0, 0.5}, true, 1.0 / 3, 2.0 / 3, 0, 2},
		{"inside", Vec3{0.25, 0, 0.5}, Vec3{0.75, 0, 0.5}, true, 0, 1, -1, -1},
		{"starts inside", Vec3{0.5, 0, 0.5}, Vec3{1.5, 0, 0.5}, true, 0, 0.5, -1, 2},
		{"misses", Vec3{-1, 0, 2}, Vec3{2, 0, 2}, false, 0, 0, 0, 0},
		{"along the -x edge", Vec3{0, 0, 0.25}, Vec3{0, 0, 0.75}, true, 0, 1, -1, -1},
		{"along the +x edge", Vec3{1, 0, 0.25}, Vec3{1, 0, 0.75}, true, 0, 1, -1, -1},
		{"collinear with an edge, beyond the polygon", Vec3{0, 0, 2}, Vec3{0, 0, 3}, false, 0, 0, 0, 0},
		{"parallel to an edge, outside", Vec3{-0.5, 0, 0}, Vec3{-0.5, 0, 1}, false, 0, 0, 0, 0},
		{"zero length, inside", Vec3{0.5, 0, 0.5}, Vec3{0.5, 0, 0.5}, true, 0, 1, -1, -1},
		{"zero length, on a vertex", Vec3{1, 0, 1}, Vec3{1, 0, 1}, true, 0, 1, -1, -1},
		{"zero length, outside", Vec3{2, 0, 0.5}, Vec3{2, 0, 0.5}, false, 0, 0, 0, 0},
		{"through a vertex", Vec3{-1, 0, -1}, Vec3{2, 0, 2}, true, 1.0 / 3, 2.0 / 3, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tMin, tMax, segMin, segMax, ok := IntersectSegmentPoly2D(tt.p0, tt.p1, unitSquare)
			require.Equal(t, tt.wantOK, ok)
			if !ok {
				return
			}
			assert.InDelta(t, tt.wantTMin, tMin, 1e-6)
			assert.InDelta(t, tt.wantTMax, tMax, 1e-6)
			assert.Equal(t, tt.wantSegMin, segMin)
			assert.Equal(t, tt.wantSegMax, segMax)
		})
	}
}

func TestOverlapPolyPoly2DEdgeCases(t *testing.T) {
	shifted := func(poly []Vec3, dx, dz float32) []Vec3 {
		out := make([]Vec3, len(poly))
		for i, v := range poly {
			out[i] = Vec3{v[0] + dx, v[1], v[2] + dz}
		}
		return out
	}
	tests := []struct {
		name string
		a, b []Vec3
		want bool
	}{
		{"identical", unitSquare, unitSquare, true},
		{"overlapping", unitSquare, shifted(unitSquare, 0.5, 0.5), true},
		{"sharing an edge", unitSquare, shifted(unitSquare, 1, 0), false},
		{"sharing a vertex", unitSquare, shifted(unitSquare, 1, 1), false},
		{"overlap within the 1e-4 tolerance", unitSquare, shifted(unitSquare, 1-0.5e-4, 0), false},
		{"overlap beyond the tolerance", unitSquare, shifted(unitSquare, 1-1e-3, 0), true},
		{"apart", unitSquare, shifted(unitSquare, 3, 0), false},
		{"contained", unitSquare, []Vec3{{0.25, 0, 0.25}, {0.25, 0, 0.75}, {0.75, 0, 0.75}, {0.75, 0, 0.25}}, true},
		{"collinear triangle across the square", unitSquare, []Vec3{{-1, 0, 0.5}, {0.5, 0, 0.5}, {2, 0, 0.5}}, true},
		{"collinear triangle outside", unitSquare, []Vec3{{-1, 0, 2}, {0.5, 0, 2}, {2, 0, 2}}, false},
		{"collinear triangle along an edge", unitSquare, []Vec3{{0, 0, 0}, {0.5, 0, 0}, {1, 0, 0}}, false},
		{"y is ignored", unitSquare, shifted([]Vec3{{0, 50, 0}, {0, 50, 1}, {1, 50, 1}, {1, 50, 0}}, 0.5, 0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, OverlapPolyPoly2D(tt.a, tt.b))
			assert.Equal(t, tt.want, OverlapPolyPoly2D(tt.b, tt.a), "symmetric")
		})
	}
}

func TestNextPow2AndIlog2Edges(t *testing.T) {
	pow2 := []struct{ in, want uint32 }{
		{0, 0}, {1, 1}, {2, 2}, {3, 4}, {4, 4}, {5, 8}, {1023, 1024}, {1024, 1024}, {1025, 2048},
		{1 << 31, 1 << 31}, {1<<31 - 1, 1 << 31}, {1<<31 + 1, 0}, {math.MaxUint32, 0},
	}
	for _, tt := range pow2 {
		assert.Equal(t, tt.want, NextPow2(tt.in), "NextPow2(%d)", tt.in)
	}
	log2 := []struct{ in, want uint32 }{
		{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}, {7, 2}, {8, 3}, {0xffff, 15}, {0x10000, 16},
		{1 << 31, 31}, {math.MaxUint32, 31},
	}
	for _, tt := range log2 {
		assert.Equal(t, tt.want, Ilog2(tt.in), "Ilog2(%d)", tt.in)
	}
	for shift := uint32(0); shift < 32; shift++ {
		assert.Equal(t, shift, Ilog2(NextPow2(1<<shift)), "Ilog2(NextPow2(1<<%d))", shift)
	}
}

func TestIsFiniteWithNaNAndInf(t *testing.T) {
	tiny := math.Float32frombits(1) // smallest subnormal
	tests := []struct {
		name       string
		v          Vec3
		want       bool
		want2DOnly bool
	}{
		{"zero", Vec3{}, true, true},
		{"largest and smallest", Vec3{math.MaxFloat32, -math.MaxFloat32, tiny}, true, true},
		{"NaN x", Vec3{nan, 0, 0}, false, false},
		{"NaN y", Vec3{0, nan, 0}, false, true},
		{"NaN z", Vec3{0, 0, nan}, false, false},
		{"+Inf x", Vec3{posInf, 0, 0}, false, false},
		{"-Inf y", Vec3{0, negInf, 0}, false, true},
		{"-Inf z", Vec3{0, 0, negInf}, false, false},
		{"all NaN", Vec3{nan, nan, nan}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, IsFinite(tt.v))
			assert.Equal(t, tt.want2DOnly, IsFinite2D(tt.v))
		})
	}
}

// TestIsFiniteEveryExponent: the branch-free IsFinite agrees with the
// per-component test for every exponent and sign in every position, beside
// finite and non-finite others.
func TestIsFiniteEveryExponent(t *testing.T) {
	others := []float32{0, 1, -2.5, math.MaxFloat32, float32(math.Inf(1)), float32(math.NaN())}
	for e := uint32(0); e < 256; e++ {
		for _, bits := range []uint32{e << 23, e<<23 | 1, e<<23 | 0x7fffff, 1<<31 | e<<23 | 0x400000} {
			f := math.Float32frombits(bits)
			for pos := range 3 {
				for _, o := range others {
					v := Vec3{o, o, o}
					v[pos] = f
					want := isFinite(v[0]) && isFinite(v[1]) && isFinite(v[2])
					if got := IsFinite(v); got != want {
						t.Fatalf("IsFinite(%v) = %v, want %v", v, got, want)
					}
				}
			}
		}
	}
}
