package query

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestRaycastClipFarEnds: with an end position far away (up to
// ±MaxFloat32), the clip's den overflows to ±Inf, or to NaN where both its
// products do, and with a start far away its num does (a start outside
// the start polygon, which Raycast allows); Raycast's branch-free clip
// still gives the exit edge, the
// exit parameter's bits and the inside answer of the branching
// fastgeom.IntersectSegmentPoly2D (Detour's dtIntersectSegmentPoly2D), on
// random convex polygons, each alone in a tile without links.
func TestRaycastClipFarEnds(t *testing.T) {
	q, filter, _, _, _ := walkSetup(t, 64)
	far := []float32{math.MaxFloat32, -math.MaxFloat32, 1e38, -1e38, 1e30, -1e30, 3}
	r := rand.New(rand.NewPCG(41, 43))
	nans, numNaNs := 0, 0
	for i := range 20000 {
		nv := 3 + r.IntN(4)
		poly := &navmesh.Poly{VertCount: uint8(nv), FirstLink: navmesh.NullLink}
		verts, points := make([]mgl32.Vec3, nv), make([]fastgeom.Point, nv)
		cx, cz, radius := float32(r.Float32()*20)-10, float32(r.Float32()*20)-10, 1+float32(r.Float32()*5)
		for k := range nv {
			a := 2 * math.Pi * (float64(k) + float64(0.8*r.Float64())) / float64(nv)
			verts[k] = mgl32.Vec3{cx + float32(radius*float32(math.Cos(a))), r.Float32(), cz + float32(radius*float32(math.Sin(a)))}
			points[k], poly.Verts[k] = fastgeom.FromVec3(verts[k]), uint16(k)
		}
		start := mgl32.Vec3{cx + float32(r.Float32()*4) - 2, 0, cz + float32(r.Float32()*4) - 2}
		end := mgl32.Vec3{far[r.IntN(len(far))], 0, far[r.IntN(len(far))]}
		if i%3 == 0 {
			start, end = end, start
		}
		for k := range nv {
			e, f := points[k], points[(k+nv-1)%nv]
			if den := float32((end[2]-start[2])*(e.X-f.X)) - float32((end[0]-start[0])*(e.Z-f.Z)); den != den {
				nans++
			}
			if num := float32((e.Z-f.Z)*(start[0]-f.X)) - float32((e.X-f.X)*(start[2]-f.Z)); num != num {
				numNaNs++
			}
		}
		_, wantT, _, wantSeg, wantOK := fastgeom.IntersectSegmentPoly2D(fastgeom.FromVec3(start), fastgeom.FromVec3(end), points)
		var hit RaycastHit
		q.raycastFrom(&hit, q.mesh.Snapshot(), &navmesh.Tile{Verts: verts}, poly, 1, start, end, filter, 0, make([]navmesh.Ref, 1), 0)
		switch {
		case wantOK != (hit.PathCount == 1):
			t.Fatalf("case %d: inside %v, want %v", i, hit.PathCount == 1, wantOK)
		case wantOK && wantSeg != hit.HitEdgeIndex:
			t.Fatalf("case %d: exit edge %d, want %d", i, hit.HitEdgeIndex, wantSeg)
		case wantOK && wantSeg != -1 && math.Float32bits(hit.T) != math.Float32bits(max(wantT, 0)):
			t.Fatalf("case %d: t %v, want %v", i, hit.T, wantT)
		}
	}
	if nans < 100 || numNaNs < 100 {
		t.Fatalf("%d edges with a NaN den and %d with a NaN num, want many", nans, numNaNs)
	}
}
