package query

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
)

// TestClosestOnPolyMatchesNavmesh checks the nearest-poly search's own
// closest-point code against navmesh.Tile.ClosestPointOnPoly, bit for bit,
// on every polygon of the dungeon at points around it.
func TestClosestOnPolyMatchesNavmesh(t *testing.T) {
	mesh := testmesh.Dungeon(t)
	tile := mesh.Snapshot().Tile(0)
	rng := &testmesh.LCG{State: 11}
	bits := func(v geom.Vec3) [3]uint32 {
		return [3]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2])}
	}
	for ip := range tile.Polys {
		poly := &tile.Polys[ip]
		center := geom.PolyCenter(poly.Verts[:poly.VertCount], tile.Verts)
		for range 60 {
			pos := geom.Vec3{center[0] + (rng.Next()-0.5)*12, center[1] + (rng.Next()-0.5)*4, center[2] + (rng.Next()-0.5)*12}
			want, wantOver := tile.ClosestPointOnPoly(poly, pos)
			got, gotOver := closestOnPoly(tile, uint32(ip), toPoint(pos))
			require.Equal(t, wantOver, gotOver, "poly %d at %v", ip, pos)
			require.Equal(t, bits(want), bits(got.vec()), "poly %d at %v", ip, pos)
		}
		// Right on the vertices and edge midpoints too.
		for j := range int(poly.VertCount) {
			a := tile.Verts[poly.Verts[j]]
			b := tile.Verts[poly.Verts[(j+1)%int(poly.VertCount)]]
			for _, pos := range []geom.Vec3{a, geom.Lerp(a, b, 0.5)} {
				want, wantOver := tile.ClosestPointOnPoly(poly, pos)
				got, gotOver := closestOnPoly(tile, uint32(ip), toPoint(pos))
				require.Equal(t, wantOver, gotOver, "poly %d at %v", ip, pos)
				require.Equal(t, bits(want), bits(got.vec()), "poly %d at %v", ip, pos)
			}
		}
	}
}
