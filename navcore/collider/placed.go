package collider

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
)

// Placed is a shape placed in the world by a pose (Place): everything the
// rasterizer and the oracles need, in world space. A Placed of a mesh
// collider shares the Shape's Mesh and transforms its vertices on demand
// (WorldVertices). It is a value: copies are independent, but for the Mesh
// they share.
type Placed struct {
	shape    Shape
	rotation matrix
	position geom.Vec3
	// identity is set when the pose neither turns nor moves the shape's
	// frame: mesh vertices are used as they are, bit for bit.
	identity bool
	bmin     geom.Vec3
	bmax     geom.Vec3
	// top is the primitive as it is, bottom the same mirrored in y (its
	// highest point is the primitive's lowest, negated); unused for
	// meshes.
	top, bottom primitive
}

// Place validates shape and pose and returns the shape placed in the
// world. The error wraps ErrInvalidShape.
func Place(shape Shape, pose Pose) (Placed, error) {
	if err := shape.Validate(); err != nil {
		return Placed{}, err
	}
	if err := pose.Validate(); err != nil {
		return Placed{}, err
	}
	q := pose.Rotation
	p := Placed{
		shape:    shape,
		rotation: rotationMatrix([4]float32{q.W, q.V[0], q.V[1], q.V[2]}),
		position: pose.Position,
	}
	if shape.Kind == Box {
		p.rotation = matrix{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	p.identity = p.rotation.isIdentity() && pose.Position == (geom.Vec3{})
	switch shape.Kind {
	case ConvexHull, TriangleMesh:
		p.boundMesh()
	default:
		p.top = newPrimitive(&p)
		p.bottom = p.top.mirrored()
		p.bmin, p.bmax = p.top.bounds()
	}
	if !finiteWithin(p.bmin, 2*MaxExtent) || !finiteWithin(p.bmax, 2*MaxExtent) {
		return Placed{}, fmt.Errorf("%w: %s placed at %v reaches past ±%g", ErrInvalidShape, shape.Kind, pose.Position, 2*MaxExtent)
	}
	return p, nil
}

// Shape returns the shape that was placed.
func (p *Placed) Shape() Shape { return p.shape }

// Bounds returns the axis-aligned box around the placed shape
// [Units: world units].
func (p *Placed) Bounds() (bmin, bmax geom.Vec3) { return p.bmin, p.bmax }

// ToWorld returns local point v of the shape's frame in world space.
func (p *Placed) ToWorld(v geom.Vec3) geom.Vec3 {
	if p.identity {
		return v
	}
	return add(p.rotation.apply(v), p.position)
}

// WorldVertices appends the world positions of a mesh collider's vertices
// (in the order of Mesh.Vertices) to dst and returns it; for a primitive
// it returns dst. With a pose that neither turns nor moves the shape, the
// vertices are the Mesh's, bit for bit.
func (p *Placed) WorldVertices(dst []geom.Vec3) []geom.Vec3 {
	if p.shape.Mesh == nil || (p.shape.Kind != ConvexHull && p.shape.Kind != TriangleMesh) {
		return dst
	}
	if p.identity {
		return append(dst, p.shape.Mesh.Vertices...)
	}
	for _, v := range p.shape.Mesh.Vertices {
		dst = append(dst, p.ToWorld(v))
	}
	return dst
}

// boundMesh sets the bounds of a mesh collider from its world vertices.
func (p *Placed) boundMesh() {
	m := p.shape.Mesh
	first := true
	for _, t := range m.Triangles {
		for _, index := range t {
			v := p.ToWorld(m.Vertices[index])
			if first {
				p.bmin, p.bmax, first = v, v, false
				continue
			}
			p.bmin, p.bmax = geom.Min(p.bmin, v), geom.Max(p.bmax, v)
		}
	}
}
