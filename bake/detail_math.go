package bake

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// Float helpers of the detail mesh, written operation for operation like
// RecastMeshDetail.cpp so that results round identically.

// maxFloat32 is FLT_MAX.
const maxFloat32 float32 = math.MaxFloat32

// cross2 is the xz cross product of p1→p2 and p1→p3; positive when p3 lies
// left of p1→p2 in this file's convention.
func cross2(p1, p2, p3 *geom.Vec3) float32 {
	u1 := p2[0] - p1[0]
	v1 := p2[2] - p1[2]
	u2 := p3[0] - p1[0]
	v2 := p3[2] - p1[2]
	return float32(u1*v2) - float32(v1*u2)
}

// circumCircle returns the xz circumcircle of p1, p2, p3 (centre y is
// p1's). For a degenerate triangle it returns p1 with radius 0 and false.
func circumCircle(p1, p2, p3 *geom.Vec3) (center geom.Vec3, radius float32, ok bool) {
	const eps float32 = 1e-6
	// Relative to p1 to keep precision.
	var v1 geom.Vec3
	v2 := geom.Vec3{p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]}
	v3 := geom.Vec3{p3[0] - p1[0], p3[1] - p1[1], p3[2] - p1[2]}

	cp := cross2(&v1, &v2, &v3)
	if !(abs32(cp) > eps) {
		return *p1, 0, false
	}
	// Component-wise: geom's value-taking helpers would copy the vectors
	// through memory in this hot path of the Delaunay triangulation.
	v1Sq := float32(v1[0]*v1[0]) + float32(v1[2]*v1[2])
	v2Sq := float32(v2[0]*v2[0]) + float32(v2[2]*v2[2])
	v3Sq := float32(v3[0]*v3[0]) + float32(v3[2]*v3[2])
	twiceCp := 2 * cp
	center[0] = (float32(v1Sq*(v2[2]-v3[2])) + float32(v2Sq*(v3[2]-v1[2])) + float32(v3Sq*(v1[2]-v2[2]))) / twiceCp
	center[1] = 0
	center[2] = (float32(v1Sq*(v3[0]-v2[0])) + float32(v2Sq*(v1[0]-v3[0])) + float32(v3Sq*(v2[0]-v1[0]))) / twiceCp
	dx, dz := v1[0]-center[0], v1[2]-center[2]
	radius = geom.Sqrt(float32(dx*dx) + float32(dz*dz))
	center[0] += p1[0]
	center[1] += p1[1]
	center[2] += p1[2]
	return center, radius, true
}

// abs32 is fabsf (clears the sign bit, so -0 becomes +0).
func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }

// triangleBasis holds what the reference's distance from a point to a
// triangle (distToTri) computes from the triangle alone, so that testing
// many points against one triangulation repeats only the per-point work.
// Every value is computed with the same float operations as distToTri, so
// results are identical.
type triangleBasis struct {
	ax, ay, az          float32
	v0x, v0y, v0z       float32 // c - a
	v1x, v1y, v1z       float32 // b - a
	dot00, dot01, dot11 float32
	invDenom            float32
}

// newTriangleBasis prepares triangle a, b, c for distance queries.
func newTriangleBasis(a, b, c *geom.Vec3) triangleBasis {
	t := triangleBasis{
		ax: a[0], ay: a[1], az: a[2],
		v0x: c[0] - a[0], v0y: c[1] - a[1], v0z: c[2] - a[2],
		v1x: b[0] - a[0], v1y: b[1] - a[1], v1z: b[2] - a[2],
	}
	t.dot00 = float32(t.v0x*t.v0x) + float32(t.v0z*t.v0z)
	t.dot01 = float32(t.v0x*t.v1x) + float32(t.v0z*t.v1z)
	t.dot11 = float32(t.v1x*t.v1x) + float32(t.v1z*t.v1z)
	t.invDenom = 1 / (float32(t.dot00*t.dot11) - float32(t.dot01*t.dot01))
	return t
}

