package navdraw_test

import (
	"image/color"
	"math"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/tilecache"
)

// randomLayer returns a 12×9 layer with random ground, areas and portals.
func randomLayer(seed uint64) *tilecache.Layer {
	rng := rand.New(rand.NewPCG(seed, 1))
	const width, height = 12, 9
	l := &tilecache.Layer{
		Header: tilecache.LayerHeader{
			TLayer: 2, BMin: mgl32.Vec3{10, 5, 20}, BMax: mgl32.Vec3{10 + width*0.3, 8, 20 + height*0.3},
			Width: width, Height: height, MinX: 1, MaxX: 10, MinY: 2, MaxY: 7,
		},
		Heights: make([]uint8, width*height),
		Areas:   make([]uint8, width*height),
		Cons:    make([]uint8, width*height),
	}
	for i := range l.Heights {
		if rng.IntN(4) == 0 {
			l.Heights[i], l.Areas[i] = 0xff, tilecache.NullArea
			continue
		}
		l.Heights[i] = uint8(rng.IntN(20))
		l.Areas[i] = []uint8{tilecache.WalkableArea, 5, tilecache.NullArea}[rng.IntN(3)]
		l.Cons[i] = uint8(rng.IntN(256))
	}
	return l
}

func TestTileCacheLayerDrawsCellsPortalsAndBounds(t *testing.T) {
	layer := randomLayer(3)
	const cs, ch = 0.3, 0.2
	r := record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, layer, cs, ch, navdraw.DefaultStyle()) })
	ground, portals := 0, 0
	for i, height := range layer.Heights {
		if height != 0xff {
			ground++
			portals += bits.OnesCount8(layer.Cons[i] >> 4)
		}
	}
	require.Positive(t, portals)
	assert.Equal(t, 2*ground, r.Count(debugdraw.KindTriangle), "a square per cell with ground")
	assert.Equal(t, 12+portals, r.Count(debugdraw.KindLine), "the box and a line per portal side")

	box := &debugdraw.Recorder{Primitives: r.Primitives[:12]}
	bmin, bmax, _ := box.Bounds()
	assert.InDelta(t, 10+1*cs, bmin[0], 1e-5, "from the first usable column")
	assert.InDelta(t, 20+(7+1)*cs, bmax[2], 1e-5, "to the end of the last usable row")
	assert.Equal(t, debugdraw.WithAlpha(debugdraw.IndexColor(3, 255), 128), r.Primitives[0].Color, "the third layer's colour")

	// Each cell's square lies at its floor.
	square := 12
	for i, height := range layer.Heights {
		if height == 0xff {
			continue
		}
		x, y := i%12, i/12
		tri := r.Primitives[square]
		assert.InDelta(t, 5+float32(float32(int(height)+1)*ch), tri.Vertices[0][1], 1e-5)
		assert.InDelta(t, 10+float32(float32(x)*cs), tri.Vertices[0][0], 1e-5)
		assert.InDelta(t, 20+float32(float32(y)*cs), tri.Vertices[0][2], 1e-5)
		square += 2
	}

	short := *layer
	short.Cons = short.Cons[:5]
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, &short, cs, ch, navdraw.DefaultStyle()) }).Len())
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.TileCacheLayer(d, nil, cs, ch, navdraw.DefaultStyle()) }).Len())
}

