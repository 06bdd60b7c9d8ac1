package crowd

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestMovePositionToSurface walks corridors on the dungeon in random steps,
// many into walls, with MovePosition and MovePositionToSurface side by side:
// the path and the position in x and z are the same; the height is too when
// the new position is over the first polygon, and otherwise (the walls' edge
// cases, which the test makes sure it meets) MovePositionToSurface takes the
// height of the polygon's nearest point where MovePosition keeps the old one.
func TestMovePositionToSurface(t *testing.T) {
	f := newDungeonFixture(t)
	q := f.query
	rng := rand.New(rand.NewPCG(5, 6))
	random := func() float32 { return float32(rng.Float32()) }
	path := make([]navmesh.Ref, 256)
	offPoly := 0
	for i := 0; i < 200; i++ {
		start, err := q.FindRandomPoint(f.filter, random)
		require.NoError(t, err)
		goal, err := q.FindRandomPoint(f.filter, random)
		require.NoError(t, err)
		n, _, err := q.FindPath(start.Ref, goal.Ref, start.Pos, goal.Pos, f.filter, path)
		require.NoError(t, err)
		plain, _ := NewCorridor(256)
		snapped, _ := NewCorridor(256)
		for _, c := range []*Corridor{plain, snapped} {
			c.Reset(start.Ref, start.Pos)
			require.NoError(t, c.SetCorridor(goal.Pos, path[:n]))
		}
		for step := 0; step < 20; step++ {
			// Steps of up to 1.5 m in random directions, from the same place.
			from := snapped.Position()
			plain.Reset(snapped.FirstPoly(), from)
			require.NoError(t, plain.SetCorridor(snapped.Target(), snapped.Path()))
			to := geom.Add(from, geom.Vec3{float32((random() - 0.5) * 3), 0, float32((random() - 0.5) * 3)})
			require.NoError(t, plain.MovePosition(to, q, f.filter))
			require.NoError(t, snapped.MovePositionToSurface(to, q, f.filter))

			require.Equal(t, plain.Path(), snapped.Path(), "pair %d step %d", i, step)
			p, s := plain.Position(), snapped.Position()
			require.Equal(t, p[0], s[0])
			require.Equal(t, p[2], s[2])
			if _, err := q.PolyHeight(snapped.FirstPoly(), s); err == nil {
				require.Equal(t, p[1], s[1], "over the polygon: the surface height")
				continue
			}
			offPoly++
			require.Equal(t, from[1], p[1], "MovePosition keeps the old height")
			tile, poly, err := f.mesh.TileAndPoly(snapped.FirstPoly())
			require.NoError(t, err)
			closest, _ := tile.ClosestPointOnPoly(poly, geom.Vec3{s[0], from[1], s[2]})
			require.Equal(t, closest[1], s[1], "MovePositionToSurface: the nearest point's height")
		}
	}
	require.Greater(t, offPoly, 100, "the walls' edge cases were met")
}
