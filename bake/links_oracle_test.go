package bake

import (
	"math"

	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// triangleIndex checks link paths against a level's input triangles, an
// oracle independent of the voxels the bake checks them with.
type triangleIndex struct {
	g     *Geometry
	boxes [][2]mgl32.Vec3
}

func newTriangleIndex(g *Geometry) *triangleIndex {
	ix := &triangleIndex{g: g, boxes: make([][2]mgl32.Vec3, len(g.Triangles))}
	for i, t := range g.Triangles {
		a, b, c := g.Vertices[t[0]], g.Vertices[t[1]], g.Vertices[t[2]]
		ix.boxes[i] = [2]mgl32.Vec3{
			{min(a[0], b[0], c[0]), min(a[1], b[1], c[1]), min(a[2], b[2], c[2])},
			{max(a[0], b[0], c[0]), max(a[1], b[1], c[1]), max(a[2], b[2], c[2])},
		}
	}
	return ix
}

// bodyCut reports whether a triangle of the level cuts the body of the
// agent of s along the path of link l (navmesh.LinkPath, 200 steps): the
// vertical segment from the feet's tolerance (AgentMaxClimb where the agent
// stands within AgentRadius of an end or walks off a ledge, 1.5 cell
// heights in flight) to AgentHeight above the feet, at the centre and at 8
// points AgentRadius - CellSize around it (what the voxel check surely
// covers), and the centre's segments from step to step at the bottom, the
// middle and the top of the body.
func (ix *triangleIndex) bodyCut(s *Settings, l OffMeshConnection) bool {
	kind, arc := navmesh.ParseAutoLinkUserID(l.UserID)
	rim := max(0, s.AgentRadius-s.CellSize)
	lo := mgl32.Vec3{min(l.Start[0], l.End[0]) - s.AgentRadius, min(l.Start[1], l.End[1]), min(l.Start[2], l.End[2]) - s.AgentRadius}
	hi := mgl32.Vec3{max(l.Start[0], l.End[0]) + s.AgentRadius, max(l.Start[1], l.End[1]) + arc + s.AgentHeight, max(l.Start[2], l.End[2]) + s.AgentRadius}
	var candidates []int
	for i, box := range ix.boxes {
		if box[0][0] <= hi[0] && box[1][0] >= lo[0] && box[0][1] <= hi[1] && box[1][1] >= lo[1] && box[0][2] <= hi[2] && box[1][2] >= lo[2] {
			candidates = append(candidates, i)
		}
	}
	cuts := func(p, q mgl32.Vec3) bool {
		for _, i := range candidates {
			t := ix.g.Triangles[i]
			if segmentCutsTriangle(p, q, ix.g.Vertices[t[0]], ix.g.Vertices[t[1]], ix.g.Vertices[t[2]]) {
				return true
			}
		}
		return false
	}
	tolerance := func(p mgl32.Vec3, u float32) float32 {
		r2 := s.AgentRadius * s.AgentRadius
		if (kind == navmesh.LinkDrop && u <= 0.5) ||
			(dist2DSqr(p, l.Start) <= r2 && p[1]-l.Start[1] <= s.AgentMaxClimb) ||
			(dist2DSqr(p, l.End) <= r2 && p[1]-l.End[1] <= s.AgentMaxClimb) {
			return s.AgentMaxClimb
		}
		return 1.5 * s.CellHeight
	}
	const steps = 200
	var previous mgl32.Vec3
	var previousTolerance float32
	for i := 0; i <= steps; i++ {
		u := float32(i) / steps
		p := navmesh.LinkPath(kind, l.Start, l.End, arc, u)
		tol := tolerance(p, u)
		for k := -1; k < 8; k++ {
			o := p
			if k >= 0 {
				angle := float64(k) * math.Pi / 4
				o[0] += float32(rim * float32(math.Cos(angle)))
				o[2] += float32(rim * float32(math.Sin(angle)))
			}
			if cuts(mgl32.Vec3{o[0], p[1] + tol, o[2]}, mgl32.Vec3{o[0], p[1] + s.AgentHeight, o[2]}) {
				return true
			}
		}
		if i > 0 && tol == previousTolerance {
			for _, h := range []float32{tol, s.AgentHeight / 2, s.AgentHeight} {
				if h < tol {
					continue
				}
				if cuts(mgl32.Vec3{previous[0], previous[1] + h, previous[2]}, mgl32.Vec3{p[0], p[1] + h, p[2]}) {
					return true
				}
			}
		}
		previous, previousTolerance = p, tol
	}
	return false
}

// segmentCutsTriangle reports whether the segment p..q meets triangle abc
// (Möller-Trumbore, in float64).
func segmentCutsTriangle(p, q, a, b, c mgl32.Vec3) bool {
	v := func(x mgl32.Vec3) [3]float64 { return [3]float64{float64(x[0]), float64(x[1]), float64(x[2])} }
	sub := func(x, y [3]float64) [3]float64 { return [3]float64{x[0] - y[0], x[1] - y[1], x[2] - y[2]} }
	cross := func(x, y [3]float64) [3]float64 {
		return [3]float64{float64(x[1]*y[2]) - float64(x[2]*y[1]), float64(x[2]*y[0]) - float64(x[0]*y[2]), float64(x[0]*y[1]) - float64(x[1]*y[0])}
	}
	dot := func(x, y [3]float64) float64 { return float64(x[0]*y[0]) + float64(x[1]*y[1]) + float64(x[2]*y[2]) }
	origin, dir := v(p), sub(v(q), v(p))
	e1, e2 := sub(v(b), v(a)), sub(v(c), v(a))
	h := cross(dir, e2)
	det := dot(e1, h)
	if det > -1e-12 && det < 1e-12 {
		return false // parallel
	}
	f := 1 / det
	sv := sub(origin, v(a))
	bu := float64(f * dot(sv, h))
	if bu < 0 || bu > 1 {
		return false
	}
	qv := cross(sv, e1)
	bv := float64(f * dot(dir, qv))
	if bv < 0 || bu+bv > 1 {
		return false
	}
	t := f * dot(e2, qv)
	return t >= 0 && t <= 1
}
