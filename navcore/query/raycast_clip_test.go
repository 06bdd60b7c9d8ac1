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

// TestRaycastClipMatchesIntersectSegmentPoly2D: Raycast's clip of the ray
// against a polygon, written out in its walk and reading the vertices in
// place, gives bit for bit the exit parameter and edge of the general
// fastgeom.IntersectSegmentPoly2D (whose own tests compare it with geom's,
// Detour's dtIntersectSegmentPoly2D) and agrees on whether the ray starts
// inside, on random polygons and rays: convex and not, with edges and rays
// along the axes (parallel, the eps case), rays of zero length, and polygons
// of 0 to 6 vertices. Each polygon is the start polygon of a walk, alone in
// a tile of its own and without links, so the walk stops there: a hit at
// the exit edge, the end inside, or no polygon crossed when the start is
// outside.
func TestRaycastClipMatchesIntersectSegmentPoly2D(t *testing.T) {
	q, filter, _, _, _ := walkSetup(t, 64)
	snap := q.mesh.Snapshot()
	path := make([]navmesh.Ref, 1)
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
		poly := &navmesh.Poly{VertCount: uint8(nv), FirstLink: navmesh.NullLink}
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
		var hit RaycastHit
		q.raycastFrom(&hit, snap, &navmesh.Tile{Verts: all}, poly, 1, start, end, filter, 0, path, 0)
		gotOK, gotSeg := hit.PathCount == 1, hit.HitEdgeIndex
		require.Equal(t, wantOK, gotOK, "case %d: inside", i)
		if wantOK {
			require.Equal(t, wantSeg, gotSeg, "case %d: exit edge", i)
			if wantSeg != -1 {
				// The hit's T is the exit parameter, but never below 0.
				require.Equal(t, math.Float32bits(max(wantT, 0)), math.Float32bits(hit.T), "case %d: tmax %v, want %v", i, hit.T, wantT)
			}
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
