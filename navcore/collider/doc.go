// Package collider describes the shapes that add walkable ground to a
// dynamic navmesh or cut it away at runtime (package bake/dynamic rebuilds
// the tiles they touch), and the geometry of those shapes that the
// rasterizer, the tests and debug drawing share.
//
// # Start here
//
// Make a shape with NewBox, NewOrientedBox, NewSphere, NewCapsule,
// NewCylinder, NewConvexHull or NewTriangleMesh (half extents, radii and
// half heights in world units), add .Carving() to cut ground away instead
// of adding it and .WithArea(id) for its area, and place it with a Pose. Hand the two to
// bake/dynamic's Mesh.AddCollider, or to the crowd as a collider entity
// (components.NewCollider, plugin.Plugin.SpawnCollider).
// docs/dynamic-geometry.md is the guide.
//
//	pit := collider.NewBox(geom.Vec3{1.5, 1, 6}).Carving()
//	ref, err := mesh.AddCollider(pit, collider.Pose{Position: geom.Vec3{18, 10.2, 0.65}})
//
// # Shapes
//
// A Shape is a collider in its own frame: an axis-aligned Box, an
// OrientedBox, a Sphere, a Capsule or a flat-capped Cylinder along its
// local y axis, a ConvexHull or a TriangleMesh. It is solid (its voxels
// are added to the level's; its top becomes walkable where it is flat
// enough and has head room) or carving (Carve: it removes the voxels inside
// it), and carries the area id its walkable surface gets. A Pose places it
// in the world (position and rotation); Place turns the two into a Placed
// shape in world space, whose
//
//   - Bounds is its axis-aligned box,
//   - ColumnRange is the lowest and highest point of the shape over one
//     grid column (the cell's square in xz, unbounded in y), with the
//     surface slope there: the analytic rasterization of the primitives,
//     the rule of DotRecast's filled-volume rasterization (each column
//     filled from the lowest to the highest point of the shape over the
//     whole cell) computed exactly from the points where such extremes can
//     lie: the shape's own highest point, the highest points of its
//     sections by the column's four side planes, and its four corner lines,
//   - Contains is the point-in-shape test, the brute-force oracle the
//     tests check ColumnRange with,
//   - Triangulate gives triangles that approximate it (drawing, tests).
//
// A triangle mesh or convex hull is rasterized as its triangles (so that a
// tile with it equals a bake of the level with those triangles, byte for
// byte); ColumnRange covers the five primitives.
//
// Every function is float32 and rounds each product before it is added
// (explicit conversions), so that results are the same on every CPU.
package collider
