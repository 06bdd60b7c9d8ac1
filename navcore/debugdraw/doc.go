// Package debugdraw is the small drawing interface archenav's debug drawers
// speak: lines, filled triangles and dots in world coordinates (y up), each
// with its colour and a width in pixels. A Drawer is all a renderer has to
// implement to show the navmesh, the bake's intermediate stages, search
// nodes, paths and the crowd (recastnavigation's duDebugDraw, without the
// begin/end state machine: one call per primitive).
//
// # Start here
//
// Implement Drawer (three methods: Triangle, Line, Point in world space) over
// your renderer, or record into a Recorder and replay it; then draw with
// navdraw (navmeshes, paths, crowds), bakedraw (the bake's stages) or
// crowddraw (a world's agents). raster and svg are ready-made adapters.
// docs/debugging.md is the guide.
//
// The package sits at the bottom of the module (it imports the standard
// library and mathgl only), so navcore, bake and the crowd each draw their
// own structures with it: package navdraw draws the navmesh, queries and
// crowd parts, bake/bakedraw the bake's stages, plugin/crowddraw the agents
// of a world. Adapters turn the primitives into pixels: raster (PNG, top or
// angled view with a depth buffer) and svg in the sub-packages, the demo's
// canvas and ebiten in examples/.
//
// Besides the interface the package holds the colours the drawers share
// (IndexColor, AreaColor and a few blends), shapes built from primitives
// (Circle, Arc, Arrow, Cross, BoxWire, Box, Quad), a Recorder that keeps
// primitives to count, inspect or replay them, and View, the orthographic
// camera the adapters project with.
package debugdraw
