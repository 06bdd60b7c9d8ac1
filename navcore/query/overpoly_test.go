package query

import (
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFindNearestPolyOverPolyOnEdges: a point on a polygon's vertex or on
// the middle of its edge, searched with a box of a centimetre, is over the
// polygon found (Detour says it is not for the edges no other polygon
// shares, the walls, and often for the others: Detour's rule alone fails
// on 2,097 of these 3,036 points), and the nearest point found is the
// point itself seen from above.
func TestFindNearestPolyOverPolyOnEdges(t *testing.T) {
	for _, level := range []struct {
		name string
		mesh *navmesh.Mesh
	}{{"dungeon", testmesh.Dungeon(t)}, {"nav_test tiled", tiledNavTest(t)}} {
		q, err := New(level.mesh, 256)
		require.NoError(t, err)
		filter := NewFilter()
		snap := level.mesh.Snapshot()
		box := geom.Vec3{0.01, 0.5, 0.01}
		walls, points := 0, 0
		for tile := range snap.Tiles() {
			for ip := range tile.Polys {
				poly := &tile.Polys[ip]
				if poly.Type() != navmesh.PolyTypeGround {
					continue
				}
				n := int(poly.VertCount)
				for k := range n {
					a, b := tile.Verts[poly.Verts[k]], tile.Verts[poly.Verts[(k+1)%n]]
					wall := poly.Neighbours[k] == 0
					for _, p := range []geom.Vec3{a, geom.Lerp(a, b, 0.5)} {
						got, err := q.FindNearestPoly(p, box, filter)
						require.NoError(t, err)
						require.NotZero(t, got.Ref, "%s: %v", level.name, p)
						assert.True(t, got.OverPoly, "%s: %v on polygon %d's edge %d (wall %v)", level.name, p, ip, k, wall)
						assert.Less(t, geom.Dist2D(got.Point, p), float32(1e-4), "%s: %v", level.name, p)
						points++
						if wall {
							walls++
						}
					}
				}
			}
		}
		t.Logf("%s: %d points, %d on walls", level.name, points, walls)
	}
}
