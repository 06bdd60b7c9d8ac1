package plugin

import (
	"fmt"

	"github.com/archenav/archenav/components"
	"github.com/mlange-42/arche/ecs"
)

// SpawnDoor adds a door obstacle (components.DoorObstacle) of the given
// half width (across the passage, along the door's own x axis), half depth
// (its thickness, along its z axis) and height, standing at pose (its yaw
// turns it about +y, see docs/conventions.md), open or closed; open and
// close it with SetDoorOpen. The next tick marks (open) or carves (closed)
// the navmesh under it, EventObstacleLanded when done. Without
// Config.TileCache it fails with ErrNoTileCache.
//
// halfWidth, halfDepth [Limit: > 0]; height [Limit: >= 0]
// [Units: world units]
func (p *Plugin) SpawnDoor(world *ecs.World, pose components.ObstaclePose, halfWidth, halfDepth, height float32, open bool) (ecs.Entity, error) {
	e, err := p.SpawnObstacle(world, pose, components.DoorObstacle(halfWidth, halfDepth, height, open))
	if err != nil {
		return ecs.Entity{}, fmt.Errorf("%w (spawn door)", err)
	}
	return e, nil
}

// SetDoorOpen opens (marks navmesh.AreaDoor) or closes (carves) obstacle
// e, any obstacle entity, keeping its shape and pose; the navmesh follows
// at the next tick. The agents whose corridors the closed door cuts plan
// again (Settings.CheckChangedCorridors).
func (p *Plugin) SetDoorOpen(world *ecs.World, e ecs.Entity, open bool) error {
	const what = "set door open"
	if err := p.checkWorld(world, what, true); err != nil {
		return err
	}
	if err := p.checkObstacleEntity(world, e, what); err != nil {
		return err
	}
	o, _, _ := p.obstacles.Get(e)
	door := o.WithDoorOpen(open)
	if err := p.checkObstacle(&door, what); err != nil {
		return err
	}
	*o = door
	return nil
}
