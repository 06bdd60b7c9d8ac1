package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// MarkWalkableTriangles sets areas[i] to WalkableArea for each triangle whose
// slope is below maxSlope degrees, and leaves the other areas alone
// (rcMarkWalkableTriangles). A triangle exactly maxSlope steep, a degenerate
// one, and one facing down ((v1-v0)×(v2-v0) pointing down: clockwise seen
// from above, see Geometry.Triangles) are not walkable.
func MarkWalkableTriangles(maxSlope float32, vertices []mgl32.Vec3, triangles [][3]int32, areas []uint8) error {
	if err := checkSlopeArgs(maxSlope, vertices, triangles, areas); err != nil {
		return fmt.Errorf("bake: mark walkable triangles: %w", err)
	}
	threshold := walkableThreshold(maxSlope)
	for i, t := range triangles {
		if triangleNormalY(vertices[t[0]], vertices[t[1]], vertices[t[2]]) > threshold {
			areas[i] = WalkableArea
		}
	}
	return nil
}

// ClearUnwalkableTriangles sets areas[i] to NullArea for each triangle that is
// maxSlope degrees steep or steeper, or faces down, and leaves the other areas
// alone (rcClearUnwalkableTriangles). A degenerate triangle keeps its area,
// as in the reference.
func ClearUnwalkableTriangles(maxSlope float32, vertices []mgl32.Vec3, triangles [][3]int32, areas []uint8) error {
	if err := checkSlopeArgs(maxSlope, vertices, triangles, areas); err != nil {
		return fmt.Errorf("bake: clear unwalkable triangles: %w", err)
	}
	threshold := walkableThreshold(maxSlope)
	for i, t := range triangles {
		if triangleNormalY(vertices[t[0]], vertices[t[1]], vertices[t[2]]) <= threshold {
			areas[i] = NullArea
		}
	}
	return nil
}

func checkSlopeArgs(maxSlope float32, vertices []mgl32.Vec3, triangles [][3]int32, areas []uint8) error {
	if !finite(maxSlope) {
		return fmt.Errorf("slope %v is not finite", maxSlope)
	}
	if len(areas) != len(triangles) {
		return fmt.Errorf("%d areas for %d triangles", len(areas), len(triangles))
	}
	return validateTriangles(len(vertices), triangles)
}

// walkableThreshold returns the smallest normal y of a walkable triangle
// (exclusive), cosf(maxSlope/180·π) computed as the reference does.
func walkableThreshold(maxSlope float32) float32 {
	const recastPi = float32(3.14159265)
	return geom.Cos(maxSlope / 180 * recastPi)
}

// triangleNormalY returns the y component of the unit normal of the triangle
// (calcTriNormal); NaN for a degenerate triangle.
func triangleNormalY(v0, v1, v2 mgl32.Vec3) float32 {
	e0 := geom.Sub(v1, v0)
	e1 := geom.Sub(v2, v0)
	n := geom.Cross(e0, e1)
	return geom.Normalize(n)[1]
}
