package main

import (
	"bytes"
	"encoding/xml"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
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
