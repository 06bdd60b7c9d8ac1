package components_test

import (
	"fmt"

	"github.com/archenav/archenav/components"
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
