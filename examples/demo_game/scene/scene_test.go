package scene

import (
	"image/color"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/level"
	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
	"github.com/archenav/archenav/navcore/tilecache"
)

// soloDungeon loads the C++ solo tile of the dungeon level.
func soloDungeon(t *testing.T) *navmesh.Mesh {
	t.Helper()
	blob, err := os.ReadFile("../../../testdata/navmesh_solo_dungeon.bin")
	require.NoError(t, err)
	data, err := navmesh.ReadDNAV(blob)
	require.NoError(t, err)
	h := &data.Header
	mesh, err := navmesh.New(navmesh.Params{Origin: h.BMin, TileWidth: h.BMax[0] - h.BMin[0], TileHeight: h.BMax[2] - h.BMin[2], MaxTiles: 1, MaxPolys: int(h.PolyCount)})
	require.NoError(t, err)
	_, err = mesh.AddTile(data, 0)
	require.NoError(t, err)
	return mesh
}

func TestNavmeshLayerOfTheDungeon(t *testing.T) {
	layer, err := NewNavmeshLayer(soloDungeon(t))
	require.NoError(t, err)
	assert.Equal(t, 1, layer.Tiles)
	assert.Equal(t, 118, layer.Polygons)
	assert.Equal(t, 223, layer.Walls(), "every boundary edge of the solo tile is a wall")
	assert.Zero(t, layer.TileBorders(), "a solo tile has no tile borders")
	for i := 1; i < len(layer.polys); i++ {
		require.LessOrEqual(t, layer.polys[i-1].height, layer.polys[i].height, "polygons sorted lowest first")
	}
	assert.Less(t, layer.Min[0], layer.Max[0])
	assert.Less(t, layer.Min[2], layer.Max[2])

	palette := Palette(layer)
	assert.LessOrEqual(t, len(palette), 255, "fits one GIF palette")
	assert.Contains(t, palette, color.Color(Background))
}

func TestNavmeshLayerOfATiledMesh(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	lvl, err := level.Load("", level.Options{TileSize: 32})
	require.NoError(t, err)
	layer, err := NewNavmeshLayer(lvl.Mesh)
	require.NoError(t, err)
	assert.Equal(t, 41, layer.Tiles)
	assert.Equal(t, lvl.Polygons, layer.Polygons)
	assert.Positive(t, layer.TileBorders(), "polygon edges on tile borders are drawn as such")

	canvas := render.NewRaster(480, 640)
	view := Fit(layer.Min, layer.Max, 480, 640, 8)
	canvas.Clear(Background)
	layer.Draw(canvas, view)
	border := layer.tileBorders[len(layer.tileBorders)/2]
	mid := view.ToScreen(geom.Lerp(border.a, border.b, 0.5))
	found := false
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			found = found || canvas.Image().RGBAAt(int(mid.X)+dx, int(mid.Y)+dy) == TileBorder
		}
	}
	assert.True(t, found, "a tile border shows in its color")
}

func TestNavmeshLayerRejectsEmptyMeshes(t *testing.T) {
	_, err := NewNavmeshLayer(nil)
	assert.Error(t, err)
	empty, err := navmesh.New(navmesh.Params{TileWidth: 1, TileHeight: 1, MaxTiles: 1, MaxPolys: 1})
	require.NoError(t, err)
	_, err = NewNavmeshLayer(empty)
	assert.Error(t, err)
}

func TestFitAndToWorldRoundTrip(t *testing.T) {
	v := Fit(geom.Vec3{-10, 0, 5}, geom.Vec3{30, 2, 25}, 400, 300, 10)
	assert.InDelta(t, 9.5, v.Scale, 1e-5, "40 units wide in 380 pixels")
	a := v.ToScreen(geom.Vec3{-10, 0, 5})
	b := v.ToScreen(geom.Vec3{30, 0, 25})
	assert.InDelta(t, 10, a.X, 1e-4)
	assert.InDelta(t, 390, b.X, 1e-4)
	assert.InDelta(t, 150, (a.Y+b.Y)/2, 1e-4, "centred vertically")
	x, z := v.ToWorld(v.ToScreen(geom.Vec3{3, 1, 7}))
	assert.InDelta(t, 3, x, 1e-4)
	assert.InDelta(t, 7, z, 1e-4)
}

// polygonCentre returns the centre of the layer's polygon i.
func polygonCentre(l *NavmeshLayer, i int) geom.Vec3 { return l.polys[i].centre }

