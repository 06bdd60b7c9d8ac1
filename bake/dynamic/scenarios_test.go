package dynamic

import (
	"math"
	"testing"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/collider"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// alongSegment returns the rotation that turns the local x axis onto the
// direction from a to b (a yaw about y after a pitch about z).
func alongSegment(a, b geom.Vec3) mgl32.Quat {
	dx, dy, dz := float64(b[0]-a[0]), float64(b[1]-a[1]), float64(b[2]-a[2])
	yaw := math.Atan2(-dz, dx)
	pitch := math.Atan2(dy, math.Hypot(dx, dz))
	return mgl32.QuatRotate(float32(yaw), geom.Vec3{0, 1, 0}).Mul(mgl32.QuatRotate(float32(pitch), geom.Vec3{0, 0, 1}))
}

// plank returns a solid oriented box whose top face runs from a to b,
// width wide and thickness thick, reaching overhang past each end.
func plank(a, b geom.Vec3, width, thick, overhang float32) (collider.Shape, collider.Pose) {
	rotation := alongSegment(a, b)
	mid := geom.Scale(geom.Add(a, b), 0.5)
	down := rotation.Rotate(geom.Vec3{0, -thick / 2, 0})
	shape := collider.NewOrientedBox(geom.Vec3{float32(geom.Len(geom.Sub(b, a))/2) + overhang, thick / 2, width / 2})
	return shape, collider.Pose{Position: geom.Add(mid, down), Rotation: rotation}
}

// navigator runs the path queries of the scenarios.
type navigator struct {
	t *testing.T
	q *query.Query
}

func newNavigator(t *testing.T, m *Mesh) navigator {
	q, err := query.New(m.NavMesh(), 4096)
	require.NoError(t, err)
	return navigator{t, q}
}

// ground returns the navmesh point nearest p within 3 world units up or
// down and 2 across, and its polygon.
func (n navigator) ground(p geom.Vec3) (navmesh.Ref, geom.Vec3) {
	nearest, err := n.q.FindNearestPoly(p, geom.Vec3{2, 3, 2}, query.NewFilter())
	require.NoError(n.t, err)
	require.NotZero(n.t, nearest.Ref, "no navmesh near %v", p)
	return nearest.Ref, nearest.Point
}

// path returns whether the path from the ground at a to the ground at b is
// complete, and its length along the straight path.
func (n navigator) path(a, b geom.Vec3) (complete bool, length float32) {
	ra, pa := n.ground(a)
	rb, pb := n.ground(b)
	polys := make([]navmesh.Ref, 2048)
	count, status, err := n.q.FindPath(ra, rb, pa, pb, query.NewFilter(), polys)
	require.NoError(n.t, err)
	points := make([]query.StraightPathPoint, 2048)
	corners, _, err := n.q.FindStraightPath(pa, pb, polys[:count], points, 0)
	require.NoError(n.t, err)
	for i := 1; i < corners; i++ {
		length += geom.Dist(points[i-1].Pos, points[i].Pos)
	}
	return !status.Partial(), length
}

// reachable reports whether a complete path leads from the ground at a
// to the ground at b; an end with no navmesh near is out of reach (the
// land beyond a wall may be too small a region to keep).
func (n navigator) reachable(a, b geom.Vec3) bool {
	for _, p := range []geom.Vec3{a, b} {
		nearest, err := n.q.FindNearestPoly(p, geom.Vec3{2, 3, 2}, query.NewFilter())
		require.NoError(n.t, err)
		if nearest.Ref == 0 {
			return false
		}
	}
	complete, _ := n.path(a, b)
	return complete
}

// scenario places the colliders of the "Done when" on one level.
type scenario struct {
	level string
	// bridgeFrom and bridgeTo are the ends of a bridge over a gap,
	// pathFrom and pathTo points either side of it (each a little above
	// the ground it stands for).
	bridgeFrom, bridgeTo, bridgePathFrom, bridgePathTo geom.Vec3
	// pitAt and pitHalf, when pitHalf is not zero, make the gap first: a
	// carving box through the floor (the level has no open gap there).
	pitAt, pitHalf geom.Vec3
	// box is the middle of open ground for a 4.5 × 1.2 × 4.5 box with a
	// ramp up its -x side.
	box geom.Vec3
	// wall is a wall across a corridor: its middle, half size and yaw,
	// and the points either side.
	wallAt                   geom.Vec3
	wallHalf                 geom.Vec3
	wallYaw                  float32
	wallPathFrom, wallPathTo geom.Vec3
}

var scenarios = []scenario{
	{
		level:      "nav_test",
		bridgeFrom: geom.Vec3{23, 0, 11.3}, bridgeTo: geom.Vec3{33, 0, 11.3},
		bridgePathFrom: geom.Vec3{16.4, 0, 11.3}, bridgePathTo: geom.Vec3{40, 0, 11},
		box:    geom.Vec3{51.8, 0, 13},
		wallAt: geom.Vec3{12.29, 10.14, 27.54}, wallHalf: geom.Vec3{0.3, 1.5, 2.5}, wallYaw: 1.7258,
		wallPathFrom: geom.Vec3{18.16, 9.42, 26.26}, wallPathTo: geom.Vec3{6.56, 7.9, 28.06},
	},
	{
		level: "dungeon",
		// Dungeon's parts are apart behind closed doors, not gaps: the
		// test digs a pit across a corridor and bridges it.
		pitAt: geom.Vec3{18, 10.2, 0.65}, pitHalf: geom.Vec3{1.5, 1, 6},
		bridgeFrom: geom.Vec3{15.5, 11, 0.65}, bridgeTo: geom.Vec3{20.5, 11, 0.65},
		bridgePathFrom: geom.Vec3{11, 11, 0.65}, bridgePathTo: geom.Vec3{26, 11, 0.65},
		box:    geom.Vec3{40.6, 11, 0.65},
		wallAt: geom.Vec3{18, 15.4, -62}, wallHalf: geom.Vec3{10, 1.5, 0.3},
		wallPathFrom: geom.Vec3{19.08, 18.5, -78}, wallPathTo: geom.Vec3{18, 11, -45},
	},
}

// TestScenarios: on nav_test and dungeon, a bridge across a gap joins two
// parts (a partial path becomes complete), a ramp onto a box makes its top
// reachable, a wall across a corridor cuts it, and once every collider is
// removed the tiles are the initial ones byte for byte.
func TestScenarios(t *testing.T) {
	for _, sc := range scenarios {
		t.Run(sc.level, func(t *testing.T) {
			m := newTestMesh(t, sc.level, Options{})
			initial := tileFingerprints(t, m.NavMesh())
			nav := newNavigator(t, m)
			at := func(p geom.Vec3) geom.Vec3 {
				_, ground := nav.ground(p)
				return ground
			}
			var refs []collider.Ref
			add := func(shape collider.Shape, pose collider.Pose) {
				ref, err := m.AddCollider(shape, pose)
				require.NoError(t, err)
				refs = append(refs, ref)
				update(t, m)
			}

			// A bridge joins two parts.
			from, to := at(sc.bridgePathFrom), at(sc.bridgePathTo)
			var bridgeFrom, bridgeTo geom.Vec3
			if sc.pitHalf != (geom.Vec3{}) {
				complete, _ := nav.path(from, to)
				require.True(t, complete, "the corridor is whole before the pit")
				bridgeFrom, bridgeTo = at(sc.bridgeFrom), at(sc.bridgeTo)
				add(collider.NewBox(sc.pitHalf).Carving(), collider.Pose{Position: sc.pitAt})
			} else {
				bridgeFrom, bridgeTo = at(sc.bridgeFrom), at(sc.bridgeTo)
			}
			complete, _ := nav.path(from, to)
			require.False(t, complete, "the parts are apart before the bridge")
			add(plank(bridgeFrom, bridgeTo, 3, 0.3, 0.5))
			complete, _ = nav.path(from, to)
			assert.True(t, complete, "the bridge joins the parts")

			// A box is an island; a ramp makes its top reachable.
			ground := at(sc.box)
			add(collider.NewBox(geom.Vec3{2.25, 0.6, 2.25}), collider.Pose{Position: geom.Add(ground, geom.Vec3{0, 0.6, 0})})
			top := geom.Add(ground, geom.Vec3{0, 1.2, 0})
			_, onTop := nav.ground(top)
			require.InDelta(t, top[1], onTop[1], 0.3, "the box's top is walkable")
			foot := at(geom.Add(ground, geom.Vec3{-5.75, 0.5, 0}))
			complete, _ = nav.path(foot, top)
			require.False(t, complete, "the box's top is out of reach")
			add(plank(foot, geom.Add(ground, geom.Vec3{-1.75, 1.2, 0}), 3, 0.3, 0.2))
			complete, _ = nav.path(foot, top)
			assert.True(t, complete, "the ramp leads onto the box")

			// A wall cuts a corridor.
			complete, _ = nav.path(sc.wallPathFrom, sc.wallPathTo)
			require.True(t, complete, "the corridor is open")
			add(collider.NewOrientedBox(sc.wallHalf), collider.Pose{Position: sc.wallAt, Rotation: mgl32.QuatRotate(sc.wallYaw, geom.Vec3{0, 1, 0})})
			assert.False(t, nav.reachable(sc.wallPathFrom, sc.wallPathTo), "the wall cuts the corridor")

			assert.NotEqual(t, initial, tileFingerprints(t, m.NavMesh()))
			for _, ref := range refs {
				require.NoError(t, m.RemoveCollider(ref))
			}
			update(t, m)
			assert.Equal(t, initial, tileFingerprints(t, m.NavMesh()), "every collider removed")
			assert.Zero(t, m.ColliderCount())
			for _, tile := range m.tiles {
				assert.NotNil(t, tile.base, "a tile with neither level nor colliders is dropped")
				assert.Empty(t, tile.colliders)
			}
		})
	}
}

// TestTriangleMeshMatchesBake: a triangle mesh or convex hull collider
// (the bridge plank's triangles) gives every tile exactly as bake.Tiled
// bakes the level with those triangles added.
func TestTriangleMeshMatchesBake(t *testing.T) {
	for _, sc := range scenarios {
		for _, kind := range []collider.Kind{collider.TriangleMesh, collider.ConvexHull} {
			t.Run(sc.level+" "+kind.String(), func(t *testing.T) {
				level := loadLevel(t, sc.level)
				m := newTestMesh(t, sc.level, Options{Headroom: -1})
				nav := newNavigator(t, m)
				_, from := nav.ground(sc.bridgeFrom)
				_, to := nav.ground(sc.bridgeTo)
				shape, pose := plank(from, to, 3, 0.15, 1)
				placed, err := collider.Place(shape, pose)
				require.NoError(t, err)
				vertices, triangles := placed.Triangulate(0, nil, nil)
				mesh := &collider.Mesh{Vertices: vertices, Triangles: triangles}
				body := collider.NewTriangleMesh(mesh)
				if kind == collider.ConvexHull {
					body = collider.NewConvexHull(mesh)
				}
				_, err = m.AddCollider(body, collider.Pose{})
				require.NoError(t, err)
				update(t, m)

				with := &bake.Geometry{Vertices: append(append([]geom.Vec3(nil), level.Vertices...), vertices...)}
				with.Triangles = append(with.Triangles, level.Triangles...)
				base := int32(len(level.Vertices))
				for _, tri := range triangles {
					with.Triangles = append(with.Triangles, [3]int32{tri[0] + base, tri[1] + base, tri[2] + base})
				}
				bmin, bmax := level.Bounds()
				withMin, withMax := with.Bounds()
				require.Equal(t, [2]geom.Vec3{bmin, bmax}, [2]geom.Vec3{withMin, withMax}, "the plank lies within the level's box")
				want := bakedFingerprints(t, with, bake.TiledOptions{})
				got := tileFingerprints(t, m.NavMesh())
				assert.Equal(t, want, got)
				assert.NotEqual(t, bakedFingerprints(t, level, bake.TiledOptions{}), got, "the plank changed tiles")
			})
		}
	}
}
