package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/tilecache"
)

// runDrawFile runs navtool draw with args and returns what it printed.
func runDrawFile(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	require.NoError(t, run(append([]string{"draw"}, args...), &stdout, &stderr))
	return stdout.String()
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

func nrgba(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func TestDrawTopViewShowsThePolygons(t *testing.T) {
	out := filepath.Join(t.TempDir(), "top.png")
	printed := runDrawFile(t, "-size", "300", "-samples", "1", "-o", out, dungeonTile)
	assert.Contains(t, printed, "top view of "+dungeonTile+" (DNAV, 1 tiles)")
	img := decodePNG(t, out)

	mesh, _, err := navmesh.LoadFile(dungeonTile)
	require.NoError(t, err)
	tile := mesh.Tile(0)
	// The picture frames what is drawn.
	var scene debugdraw.Recorder
	navdraw.Mesh(&scene, mesh.Snapshot(), navdraw.DefaultLayers, navdraw.DefaultStyle())
	width, height := scene.FitSize(0, 90, 300-2*drawMargin, 64, drawMargin)
	assert.Equal(t, image.Rect(0, 0, width, height), img.Bounds())
	assert.Equal(t, 300, max(width, height), "the long side as asked")
	view := scene.FitView(0, 90, width, height, drawMargin)

	assert.Equal(t, drawBackground, nrgba(img, 0, 0), "the margin shows the background")
	// The centre of every polygon large enough to hold a few pixels shows
	// its fill (walls and edges cover the rest).
	checked := 0
	for p := range tile.Polys {
		poly := &tile.Polys[p]
		if poly.Type() != navmesh.PolyTypeGround {
			continue
		}
		var centre [3]float32
		for j := range int(poly.VertCount) {
			v := tile.Verts[poly.Verts[j]]
			for k := range 3 {
				centre[k] += v[k] / float32(poly.VertCount)
			}
		}
		x, y, _ := view.Project(centre)
		c := nrgba(img, int(x), int(y))
		if c == drawBackground {
			continue // a sliver whose centre falls between pixels of edges
		}
		checked++
		assert.Greater(t, int(c.B), int(c.R), "polygon %d at (%d, %d) is blue: %v", p, int(x), int(y), c)
	}
	assert.Greater(t, checked, 100, "most of the 118 polygons")
}

func TestDrawIsoWithLevelAndPaths(t *testing.T) {
	dir := t.TempDir()
	pairs := filepath.Join(dir, "pairs.csv")
	require.NoError(t, os.WriteFile(pairs, []byte(
		"sx,sy,sz,ex,ey,ez\n"+
			"21.8053551,25.1112499,-86.806427,40.6315918,10.1972942,-5.19780874\n"+
			"-9.17410278,10.1972942,-20.340023,23.7297325,15.0986919,-73.5664291\n"+
			"500,0,500,501,0,501\n"), 0o644)) // off the mesh: skipped
	plain, withPaths := filepath.Join(dir, "plain.png"), filepath.Join(dir, "paths.png")
	runDrawFile(t, "-view", "iso", "-size", "240", "-obj", dungeonOBJ, "-o", plain, dungeonTile)
	printed := runDrawFile(t, "-view", "iso", "-size", "240", "-obj", dungeonOBJ, "-pairs", pairs, "-o", withPaths, dungeonTile)
	assert.Contains(t, printed, "iso view")
	assert.Contains(t, printed, ", 2 paths,")
	a, b := decodePNG(t, plain), decodePNG(t, withPaths)
	require.Equal(t, a.Bounds(), b.Bounds())
	assert.Equal(t, 240, a.Bounds().Dx(), "the dungeon is wider than high at this angle")
	differing := 0
	for y := range a.Bounds().Dy() {
		for x := range a.Bounds().Dx() {
			if nrgba(a, x, y) != nrgba(b, x, y) {
				differing++
			}
		}
	}
	assert.Greater(t, differing, 100, "the paths show")
}

func TestDrawSVG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "mesh.svg")
	runDrawFile(t, "-layers", "all", "-color", "tile", "-o", out, dungeonTile)
	doc, err := os.ReadFile(out)
	require.NoError(t, err)
	var parsed struct {
		XMLName xml.Name
		Paths   []struct{} `xml:"path"`
	}
	require.NoError(t, xml.Unmarshal(doc, &parsed))
	assert.Equal(t, "svg", parsed.XMLName.Local)
	assert.Greater(t, len(parsed.Paths), 10)
	fill := debugdraw.IndexColor(1, 200)
	assert.Contains(t, string(doc), strings.ToLower(
		"fill=\"#"+hexByte(fill.R)+hexByte(fill.G)+hexByte(fill.B)+"\""), "polygons in the tile's colour")
}

func hexByte(b uint8) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&15]})
}

func TestDrawErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no file", []string{"-o", out}, "want one navmesh file"},
		{"no output", []string{dungeonTile}, "-o is required"},
		{"bad extension", []string{"-o", filepath.Join(dir, "out.jpg"), dungeonTile}, "want a .png or .svg file"},
		{"bad view", []string{"-view", "side", "-o", out, dungeonTile}, `-view "side"`},
		{"bad layer", []string{"-layers", "mesh,tils", "-o", out, dungeonTile}, `unknown layer "tils"`},
		{"bad colour", []string{"-color", "region", "-o", out, dungeonTile}, `-color "region"`},
		{"bad size", []string{"-size", "5", "-o", out, dungeonTile}, "-size 5"},
		{"bad samples", []string{"-samples", "9", "-o", out, dungeonTile}, "-samples 9"},
		{"bad slope", []string{"-slope", "100", "-o", out, dungeonTile}, "-slope 100"},
		{"no layers", []string{"-layers", "", "-o", out, dungeonTile}, "nothing to draw"},
		{"missing navmesh", []string{"-o", out, filepath.Join(dir, "missing.bin")}, "no such file"},
		{"missing level", []string{"-obj", filepath.Join(dir, "missing.obj"), "-o", out, dungeonTile}, "no such file"},
		{"missing pairs", []string{"-pairs", filepath.Join(dir, "missing.csv"), "-o", out, dungeonTile}, "no such file"},
		{"unwritable output", []string{"-o", filepath.Join(dir, "no", "such", "dir.png"), dungeonTile}, "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(append([]string{"draw"}, tt.args...), &stdout, &stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantErr)
			assert.True(t, strings.HasPrefix(err.Error(), "draw: "), err.Error())
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no output after an error")
}

func TestDrawTileCacheAfterItsObstacles(t *testing.T) {
	tset := tileCacheData + "tc48_dungeon.tset"
	obstacles := tileCacheData + "tc48_dungeon_obstacles.csv"
	raw, err := os.ReadFile(tileCacheData + "tc48_dungeon.json")
	require.NoError(t, err)
	var reference tileCacheReference
	require.NoError(t, json.Unmarshal(raw, &reference))

	// The navmesh drawn is the one built after the obstacles: the C++
	// figures of the tile cache reference.
	for _, c := range []struct {
		name, obstacles string
		want            string
		count           int
	}{
		{"bare", "", reference.Initial.TileHash, 0},
		{"with obstacles", obstacles, reference.WithObstacles.TileHash, 80},
	} {
		t.Run(c.name, func(t *testing.T) {
			mesh, cache, format, err := loadDrawInput(&drawOptions{navmeshPath: tset, obstacles: c.obstacles})
			require.NoError(t, err)
			assert.Equal(t, "TSET tile cache", format)
			summary, err := tilecache.Summarize(mesh.Snapshot())
			require.NoError(t, err)
			assert.Equal(t, c.want, fmt.Sprintf("%016x", summary.TileHash))
			infos := cache.Obstacles(nil)
			assert.Len(t, infos, c.count)
			for _, info := range infos {
				assert.Equal(t, tilecache.ObstacleUpToDate, info.Status)
			}
		})
	}

	out := filepath.Join(t.TempDir(), "obstacles.png")
	bare := filepath.Join(t.TempDir(), "bare.png")
	printed := runDrawFile(t, "-size", "400", "-samples", "1", "-obstacles", obstacles, "-o", out, tset)
	assert.Contains(t, printed, "top view of "+tset+" (TSET tile cache, 28 tiles, 80 obstacles)")
	runDrawFile(t, "-size", "400", "-samples", "1", "-o", bare, tset)

	// Where the picture shows each cylinder's centre, the obstacle is on
	// top: the obstacle fill over the mesh, not the mesh alone.
	mesh, cache, _, err := loadDrawInput(&drawOptions{navmeshPath: tset, obstacles: obstacles})
	require.NoError(t, err)
	style := navdraw.DefaultStyle()
	var scene debugdraw.Recorder
	navdraw.Mesh(&scene, mesh.Snapshot(), navdraw.DefaultLayers, style)
	infos := cache.Obstacles(nil)
	navdraw.TileCacheObstacles(&scene, infos, style)
	width, height := scene.FitSize(0, 90, 400-2*drawMargin, 64, drawMargin)
	view := scene.FitView(0, 90, width, height, drawMargin)
	img := decodePNG(t, out)
	require.Equal(t, image.Rect(0, 0, width, height), img.Bounds())
	bareMesh, _, _, err := loadDrawInput(&drawOptions{navmeshPath: tset})
	require.NoError(t, err)
	var bareScene debugdraw.Recorder
	navdraw.Mesh(&bareScene, bareMesh.Snapshot(), navdraw.DefaultLayers, style)
	bareWidth, bareHeight := bareScene.FitSize(0, 90, 400-2*drawMargin, 64, drawMargin)
	bareView := bareScene.FitView(0, 90, bareWidth, bareHeight, drawMargin)
	bareImg := decodePNG(t, bare)
	yellowish, bareYellowish := 0, 0
	cylinders := 0
	for _, info := range infos {
		if info.Obstacle.Shape != tilecache.ShapeCylinder {
			continue
		}
		cylinders++
		top := info.Obstacle.Position.Add(mgl32.Vec3{0, info.Obstacle.Height, 0})
		x, y, _ := view.Project(top)
		c := nrgba(img, int(x), int(y))
		// The obstacle colour (255, 192, 0) dominates: red over blue.
		if int(c.R) > int(c.B)+60 {
			yellowish++
		}
		x, y, _ = bareView.Project(top)
		if c := nrgba(bareImg, int(x), int(y)); int(c.R) > int(c.B)+60 {
			bareYellowish++
		}
	}
	require.Positive(t, cylinders)
	assert.GreaterOrEqual(t, yellowish, cylinders*9/10, "cylinders shown on top")
	assert.Zero(t, bareYellowish, "the same places without obstacles")
	assert.Equal(t, 28, mesh.Snapshot().TileCount())

	// An archenav tile cache file draws too, with its own obstacles.
	saved := filepath.Join(t.TempDir(), "dungeon.tcache")
	f, err := os.Create(saved)
	require.NoError(t, err)
	require.NoError(t, cache.Save(f))
	require.NoError(t, f.Close())
	printed = runDrawFile(t, "-view", "iso", "-size", "200", "-o", filepath.Join(t.TempDir(), "saved.svg"), saved)
	assert.Contains(t, printed, "(archenav tile cache, 28 tiles, 80 obstacles)")
}

func TestDrawObstacleErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.png")
	bad := filepath.Join(dir, "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("id,type,x,y,z,x2,y2,z2,radius,height,yaw\n1,cone,0,0,0,0,0,0,1,1,0\n"), 0o644))
	tset := tileCacheData + "tc48_dungeon.tset"
	for _, c := range []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"obstacles on a navmesh", []string{"-obstacles", tileCacheData + "tc48_dungeon_obstacles.csv", "-o", out, dungeonTile}, "is no tile cache file"},
		{"missing obstacles", []string{"-obstacles", filepath.Join(dir, "missing.csv"), "-o", out, tset}, "no such file"},
		{"bad obstacles", []string{"-obstacles", bad, "-o", out, tset}, `type "cone"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(append([]string{"draw"}, c.args...), &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.wantErr)
		})
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no output after an error")
}

func TestDrawTileCacheStages(t *testing.T) {
	tset := tileCacheData + "tc48_dungeon.tset"
	obstacles := tileCacheData + "tc48_dungeon_obstacles.csv"
	mesh, cache, _, err := loadDrawInput(&drawOptions{navmeshPath: tset, obstacles: obstacles})
	require.NoError(t, err)
	style := navdraw.DefaultStyle()
	params := cache.Params()
	// The oracle: the navdraw calls for each layer's stages, the obstacles
	// on top; no navmesh layer asked.
	var want debugdraw.Recorder
	for _, info := range cache.Layers(nil) {
		stages, err := cache.LayerStages(info.Ref)
		require.NoError(t, err)
		navdraw.TileCacheLayerRegions(&want, stages, params.CellSize, params.CellHeight)
		navdraw.TileCachePolyMesh(&want, stages, params.CellSize, params.CellHeight, style)
	}
	navdraw.TileCacheObstacles(&want, cache.Obstacles(nil), style)
	require.Positive(t, want.Len())
	assert.Equal(t, 28, mesh.Snapshot().TileCount())

	out := filepath.Join(t.TempDir(), "stages.svg")
	printed := runDrawFile(t, "-layers", "", "-cache-layers", "polymesh, regions", "-obstacles", obstacles, "-o", out, tset)
	assert.Contains(t, printed, fmt.Sprintf("80 obstacles), %d primitives", want.Len()), "regions, then poly mesh, of every layer")

	dir := t.TempDir()
	for _, c := range []struct {
		name, wantErr string
		args          []string
	}{
		{"unknown stage", `unknown stage "heights"`, []string{"-cache-layers", "regions,heights", "-o", filepath.Join(dir, "a.png"), tset}},
		{"stages of a navmesh", "is no tile cache file", []string{"-cache-layers", "regions", "-o", filepath.Join(dir, "b.png"), dungeonTile}},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := run(append([]string{"draw"}, c.args...), &bytes.Buffer{}, &bytes.Buffer{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.wantErr)
		})
	}
}
