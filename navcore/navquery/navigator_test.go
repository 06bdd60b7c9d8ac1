package navquery

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testLevel is a navmesh the tests run on.
type testLevel struct {
	name string
	mesh *navmesh.Mesh
}

func testLevels(t *testing.T) []testLevel {
	t.Helper()
	levels := []testLevel{{"dungeon", testmesh.Dungeon(t)}}
	for _, name := range []string{"nav_test_solo", "nav_test_tiled32"} {
		mesh, _, err := navmesh.LoadFile("../query/testdata/" + name + ".navmesh")
		require.NoError(t, err)
		levels = append(levels, testLevel{name, mesh})
	}
	return levels
}

// groundPolys calls fn with every ground polygon of mesh.
func groundPolys(mesh *navmesh.Mesh, fn func(tile *navmesh.Tile, ref navmesh.Ref, poly *navmesh.Poly)) {
	for tile := range mesh.Snapshot().Tiles() {
		for i := range tile.Polys {
			if poly := &tile.Polys[i]; poly.Type() == navmesh.PolyTypeGround {
				fn(tile, tile.PolyRefBase()|navmesh.Ref(i), poly)
			}
		}
	}
}

// TestSamplePositionMatchesBruteForce: for 600 random points up to 3 m
// off the navmesh and distances of 0.2 to 4 m, SamplePosition finds a point
// exactly when one of the polygons the filter passes, looked at one by
// one, lies within the distance, and then at the least distance.
func TestSamplePositionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 2))
	random := func() float32 { return float32(rng.Float64()) } // float64 then converted: rand.Float32 scales by 2^-24, which fuses with a later add
	for _, level := range testLevels(t) {
		n, err := New(level.mesh, Config{})
		require.NoError(t, err)
		q, err := query.New(level.mesh, 256)
		require.NoError(t, err)
		filter := DefaultFilter()
		found := 0
		for range 200 {
			p, err := q.FindRandomPoint(filter, random)
			require.NoError(t, err)
			pos := geom.Add(p.Pos, geom.Vec3{float32(6*random()) - 3, float32(6*random()) - 3, float32(6*random()) - 3})
			maxDistance := 0.2 + float32(3.8*random())
			sample, ok, err := n.SamplePosition(pos, maxDistance, filter)
			require.NoError(t, err)
			want := float32(math.MaxFloat32)
			groundPolys(level.mesh, func(tile *navmesh.Tile, ref navmesh.Ref, poly *navmesh.Poly) {
				if filter.Passes(ref, tile, poly) {
					closest, _ := tile.ClosestPointOnPoly(poly, pos)
					want = min(want, geom.Dist(pos, closest))
				}
			})
			require.Equal(t, want <= maxDistance, ok, "%s: %v within %v", level.name, pos, maxDistance)
			if !ok {
				continue
			}
			found++
			assert.Equal(t, want, sample.Distance, "%s: %v", level.name, pos)
			assert.Equal(t, sample.Distance, geom.Dist(pos, sample.Point))
			closest, _, err := q.ClosestPointOnPoly(sample.Ref, pos)
			require.NoError(t, err)
			assert.Equal(t, sample.Point, closest)
		}
		assert.Greater(t, found, 50, level.name)
	}
}

// outward returns the unit vector (xz) from polygon poly's centre through
// the middle of its edge k.
func outward(tile *navmesh.Tile, poly *navmesh.Poly, k int) geom.Vec3 {
	var centre geom.Vec3
	count := int(poly.VertCount)
	for i := range count {
		centre = geom.Add(centre, tile.Verts[poly.Verts[i]])
	}
	centre = geom.Scale(centre, 1/float32(count))
	a, b := tile.Verts[poly.Verts[k]], tile.Verts[poly.Verts[(k+1)%count]]
	// The edge's normal, turned to point away from the centre.
	normal := geom.Normalize(geom.Vec3{b[2] - a[2], 0, a[0] - b[0]})
	mid := geom.Lerp(a, b, 0.5)
	if float32(normal[0]*(mid[0]-centre[0]))+float32(normal[2]*(mid[2]-centre[2])) < 0 {
		normal = geom.Scale(normal, -1)
	}
	return normal
}

// TestIsOnMeshOnEdgesAndOffWalls: every vertex and edge midpoint of every
// polygon of the test levels is on the mesh with no tolerance (the
// midpoint at the height of the navmesh's detail surface there, which lies
// up to a metre above the polygon's straight edge on these levels); a point
// 0.5 m out from the middle of a wall (an edge without a neighbour) is not,
// with a tolerance of 0.1 m, wherever no polygon of the level, looked at
// one by one, lies within 0.1 m of it seen from above and within the
// tile's climb of its height.
func TestIsOnMeshOnEdgesAndOffWalls(t *testing.T) {
	for _, level := range testLevels(t) {
		n, err := New(level.mesh, Config{})
		require.NoError(t, err)
		on, off, skipped := 0, 0, 0
		var outside []geom.Vec3
		groundPolys(level.mesh, func(tile *navmesh.Tile, ref navmesh.Ref, poly *navmesh.Poly) {
			count := int(poly.VertCount)
			for k := range count {
				a, b := tile.Verts[poly.Verts[k]], tile.Verts[poly.Verts[(k+1)%count]]
				mid := geom.Lerp(a, b, 0.5)
				surface, _ := tile.ClosestPointOnPoly(poly, mid)
				require.Less(t, geom.Dist2D(mid, surface), float32(1e-5))
				mid[1] = surface[1]
				assert.True(t, n.IsOnMesh(a, 0), "%s: vertex %v", level.name, a)
				assert.True(t, n.IsOnMesh(mid, 0), "%s: edge midpoint %v", level.name, mid)
				on += 2
				if poly.Neighbours[k] == 0 {
					outside = append(outside, geom.Mad(mid, outward(tile, poly, k), 0.5))
				}
			}
		})
		for _, p := range outside {
			near := false
			groundPolys(level.mesh, func(tile *navmesh.Tile, ref navmesh.Ref, poly *navmesh.Poly) {
				closest, _ := tile.ClosestPointOnPoly(poly, p)
				if geom.Dist2D(closest, p) <= 0.1 && geom.Abs(closest[1]-p[1]) <= 0.1+tile.Data.Header.WalkableClimb {
					near = true
				}
			})
			if near {
				skipped++ // another polygon lies there: another floor, the far side of a thin wall
				continue
			}
			assert.False(t, n.IsOnMesh(p, 0.1), "%s: %v, 0.5 m outside a wall", level.name, p)
			off++
		}
		t.Logf("%s: %d points on the mesh, %d outside walls, %d skipped", level.name, on, off, skipped)
		assert.Greater(t, off, skipped, level.name)
	}
	n, err := New(testmesh.Dungeon(t), Config{})
	require.NoError(t, err)
	nan := float32(math.NaN())
	assert.False(t, n.IsOnMesh(geom.Vec3{nan, 0, 0}, 1))
	assert.False(t, n.IsOnMesh(geom.Vec3{}, -1))
	assert.False(t, n.IsOnMesh(geom.Vec3{}, float32(math.Inf(1))))
}
