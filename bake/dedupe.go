package bake

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// WithoutRepeatedTriangles returns g without the triangles that add
// nothing to a bake but time: those with two corners at the same position
// (no surface), and those that repeat an earlier triangle, with the same
// corner positions in the same turning order (so facing the same way) and
// the same area. It also returns how many it left out; with none, it
// returns g itself. The result shares g's vertices, volumes and
// connections.
//
// Rasterizing a triangle again right after itself changes no span, so a
// level of one triangle repeated a million times bakes as the triangle
// alone, only a million times faster; a repeat with other triangles in
// between can only raise the area a merged span keeps, which the first
// copy decided. It costs a sort of the triangles' 16-byte keys.
func (g *Geometry) WithoutRepeatedTriangles() (*Geometry, int) {
	var scratch dedupeScratch
	return g.withoutRepeatedTriangles(&scratch)
}

// dedupeScratch is the working memory of WithoutRepeatedTriangles, which a
// Baker keeps from one bake to the next.
type dedupeScratch struct {
	keys   []triangleKey
	skip   []bool
	firsts []int32
}

// triangleKey is a triangle's hash and index.
type triangleKey struct {
	hash  uint64
	index int32
}

// withoutRepeatedTriangles is WithoutRepeatedTriangles on scratch's memory.
func (g *Geometry) withoutRepeatedTriangles(scratch *dedupeScratch) (*Geometry, int) {
	type keyed = triangleKey
	keys := scratch.keys[:0]
	skip := resize(scratch.skip, len(g.Triangles))
	clear(skip)
	defer func() { scratch.keys, scratch.skip = keys[:0], skip[:0] }()
	skipped := 0
	for i := range g.Triangles {
		corners, ok := g.canonicalCorners(i)
		if !ok {
			skip[i] = true
			skipped++
			continue
		}
		keys = append(keys, keyed{hashCorners(corners, g.area(i)), int32(i)})
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if c := cmp.Compare(a.hash, b.hash); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	// In a run of equal hashes, each triangle repeats the first earlier one
	// with the same corners and area (hashes may collide).
	for start := 0; start < len(keys); {
		end := start + 1
		for end < len(keys) && keys[end].hash == keys[start].hash {
			end++
		}
		firsts := scratch.firsts[:0]
		for _, k := range keys[start:end] {
			repeat := false
			for _, f := range firsts {
				if g.sameTriangle(int(f), int(k.index)) {
					repeat = true
					break
				}
			}
			if repeat {
				skip[k.index] = true
				skipped++
			} else {
				firsts = append(firsts, k.index)
			}
		}
		scratch.firsts = firsts[:0]
		start = end
	}
	if skipped == 0 {
		return g, 0
	}
	out := *g
	out.Triangles = make([][3]int32, 0, len(g.Triangles)-skipped)
	if g.Areas != nil {
		out.Areas = make([]uint8, 0, len(g.Triangles)-skipped)
	}
	for i, t := range g.Triangles {
		if skip[i] {
			continue
		}
		out.Triangles = append(out.Triangles, t)
		if g.Areas != nil {
			out.Areas = append(out.Areas, g.Areas[i])
		}
	}
	return &out, skipped
}

// area returns triangle i's area, WalkableArea when g has no areas.
func (g *Geometry) area(i int) uint8 {
	if g.Areas == nil {
		return WalkableArea
	}
	return g.Areas[i]
}

// canonicalCorners returns triangle i's corner positions turned so that the
// smallest (by x, then y, then z) comes first, keeping their order around
// the triangle; ok is false when two corners share a position.
func (g *Geometry) canonicalCorners(i int) (corners [3]mgl32.Vec3, ok bool) {
	t := g.Triangles[i]
	for k := range 3 {
		corners[k] = g.Vertices[t[k]]
	}
	if corners[0] == corners[1] || corners[1] == corners[2] || corners[0] == corners[2] {
		return corners, false
	}
	first := 0
	for k := 1; k < 3; k++ {
		if lessVec(corners[k], corners[first]) {
			first = k
		}
	}
	return [3]mgl32.Vec3{corners[first], corners[(first+1)%3], corners[(first+2)%3]}, true
}

// sameTriangle reports whether triangles i and j have the same canonical
// corners and area.
func (g *Geometry) sameTriangle(i, j int) bool {
	a, _ := g.canonicalCorners(i)
	b, _ := g.canonicalCorners(j)
	return a == b && g.area(i) == g.area(j)
}

// lessVec orders positions by x, then y, then z.
func lessVec(a, b mgl32.Vec3) bool {
	for k := range 3 {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

// hashCorners is FNV-1a over the corners' bits and the area.
func hashCorners(corners [3]mgl32.Vec3, area uint8) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range corners {
		for _, f := range c {
			bits := math.Float32bits(f)
			if f == 0 {
				bits = 0 // -0 and +0 are the same position
			}
			for range 4 {
				h = (h ^ uint64(bits&0xff)) * 0x100000001b3
				bits >>= 8
			}
		}
	}
	return (h ^ uint64(area)) * 0x100000001b3
}

// repeatWarning is the warning of a bake that left out skipped triangles
// (WithoutRepeatedTriangles), "" for none.
func repeatWarning(skipped int) string {
	if skipped == 0 {
		return ""
	}
	return fmt.Sprintf("%d triangles left out: they repeat an earlier triangle or have two corners at the same position", skipped)
}