func TestDrawnFramesShowPolygonsAndAgentsWhereTheyAre(t *testing.T) {
	layer, err := NewNavmeshLayer(soloDungeon(t))
	require.NoError(t, err)
	canvas := render.NewRaster(500, 600)
	view := Fit(layer.Min, layer.Max, 500, 600, 8)
	canvas.Clear(Background)
	layer.Draw(canvas, view)

	// A polygon's centre shows its fill (unless a wall or edge runs through it).
	filled := 0
	for i := range layer.polys {
		at := view.ToScreen(polygonCentre(layer, i))
		if canvas.Image().RGBAAt(int(at.X), int(at.Y)) == layer.polys[i].fill {
			filled++
		}
	}
	assert.Greater(t, filled, len(layer.polys)*8/10)
	assert.Equal(t, Background, canvas.Image().RGBAAt(1, 1), "the corner is outside the level")

	// Agents on a few polygons, one per hue, moving right.
	var agents []Agent
	for i := 0; i < 6; i++ {
		centre := polygonCentre(layer, i*len(layer.polys)/6)
		agents = append(agents, Agent{Position: centre, Velocity: geom.Vec3{1, 0, 0}, Radius: 0.6, Hue: i})
	}
	background := append([]byte(nil), canvas.Image().Pix...)
	for frame := 0; frame < 3; frame++ {
		copy(canvas.Image().Pix, background)
		for i := range agents {
			agents[i].Position[2] += 0.3 // they move between frames
		}
		DrawAgents(canvas, view, []*NavmeshLayer{layer}, agents, nil, DefaultOverlays)
		for _, a := range agents {
			centre := view.ToScreen(a.Position)
			radius := view.Pixels(a.Radius)
			hue := 0
			for y := int(centre.Y - radius); y <= int(centre.Y+radius); y++ {
				for x := int(centre.X - radius); x <= int(centre.X+radius); x++ {
					if canvas.Image().RGBAAt(x, y) == AgentHue(a.Hue) {
						hue++
					}
				}
			}
			assert.Greater(t, float32(hue), radius*radius, "frame %d agent %d: its color fills its disc", frame, a.Hue)
			// Left of the centre (away from the velocity line) is the agent.
			assert.Equal(t, AgentHue(a.Hue), canvas.Image().RGBAAt(int(centre.X-float32(radius/2)), int(centre.Y)), "frame %d agent %d", frame, a.Hue)
		}
	}
}

func TestOverlaysDrawDebugState(t *testing.T) {
	layer, err := NewNavmeshLayer(soloDungeon(t))
	require.NoError(t, err)
	canvas := render.NewRaster(400, 500)
	view := Fit(layer.Min, layer.Max, 400, 500, 8)
	a := polygonCentre(layer, 10)
	b := geom.Add(a, geom.Vec3{3, 0, 0})
	agents := []Agent{{Position: a, Radius: 0.6}, {Position: b, Radius: 0.6, Hue: 1}}
	corner := geom.Add(a, geom.Vec3{0, 0, 4})
	debug := []AgentDebug{{Corners: []query.StraightPathPoint{{Pos: corner}}, Neighbours: []int{1}}, {}}

	canvas.Clear(Background)
	DrawAgents(canvas, view, []*NavmeshLayer{layer}, agents, debug, Overlays{Corners: true, Neighbours: true})
	at := view.ToScreen(corner)
	assert.Equal(t, CornerMark, canvas.Image().RGBAAt(int(at.X), int(at.Y)))
	mid := view.ToScreen(geom.Lerp(a, b, 0.5))
	assert.Equal(t, NeighbourLine, canvas.Image().RGBAAt(int(mid.X), int(mid.Y)))

	canvas.Clear(Background)
	DrawAgents(canvas, view, []*NavmeshLayer{layer}, agents, debug, Overlays{})
	assert.Equal(t, Background, canvas.Image().RGBAAt(int(at.X), int(at.Y)), "overlays off draw nothing")
}

// TestRefreshShowsCarvedHoles: after a tile cache carves a hole, Refresh
// takes the new snapshot and the drawn layer shows the background there.
func TestRefreshShowsCarvedHoles(t *testing.T) {
	file, err := os.ReadFile("../../../navcore/tilecache/testdata/tc48_dungeon.tset")
	require.NoError(t, err)
	cache, _, _, err := tilecache.Load(file, tilecache.Options{})
	require.NoError(t, err)
	update := func() {
		for done := false; !done; {
			done, err = cache.Update(tilecache.Budget{})
			require.NoError(t, err)
		}
	}
	update()
	layer, err := NewNavmeshLayer(cache.Mesh())
	require.NoError(t, err)
	assert.False(t, layer.Refresh(), "nothing changed")
	before := struct {
		walls    int
		min, max geom.Vec3
	}{layer.Walls(), layer.Min, layer.Max}

	const width, height = 400, 600
	view := Fit(layer.Min, layer.Max, width, height, 8)
	draw := func() *render.Raster {
		canvas := render.NewRaster(width, height)
		canvas.Clear(Background)
		layer.Draw(canvas, view)
		return canvas
	}
	// A big crate in the middle of a wide room.
	centre := geom.Vec3{47.2419357, 9.69729424, -3.66440248}
	at := view.ToScreen(centre)
	require.NotEqual(t, Background, draw().Image().RGBAAt(int(at.X), int(at.Y)), "the floor is drawn there")

	_, err = cache.AddObstacle(tilecache.Cylinder(geom.Sub(centre, geom.Vec3{0, 0.5, 0}), 1.5, 2))
	require.NoError(t, err)
	update()
	require.True(t, layer.Refresh(), "the tiles were rebuilt")
	assert.False(t, layer.Refresh(), "and taken")
	assert.Greater(t, layer.Walls(), before.walls, "the hole's walls")
	assert.Equal(t, before.min, layer.Min, "the bounds stay put")
	assert.Equal(t, before.max, layer.Max)
	assert.Equal(t, Background, draw().Image().RGBAAt(int(at.X), int(at.Y)), "the hole shows the background")
}
