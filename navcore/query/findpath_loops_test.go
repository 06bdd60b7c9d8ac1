package query

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindPathLoopsAgree checks FindPath's two A* loops against each
// other: on random pairs of the solo dungeon and tiled nav_test, with the
// reference filter and with a small node pool (partial paths, out of
// nodes), the plain filter's loop (searchPathPlain) and the general loop
// (searchPath) fed the same rules through a CustomFilter
// (passThroughFilter) give the same corridor, status and error.
func TestFindPathLoopsAgree(t *testing.T) {
	levels := []struct {
		name string
		mesh *navmesh.Mesh
	}{
		{"dungeon", testmesh.Dungeon(t)},
		{"nav_test tiled", tiledNavTest(t)},
	}
	for _, level := range levels {
		for _, nodes := range []int{2048, 64} {
			t.Run(fmt.Sprintf("%s/%d nodes", level.name, nodes), func(t *testing.T) {
				q, err := New(level.mesh, nodes)
				require.NoError(t, err)
				plain := referenceFilter()
				general := referenceFilter()
				general.Custom = passThroughFilter{base: plain}
				rng := rand.New(rand.NewPCG(uint64(nodes), 24))
				random := func() float32 { return rng.Float32() }
				plainPath := make([]navmesh.Ref, 256)
				generalPath := make([]navmesh.Ref, 256)
				partial := 0
				for range 500 {
					a, err := q.FindRandomPoint(plain, random)
					require.NoError(t, err)
					b, err := q.FindRandomPoint(plain, random)
					require.NoError(t, err)
					n1, s1, err1 := q.FindPath(a.Ref, b.Ref, a.Pos, b.Pos, plain, plainPath)
					n2, s2, err2 := q.FindPath(a.Ref, b.Ref, a.Pos, b.Pos, general, generalPath)
					require.Equal(t, err1, err2)
					require.Equal(t, s1, s2, "status %v -> %v", a.Pos, b.Pos)
					require.Equal(t, plainPath[:n1], generalPath[:n2], "corridor %v -> %v", a.Pos, b.Pos)
					if s1.Partial() {
						partial++
					}
				}
				if nodes == 64 {
					assert.Positive(t, partial, "the small pool cuts some searches short")
				}
			})
		}
	}
}
