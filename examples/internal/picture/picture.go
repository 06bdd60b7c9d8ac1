// Package picture draws the PNG each small example writes: a top view of a
// navmesh with the agents, the trails they walked, and a few marks of the
// example's own (a closed door, a hazard, a rebuilt tile) with a caption.
//
// It draws with the demo's raster code (examples/demo_game/render and
// scene) for now: it is the one place to switch when the debug-drawing
// library (navcore/debugdraw) lands.
package picture

import (
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/examples/demo_game/scene"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Colors for the examples' marks, on top of the scene's.
var (
	// Red marks something closed or dangerous.
	Red = color.RGBA{230, 60, 50, 255}
	// Yellow marks something that changed.
	Yellow = scene.TileBorder
	// White is for neutral marks.
	White = scene.VelocityLine
	// Purple is the off-mesh links' color.
	Purple = scene.OffMeshLink
)

// margin is the free border around the level [Units: pixels].
const margin = 12

// Picture is a top view of one navmesh being drawn on.
type Picture struct {
	raster *render.Raster
	view   scene.View
	layer  *scene.NavmeshLayer
}

// New returns a picture width pixels wide (the height follows the level's
// shape), with the navmesh of mesh drawn on a dark background.
func New(mesh *navmesh.Mesh, width int) (*Picture, error) {
	if width < 64 {
		return nil, fmt.Errorf("picture: width %d below 64 pixels", width)
	}
	layer, err := scene.NewNavmeshLayer(mesh)
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	spanX, spanZ := layer.Max[0]-layer.Min[0], layer.Max[2]-layer.Min[2]
	if !(spanX > 0) || !(spanZ > 0) {
		return nil, errors.New("picture: the navmesh is flat in x or z")
	}
	height := int(float32(width-2*margin)*spanZ/spanX) + 2*margin + captionHeight
	p := &Picture{raster: render.NewRaster(width, height), layer: layer}
	p.view = scene.Fit(layer.Min, layer.Max, width, height-captionHeight, margin)
	p.view.OffsetY += captionHeight
	p.raster.Clear(scene.Background)
	layer.Draw(p.raster, p.view)
	return p, nil
}

// captionHeight is the band at the top that holds the caption [Units: pixels].
const captionHeight = render.GlyphHeight*2 + 8

// Caption writes text in the band at the top.
func (p *Picture) Caption(text string) {
	p.raster.Text(render.Point{X: margin, Y: 4}, text, 2, scene.TextColor)
}

// Polygon fills navmesh polygon ref with c (over the mesh, under the rest).
func (p *Picture) Polygon(ref navmesh.Ref, c color.RGBA) {
	p.layer.DrawPolygon(p.raster, p.view, ref, c)
}

// Trail draws the line through points in agent hue's path shade.
func (p *Picture) Trail(points []geom.Vec3, hue int) {
	p.Line(points, scene.AgentHue(hue), 0.08)
}

// Line draws the line through points, width world units wide (at least a
// pixel).
func (p *Picture) Line(points []geom.Vec3, c color.RGBA, width float32) {
	w := max(1, p.view.Pixels(width))
	for i := 1; i < len(points); i++ {
		p.raster.Line(p.view.ToScreen(points[i-1]), p.view.ToScreen(points[i]), w, c)
	}
}

// Ring draws a circle of radius around center, a ring when stroke > 0
// [Units: world units].
func (p *Picture) Ring(center geom.Vec3, radius, stroke float32, c color.RGBA) {
	s := float32(0)
	if stroke > 0 {
		s = max(1, p.view.Pixels(stroke))
	}
	p.raster.Circle(p.view.ToScreen(center), max(1, p.view.Pixels(radius)), s, c)
}

// Agents draws the agents (circles of their radius, velocity lines,
// targets and paths).
func (p *Picture) Agents(agents []scene.Agent) {
	scene.DrawAgents(p.raster, p.view, p.layer, agents, nil, scene.DefaultOverlays)
}

// Size returns the picture's size [Units: pixels].
func (p *Picture) Size() (width, height int) { return p.raster.Size() }

// WritePNG writes the picture to path, making its directory first.
func (p *Picture) WritePNG(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	if err := png.Encode(f, p.raster.Image()); err != nil {
		f.Close()
		return fmt.Errorf("picture: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	return nil
}
