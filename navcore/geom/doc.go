// Package geom holds the vector and computational-geometry helpers shared by
// the baking pipeline (package bake) and the runtime (package navcore and
// below).
//
// # Start here
//
// Vec3 and the vector helpers the other packages share; game code mostly meets
// Vec3 (x, y up, z, in world units) as positions and IsFinite to check input.
//
// Vectors are mgl32.Vec3 values, y up. Functions whose name ends in 2D work in
// the xz-plane and ignore y. Every function is written component-wise, without
// mgl32 method chains, so that it inlines and stays cheap in inner loops, and
// every float operation happens in float32 in the same order as the Recast and
// Detour reference, so results are bit-identical to it on amd64 (where the Go
// compiler does not fuse multiply-adds unless GOAMD64=v3 or later is set).
package geom