// distance returns the vertical distance from p to the triangle when p lies
// over it (with a small tolerance), maxFloat32 otherwise.
func (t *triangleBasis) distance(p *geom.Vec3) float32 {
	v2x := p[0] - t.ax
	v2z := p[2] - t.az
	dot02 := float32(t.v0x*v2x) + float32(t.v0z*v2z)
	dot12 := float32(t.v1x*v2x) + float32(t.v1z*v2z)
	u := float32((float32(t.dot11*dot02) - float32(t.dot01*dot12)) * t.invDenom)
	v := float32((float32(t.dot00*dot12) - float32(t.dot01*dot02)) * t.invDenom)
	const eps float32 = 1e-4
	if u >= -eps && v >= -eps && (u+v) <= 1+eps {
		y := t.ay + float32(t.v0y*u) + float32(t.v1y*v)
		return abs32(y - p[1])
	}
	return maxFloat32
}

// prepareTriangles fills dst with the bases of tris (4 ints per triangle)
// over verts.
func prepareTriangles(dst []triangleBasis, verts []geom.Vec3, tris []int) []triangleBasis {
	dst = dst[:0]
	for i := 0; i+3 < len(tris); i += 4 {
		dst = append(dst, newTriangleBasis(&verts[tris[i]], &verts[tris[i+1]], &verts[tris[i+2]]))
	}
	return dst
}

// distToTriMesh returns the smallest vertical distance from p to the
// prepared triangles it lies over, -1 when it lies over none.
func distToTriMesh(p *geom.Vec3, tris []triangleBasis) float32 {
	dmin := maxFloat32
	for i := range tris {
		if d := tris[i].distance(p); d < dmin {
			dmin = d
		}
	}
	if dmin == maxFloat32 {
		return -1
	}
	return dmin
}

// signedDistToPoly returns the squared xz distance from p to the polygon's
// edges, negated when p lies inside the polygon.
func signedDistToPoly(verts []geom.Vec3, p *geom.Vec3) float32 {
	dmin := maxFloat32
	inside := false
	n := len(verts)
	for i, j := 0, n-1; i < n; j, i = i, i+1 {
		vi := &verts[i]
		vj := &verts[j]
		if (vi[2] > p[2]) != (vj[2] > p[2]) &&
			p[0] < (vj[0]-vi[0])*(p[2]-vi[2])/(vj[2]-vi[2])+vi[0] {
			inside = !inside
		}
		distance, _ := geom.DistancePtSegSqr2D(*p, *vj, *vi)
		dmin = minFloat(dmin, distance)
	}
	if inside {
		return -dmin
	}
	return dmin
}

// polyMinExtent returns the polygon's smallest width: over all edges, the
// largest distance of another vertex from the edge, minimised.
func polyMinExtent(verts []geom.Vec3) float32 {
	n := len(verts)
	minDist := maxFloat32
	for i := 0; i < n; i++ {
		ni := (i + 1) % n
		p1 := &verts[i]
		p2 := &verts[ni]
		maxEdgeDist := float32(0)
		for j := 0; j < n; j++ {
			if j == i || j == ni {
				continue
			}
			distance, _ := geom.DistancePtSegSqr2D(verts[j], *p1, *p2)
			maxEdgeDist = maxFloat(maxEdgeDist, distance)
		}
		minDist = minFloat(minDist, maxEdgeDist)
	}
	return geom.Sqrt(minDist)
}

// jitterX and jitterY offset interior sample i by a fixed pseudo-random
// amount in [-1, 1] to break the symmetry of the sample grid.
func jitterX(i int) float32 {
	return float32(float32((uint32(i)*0x8da6b343)&0xffff)/65535*2) - 1
}

func jitterY(i int) float32 {
	return float32(float32((uint32(i)*0xd8163841)&0xffff)/65535*2) - 1
}
