package plugin

import (
	"errors"
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
)

// Errors of the collider API.
var (
	// ErrNoDynamicMesh: a collider needs Config.DynamicMesh.
	ErrNoDynamicMesh = errors.New("plugin: no dynamic mesh for a collider")
	// ErrNotCollider: the entity is dead, zero, or not a collider.
	ErrNotCollider = errors.New("plugin: not a live collider")
)

// colliderEntities creates and reads the collider entities of one world.
type colliderEntities struct {
	entities generic.Map3[components.Collider, components.ColliderPose, components.ColliderState]
	mask     ecs.Mask
}

func newColliderEntities(world *ecs.World) colliderEntities {
	return colliderEntities{
		entities: generic.NewMap3[components.Collider, components.ColliderPose, components.ColliderState](world),
		mask: ecs.All(
			ecs.ComponentID[components.Collider](world),
			ecs.ComponentID[components.ColliderPose](world),
			ecs.ComponentID[components.ColliderState](world),
		),
	}
}

// checkCollider reports why c cannot be used in this crowd: a shape or
// threshold outside its limits (ErrInvalidInput), or no dynamic mesh
// (ErrNoDynamicMesh).
func (p *Plugin) checkCollider(c *components.Collider, pose components.ColliderPose, what string) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrInvalidInput, err)
	}
	placed := pose.Pose()
	if err := placed.Validate(); err != nil {
		return fmt.Errorf("plugin: %s: %w: %w", what, ErrInvalidInput, err)
	}
	if p.config.DynamicMesh == nil {
		return fmt.Errorf("plugin: %s: %w (set Config.DynamicMesh)", what, ErrNoDynamicMesh)
	}
	return nil
}

// checkColliderEntity reports whether e is a live collider entity.
func (p *Plugin) checkColliderEntity(world *ecs.World, e ecs.Entity, what string) error {
	if e.IsZero() || !world.Alive(e) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotCollider)
	}
	if mask := world.Mask(e); !mask.Contains(&p.colliders.mask) {
		return fmt.Errorf("plugin: %s: entity %v: %w", what, e, ErrNotCollider)
	}
	return nil
}

// SpawnCollider adds a collider entity (components.Collider, ColliderPose
// and ColliderState) standing at pose and returns it. The next tick's
// ColliderSync stage adds it to Config.DynamicMesh, whose tiles under it
// are rebuilt within the tick budget; EventColliderLanded fires once the
// navmesh shows it. Move it with SetColliderPose (or by writing its
// ColliderPose), change it with SetCollider, remove it with RemoveCollider
// or world.RemoveEntity. Without Config.DynamicMesh it fails with
// ErrNoDynamicMesh; a bad shape, threshold or pose fails with
// ErrInvalidInput.
func (p *Plugin) SpawnCollider(world *ecs.World, pose components.ColliderPose, c components.Collider) (ecs.Entity, error) {
	const what = "spawn collider"
	if err := p.checkWorld(world, what, true); err != nil {
		return ecs.Entity{}, err
	}
	if err := p.checkCollider(&c, pose, what); err != nil {
		return ecs.Entity{}, err
	}
	e := p.colliders.entities.New()
	pc, pPose, state := p.colliders.entities.Get(e)
	*pc, *pPose, *state = c, pose, components.ColliderState{}
	return e, nil
}

// SetColliderPose moves collider e to pose (the ColliderSync stage picks
// it up at the next tick, once it moved more than its MoveThreshold).
func (p *Plugin) SetColliderPose(world *ecs.World, e ecs.Entity, pose components.ColliderPose) error {
	const what = "set collider pose"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkColliderEntity(world, e, what); err != nil {
		return err
	}
	c, pPose, _ := p.colliders.entities.Get(e)
	if err := p.checkCollider(c, pose, what); err != nil {
		return err
	}
	*pPose = pose
	return nil
}

// SetCollider changes collider e's shape or threshold, checked as
// SpawnCollider checks it: a bridge that breaks, a crate that turns into
// rubble.
func (p *Plugin) SetCollider(world *ecs.World, e ecs.Entity, c components.Collider) error {
	const what = "set collider"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkColliderEntity(world, e, what); err != nil {
		return err
	}
	pc, pose, _ := p.colliders.entities.Get(e)
	if err := p.checkCollider(&c, *pose, what); err != nil {
		return err
	}
	*pc = c
	return nil
}

// RemoveCollider removes collider e from the world (world.RemoveEntity
// works too); its ground leaves the navmesh from the next tick on.
func (p *Plugin) RemoveCollider(world *ecs.World, e ecs.Entity) error {
	const what = "remove collider"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkColliderEntity(world, e, what); err != nil {
		return err
	}
	world.RemoveEntity(e)
	return nil
}

// ColliderInfo is a read-out of one collider entity.
type ColliderInfo struct {
	// Collider is its shape and threshold.
	Collider components.Collider
	// Pose is where it stands.
	Pose components.ColliderPose
	// State is the crowd's bookkeeping (in the mesh, landed, refused).
	State components.ColliderState
}

// Collider returns a read-out of collider e. Read-outs work while queries
// lock the world.
func (p *Plugin) Collider(world *ecs.World, e ecs.Entity) (ColliderInfo, error) {
	const what = "collider"
	if err := p.checkWorld(world, what, false); err != nil {
		return ColliderInfo{}, err
	}
	if err := p.checkColliderEntity(world, e, what); err != nil {
		return ColliderInfo{}, err
	}
	c, pose, state := p.colliders.entities.Get(e)
	return ColliderInfo{Collider: *c, Pose: *pose, State: *state}, nil
}
