package components

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/tilecache"
)

func TestObstacleValidate(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	good := []Obstacle{
		CylinderObstacle(1, 2),
		BoxObstacle(1, 2, 0),
		OrientedBoxObstacle(0.5, 0.5, 1).Carving(),
		PrismObstacle([][2]float32{{0, 0}, {1, 0}, {0, 1}}, 1).MarkingArea(3),
	}
	for _, o := range good {
		assert.NoError(t, o.Validate(), o.Shape)
	}
	bad := map[string]Obstacle{
		"unknown shape":    {Shape: 0},
		"zero radius":      CylinderObstacle(0, 1),
		"NaN radius":       CylinderObstacle(nan, 1),
		"negative height":  CylinderObstacle(1, -1),
		"flat box":         BoxObstacle(1, 0, 1),
		"infinite box":     OrientedBoxObstacle(inf, 1, 1),
		"two corners":      PrismObstacle([][2]float32{{0, 0}, {1, 0}}, 1),
		"too many corners": PrismObstacle(make([][2]float32, MaxObstaclePoints+1), 1),
		"not convex":       PrismObstacle([][2]float32{{0, 0}, {2, 0}, {1, 0.5}, {2, 2}, {0, 2}}, 1),
		"collinear":        PrismObstacle([][2]float32{{0, 0}, {1, 0}, {2, 0}}, 1),
		"area 0":           CylinderObstacle(1, 1).MarkingArea(0),
		"area 64":          CylinderObstacle(1, 1).MarkingArea(64),
		"unknown effect":   {Shape: ObstacleCylinder, Radius: 1, Effect: 9},
		"negative still": func() Obstacle {
			o := CylinderObstacle(1, 1)
			o.StationaryTime = -1
			return o
		}(),
		"NaN threshold": func() Obstacle {
			o := CylinderObstacle(1, 1)
			o.MoveThreshold = nan
			return o
		}(),
	}
	for name, o := range bad {
		assert.ErrorIs(t, o.Validate(), ErrInvalidObstacle, name)
	}
	o := CylinderObstacle(1, 2)
	assert.Equal(t, DefaultStationaryTime, o.StationaryTime)
	assert.Equal(t, DefaultMoveThreshold, o.MoveThreshold)
	assert.False(t, o.NeedsTileCache())
	carving := o.Carving()
	assert.True(t, carving.NeedsTileCache())
	assert.Equal(t, []string{"cylinder", "box", "oriented box", "prism", "unknown"},
		[]string{ObstacleCylinder.String(), ObstacleBox.String(), ObstacleOrientedBox.String(), ObstaclePrism.String(), ObstacleShape(0).String()})
	assert.Equal(t, []string{"avoided", "carves", "marks area", "unknown"},
		[]string{ObstacleAvoided.String(), ObstacleCarves.String(), ObstacleMarksArea.String(), ObstacleEffect(7).String()})
}

// randomObstacle returns a seeded random obstacle of any shape and a pose
// for it.
func randomObstacle(rng *rand.Rand) (Obstacle, ObstaclePose) {
	size := func() float32 { return 0.2 + float32(2*float32(rng.Float32())) }
	var o Obstacle
	switch rng.IntN(4) {
	case 0:
		o = CylinderObstacle(size(), 2)
	case 1:
		o = BoxObstacle(size(), size(), 2)
	case 2:
		o = OrientedBoxObstacle(size(), size(), 2)
	default:
		// A convex polygon: points on a circle at sorted random angles.
		n := 3 + rng.IntN(6)
		r := size()
		var angles []float64
		for range n {
			angles = append(angles, float64(rng.Float64())*2*math.Pi)
		}
		sortFloats(angles)
		var points [][2]float32
		for _, a := range angles {
			points = append(points, [2]float32{r * float32(math.Cos(a)), r * float32(math.Sin(a))})
		}
		o = PrismObstacle(points, 2)
	}
	pose := ObstaclePose{Position: geom.Vec3{10 * rng.Float32(), rng.Float32(), 10 * rng.Float32()}, Yaw: 7 * rng.Float32()}
	return o, pose
}

func sortFloats(v []float64) {
	for i := 1; i < len(v); i++ {
		for j := i; j > 0 && v[j] < v[j-1]; j-- {
			v[j], v[j-1] = v[j-1], v[j]
		}
	}
}

// oracleDistance is the signed distance from (x, z) to f by brute force:
// the least distance to a dense sampling of the outline, negative when
// geom.PointInPolygon (or the circle's equation) puts the point inside.
func oracleDistance(f *Footprint, x, z float32) float64 {
	if f.Circle {
		return math.Hypot(float64(x-f.Center[0]), float64(z-f.Center[1])) - float64(f.Radius)
	}
	best := math.Inf(1)
	verts := make([]geom.Vec3, f.Count)
	for i := range f.Count {
		a, b := f.Points[i], f.Points[(i+1)%f.Count]
		verts[i] = geom.Vec3{a[0], 0, a[1]}
		for k := 0; k <= 400; k++ {
			t := float32(k) / 400
			px, pz := a[0]+float32((b[0]-a[0])*t), a[1]+float32((b[1]-a[1])*t)
			best = math.Min(best, math.Hypot(float64(x-px), float64(z-pz)))
		}
	}
	if geom.PointInPolygon(geom.Vec3{x, 0, z}, verts) {
		return -best
	}
	return best
}

