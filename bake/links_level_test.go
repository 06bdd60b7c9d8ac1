package bake

import (
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// levelBuilder makes test levels out of axis-aligned boxes, every face
// wound so that its normal points out of the box (up on top faces, which
// are the walkable ones).
type levelBuilder struct{ g Geometry }

// box adds the box [min, max] (all six faces).
func (b *levelBuilder) box(lo, hi mgl32.Vec3) {
	corner := func(x, y, z int) mgl32.Vec3 {
		pick := func(i, side int) float32 {
			if side == 0 {
				return lo[i]
			}
			return hi[i]
		}
		return mgl32.Vec3{pick(0, x), pick(1, y), pick(2, z)}
	}
	centre := lo.Add(hi).Mul(0.5)
	quad := func(a, c, d, e mgl32.Vec3) {
		base := int32(len(b.g.Vertices))
		b.g.Vertices = append(b.g.Vertices, a, c, d, e)
		for _, t := range [][3]int32{{0, 1, 2}, {0, 2, 3}} {
			tri := [3]int32{base + t[0], base + t[1], base + t[2]}
			v0, v1, v2 := b.g.Vertices[tri[0]], b.g.Vertices[tri[1]], b.g.Vertices[tri[2]]
			normal := geom.Cross(v1.Sub(v0), v2.Sub(v0))
			faceCentre := v0.Add(v1).Add(v2).Mul(1.0 / 3)
			if geom.Dot(normal, faceCentre.Sub(centre)) < 0 {
				tri[1], tri[2] = tri[2], tri[1]
			}
			b.g.Triangles = append(b.g.Triangles, tri)
		}
	}
	quad(corner(0, 1, 0), corner(1, 1, 0), corner(1, 1, 1), corner(0, 1, 1)) // top
	quad(corner(0, 0, 0), corner(1, 0, 0), corner(1, 0, 1), corner(0, 0, 1)) // bottom
	quad(corner(0, 0, 0), corner(1, 0, 0), corner(1, 1, 0), corner(0, 1, 0)) // -z
	quad(corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1)) // +z
	quad(corner(0, 0, 0), corner(0, 0, 1), corner(0, 1, 1), corner(0, 1, 0)) // -x
	quad(corner(1, 0, 0), corner(1, 0, 1), corner(1, 1, 1), corner(1, 1, 0)) // +x
}

// linkTestLevel is a level whose links are known, for an agent of the
// default settings (radius 0.6, climb 0.9, height 2) and tiles of 32 cells
// (9.6 wide, borders at x 9.6, 19.2, 28.8...), each feature at least 4
// from the next and from the level's side:
//   - ground: 44 × 32 at height 0 (a slab 0.2 thick);
//   - ledge: a platform 2 high, x 4..12, z 4..12: drops on all four sides;
//   - walled ledge: a platform 2 high, x 4..12, z 18..26, with a wall 3
//     high and 0.3 thick along its +z side: drops on three sides, none
//     over the wall;
//   - gap: two platforms 4 high, x 21..28.2 and 29.7..36.5, z 4..12: a gap
//     1.5 wide across the tile border at x 28.8, jumped both ways; their
//     other sides fall 4, too deep for a drop or a jump;
//   - wide gap: two platforms 4 high, x 21..28.2 and 31.7..38.5, z 18..26:
//     a gap 3.5 wide, too wide to jump.
func linkTestLevel() *Geometry {
	var b levelBuilder
	b.box(mgl32.Vec3{0, -0.2, 0}, mgl32.Vec3{44, 0, 32})
	b.box(mgl32.Vec3{4, 0, 4}, mgl32.Vec3{12, 2, 12})
	b.box(mgl32.Vec3{4, 0, 18}, mgl32.Vec3{12, 2, 26})
	b.box(mgl32.Vec3{4, 2, 25.7}, mgl32.Vec3{12, 5, 26})
	b.box(mgl32.Vec3{21, 0, 4}, mgl32.Vec3{28.2, 4, 12})
	b.box(mgl32.Vec3{29.7, 0, 4}, mgl32.Vec3{36.5, 4, 12})
	b.box(mgl32.Vec3{21, 0, 18}, mgl32.Vec3{28.2, 4, 26})
	b.box(mgl32.Vec3{31.7, 0, 18}, mgl32.Vec3{38.5, 4, 26})
	return &b.g
}

// TestLinkTestLevelFile: testdata/links_level.obj, which the README's
// picture is drawn from, is linkTestLevel.
func TestLinkTestLevelFile(t *testing.T) {
	g, err := LoadOBJ("../testdata/links_level.obj")
	require.NoError(t, err)
	want := linkTestLevel()
	assert.Equal(t, want.Vertices, g.Vertices)
	assert.Equal(t, want.Triangles, g.Triangles)
}
