package query

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestClipRayToPolyMatchesIntersectSegmentPoly2D: Raycast's clip of the
// ray against a polygon, read in place, gives bit for bit the exit
// parameter and edge of the general fastgeom.IntersectSegmentPoly2D (whose
// own tests compare it with geom's, Detour's dtIntersectSegmentPoly2D)
// and agrees on whether the ray starts inside, on random polygons and
// rays: convex and not, with edges and rays along the axes (parallel,
// the eps case), rays of zero length, and polygons of 0 to 6 vertices.
func TestClipRayToPolyMatchesIntersectSegmentPoly2D(t *testing.T) {
	rng := &testmesh.LCG{State: 23}
	coord := func(grid bool) float32 {
		if grid {
			return float32(int(rng.Next()*8)) - 4 // shared values: parallel edges and rays
		}
		return float32(rng.Next()*20) - 10
	}
	cases := map[string]int{}
	for i := range 200000 {
		grid := i%3 == 0
		nv := int(rng.Next() * 7) // 0..6
		verts := make([]mgl32.Vec3, nv)
		poly := &navmesh.Poly{VertCount: uint8(nv)}
		if i%2 == 0 && nv >= 3 {
			// A convex polygon: points on a circle in order.
			cx, cz, r := coord(false), coord(false), 1+float32(rng.Next()*5)
			for k := range nv {
				a := 2 * math.Pi * float64(float64(k)+float64(float64(rng.Next())*0.8)) / float64(nv)
				verts[k] = mgl32.Vec3{cx + float32(r*float32(math.Cos(a))), rng.Next(), cz + float32(r*float32(math.Sin(a)))}
			}
		} else {
			for k := range nv {
				verts[k] = mgl32.Vec3{coord(grid), rng.Next(), coord(grid)}
			}
		}
		// Store the vertices in shuffled slots of a larger array, as a
		// tile does.
		all := make([]mgl32.Vec3, nv+3)
		for k := range nv {
			slot := (k*5 + 2) % len(all)
			for used := true; used; {
				used = false
				for j := range k {
					if poly.Verts[j] == uint16(slot) {
						used, slot = true, (slot+1)%len(all)
					}
				}
			}
			poly.Verts[k] = uint16(slot)
			all[slot] = verts[k]
		}
		start := mgl32.Vec3{coord(grid), 0, coord(grid)}
		end := mgl32.Vec3{coord(grid), 0, coord(grid)}
		if i%11 == 0 {
			end = start
		}
		points := make([]fastgeom.Point, nv)
		for k := range nv {
			points[k] = fastgeom.FromVec3(verts[k])
		}
		_, wantT, _, wantSeg, wantOK := fastgeom.IntersectSegmentPoly2D(fastgeom.FromVec3(start), fastgeom.FromVec3(end), points)
		gotT, gotSeg, gotOK := clipRayToPoly(all, poly, start[0], start[2], end[0]-start[0], end[2]-start[2])
		require.Equal(t, wantOK, gotOK, "case %d: inside", i)
		if wantOK {
			require.Equal(t, math.Float32bits(wantT), math.Float32bits(gotT), "case %d: tmax %v, want %v", i, gotT, wantT)
			require.Equal(t, wantSeg, gotSeg, "case %d: exit edge", i)
			if wantSeg == -1 {
				cases["ends inside"]++
			} else {
				cases["leaves"]++
			}
		} else {
			cases["outside"]++
		}
	}
	// The random cases meet every outcome many times.
	for _, c := range []string{"ends inside", "leaves", "outside"} {
		assert.Greater(t, cases[c], 1000, c)
	}
}