// TestFootprintDistance: the signed distance and its direction agree with
// a brute-force oracle for every shape at random poses, and the polygon
// is wound with the walkable side on the left of its edges, as navmesh
// walls are.
func TestFootprintDistance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 200; n++ {
		o, pose := randomObstacle(rng)
		require.NoError(t, o.Validate())
		f := o.Footprint(pose)
		assert.Equal(t, pose.Position[1], f.MinY)
		assert.Equal(t, pose.Position[1]+o.Height, f.MaxY)
		minX, minZ, maxX, maxZ := f.Bounds()
		for k := range 20 {
			x := pose.Position[0] + float32(6*(float32(rng.Float32())-0.5))
			z := pose.Position[2] + float32(6*(float32(rng.Float32())-0.5))
			d, nx, nz := f.Distance(x, z)
			assert.InDelta(t, oracleDistance(&f, x, z), d, 0.01, "%s sample %d", o.Shape, k)
			assert.InDelta(t, 1, math.Hypot(float64(nx), float64(nz)), 1e-4)
			// Stepping along the direction grows the distance by the step.
			if d2, _, _ := f.Distance(x+float32(nx*0.01), z+float32(nz*0.01)); math.Abs(float64(d)) > 0.05 {
				assert.InDelta(t, d+0.01, d2, 0.002, "%s direction", o.Shape)
			}
			if d < 0 {
				assert.True(t, x >= minX && x <= maxX && z >= minZ && z <= maxZ, "inside but out of bounds")
			}
		}
		if !f.Circle {
			// The mean of the corners lies inside a convex polygon.
			var center geom.Vec3
			for i := range f.Count {
				center = geom.Add(center, geom.Vec3{f.Points[i][0], 0, f.Points[i][1]})
			}
			center = geom.Scale(center, 1/float32(f.Count))
			for i := range f.Count {
				p, q := f.Points[i], f.Points[(i+1)%f.Count]
				assert.LessOrEqual(t, geom.TriArea2D(center, geom.Vec3{p[0], 0, p[1]}, geom.Vec3{q[0], 0, q[1]}), float32(0),
					"%s: the inside is on the wall side", o.Shape)
			}
		}
	}
	assert.Equal(t, float32(1e30), (&Footprint{}).firstDistance())
}

// firstDistance is Distance at the origin, for the empty footprint.
func (f *Footprint) firstDistance() float32 {
	d, _, _ := f.Distance(0, 0)
	return d
}

// TestCacheObstacleCoversTheGrownFootprint: the tile cache obstacle of a
// carving obstacle holds every point within the inflation of its
// footprint and reaches at most a mitre beyond it, for every shape; a
// cylinder and the boxes keep their kind, turned boxes their yaw.
func TestCacheObstacleCoversTheGrownFootprint(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const inflation, depth = float32(0.6), float32(0.9)
	for n := 0; n < 200; n++ {
		o, pose := randomObstacle(rng)
		c := o.CacheObstacle(pose, inflation, depth, 0)
		require.NoError(t, c.Validate())
		// The cache obstacle's own footprint, as a Footprint to measure.
		var grown Footprint
		switch c.Shape {
		case tilecache.ShapeCylinder:
			require.Equal(t, ObstacleCylinder, o.Shape)
			assert.Equal(t, o.Radius+inflation, c.Radius)
			assert.Equal(t, pose.Position[1]-depth, c.Position[1])
			assert.InDelta(t, o.Height+depth, c.Height, 1e-5)
			grown = Footprint{Circle: true, Center: [2]float32{c.Position[0], c.Position[2]}, Radius: c.Radius}
		case tilecache.ShapeBox:
			require.Equal(t, ObstacleBox, o.Shape)
			assert.InDelta(t, pose.Position[1]-depth, c.Min[1], 1e-5)
			grown = Footprint{Count: 4, Points: [MaxObstaclePoints][2]float32{
				{c.Min[0], c.Min[2]}, {c.Max[0], c.Min[2]}, {c.Max[0], c.Max[2]}, {c.Min[0], c.Max[2]}}}
		case tilecache.ShapeOrientedBox:
			require.Equal(t, ObstacleOrientedBox, o.Shape)
			assert.Equal(t, pose.Yaw, c.Yaw)
			grown = (&Obstacle{Shape: ObstacleOrientedBox, HalfExtents: [2]float32{c.HalfExtents[0], c.HalfExtents[2]}}).Footprint(
				ObstaclePose{Position: c.Position, Yaw: c.Yaw})
		case tilecache.ShapePrism:
			require.Equal(t, ObstaclePrism, o.Shape)
			grown.Count = c.PointCount
			for i := range c.PointCount {
				grown.Points[i] = [2]float32{c.Points[i][0], c.Points[i][1]}
			}
			grown.orient()
		}
		f := o.Footprint(pose)
		for range 40 {
			x := pose.Position[0] + float32(8*(float32(rng.Float32())-0.5))
			z := pose.Position[2] + float32(8*(float32(rng.Float32())-0.5))
			d, _, _ := f.Distance(x, z)
			g, _, _ := grown.Distance(x, z)
			if d < inflation-1e-3 {
				assert.Less(t, g, float32(1e-3), "%s: a point %.3f from the footprint is outside the grown obstacle", o.Shape, d)
			}
			if g < 0 {
				// Square corners reach inflation·√2 at right angles; cut
				// sharper corners reach inflation/cos(turn/4) < 1.42·inflation.
				assert.Less(t, d, inflation*1.45, "%s: the grown obstacle reaches too far", o.Shape)
			}
		}
	}
	// An area obstacle keeps its area; half a cell moves an oriented box.
	o := OrientedBoxObstacle(1, 1, 1).MarkingArea(4)
	c := o.CacheObstacle(ObstaclePose{Position: geom.Vec3{5, 0, 5}}, 0, 0, 0.3)
	assert.Equal(t, uint8(4), c.Area)
	assert.Equal(t, mgl32.Vec3{4.85, 0.5, 4.85}, c.Position)
}

