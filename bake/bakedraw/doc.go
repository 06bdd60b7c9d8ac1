// Package bakedraw draws the Recast pipeline's inputs and intermediate
// stages through a debugdraw.Drawer, as recastnavigation's RecastDebugDraw
// does: the input triangles shaded by slope, heightfield spans, the compact
// heightfield (by area, region or distance), raw and simplified contours
// and the links between regions, the polygon mesh and the detail mesh.
//
// # Start here
//
// Bake with bake.WithIntermediates() to keep the stages, then call the
// drawer of each stage you want to see (Geometry, CompactHeightfield,
// Contours, PolyMesh, ...) on any debugdraw.Drawer: a debugdraw.Recorder,
// the raster or svg adapters, your renderer. docs/debugging.md is the
// guide; Example (bake/bakedraw/example_test.go) draws a level's regions
// and contours.
//
//	result, err := bake.Solo(ctx, level, settings, bake.WithIntermediates())
//	var scene debugdraw.Recorder
//	bakedraw.Geometry(&scene, level, settings.AgentMaxSlope)
//	bakedraw.CompactHeightfield(&scene, result.CompactHeightfield, bakedraw.CompactRegions)
//	bakedraw.Contours(&scene, result.Contours, bakedraw.SimplifiedContours)
//
// Stages run one by one (bake.NewHeightfield, BuildCompactHeightfield, ...)
// are drawn the same way.
//
// Everything is drawn in world coordinates, y up, with RecastDemo's
// colours; area colours come from debugdraw.AreaColor.
package bakedraw
