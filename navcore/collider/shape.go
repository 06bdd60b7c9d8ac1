package collider

import (
	"errors"
	"fmt"
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// Kind is the kind of a collider's shape.
type Kind uint8

// Collider kinds.
const (
	// Box is a box of HalfExtents along the world axes around the pose's
	// position; the pose's rotation is ignored.
	Box Kind = iota + 1
	// OrientedBox is a box of HalfExtents along its own axes, turned by the
	// pose's rotation: a tilted box makes a ramp.
	OrientedBox
	// Sphere is a ball of Radius around the pose's position.
	Sphere
	// Capsule is the points within Radius of a segment 2·HalfHeight long
	// along the local y axis, centred on the pose's position.
	Capsule
	// Cylinder is a flat-capped cylinder of Radius whose axis runs
	// 2·HalfHeight along the local y axis, centred on the pose's position.
	Cylinder
	// ConvexHull is the convex closed triangle mesh Mesh, in the local
	// frame.
	ConvexHull
	// TriangleMesh is the triangle soup Mesh, in the local frame: ground,
	// a bridge, a building.
	TriangleMesh
)

// String returns the kind's name, as navtool's collider files write it.
func (k Kind) String() string {
	switch k {
	case Box:
		return "box"
	case OrientedBox:
		return "orientedbox"
	case Sphere:
		return "sphere"
	case Capsule:
		return "capsule"
	case Cylinder:
		return "cylinder"
	case ConvexHull:
		return "convex"
	case TriangleMesh:
		return "trimesh"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// ParseKind returns the kind String names.
func ParseKind(name string) (Kind, error) {
	for k := Box; k <= TriangleMesh; k++ {
		if k.String() == name {
			return k, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown kind %q (box, orientedbox, sphere, capsule, cylinder, convex, trimesh)", ErrInvalidShape, name)
}

// Limits of a shape.
const (
	// WalkableArea is the area id the constructors give a collider's
	// walkable surface: Recast's default walkable area.
	WalkableArea uint8 = 63
	// MaxArea is the largest area id (a heightfield span holds 6 bits).
	MaxArea uint8 = 63
	// MaxMeshVertices and MaxMeshTriangles bound a triangle mesh collider.
	MaxMeshVertices  = 1 << 20
	MaxMeshTriangles = 1 << 20
	// MaxHullVertices and MaxHullTriangles bound a convex hull, whose
	// convexity check takes their product.
	MaxHullVertices  = 1024
	MaxHullTriangles = 2048
	// MaxExtent bounds every length of a shape and every coordinate of a
	// pose or mesh vertex [Units: world units]
	MaxExtent = 1e7
)

// ErrInvalidShape is wrapped by the errors of Shape.Validate, Pose.Validate
// and Place.
var ErrInvalidShape = errors.New("collider: invalid shape")

// Mesh is the triangles of a ConvexHull or TriangleMesh collider, in the
// collider's frame. A collider keeps a pointer to it and reads it whenever
// a tile under it is rebuilt, so it must not change once handed over:
// make a new Mesh instead.
type Mesh struct {
	// Vertices are the corners [Units: world units]
	Vertices []geom.Vec3
	// Triangles index Vertices. Their winding follows bake.Geometry's: a
	// triangle's walkable side is the one (v1-v0)×(v2-v0) points to, so a
	// floor winds counter-clockwise seen from above, and a hull's
	// triangles face out.
	Triangles [][3]int32
}

// Shape is a collider in its own frame: what it is, not where. Make one
// with NewBox, NewOrientedBox, NewSphere, NewCapsule, NewCylinder,
// NewConvexHull or NewTriangleMesh, which make it solid with
// WalkableArea; Carving and WithArea change that.
type Shape struct {
	// Kind is the shape's kind.
	Kind Kind
	// HalfExtents are a box's half sizes along its axes
	// [Limit: each > 0] [Units: world units]
	HalfExtents geom.Vec3
	// Radius sizes a sphere, capsule or cylinder [Limit: > 0]
	// [Units: world units]
	Radius float32
	// HalfHeight is half the length of a capsule's or cylinder's axis (a
	// capsule's caps not included) [Limit: capsule >= 0, cylinder > 0]
	// [Units: world units]
	HalfHeight float32
	// Mesh holds a convex hull's or triangle mesh's triangles
	// [Limit: not nil, at least one triangle].
	Mesh *Mesh
	// Carve makes the collider remove the voxels it covers instead of
	// adding them.
	Carve bool
	// Area is the area id of the ground the collider makes: a solid
	// collider's flat enough top, a carving collider's flat enough floor
	// (the bottom of the space it cut out); NullArea (0) makes it never
	// walkable [Limit: 0..MaxArea].
	Area uint8
}

// NewBox returns a solid axis-aligned box of the given half sizes.
func NewBox(halfExtents geom.Vec3) Shape {
	return Shape{Kind: Box, HalfExtents: halfExtents, Area: WalkableArea}
}

// NewOrientedBox returns a solid box of the given half sizes that turns
// with its pose.
func NewOrientedBox(halfExtents geom.Vec3) Shape {
	return Shape{Kind: OrientedBox, HalfExtents: halfExtents, Area: WalkableArea}
}

// NewSphere returns a solid sphere.
func NewSphere(radius float32) Shape {
	return Shape{Kind: Sphere, Radius: radius, Area: WalkableArea}
}

// NewCapsule returns a solid capsule along its local y axis, 2·(halfHeight
// + radius) long.
func NewCapsule(radius, halfHeight float32) Shape {
	return Shape{Kind: Capsule, Radius: radius, HalfHeight: halfHeight, Area: WalkableArea}
}

// NewCylinder returns a solid cylinder along its local y axis,
// 2·halfHeight long.
func NewCylinder(radius, halfHeight float32) Shape {
	return Shape{Kind: Cylinder, Radius: radius, HalfHeight: halfHeight, Area: WalkableArea}
}

// NewConvexHull returns a solid convex hull of mesh's triangles.
func NewConvexHull(mesh *Mesh) Shape {
	return Shape{Kind: ConvexHull, Mesh: mesh, Area: WalkableArea}
}

// NewTriangleMesh returns a solid triangle mesh.
func NewTriangleMesh(mesh *Mesh) Shape {
	return Shape{Kind: TriangleMesh, Mesh: mesh, Area: WalkableArea}
}

// Carving returns s as a carving collider.
func (s Shape) Carving() Shape {
	s.Carve = true
	return s
}

// WithArea returns s with area id area.
func (s Shape) WithArea(area uint8) Shape {
	s.Area = area
	return s
}

// Validate reports the first field outside its limits, wrapping
// ErrInvalidShape. A convex hull is checked to be convex: every vertex on
// the inner side of every triangle's plane, within a millionth of the
// hull's size.
func (s *Shape) Validate() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrInvalidShape, s.Kind, fmt.Sprintf(format, args...))
	}
	if s.Area > MaxArea {
		return bad("area %d above %d", s.Area, MaxArea)
	}
	switch s.Kind {
	case Box, OrientedBox:
		for i, h := range s.HalfExtents {
			if !(h > 0 && h <= MaxExtent) {
				return bad("half extent %d is %v, want 0 < h <= %g", i, h, MaxExtent)
			}
		}
	case Sphere, Capsule, Cylinder:
		if !(s.Radius > 0 && s.Radius <= MaxExtent) {
			return bad("radius %v, want 0 < r <= %g", s.Radius, MaxExtent)
		}
		if s.Kind != Sphere && !(s.HalfHeight >= 0 && s.HalfHeight <= MaxExtent) {
			return bad("half height %v, want 0 <= h <= %g", s.HalfHeight, MaxExtent)
		}
		if s.Kind == Cylinder && s.HalfHeight == 0 {
			return bad("half height 0: a cylinder needs a length")
		}
	case ConvexHull, TriangleMesh:
		if err := s.validateMesh(); err != nil {
			return bad("%v", err)
		}
	default:
		return fmt.Errorf("%w: kind %d", ErrInvalidShape, s.Kind)
	}
	return nil
}

// validateMesh checks a hull's or triangle mesh's Mesh.
func (s *Shape) validateMesh() error {
	m := s.Mesh
	if m == nil || len(m.Triangles) == 0 {
		return errors.New("no triangles")
	}
	maxVertices, maxTriangles := MaxMeshVertices, MaxMeshTriangles
	if s.Kind == ConvexHull {
		maxVertices, maxTriangles = MaxHullVertices, MaxHullTriangles
	}
	if len(m.Vertices) > maxVertices || len(m.Triangles) > maxTriangles {
		return fmt.Errorf("%d vertices and %d triangles, at most %d and %d", len(m.Vertices), len(m.Triangles), maxVertices, maxTriangles)
	}
	for i, v := range m.Vertices {
		if !finiteWithin(v, MaxExtent) {
			return fmt.Errorf("vertex %d %v is not finite within ±%g", i, v, MaxExtent)
		}
	}
	for i, t := range m.Triangles {
		for _, index := range t {
			if index < 0 || int(index) >= len(m.Vertices) {
				return fmt.Errorf("triangle %d: vertex index %d outside 0..%d", i, index, len(m.Vertices)-1)
			}
		}
	}
	if s.Kind == ConvexHull {
		return checkConvex(m)
	}
	return nil
}

// checkConvex reports a vertex of m outside the plane of one of its
// triangles, or a degenerate triangle.
func checkConvex(m *Mesh) error {
	if len(m.Triangles) < 4 {
		return fmt.Errorf("%d triangles cannot close a hull", len(m.Triangles))
	}
	bmin, bmax := m.Vertices[m.Triangles[0][0]], m.Vertices[m.Triangles[0][0]]
	for _, v := range m.Vertices {
		bmin, bmax = geom.Min(bmin, v), geom.Max(bmax, v)
	}
	tolerance := 1e-6 * max(1, bmax[0]-bmin[0], bmax[1]-bmin[1], bmax[2]-bmin[2])
	for i, t := range m.Triangles {
		v0 := m.Vertices[t[0]]
		n := cross(sub(m.Vertices[t[1]], v0), sub(m.Vertices[t[2]], v0))
		length := geom.Sqrt(dot(n, n))
		if !(length > 0) {
			return fmt.Errorf("triangle %d is degenerate", i)
		}
		n = geom.Scale(n, 1/length)
		for j, v := range m.Vertices {
			if d := dot(n, sub(v, v0)); d > tolerance {
				return fmt.Errorf("vertex %d lies %v outside the plane of triangle %d: not convex, or the triangles face in", j, d, i)
			}
		}
	}
	return nil
}

// Pose places a collider: its frame's origin and rotation in the world.
type Pose struct {
	// Position is where the collider's origin lies [Units: world units]
	Position geom.Vec3
	// Rotation turns the collider's frame [Limit: a unit quaternion, or
	// the zero value for no rotation].
	Rotation mgl32.Quat
}

// Validate reports a position that is not finite within MaxExtent, or a
// rotation that is neither zero nor a unit quaternion (within 1e-3),
// wrapping ErrInvalidShape.
func (p *Pose) Validate() error {
	if !finiteWithin(p.Position, MaxExtent) {
		return fmt.Errorf("%w: pose position %v is not finite within ±%g", ErrInvalidShape, p.Position, MaxExtent)
	}
	q := p.Rotation
	norm := lenSqr4(q)
	if !isFinite(norm) || (norm != 0 && math.Abs(float64(norm)-1) > 1e-3) {
		return fmt.Errorf("%w: pose rotation %v is not a unit quaternion", ErrInvalidShape, q)
	}
	return nil
}

// Ref names a collider of a dynamic navmesh (bake/dynamic.Mesh): a slot
// and a salt that changes when the slot is reused, so that the ref of a
// removed collider stays invalid. 0 names no collider.
type Ref uint64

// finiteWithin reports whether every component of v is finite and within
// ±limit.
func finiteWithin(v geom.Vec3, limit float32) bool {
	for _, c := range v {
		if !(c >= -limit && c <= limit) {
			return false
		}
	}
	return true
}

func isFinite(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

func lenSqr4(q mgl32.Quat) float32 {
	return float32(q.W*q.W) + float32(q.V[0]*q.V[0]) + float32(q.V[1]*q.V[1]) + float32(q.V[2]*q.V[2])
}
