package navmesh

import (
	"math"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
)

// The closest-point code runs on fastgeom points for speed. The plain
// versions below are the same algorithms written directly on geom.Vec3 with
// the geom functions (dtNavMesh::getPolyHeight and closestPointOnPoly as
// they read); TestClosestPointMatchesPlain holds the fast code to them bit
// for bit.

func plainDetailVertex(t *Tile, poly *Poly, detail *PolyDetail, i uint8) mgl32.Vec3 {
	if i < poly.VertCount {
		return t.Verts[poly.Verts[i]]
	}
	return t.Data.DetailVerts[detail.VertBase+uint32(i-poly.VertCount)]
}

func plainPolyHeight(t *Tile, ip int, pos mgl32.Vec3) (float32, bool) {
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection {
		return 0, false
	}
	verts := make([]mgl32.Vec3, poly.VertCount)
	for i := range verts {
		verts[i] = t.Verts[poly.Verts[i]]
	}
	if !geom.PointInPolygon(pos, verts) {
		return 0, false
	}
	detail := &t.Data.DetailMeshes[ip]
	for j := range uint32(detail.TriCount) {
		tri := &t.Data.DetailTris[detail.TriBase+j]
		a := plainDetailVertex(t, poly, detail, tri[0])
		b := plainDetailVertex(t, poly, detail, tri[1])
		c := plainDetailVertex(t, poly, detail, tri[2])
		if h, ok := geom.ClosestHeightOnTriangle(pos, a, b, c); ok {
			return h, true
		}
	}
	return plainClosestPointOnDetailEdges(t, ip, pos, false)[1], true
}

func plainClosestPointOnDetailEdges(t *Tile, ip int, pos mgl32.Vec3, onlyBoundary bool) mgl32.Vec3 {
	poly := &t.Polys[ip]
	detail := &t.Data.DetailMeshes[ip]
	minDistSqr := float32(math.MaxFloat32)
	var minT float32
	var segStart, segEnd mgl32.Vec3
	found := false
	for i := range uint32(detail.TriCount) {
		tri := &t.Data.DetailTris[detail.TriBase+i]
		if onlyBoundary && tri[3]&anyBoundaryEdge == 0 {
			continue
		}
		var v [3]mgl32.Vec3
		for j := range 3 {
			v[j] = plainDetailVertex(t, poly, detail, tri[j])
		}
		for k, j := 0, 2; k < 3; j, k = k, k+1 {
			if tri.EdgeFlags(j)&DetailEdgeBoundary == 0 && (onlyBoundary || tri[j] < tri[k]) {
				continue
			}
			d, segT := geom.DistancePtSegSqr2D(pos, v[j], v[k])
			if d < minDistSqr {
				minDistSqr = d
				minT = segT
				segStart, segEnd = v[j], v[k]
				found = true
			}
		}
	}
	if !found {
		return pos
	}
	return geom.Lerp(segStart, segEnd, minT)
}

func plainClosestPointOnPoly(t *Tile, ip int, pos mgl32.Vec3) (mgl32.Vec3, bool) {
	closest := pos
	if h, ok := plainPolyHeight(t, ip, pos); ok {
		closest[1] = h
		return closest, true
	}
	poly := &t.Polys[ip]
	if poly.Type() == PolyTypeOffMeshConnection {
		v0, v1 := t.Verts[poly.Verts[0]], t.Verts[poly.Verts[1]]
		_, segT := geom.DistancePtSegSqr2D(pos, v0, v1)
		return geom.Lerp(v0, v1, segT), false
	}
	return plainClosestPointOnDetailEdges(t, ip, pos, true), false
}

func vecBits(v mgl32.Vec3) [3]uint32 {
	return [3]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2])}
}

// TestClosestPointMatchesPlain checks ClosestPointOnPoly, PolyHeight and
// ClosestPointOnDetailEdges against the plain versions, bit for bit, on
// every polygon of the dungeon at random points around it, on its vertices
// and on its edge midpoints.
func TestClosestPointMatchesPlain(t *testing.T) {
	_, tile := loadSoloDungeon(t)
	state := uint64(11)
	random := func() float32 {
		state = state*6364136223846793005 + 1442695040888963407
		return float32(float32(state>>40) / float32(1<<24))
	}
	check := func(ip int, pos mgl32.Vec3) {
		poly := &tile.Polys[ip]
		want, wantOver := plainClosestPointOnPoly(tile, ip, pos)
		got, gotOver := tile.ClosestPointOnPoly(poly, pos)
		require.Equal(t, wantOver, gotOver, "poly %d at %v", ip, pos)
		require.Equal(t, vecBits(want), vecBits(got), "poly %d at %v", ip, pos)

		wantH, wantOK := plainPolyHeight(tile, ip, pos)
		gotH, gotOK := tile.PolyHeight(poly, pos)
		require.Equal(t, wantOK, gotOK, "height of poly %d at %v", ip, pos)
		require.Equal(t, math.Float32bits(wantH), math.Float32bits(gotH), "height of poly %d at %v", ip, pos)

		for _, onlyBoundary := range []bool{false, true} {
			want := plainClosestPointOnDetailEdges(tile, ip, pos, onlyBoundary)
			got := tile.ClosestPointOnDetailEdges(poly, pos, onlyBoundary)
			require.Equal(t, vecBits(want), vecBits(got), "detail edges of poly %d at %v (boundary only %v)", ip, pos, onlyBoundary)
		}
	}
	for ip := range tile.Polys {
		poly := &tile.Polys[ip]
		center := geom.PolyCenter(poly.Verts[:poly.VertCount], tile.Verts)
		for range 60 {
			check(ip, mgl32.Vec3{center[0] + float32((random()-0.5)*12), center[1] + float32((random()-0.5)*4), center[2] + float32((random()-0.5)*12)})
		}
		for j := range int(poly.VertCount) {
			a := tile.Verts[poly.Verts[j]]
			b := tile.Verts[poly.Verts[(j+1)%int(poly.VertCount)]]
			check(ip, a)
			check(ip, geom.Lerp(a, b, 0.5))
		}
	}
}
