// Package bake turns level geometry into navigation mesh tiles: the Recast
// pipeline of voxel rasterization, filtering, region partitioning, contour
// tracing, polygon meshing and height-detail meshing, ending in
// navmesh.TileData.
//
// Each stage lives in its own file and can be run on its own; Solo and Tiled
// run the whole pipeline. With the same settings the output is bit-identical
// to recastnavigation 1.6.0 on amd64.
package bake
