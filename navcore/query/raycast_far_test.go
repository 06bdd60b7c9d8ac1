package query

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestRaycastClipFarEnds: with an end position far away (up to
// ±MaxFloat32), the clip's den overflows to ±Inf, or to NaN where both its
// products do; Raycast's branch-free clip still gives the exit edge, the
// exit parameter's bits and the inside answer of the branching
// fastgeom.IntersectSegmentPoly2D (Detour's dtIntersectSegmentPoly2D), on
// random convex polygons.
func TestRaycastClipFarEnds(t *testing.T) {
	q, filter, _, _, _ := walkSetup(t, 64)
	snap := q.mesh.Snapshot()
	path := make([]navmesh.Ref, 1)
	rng := &testmesh.LCG{State: 41}
	far := []float32{math.MaxFloat32, -math.MaxFloat32, 1e38, -1e38, 1e30, -1e30, 3}
	nans := 0
	for i := range 20000 {
		nv := 3 + int(rng.Next()*4) // 3..6
		verts := make([]mgl32.Vec3, nv)
		poly := &navmesh.Poly{VertCount: uint8(nv), FirstLink: navmesh.NullLink}
		cx, cz, r := float32(rng.Next()*20)-10, float32(rng.Next()*20)-10, 1+float32(rng.Next()*5)
		for k := range nv {
			a := 2 * math.Pi * float64(float64(k)+float64(float64(rng.Next())*0.8)) / float64(nv)
			verts[k] = mgl32.Vec3{cx + float32(r*float32(math.Cos(a))), rng.Next(), cz + float32(r*float32(math.Sin(a)))}
			poly.Verts[k] = uint16(k)
		}
		start := mgl32.Vec3{cx + float32(rng.Next()*4) - 2, 0, cz + float32(rng.Next()*4) - 2}
		end := mgl32.Vec3{far[int(rng.Next()*float32(len(far)))], 0, far[int(rng.Next()*float32(len(far)))]}
		points := make([]fastgeom.Point, nv)
		for k := range nv {
			points[k] = fastgeom.FromVec3(verts[k])
			vj := verts[(k+nv-1)%nv]
			edgeX, edgeZ := verts[k][0]-vj[0], verts[k][2]-vj[2]
			dx, dz := end[0]-start[0], end[2]-start[2]
			if den := float32(dz*edgeX) - float32(dx*edgeZ); den != den {
				nans++
			}
		}
		_, wantT, _, wantSeg, wantOK := fastgeom.IntersectSegmentPoly2D(fastgeom.FromVec3(start), fastgeom.FromVec3(end), points)
		var hit RaycastHit
		q.raycastFrom(&hit, snap, &navmesh.Tile{Verts: verts}, poly, 1, start, end, filter, 0, path, 0)
		require.Equal(t, wantOK, hit.PathCount == 1, "case %d: inside", i)
		if wantOK {
			require.Equal(t, wantSeg, hit.HitEdgeIndex, "case %d: exit edge", i)
			if wantSeg != -1 {
				require.Equal(t, math.Float32bits(max(wantT, 0)), math.Float32bits(hit.T), "case %d: tmax %v, want %v", i, hit.T, wantT)
			}
		}
	}
	require.Greater(t, nans, 100, "edges with a NaN den")
}
