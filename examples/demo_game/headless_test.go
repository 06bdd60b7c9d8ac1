package main

import (
	"bytes"
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
)

func TestHeadlessRunWritesGIFAndPNG(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	err := run([]string{"-out", dir, "-agents", "6", "-seconds", "1", "-size", "240x200", "-seed", "3"}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())

	out := stdout.String()
	assert.Contains(t, out, "level dungeon.obj: baked 10133 triangles")
	assert.Contains(t, out, "48 tiles, 145 polygons", "a tile cache by default")
	assert.Contains(t, out, "(a tile cache: 48 layers)")
	assert.Contains(t, out, "crowd: 6 agents, 30 ticks")
	assert.Contains(t, out, filepath.Join(dir, gifName))

	f, err := os.Open(filepath.Join(dir, gifName))
	require.NoError(t, err)
	defer f.Close()
	anim, err := gif.DecodeAll(f)
	require.NoError(t, err)
	assert.Len(t, anim.Image, 1+30/framePeriod, "a frame at the start and every framePeriod ticks")
	assert.Equal(t, 240, anim.Config.Width)
	assert.Equal(t, 200, anim.Config.Height)
	assert.Equal(t, holdLast, anim.Delay[len(anim.Delay)-1])

	p, err := os.Open(filepath.Join(dir, pngName))
	require.NoError(t, err)
	defer p.Close()
	img, err := png.Decode(p)
	require.NoError(t, err)
	assert.Equal(t, 240, img.Bounds().Dx())
}

func TestHeadlessRunReportsBadLevels(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.obj")
	require.NoError(t, os.WriteFile(bad, []byte("v 1 2\nf 1 2 3\n"), 0o644))
	var stdout, stderr bytes.Buffer
	err := run([]string{"-out", dir, "-level", bad}, &stdout, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bad.obj")
	err = run([]string{"-out", dir, "-level", filepath.Join(dir, "missing.obj")}, &stdout, &stderr)
	assert.Error(t, err)
	notMesh := filepath.Join(dir, "x.bin")
	require.NoError(t, os.WriteFile(notMesh, []byte("hello world"), 0o644))
	err = run([]string{"-out", dir, "-level", notMesh}, &stdout, &stderr)
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "not an .obj level"), err.Error())
	_, statErr := os.Stat(filepath.Join(dir, gifName))
	assert.True(t, os.IsNotExist(statErr), "nothing written on error")
}

// TestRecordedFramesShowAgentsWhereTheyAre renders a few frames of a
// running crowd and checks every agent's color around its position.
func TestRecordedFramesShowAgentsWhereTheyAre(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	o, err := parseOptions([]string{"-agents", "8", "-seed", "5"}, &bytes.Buffer{})
	require.NoError(t, err)
	d, err := setup(o)
	require.NoError(t, err)
	width, height := autoSize(d.layer, 600)
	rec, err := newRecorder(d, width, height)
	require.NoError(t, err)

	for frame := 0; frame < 4; frame++ {
		for tick := 0; tick < 10; tick++ {
			require.NoError(t, d.crowd.Step(1.0/tickRate))
		}
		require.NoError(t, rec.frame(frame*10))
		img := rec.canvas.Image()
		agents := d.crowd.Agents(nil)
		require.Len(t, agents, 8)
		for i, a := range agents {
			centre := rec.view.ToScreen(a.Position)
			radius := rec.view.Pixels(a.Radius)
			lit := 0
			for y := int(centre.Y - radius); y <= int(centre.Y+radius); y++ {
				for x := int(centre.X - radius); x <= int(centre.X+radius); x++ {
					if img.RGBAAt(x, y) == scene.AgentHue(a.Hue) {
						lit++
					}
				}
			}
			assert.Positive(t, lit, "frame %d: agent %d's color around %v", frame, i, centre)
		}
	}
	assert.Equal(t, 4, rec.animation.Len())
}

// TestHeadlessRunWithoutObstacles: -obstacles=false bakes the plain tiled
// navmesh of before, RecastDemo's 41 tiles of 32 cells.
func TestHeadlessRunWithoutObstacles(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	var stdout, stderr bytes.Buffer
	err := run([]string{"-out", t.TempDir(), "-agents", "4", "-seconds", "0.5", "-size", "240x200", "-obstacles=false"}, &stdout, &stderr)
	require.NoError(t, err, stderr.String())
	assert.Contains(t, stdout.String(), "41 tiles, 143 polygons")
	assert.NotContains(t, stdout.String(), "tile cache")
}

// TestRecordedFramesShowCarvedHoles runs the default script until the
// crates have carved: the navmesh is drawn again, so that the ring between
// a crate and the edge of its hole (grown by the agent radius) shows the
// background where it showed the floor before.
func TestRecordedFramesShowCarvedHoles(t *testing.T) {
	if testing.Short() {
		t.Skip("bakes the dungeon")
	}
	o, err := parseOptions([]string{"-agents", "8", "-seed", "5"}, &bytes.Buffer{})
	require.NoError(t, err)
	d, err := setup(o)
	require.NoError(t, err)
	width, height := autoSize(d.layer, 600)
	rec, err := newRecorder(d, width, height)
	require.NoError(t, err)
	first := append([]byte(nil), rec.background...)
	pixel := func(pix []byte, p render.Point) [4]byte {
		i := rec.canvas.Image().PixOffset(int(p.X), int(p.Y))
		return [4]byte(pix[i : i+4])
	}
	background := [4]byte{scene.Background.R, scene.Background.G, scene.Background.B, scene.Background.A}

	tick := 0
	landed := func() []scene.Obstacle {
		var crates []scene.Obstacle
		for _, c := range d.crowd.Obstacles(nil, -1) {
			if c.Kind == scene.Crate && !c.Pending {
				crates = append(crates, c)
			}
		}
		return crates
	}
	for ; tick < 5*tickRate && len(landed()) < 3; tick++ {
		require.NoError(t, d.crowd.Step(1.0/tickRate))
	}
	crates := landed()
	require.GreaterOrEqual(t, len(crates), 3, "crates landed by tick %d", tick)
	require.NoError(t, rec.frame(tick))

	holes := 0
	for _, c := range crates {
		var centre geom.Vec3
		for _, p := range c.Outline {
			centre = geom.Add(centre, geom.Scale(p, 1/float32(len(c.Outline))))
		}
		// Just outside each side of the crate: carved, so background now,
		// floor in the first background.
		for _, side := range []geom.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1}} {
			at := rec.view.ToScreen(geom.Add(centre, geom.Scale(side, 0.75+0.3)))
			if pixel(rec.background, at) == background && pixel(first, at) != background {
				holes++
				break
			}
		}
	}
	assert.GreaterOrEqual(t, holes, len(crates)*2/3, "%d of %d crates show their hole", holes, len(crates))
}
