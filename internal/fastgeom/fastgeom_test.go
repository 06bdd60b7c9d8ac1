package fastgeom

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
)

// rng is a seeded source of float32 values in [0, 1).
type rng struct{ state uint64 }

func (r *rng) next() float32 {
	r.state = r.state*6364136223846793005 + 1442695040888963407
	return float32(float32(r.state>>40) / float32(1<<24))
}

// samples returns random points, some of them repeated or on a grid so that
// degenerate triangles, zero-length segments and ties come up.
func samples(n int) []geom.Vec3 {
	r := &rng{state: 7}
	out := make([]geom.Vec3, 0, n)
	for i := 0; i < n; i++ {
		switch i % 5 {
		case 0:
			out = append(out, geom.Vec3{float32(int(r.next() * 4)), float32(int(r.next() * 2)), float32(int(r.next() * 4))})
		case 1:
			if i > 1 {
				out = append(out, out[i-2])
				continue
			}
			fallthrough
		default:
			out = append(out, geom.Vec3{(r.next() - 0.5) * 200, (r.next() - 0.5) * 20, (r.next() - 0.5) * 200})
		}
	}
	return out
}

func bits(f float32) uint32 { return math.Float32bits(f) }

func vecBits(v geom.Vec3) [3]uint32 { return [3]uint32{bits(v[0]), bits(v[1]), bits(v[2])} }

// TestMatchesGeom checks every function against its geom counterpart bit
// for bit.
func TestMatchesGeom(t *testing.T) {
	pts := samples(400)
	for i := 0; i+3 < len(pts); i++ {
		a, b, c, d := pts[i], pts[i+1], pts[i+2], pts[i+3]
		pa, pb, pc, pd := FromVec3(a), FromVec3(b), FromVec3(c), FromVec3(d)
		require.Equal(t, a, pa.Vec3())

		require.Equal(t, geom.Equal(a, b), Equal(pa, pb), "Equal %v %v", a, b)
		require.Equal(t, bits(geom.TriArea2D(a, b, c)), bits(TriArea2D(pa, pb, pc)), "TriArea2D %v %v %v", a, b, c)
		s := float32(i%11) / 10
		require.Equal(t, vecBits(geom.Lerp(a, b, s)), vecBits(Lerp(pa, pb, s).Vec3()), "Lerp %v %v %v", a, b, s)

		wantD, wantT := geom.DistancePtSegSqr2D(a, b, c)
		gotD, gotT := DistancePtSegSqr2D(pa, pb, pc)
		require.Equal(t, [2]uint32{bits(wantD), bits(wantT)}, [2]uint32{bits(gotD), bits(gotT)}, "DistancePtSegSqr2D %v %v %v", a, b, c)

		tri := []geom.Vec3{a, b, c, d}
		require.Equal(t, geom.PointInPolygon(d, tri[:3]), PointInPolygon(pd, []Point{pa, pb, pc}), "PointInPolygon %v in %v", d, tri[:3])
		require.Equal(t, geom.PointInPolygon(a, tri[1:]), PointInPolygon(pa, []Point{pb, pc, pd}), "PointInPolygon %v in %v", a, tri[1:])

		wantH, wantOK := geom.ClosestHeightOnTriangle(d, a, b, c)
		gotH, gotOK := ClosestHeightOnTriangle(pd, pa, pb, pc)
		require.Equal(t, wantOK, gotOK, "ClosestHeightOnTriangle %v in %v %v %v", d, a, b, c)
		require.Equal(t, bits(wantH), bits(gotH), "ClosestHeightOnTriangle %v in %v %v %v", d, a, b, c)
	}
}

// TestIntersectSegmentPoly2DMatchesGeom clips random segments, some of them
// degenerate, parallel to an edge or through a vertex, against random convex
// polygons and the unit square, and compares every result with geom's.
func TestIntersectSegmentPoly2DMatchesGeom(t *testing.T) {
	square := []geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}}
	pts := samples(600)
	polys := [][]geom.Vec3{square, {}, square[:1]}
	r := &rng{state: 3}
	for range 40 {
		// A convex polygon: points on a circle, in clockwise order seen from
		// above as Detour winds them.
		n := 3 + int(r.next()*4)
		cx, cz, radius := float32((r.next()-0.5)*100), float32((r.next()-0.5)*100), 1+float32(r.next()*30)
		poly := make([]geom.Vec3, n)
		for i := range poly {
			angle := -2 * math.Pi * (float64(i) + float64(float64(r.next())*0.5)) / float64(n)
			poly[i] = geom.Vec3{cx + float32(radius*float32(math.Cos(angle))), 0, cz + float32(radius*float32(math.Sin(angle)))}
		}
		polys = append(polys, poly)
	}
	for k, poly := range polys {
		points := make([]Point, len(poly))
		for i, v := range poly {
			points[i] = FromVec3(v)
		}
		for i := 0; i+1 < len(pts); i++ {
			p0, p1 := pts[i], pts[i+1]
			if k == 0 {
				// Short segments near the unit square.
				p0 = geom.Vec3{p0[0] / 50, 0, p0[2] / 50}
				p1 = geom.Vec3{p1[0] / 50, 0, p1[2] / 50}
			}
			wantMin, wantMax, wantSegMin, wantSegMax, wantOK := geom.IntersectSegmentPoly2D(p0, p1, poly)
			gotMin, gotMax, gotSegMin, gotSegMax, gotOK := IntersectSegmentPoly2D(FromVec3(p0), FromVec3(p1), points)
			require.Equal(t,
				[]any{bits(wantMin), bits(wantMax), wantSegMin, wantSegMax, wantOK},
				[]any{bits(gotMin), bits(gotMax), gotSegMin, gotSegMax, gotOK},
				"polygon %d, segment %v → %v", k, p0, p1)
		}
	}
}

