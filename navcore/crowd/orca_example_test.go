package crowd_test

import (
	"fmt"

	"github.com/archenav/archenav/navcore/crowd"
	"github.com/archenav/archenav/navcore/geom"
)

// Two agents walk at each other down the x axis. Each plans with ORCA
// against the other, taking half the avoidance; they step aside to their
// right, pass, and arrive, their bodies never overlapping.
func ExampleReciprocalAvoidance() {
	planner, err := crowd.NewReciprocalAvoidance(1, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	params := crowd.DefaultORCAParams()
	const radius, speed, dt = 0.5, 1.5, 0.05
	positions := [2]geom.Vec3{{-4, 0, 0}, {4, 0, 0}}
	goals := [2]geom.Vec3{{4, 0, 0}, {-4, 0, 0}}
	var velocities [2]geom.Vec3
	closest := float32(8)
	for range 200 {
		var next [2]geom.Vec3
		for i := range positions {
			other := 1 - i
			planner.Reset()
			_ = planner.AddNeighbour(crowd.ORCANeighbour{
				Position: positions[other], Velocity: velocities[other], Radius: radius, Responsibility: 0.5,
			})
			toGoal := geom.Sub(goals[i], positions[i])
			preferred := geom.Scale(toGoal, min(speed, geom.Len(toGoal)/dt)/max(geom.Len(toGoal), 1e-6))
			agent := crowd.ORCAAgent{Position: positions[i], Radius: radius, MaxSpeed: speed,
				Velocity: velocities[i], PreferredVelocity: preferred}
			next[i], _, err = planner.Solve(&agent, &params, dt)
			if err != nil {
				fmt.Println(err)
				return
			}
		}
		for i := range positions {
			velocities[i] = next[i]
			positions[i] = geom.Mad(positions[i], velocities[i], dt)
		}
		closest = min(closest, geom.Dist2D(positions[0], positions[1]))
	}
	fmt.Printf("closest approach %.2f m (bodies touch at %.2f m)\n", closest, 2*radius)
	fmt.Printf("arrived: %v, %v\n", geom.Dist2D(positions[0], goals[0]) < 0.01, geom.Dist2D(positions[1], goals[1]) < 0.01)
	// Output:
	// closest approach 1.00 m (bodies touch at 1.00 m)
	// arrived: true, true
}