// dungeonCache is the tile cache of RecastDemo's dungeon with every tile
// built.
func dungeonCache(t *testing.T) *tilecache.Cache {
	t.Helper()
	file, err := os.ReadFile("../tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(t, err)
	for {
		done, err := cache.Update(tilecache.Budget{})
		require.NoError(t, err)
		if done {
			return cache
		}
	}
}

// dungeonGround is a point on the dungeon's ground.
var dungeonGround = mgl32.Vec3{47.2419357, 9.69729424, -3.66440248}

func TestTileCacheObstaclesDrawShapesByStatus(t *testing.T) {
	style := navdraw.DefaultStyle()
	prism := tilecache.Prism([]mgl32.Vec2{{0, 0}, {2, 0}, {3, 1}, {2, 2}, {0, 2}}, 1, 3)
	cases := []struct {
		name             string
		info             tilecache.ObstacleInfo
		triangles, lines int
		fill             color.NRGBA
		minY, maxY       float32
		minX, maxX       float32
	}{
		{"pending cylinder", tilecache.ObstacleInfo{Obstacle: tilecache.Cylinder(mgl32.Vec3{1, 2, 3}, 0.5, 2), Status: tilecache.ObstaclePending},
			3 * debugdraw.CircleSegments, 2*debugdraw.CircleSegments + 4, style.ObstaclePending, 2, 4, 0.5, 1.5},
		{"up-to-date box", tilecache.ObstacleInfo{Obstacle: tilecache.Box(mgl32.Vec3{0, 0, 0}, mgl32.Vec3{1, 2, 3}), Status: tilecache.ObstacleUpToDate},
			10, 12, style.ObstacleUpToDate, 0, 2, 0, 1},
		{"building oriented box", tilecache.ObstacleInfo{Obstacle: tilecache.OrientedBox(mgl32.Vec3{5, 1, 5}, mgl32.Vec3{2, 1, 1}, 0), Status: tilecache.ObstacleBuilding},
			10, 12, style.ObstacleBuilding, 0, 2, 3, 7},
		{"removing prism", tilecache.ObstacleInfo{Obstacle: prism, Status: tilecache.ObstacleRemoving},
			2*5 + 3, 3 * 5, style.ObstacleRemoving, 1, 3, 0, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := record(func(d debugdraw.Drawer) { navdraw.TileCacheObstacles(d, []tilecache.ObstacleInfo{c.info}, style) })
			assert.Equal(t, c.triangles, r.Count(debugdraw.KindTriangle))
			assert.Equal(t, c.lines, r.Count(debugdraw.KindLine))
			bmin, bmax, ok := r.Bounds()
			require.True(t, ok)
			assert.InDelta(t, c.minY, bmin[1], 1e-5)
			assert.InDelta(t, c.maxY, bmax[1], 1e-5)
			assert.InDelta(t, c.minX, bmin[0], 1e-5)
			assert.InDelta(t, c.maxX, bmax[0], 1e-5)
			for _, p := range r.Primitives {
				switch p.Kind {
				case debugdraw.KindLine:
					assert.Equal(t, debugdraw.Darken(c.fill), p.Color)
					assert.Equal(t, style.ObstacleWidth, p.Size)
				case debugdraw.KindTriangle:
					assert.Equal(t, c.fill.A, p.Color.A, "the status colour, shaded")
					assert.LessOrEqual(t, p.Color.R, c.fill.R)
				}
			}
		})
	}
	// An area obstacle leans towards its area's colour.
	door := tilecache.ObstacleInfo{Obstacle: tilecache.Box(mgl32.Vec3{}, mgl32.Vec3{1, 1, 1}).WithArea(5), Status: tilecache.ObstacleUpToDate}
	r := record(func(d debugdraw.Drawer) { navdraw.TileCacheObstacles(d, []tilecache.ObstacleInfo{door}, style) })
	assert.Equal(t, debugdraw.Darken(debugdraw.Lerp(style.ObstacleUpToDate, debugdraw.AreaColor(5, 192), 0.5)), r.Primitives[len(r.Primitives)-1].Color)
	// Shapes that cannot be drawn draw nothing.
	bad := tilecache.Obstacle{Shape: tilecache.ShapePrism, PointCount: 2}
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.Obstacle(d, &bad, style.ObstaclePending, style.ObstaclePending, 1) }).Len())
	assert.Zero(t, record(func(d debugdraw.Drawer) {
		navdraw.Obstacle(d, &tilecache.Obstacle{}, style.ObstaclePending, style.ObstaclePending, 1)
	}).Len())
}

// insideXZ reports whether (x, z) lies in the convex polygon outline,
// grown by slack.
func insideXZ(outline []mgl32.Vec3, x, z, slack float32) bool {
	sign := float32(0)
	for i := range outline {
		a, b := outline[i], outline[(i+1)%len(outline)]
		ex, ez := b[0]-a[0], b[2]-a[2]
		length := float32(math.Hypot(float64(ex), float64(ez)))
		cross := (float32(ex*(z-a[2])) - float32(ez*(x-a[0]))) / length
		if sign == 0 {
			sign = 1
			if cross < 0 {
				sign = -1
			}
		}
		if cross*sign < -slack {
			return false
		}
	}
	return true
}

