package sim

import (
	"errors"
	"fmt"
	"github.com/archenav/archenav/internal/detmath"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/mlange-42/arche/ecs"
)

// Sizes of what DropRamp drops [Units: world units].
const (
	rampCrateHalf   = 2.0 // half the crate's side
	rampCrateHeight = 1.2 // the crate's height: more than the agents climb
	rampLength      = 4.0 // the ramp's run along the ground
	rampWidth       = 3.0
	rampThickness   = 0.3
)

// HasDynamicMesh reports whether the crowd's navmesh is a dynamic one
// (Config.DynamicMesh), where DropRamp works.
func (s *Sim) HasDynamicMesh() bool { return s.config.DynamicMesh != nil }

// DropRamp drops a crate (a solid box collider, too high to step onto) on
// the ground at pos with a ramp up its -x side, and sends every agent to
// the crate's top once the navmesh has both. It fails without a dynamic
// mesh.
func (s *Sim) DropRamp(pos geom.Vec3) error {
	if !s.HasDynamicMesh() {
		return errors.New("sim: drop ramp: the level has no dynamic navmesh (run with -dynamic)")
	}
	crate := components.NewCollider(collider.NewBox(geom.Vec3{rampCrateHalf, rampCrateHeight / 2, rampCrateHalf}))
	e, err := s.crowd.SpawnCollider(&s.world, components.ColliderPose{Position: geom.Add(pos, geom.Vec3{0, rampCrateHeight / 2, 0})}, crate)
	if err != nil {
		return fmt.Errorf("sim: drop ramp: %w", err)
	}
	// The ramp's top face runs from the ground to the crate's top edge
	// (reaching a little onto it); the box hangs half its thickness under
	// that face.
	foot := geom.Add(pos, geom.Vec3{-rampCrateHalf - rampLength, 0, 0})
	edge := geom.Add(pos, geom.Vec3{-rampCrateHalf + 0.3, rampCrateHeight, 0})
	pitch := float32(detmath.Atan2(float64(edge[1]-foot[1]), float64(edge[0]-foot[0])))
	rotation := geom.QuatRotate(pitch, geom.Vec3{0, 0, 1})
	center := geom.Add(geom.Scale(geom.Add(foot, edge), 0.5), geom.QuatRotateVec(rotation, geom.Vec3{0, -rampThickness / 2, 0}))
	ramp := components.NewCollider(collider.NewOrientedBox(geom.Vec3{geom.Dist(foot, edge) / 2, rampThickness / 2, rampWidth / 2}))
	if _, err := s.crowd.SpawnCollider(&s.world, components.ColliderPose{Position: center, Rotation: rotation}, ramp); err != nil {
		return fmt.Errorf("sim: drop ramp: %w", err)
	}
	s.ramp = e
	return nil
}

// sendUpRamp sends the agents to the top of the last crate DropRamp
// dropped once the navmesh shows it.
func (s *Sim) sendUpRamp() error {
	if s.ramp.IsZero() {
		return nil
	}
	info, err := s.crowd.Collider(&s.world, s.ramp)
	if err != nil || info.State.Refused {
		s.ramp = ecs.Entity{}
		return err
	}
	if !info.State.Landed {
		return nil
	}
	s.ramp = ecs.Entity{}
	return s.SetTarget(geom.Add(info.Pose.Position, geom.Vec3{0, rampCrateHeight / 2, 0}))
}