// TestOverlapPolyPoly2DMatchesGeom compares the overlap test with geom's on
// pairs of random convex polygons, many of them overlapping, touching or
// sharing edges.
func TestOverlapPolyPoly2DMatchesGeom(t *testing.T) {
	r := &rng{state: 5}
	var polys [][]geom.Vec3
	for range 60 {
		n := 3 + int(r.next()*4)
		cx, cz, radius := float32(int(r.next()*8)), float32(int(r.next()*8)), 1+float32(int(r.next()*3))
		poly := make([]geom.Vec3, n)
		for i := range poly {
			angle := -2 * math.Pi * float64(i) / float64(n)
			poly[i] = geom.Vec3{cx + float32(radius*float32(math.Cos(angle))), 0, cz + float32(radius*float32(math.Sin(angle)))}
		}
		polys = append(polys, poly)
	}
	// Two unit squares sharing an edge, and one touching at a corner.
	polys = append(polys,
		[]geom.Vec3{{0, 0, 0}, {0, 0, 1}, {1, 0, 1}, {1, 0, 0}},
		[]geom.Vec3{{1, 0, 0}, {1, 0, 1}, {2, 0, 1}, {2, 0, 0}},
		[]geom.Vec3{{1, 0, 1}, {1, 0, 2}, {2, 0, 2}, {2, 0, 1}})
	toPoints := func(poly []geom.Vec3) []Point {
		out := make([]Point, len(poly))
		for i, v := range poly {
			out[i] = Load(&poly[i])
			require.Equal(t, FromVec3(v), out[i])
		}
		return out
	}
	overlaps := 0
	for _, a := range polys {
		for _, b := range polys {
			want := geom.OverlapPolyPoly2D(a, b)
			require.Equal(t, want, OverlapPolyPoly2D(toPoints(a), toPoints(b)), "%v and %v", a, b)
			if want {
				overlaps++
			}
		}
	}
	n := len(polys)
	require.Greater(t, overlaps, n, "more overlaps than the polygons with themselves")
	require.Less(t, overlaps, n*n)
}

// TestPointInPolygonOnAGrid checks points inside, outside, on the edges and
// on the vertices of a quad against geom.PointInPolygon.
func TestPointInPolygonOnAGrid(t *testing.T) {
	quad := []geom.Vec3{{0, 0, 0}, {0, 0, 3}, {3, 0, 3}, {2, 0, 0}}
	points := []Point{FromVec3(quad[0]), FromVec3(quad[1]), FromVec3(quad[2]), FromVec3(quad[3])}
	inside := 0
	for x := float32(-0.5); x <= 3.5; x += 0.25 {
		for z := float32(-0.5); z <= 3.5; z += 0.25 {
			pt := geom.Vec3{x, 0, z}
			want := geom.PointInPolygon(pt, quad)
			require.Equal(t, want, PointInPolygon(FromVec3(pt), points), "%v", pt)
			if want {
				inside++
			}
		}
	}
	require.Greater(t, inside, 50)
}

// TestClosestHeightInside checks a point inside a triangle, one on a
// degenerate triangle and one outside.
func TestClosestHeightInside(t *testing.T) {
	a, b, c := Point{0, 1, 0}, Point{0, 1, 2}, Point{2, 3, 0}
	tests := []struct {
		name   string
		p      Point
		a      Point
		want   float32
		wantOK bool
	}{
		{"inside", Point{0.5, 0, 0.5}, a, 1.5, true},
		{"outside", Point{3, 0, 3}, a, 0, false},
		{"degenerate", Point{0, 0, 1}, b, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, ok := ClosestHeightOnTriangle(tt.p, tt.a, b, c)
			require.Equal(t, tt.wantOK, ok)
			require.InDelta(t, tt.want, h, 1e-6)
		})
	}
}
