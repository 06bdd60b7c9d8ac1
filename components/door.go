package components

import (
	"github.com/archenav/archenav/internal/detmath"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// DoorObstacle returns a door: an oriented box obstacle halfWidth along its
// own x axis (across the passage it closes) and halfDepth along its z axis
// (its thickness), height tall, standing on its pose (turned by the pose's
// yaw, see docs/conventions.md). Open, it marks the navmesh under it
// navmesh.AreaDoor (flags FlagWalk|FlagDoor with the default area rules, so
// agents walk through and a filter can exclude doors); closed, it carves
// that navmesh away at once (no StationaryTime), so paths go round or end
// at it. DoorState tells which; plugin.SpawnDoor and SetDoorOpen use it.
// A door changes the navmesh, so it needs a tile cache.
func DoorObstacle(halfWidth, halfDepth, height float32, open bool) Obstacle {
	o := OrientedBoxObstacle(halfWidth, halfDepth, height)
	o.StationaryTime = 0
	return o.WithDoorOpen(open)
}

// WithDoorOpen returns o as an open door (MarkingArea(navmesh.AreaDoor)) or
// a closed one (Carving()), its shape and carving policy kept.
func (o Obstacle) WithDoorOpen(open bool) Obstacle {
	if open {
		return o.MarkingArea(navmesh.AreaDoor)
	}
	o.Area = 0
	return o.Carving()
}

// DoorOpen reports whether o is an open door: it marks navmesh.AreaDoor.
func (o *Obstacle) DoorOpen() bool {
	return o.Effect == ObstacleMarksArea && o.Area == navmesh.AreaDoor
}

// DoorBetween returns the pose and the door (DoorObstacle) that closes the
// gap from jamb a to jamb b: standing on their midpoint, its x axis from a
// to b, as wide as they are apart, halfDepth thick each side and height
// tall. Jambs at the same xz give a door of zero width, which
// Obstacle.Validate refuses.
//
// halfDepth [Limit: > 0]; height [Limit: >= 0] [Units: world units]
func DoorBetween(a, b geom.Vec3, halfDepth, height float32, open bool) (ObstaclePose, Obstacle) {
	dx, dz := b[0]-a[0], b[2]-a[2]
	// The local x axis is (cos yaw, -sin yaw) in world (x, z).
	yaw := float32(detmath.Atan2(float64(-dz), float64(dx)))
	pose := ObstaclePose{Position: geom.Lerp(a, b, 0.5), Yaw: yaw}
	return pose, DoorObstacle(geom.Sqrt(float32(dx*dx)+float32(dz*dz))/2, halfDepth, height, open)
}