func TestPoseDistanceAndExtent(t *testing.T) {
	box := OrientedBoxObstacle(3, 4, 1)
	assert.Equal(t, float32(5), box.Extent())
	a := ObstaclePose{Position: geom.Vec3{0, 0, 0}}
	b := ObstaclePose{Position: geom.Vec3{0.3, 0, 0.4}, Yaw: 0.1}
	assert.InDelta(t, 0.5+0.1*5, box.PoseDistance(a, b), 1e-6)
	plain := BoxObstacle(3, 4, 1)
	assert.InDelta(t, 0.5, plain.PoseDistance(a, b), 1e-6, "an axis-aligned box does not turn")
	cylinder := CylinderObstacle(2, 1)
	assert.Equal(t, float32(2), cylinder.Extent())
	prism := PrismObstacle([][2]float32{{3, 0}, {0, 4}, {-1, -1}}, 1)
	assert.Equal(t, float32(4), prism.Extent())
}

// TestObstacleBodiesNear: the index finds every body whose bounds overlap
// a query box, the brute-force answer, with huge bodies too.
func TestObstacleBodiesNear(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var bodies ObstacleBodies
	for range 3 {
		bodies.List = bodies.List[:0]
		for range 60 {
			o, pose := randomObstacle(rng)
			pose.Position = geom.Scale(pose.Position, 5)
			bodies.List = append(bodies.List, ObstacleBody{Footprint: o.Footprint(pose)})
		}
		huge := BoxObstacle(200, 200, 1)
		bodies.List = append(bodies.List, ObstacleBody{Footprint: huge.Footprint(ObstaclePose{})})
		bodies.Index()
		ids := make([]uint32, 64)
		for range 50 {
			x, z := float32(50*float32(rng.Float32())), float32(50*float32(rng.Float32()))
			r := float32(4 * float32(rng.Float32()))
			n := bodies.Near(x-r, z-r, x+r, z+r, ids)
			got := map[uint32]bool{}
			for _, id := range ids[:n] {
				assert.False(t, got[id], "reported twice")
				got[id] = true
			}
			for i := range bodies.List {
				minX, minZ, maxX, maxZ := bodies.List[i].Footprint.Bounds()
				overlaps := minX <= x+r && maxX >= x-r && minZ <= z+r && maxZ >= z-r
				if overlaps {
					assert.True(t, got[uint32(i)], "body %d missed", i)
				}
			}
		}
	}
	allocs := testing.AllocsPerRun(20, func() { bodies.Index() })
	assert.Zero(t, allocs)
}

func TestAgentAvoidanceControls(t *testing.T) {
	a, b := DefaultAgentParams(), DefaultAgentParams()
	assert.Equal(t, DefaultAvoidanceLayers, a.Layers())
	assert.Equal(t, DefaultAvoidanceLayers, a.Mask())
	assert.True(t, a.Avoids(&b))
	b.AvoidanceLayers = 0b10
	assert.False(t, a.Avoids(&b), "b is not in a's mask")
	a.AvoidanceMask = 0b11
	assert.True(t, a.Avoids(&b))
	b.AvoidancePriority = 3
	assert.True(t, a.Avoids(&b), "a gives way to a higher priority")
	b.AvoidanceMask = 0b1
	assert.False(t, b.Avoids(&a), "b does not avoid a lower priority")

	p := DefaultAgentParams()
	p.StoppingDistance, p.BrakingDistance = 2, 3
	assert.NoError(t, p.Validate())
	p.StoppingDistance = -1
	assert.ErrorIs(t, p.Validate(), ErrInvalidParams)
	p.StoppingDistance, p.BrakingDistance = 0, float32(math.NaN())
	assert.ErrorIs(t, p.Validate(), ErrInvalidParams)
}
