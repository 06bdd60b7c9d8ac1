package components_test

import (
	"fmt"
	"math"

	"github.com/archenav/archenav/components"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// An agent half the default size: the ranges it looks ahead shrink with it,
// 12 and 30 radii.
func ExampleAgentParamsForRadius() {
	params := components.AgentParamsForRadius(0.3)
	fmt.Printf("radius %.2f, collision query range %.2f, path optimization range %.2f, height %.0f\n",
		params.Radius, params.CollisionQueryRange, params.PathOptimizationRange, params.Height)
	// Output:
	// radius 0.30, collision query range 3.60, path optimization range 9.00, height 2
}

// A door across a 3 m gap between two jambs along z: it stands on their
// midpoint with its own x axis from one jamb to the other (a yaw of -90°:
// local +x is world +z, see docs/conventions.md), 1.5 m each side of its
// middle and 0.3 m thick each side, and it starts closed (it carves);
// opened, it marks its area navmesh.AreaDoor instead.
func ExampleDoorBetween() {
	pose, door := components.DoorBetween(geom.Vec3{15, 0, 5}, geom.Vec3{15, 0, 8}, 0.3, 2, false)
	fmt.Printf("at %v, yaw %.0f°, half width %.1f, half depth %.1f, open %v (%v)\n",
		pose.Position, pose.Yaw*180/math.Pi, door.HalfExtents[0], door.HalfExtents[1], door.DoorOpen(), door.Effect)
	door = door.WithDoorOpen(true)
	fmt.Printf("open %v (%v, area %d = navmesh.AreaDoor: %v)\n", door.DoorOpen(), door.Effect, door.Area, door.Area == navmesh.AreaDoor)
	// Output:
	// at [15 0 6.5], yaw -90°, half width 1.5, half depth 0.3, open false (carves)
	// open true (marks area, area 3 = navmesh.AreaDoor: true)
}