// TestOrientedBoxIsDrawnWhereTheCacheCarves checks the drawn turn against
// the cells the cache carves: every carved cell's centre lies in the drawn
// outline, within a cell.
func TestOrientedBoxIsDrawnWhereTheCacheCarves(t *testing.T) {
	cache := dungeonCache(t)
	before := map[tilecache.LayerRef][]uint8{}
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		require.NoError(t, err)
		before[info.Ref] = stages.Layer.Areas
	}
	box := tilecache.OrientedBox(dungeonGround.Add(mgl32.Vec3{0, 0.5, 0}), mgl32.Vec3{2.5, 1, 0.6}, 0.7)
	_, err := cache.AddObstacle(box)
	require.NoError(t, err)
	_, err = cache.Update(tilecache.Budget{})
	require.NoError(t, err)

	r := record(func(d debugdraw.Drawer) { navdraw.Obstacle(d, &box, color.NRGBA{A: 255}, color.NRGBA{A: 255}, 1) })
	// The wire's first lines run round the bottom.
	var outline []mgl32.Vec3
	for i := 0; i < 4; i++ {
		outline = append(outline, r.Primitives[len(r.Primitives)-12+3*i].Vertices[0])
	}
	assert.InDelta(t, 4*2.5*0.6, areaXZ(outline), 1e-3, "the box's footprint")

	// The box turned the other way, to show the check can fail.
	mirror := box
	mirror.Yaw = -box.Yaw
	r = record(func(d debugdraw.Drawer) { navdraw.Obstacle(d, &mirror, color.NRGBA{A: 255}, color.NRGBA{A: 255}, 1) })
	var mirrored []mgl32.Vec3
	for i := 0; i < 4; i++ {
		mirrored = append(mirrored, r.Primitives[len(r.Primitives)-12+3*i].Vertices[0])
	}

	params := cache.Params()
	// The cache marks a cell by its lower corner within the box grown by
	// half a cell: its centre may lie up to 1.21 cells outside.
	slack := 1.25 * params.CellSize
	carved, outsideMirror := 0, 0
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		require.NoError(t, err)
		h := stages.Layer.Header
		for i, area := range stages.Layer.Areas {
			if area != tilecache.NullArea || before[info.Ref][i] == tilecache.NullArea {
				continue
			}
			x := h.BMin[0] + float32((float32(i%int(h.Width))+0.5)*params.CellSize)
			z := h.BMin[2] + float32((float32(i/int(h.Width))+0.5)*params.CellSize)
			assert.True(t, insideXZ(outline, x, z, slack), "carved cell at (%v, %v) outside the drawn box", x, z)
			if !insideXZ(mirrored, x, z, slack) {
				outsideMirror++
			}
			carved++
		}
	}
	assert.Greater(t, carved, 20, "the box carved its cells")
	assert.Greater(t, outsideMirror, carved/4, "a box turned the wrong way misses many carved cells")
}

