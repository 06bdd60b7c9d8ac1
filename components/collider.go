package components

import (
	"fmt"
	"github.com/archenav/archenav/internal/detmath"
	"math"

	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
	"github.com/go-gl/mathgl/mgl32"
)

// DefaultColliderMoveThreshold is how far a collider entity must move (its
// farthest point, turns included) before the navmesh follows it
// [Units: world units]
const DefaultColliderMoveThreshold = float32(0.1)

// Collider is a collider entity's shape: walkable ground it adds (a
// bridge, a ramp, a crate others climb on) or cuts away (Shape.Carve) at
// runtime, through the crowd's dynamic navmesh (the DynamicGeometry
// resource, a bake/dynamic.Mesh). Where it stands is its ColliderPose; the
// crowd keeps its ColliderState. Agents on tiles it rebuilds replan, walk
// back to the navmesh or recover, as after any tile change.
type Collider struct {
	// Shape is the collider in its own frame (package collider); a mesh
	// shape's Mesh must not change once the entity has it.
	Shape collider.Shape
	// MoveThreshold is how far it must move (its farthest point, turns
	// included) before the navmesh follows: smaller moves keep the tiles
	// as they are [Limit: >= 0; 0 = DefaultColliderMoveThreshold]
	// [Units: world units]
	MoveThreshold float32
}

// NewCollider returns a collider entity's component of shape, following
// moves of DefaultColliderMoveThreshold.
func NewCollider(shape collider.Shape) Collider {
	return Collider{Shape: shape, MoveThreshold: DefaultColliderMoveThreshold}
}

// Validate reports a shape or threshold outside its limits, wrapping
// collider.ErrInvalidShape.
func (c *Collider) Validate() error {
	if err := c.Shape.Validate(); err != nil {
		return err
	}
	if !(c.MoveThreshold >= 0) || math.IsInf(float64(c.MoveThreshold), 1) {
		return fmt.Errorf("%w: MoveThreshold %v, want a finite number >= 0", collider.ErrInvalidShape, c.MoveThreshold)
	}
	return nil
}

// Threshold returns the collider's move threshold, the default for 0.
func (c *Collider) Threshold() float32 {
	if c.MoveThreshold == 0 {
		return DefaultColliderMoveThreshold
	}
	return c.MoveThreshold
}

// Reach returns how far the shape reaches from its frame's origin: the
// distance its farthest point moves per radian of turn
// [Units: world units].
func (c *Collider) Reach() float32 {
	s := &c.Shape
	switch s.Kind {
	case collider.Box, collider.OrientedBox:
		return geom.Len(s.HalfExtents)
	case collider.Sphere:
		return s.Radius
	case collider.Capsule:
		return s.HalfHeight + s.Radius
	case collider.Cylinder:
		return geom.Sqrt(float32(s.HalfHeight*s.HalfHeight) + float32(s.Radius*s.Radius))
	}
	reach := float32(0)
	if s.Mesh != nil {
		for _, v := range s.Mesh.Vertices {
			reach = max(reach, geom.Len(v))
		}
	}
	return reach
}

// PoseDistance returns how far the collider's farthest point moves from
// pose a to pose b, at most: the distance between the positions plus the
// angle between the rotations times Reach [Units: world units].
func (c *Collider) PoseDistance(a, b ColliderPose) float32 {
	move := geom.Dist(a.Position, b.Position)
	qa, qb := unitQuat(a.Rotation), unitQuat(b.Rotation)
	d := float64(quatDot(qa, qb))
	angle := float32(2 * detmath.Acos(min(math.Abs(d), 1)))
	return move + float32(angle*c.Reach())
}

// unitQuat returns q, the identity for the zero quaternion.
// quatDot is mgl32's Quat.Dot with every product rounded before it is added
// (docs/determinism.md), so arm64 gives amd64's bits.
func quatDot(a, b mgl32.Quat) float32 {
	return float32(a.W*b.W) + float32(a.V[0]*b.V[0]) + float32(a.V[1]*b.V[1]) + float32(a.V[2]*b.V[2])
}

func unitQuat(q mgl32.Quat) mgl32.Quat {
	return geom.QuatNormalize(q) // the identity for the zero quaternion
}

// ColliderPose is where a collider entity stands: its frame's position and
// rotation in the world.
type ColliderPose struct {
	// Position is where the collider's origin lies [Units: world units]
	Position geom.Vec3
	// Rotation turns its frame [Limit: a unit quaternion, or the zero
	// value for none].
	Rotation mgl32.Quat
}

// Pose returns p as a collider.Pose.
func (p ColliderPose) Pose() collider.Pose {
	return collider.Pose{Position: p.Position, Rotation: p.Rotation}
}

// ColliderState is the crowd's bookkeeping of a collider entity, written by
// the ColliderSync stage.
type ColliderState struct {
	// InMesh reports that the dynamic navmesh holds the collider.
	InMesh bool
	// Landed reports that the navmesh shows it where it stands: every tile
	// it touches was rebuilt since its last move (EventColliderLanded).
	Landed bool
	// Refused reports that the dynamic navmesh refused it (no
	// DynamicGeometry resource, outside the mesh, too many colliders, a
	// bad shape or pose); it is tried again once it moved or changed.
	Refused bool
}

// ColliderMesh is what the ColliderSync stage needs of a dynamic navmesh;
// bake/dynamic.Mesh has it.
type ColliderMesh interface {
	// AddCollider adds a collider and returns its ref.
	AddCollider(shape collider.Shape, pose collider.Pose) (collider.Ref, error)
	// SetCollider changes a collider's shape and pose.
	SetCollider(ref collider.Ref, shape collider.Shape, pose collider.Pose) error
	// RemoveCollider removes a collider.
	RemoveCollider(ref collider.Ref) error
	// ColliderUpToDate reports whether the navmesh shows a collider as it
	// is.
	ColliderUpToDate(ref collider.Ref) (bool, error)
	// UpdateWith rebuilds and publishes changed tiles within budget on
	// runner's goroutines.
	UpdateWith(budget tilecache.Budget, runner tilecache.Runner, workers int) (upToDate bool, err error)
	// Pending returns the number of tiles waiting for a rebuild.
	Pending() int
	// NavMesh returns the navmesh the tiles are published to.
	NavMesh() *navmesh.Mesh
}

// DynamicGeometry is the resource holding the crowd's dynamic navmesh,
// whose NavMesh is Navigation.Mesh: collider entities change it. Without
// it, every collider entity is refused.
type DynamicGeometry struct {
	// Mesh is the dynamic navmesh; the ColliderSync stage adds, moves and
	// removes its colliders and runs its UpdateWith. Leave its colliders
	// to the stage.
	Mesh ColliderMesh
	// Others are the dynamic meshes of the other agent types, in the
	// order of AgentTypes.List from its second type on: colliders change
	// them all, and a collider has landed when every mesh shows it.
	Others []ColliderMesh
}
