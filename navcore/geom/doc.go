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
// Detour reference, so results are bit-identical to it.
//
// # The same bits on every CPU
//
// The Go compiler may fuse x*y + z into one multiply-add instruction, which
// rounds once where the C++ reference (and Go on amd64 by default) rounds
// twice. It does so on arm64, ppc64le, s390x, riscv64 and on amd64 built with
// GOAMD64=v3, also across statements and after inlining. An explicit
// conversion rounds and prevents the fusion (the Go spec's rule), so every
// product that is added to or subtracted from something is written
//
//	float32(a*b) + c
//
// and the helpers here (Dot, Dot2D, Perp2D, Cross, LenSqr, DistSqr, Dist2DSqr,
// Mad, Lerp, Scale, TriArea2D and the rest) are written that way, including
// the products they return, so that a caller adding to their results stays
// unfused. The conversions cost nothing where there is nothing to fuse. Cos
// and Sin are computed here rather than by package math, whose results may
// differ between architectures; Sqrt, Floor and Ceil are exact everywhere.
// .ci/fmacount.sh counts the fused instructions in an arm64 build of the whole
// module (it must find none) and docs/determinism.md states the promise.
package geom