func TestTileCacheStagesDrawRegionsContoursAndPolyMesh(t *testing.T) {
	cache := dungeonCache(t)
	_, err := cache.AddObstacle(tilecache.Cylinder(dungeonGround, 1, 2))
	require.NoError(t, err)
	_, err = cache.Update(tilecache.Budget{})
	require.NoError(t, err)
	params := cache.Params()
	cs, ch := params.CellSize, params.CellHeight
	style := navdraw.DefaultStyle()

	drawn := 0
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		require.NoError(t, err)
		if len(stages.Polygons) == 0 {
			continue
		}
		drawn++

		// Regions: the layer's box, a square per cell with ground, the
		// portal sides; squares in their region's colour.
		ground, portalSides := 0, 0
		for i, height := range stages.Layer.Heights {
			if height != 0xff {
				ground++
				portalSides += bits.OnesCount8(stages.Layer.Cons[i] >> 4)
			}
		}
		r := record(func(d debugdraw.Drawer) { navdraw.TileCacheLayerRegions(d, stages, cs, ch) })
		require.Equal(t, 2*ground, r.Count(debugdraw.KindTriangle))
		require.Equal(t, 12+portalSides, r.Count(debugdraw.KindLine))
		base := debugdraw.IndexColor(int(stages.Layer.Header.TLayer)+1, 255)
		square := 12
		for i, height := range stages.Layer.Heights {
			if height == 0xff {
				continue
			}
			want := debugdraw.Lerp(base, debugdraw.IndexColor(int(stages.Regions[i]), 255), 192.0/255)
			require.Equal(t, want, r.Primitives[square].Color, "cell %d", i)
			square += 2
		}

		// Contours: an arrow (three lines) per edge, a tick per portal edge,
		// a dot per corner.
		edges, portals, removable := 0, 0, 0
		for _, c := range stages.Contours {
			edges += len(c.Vertices)
			for _, v := range c.Vertices {
				if v.Portal != tilecache.NoPortal {
					portals++
				}
				if v.Removable {
					removable++
				}
			}
		}
		r = record(func(d debugdraw.Drawer) { navdraw.TileCacheContours(d, stages, cs, ch, style) })
		require.Equal(t, 3*edges+portals, r.Count(debugdraw.KindLine))
		require.Equal(t, edges, r.Count(debugdraw.KindPoint))
		red := 0
		for _, p := range r.Primitives {
			if p.Kind == debugdraw.KindPoint && p.Color == style.PortalMark {
				red++
			}
		}
		assert.Equal(t, removable, red, "removable corners marked")

		// Poly mesh: a fan per polygon, each distinct edge once, a tick per
		// portal edge, a dot per vertex.
		triangles, meshPortals := 0, 0
		distinct := map[[2]uint16]bool{}
		for _, p := range stages.Polygons {
			triangles += p.Count - 2
			for j := range p.Count {
				a, b := p.Vertices[j], p.Vertices[(j+1)%p.Count]
				distinct[[2]uint16{min(a, b), max(a, b)}] = true
				if n := p.Neighbours[j]; n != tilecache.EdgeWall && n&tilecache.EdgePortal != 0 {
					meshPortals++
				}
			}
		}
		r = record(func(d debugdraw.Drawer) { navdraw.TileCachePolyMesh(d, stages, cs, ch, style) })
		require.Equal(t, triangles, r.Count(debugdraw.KindTriangle))
		require.Equal(t, len(distinct)+meshPortals, r.Count(debugdraw.KindLine))
		require.Equal(t, len(stages.Vertices), r.Count(debugdraw.KindPoint))
		// The fills cover the polygons' area in xz.
		wantArea, gotArea := 0.0, 0.0
		for _, p := range stages.Polygons {
			var outline []mgl32.Vec3
			for _, v := range p.Vertices[:p.Count] {
				outline = append(outline, mgl32.Vec3{float32(stages.Vertices[v][0]) * cs, 0, float32(stages.Vertices[v][2]) * cs})
			}
			wantArea += areaXZ(outline)
		}
		for _, p := range r.Primitives {
			if p.Kind == debugdraw.KindTriangle {
				gotArea += areaXZ(p.Vertices[:])
			}
		}
		assert.InDelta(t, wantArea, gotArea, 1e-3*wantArea)
	}
	assert.Positive(t, drawn)

	// Broken stages draw nothing rather than panic.
	broken := &tilecache.LayerStages{Polygons: []tilecache.LayerPolygon{{Count: 3, Vertices: [6]uint16{0, 1, 9}}}, Vertices: make([][3]uint16, 2)}
	assert.Equal(t, 2, record(func(d debugdraw.Drawer) { navdraw.TileCachePolyMesh(d, broken, cs, ch, style) }).Len(), "only the two vertices")
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.TileCacheLayerRegions(d, broken, cs, ch) }).Len())
	for _, draw := range []func(d debugdraw.Drawer){
		func(d debugdraw.Drawer) { navdraw.TileCacheLayerRegions(d, nil, cs, ch) },
		func(d debugdraw.Drawer) { navdraw.TileCacheContours(d, nil, cs, ch, style) },
		func(d debugdraw.Drawer) { navdraw.TileCachePolyMesh(d, nil, cs, ch, style) },
	} {
		assert.Zero(t, record(draw).Len())
	}
}
