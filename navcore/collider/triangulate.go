package collider

import (
	"github.com/archenav/archenav/internal/detmath"
	"math"

	"github.com/archenav/archenav/navcore/geom"
)

// Triangulate appends triangles that approximate the placed shape to
// vertices and triangles (indices into the grown vertices) and returns
// both: a mesh collider's own triangles in world space; for a primitive, a
// closed mesh with its corners on the surface, segments around each
// circle (spheres, capsules, cylinders; at least 3, 16 when 0 or less)
// and outward-facing triangles (bake.Geometry's winding). For drawing, and
// for checking the analytic rasterization against that of the triangles.
func (p *Placed) Triangulate(segments int, vertices []geom.Vec3, triangles [][3]int32) ([]geom.Vec3, [][3]int32) {
	if segments <= 0 {
		segments = 16
	}
	segments = max(segments, 3)
	base := int32(len(vertices))
	s := &p.shape
	switch s.Kind {
	case ConvexHull, TriangleMesh:
		vertices = p.WorldVertices(vertices)
		for _, t := range s.Mesh.Triangles {
			triangles = append(triangles, [3]int32{base + t[0], base + t[1], base + t[2]})
		}
		return vertices, triangles
	case Box, OrientedBox:
		for _, c := range p.top.corners {
			vertices = append(vertices, c)
		}
		// Each face as two triangles over corner indices (bit k: +axis k).
		faces := [6][4]int32{{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}}
		for _, f := range faces {
			triangles = append(triangles, [3]int32{base + f[0], base + f[1], base + f[2]}, [3]int32{base + f[0], base + f[2], base + f[3]})
		}
		return vertices, orientOutward(vertices, triangles, int(base), p.top.center)
	}
	// Rings of points around the local y axis, bottom to top, each at a
	// height and radius; capsules and spheres close with poles.
	type ring struct{ y, radius float32 }
	var rings []ring
	r, hh := s.Radius, s.HalfHeight
	switch s.Kind {
	case Cylinder:
		rings = []ring{{-hh, 0}, {-hh, r}, {hh, r}, {hh, 0}}
	default: // Sphere, Capsule
		if s.Kind == Sphere {
			hh = 0
		}
		half := max(segments/4, 1)
		for i := -half; i <= half; i++ {
			angle := float64(i) * math.Pi / float64(2*half)
			y, radius := float32(float64(r)*detmath.Sin(angle)), float32(float64(r)*detmath.Cos(angle))
			switch {
			case i < 0:
				rings = append(rings, ring{y - hh, radius})
			case i > 0:
				rings = append(rings, ring{y + hh, radius})
			case hh == 0:
				rings = append(rings, ring{0, radius})
			default:
				rings = append(rings, ring{-hh, radius}, ring{hh, radius})
			}
		}
		rings[0].radius, rings[len(rings)-1].radius = 0, 0
	}
	start := make([]int32, len(rings))
	for i, rg := range rings {
		start[i] = int32(len(vertices))
		if rg.radius == 0 {
			vertices = append(vertices, p.ToWorld(geom.Vec3{0, rg.y, 0}))
			continue
		}
		for j := range segments {
			angle := 2 * math.Pi * float64(j) / float64(segments)
			local := geom.Vec3{float32(float64(rg.radius) * detmath.Cos(angle)), rg.y, float32(float64(rg.radius) * detmath.Sin(angle))}
			vertices = append(vertices, p.ToWorld(local))
		}
	}
	at := func(i, j int) int32 {
		if rings[i].radius == 0 {
			return start[i]
		}
		return start[i] + int32(j%segments)
	}
	for i := 0; i+1 < len(rings); i++ {
		for j := range segments {
			a, b := at(i, j), at(i, j+1)
			c, d := at(i+1, j), at(i+1, j+1)
			if a != b {
				triangles = append(triangles, [3]int32{a, b, d})
			}
			if c != d {
				triangles = append(triangles, [3]int32{a, d, c})
			}
		}
	}
	return vertices, orientOutward(vertices, triangles, int(base), p.ToWorld(geom.Vec3{}))
}

// orientOutward turns each triangle from index first on that faces the
// centre of the convex shape it belongs to.
func orientOutward(vertices []geom.Vec3, triangles [][3]int32, first int, center geom.Vec3) [][3]int32 {
	for i := range triangles {
		t := &triangles[i]
		if int(t[0]) < first {
			continue
		}
		v0, v1, v2 := vertices[t[0]], vertices[t[1]], vertices[t[2]]
		n := cross(sub(v1, v0), sub(v2, v0))
		mid := scale(add(add(v0, v1), v2), 1.0/3)
		if dot(n, sub(mid, center)) < 0 {
			t[1], t[2] = t[2], t[1]
		}
	}
	return triangles
}
