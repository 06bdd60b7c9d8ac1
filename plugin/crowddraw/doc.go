// Package crowddraw draws the agents of an arche world that runs the crowd
// plugin: bodies, velocities, targets, corners, neighbours, local wall
// segments and corridors (what RecastDemo's crowd tool shows), and the
// obstacle entities in their shapes, coloured by what they do, through a
// debugdraw.Drawer with package navdraw's functions and Style. It also
// scores an agent's candidate velocities again for drawing them
// (AvoidanceSamples).
//
// # Start here
//
// After plugin.Plugin.Install, make a Crowd once per world with New; between
// ticks, Draw all the agents and obstacle entities (DefaultLayers, or pick
// Layers) into any debugdraw.Drawer (a debugdraw.Recorder, the raster or svg
// adapters, your renderer), or DrawAgent for one; the Crowd reads what it
// draws from the world's components. docs/debugging.md is the guide; Example and ExampleCrowd_DrawObstacles
// (plugin/crowddraw/example_test.go) draw a crowd of the dungeon.
//
//	drawing, err := crowddraw.New(&world) // once per world
//	var scene debugdraw.Recorder          // or raster, svg, your renderer
//	drawing.Draw(&scene, crowddraw.DefaultLayers|crowddraw.Corridors, navdraw.DefaultStyle())
package crowddraw
