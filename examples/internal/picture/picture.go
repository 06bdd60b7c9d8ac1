// Package picture draws the PNG each small example writes: a top view of a
// navmesh with the agents of a crowd, the trails they walked and a few
// marks of the example's own (a closed door, a hazard, a rebuilt tile),
// under a caption.
//
// It draws through navcore/debugdraw: the navmesh with navcore/navdraw, the
// agents with plugin/crowddraw, the marks with debugdraw's shapes, all
// recorded and then rasterized by navcore/debugdraw/raster. The caption is
// written with the demo's bitmap font.
package picture

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/debugdraw/raster"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/plugin/crowddraw"
	"github.com/mlange-42/arche/ecs"
)

// Colors for the examples' marks.
var (
	// Red marks something closed or dangerous.
	Red = color.NRGBA{230, 50, 40, 255}
	// Yellow marks something that changed.
	Yellow = color.NRGBA{250, 210, 40, 255}
	// White is for neutral marks.
	White = color.NRGBA{250, 250, 250, 255}
	// Purple is for off-mesh links.
	Purple = color.NRGBA{200, 90, 240, 255}
	// background is behind the navmesh.
	background = color.NRGBA{28, 30, 36, 255}
	// captionColor writes the caption.
	captionColor = color.RGBA{240, 240, 240, 255}
)

// margin is the free border around the level [Units: pixels].
const margin = 12

// lift raises the marks above the surface they lie on, so that the depth
// test shows them over it (the navmesh lies up to a cell height or two
// above the level's floors) [Units: world units].
const lift = 0.5

// captionScale is the caption font's scale (6×8 pixel cells at 1).
const captionScale = 2

// Picture is a top view of one navmesh being drawn on: the drawing is
// recorded and rasterized by WritePNG.
type Picture struct {
	scene   debugdraw.Recorder
	snap    *navmesh.Snapshot
	style   navdraw.Style
	view    debugdraw.View
	caption string
}

// New returns a picture width pixels wide (the height follows the level's
// shape) with the navmesh of mesh drawn as it is now: polygons by area,
// inner edges, walls, tile borders and off-mesh connections.
func New(mesh *navmesh.Mesh, width int) (*Picture, error) {
	if width < 64 {
		return nil, fmt.Errorf("picture: width %d below 64 pixels", width)
	}
	if mesh == nil {
		return nil, errors.New("picture: nil mesh")
	}
	p := &Picture{snap: mesh.Snapshot(), style: navdraw.DefaultStyle()}
	p.style.PolygonAlpha = 150
	navdraw.Mesh(&p.scene, p.snap, navdraw.Polygons|navdraw.InnerEdges|navdraw.Walls|navdraw.TileBorders|navdraw.OffMeshConnections, p.style)
	bmin, bmax, ok := p.scene.Bounds()
	if !ok || !(bmax[0] > bmin[0]) || !(bmax[2] > bmin[2]) {
		return nil, errors.New("picture: the navmesh is empty or flat in x or z")
	}
	// The view is fixed by the navmesh, so marks off it do not move it.
	height := int(float32(width-2*margin)*(bmax[2]-bmin[2])/(bmax[0]-bmin[0])) + 2*margin
	p.view = debugdraw.TopView(bmin, bmax, width, height, margin)
	return p, nil
}

// Caption sets the line written above the picture.
func (p *Picture) Caption(text string) { p.caption = text }

// Polygon fills navmesh polygon ref with c.
func (p *Picture) Polygon(ref navmesh.Ref, c color.NRGBA) {
	navdraw.Polygon(&p.scene, p.snap, ref, c, p.style)
}

// Trail draws the line through points in trail color hue (see Hue).
func (p *Picture) Trail(points []geom.Vec3, hue int) {
	p.Line(points, Hue(hue), 2)
}

// hues are the trail colors, bright on the navmesh's blues.
var hues = [...]color.NRGBA{
	{255, 128, 0, 255},
	{255, 80, 120, 255},
	{120, 230, 60, 255},
	{250, 220, 40, 255},
	{190, 110, 255, 255},
	{255, 255, 255, 255},
}

// Hue returns trail color hue (any number, repeating).
func Hue(hue int) color.NRGBA { return hues[(hue%len(hues)+len(hues))%len(hues)] }

// Line draws the line through points, width pixels wide.
func (p *Picture) Line(points []geom.Vec3, c color.NRGBA, width float32) {
	for i := 1; i < len(points); i++ {
		p.scene.Line(lifted(points[i-1]), lifted(points[i]), width, c)
	}
}

// Ring draws the horizontal circle of radius around center, stroke pixels
// wide, or a filled disc when stroke is 0 [Units: world units].
func (p *Picture) Ring(center geom.Vec3, radius, stroke float32, c color.NRGBA) {
	if stroke > 0 {
		debugdraw.Circle(&p.scene, lifted(center), radius, stroke, c)
		return
	}
	debugdraw.Disc(&p.scene, lifted(center), radius, c)
}

// Crowd draws the agents of world (a world the crowd plugin is installed
// in): their bodies, velocities and targets.
func (p *Picture) Crowd(world *ecs.World) error {
	c, err := crowddraw.New(world)
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	c.Draw(&p.scene, crowddraw.DefaultLayers, p.style)
	return nil
}

// Size returns the picture's size, caption included [Units: pixels].
func (p *Picture) Size() (width, height int) {
	w, h := p.view.Size()
	return w, h + captionHeight()
}

// Primitives returns the number of primitives drawn so far.
func (p *Picture) Primitives() int { return p.scene.Len() }

func captionHeight() int { return render.GlyphHeight*captionScale + 8 }

// Image rasterizes the picture.
func (p *Picture) Image() (*image.RGBA, error) {
	canvas, err := raster.New(p.view, raster.Options{Samples: 2})
	if err != nil {
		return nil, fmt.Errorf("picture: %w", err)
	}
	canvas.Clear(background)
	p.scene.Replay(canvas)
	drawing := canvas.Image()
	width, height := p.Size()
	out := image.NewRGBA(image.Rect(0, 0, width, height))
	draw.Draw(out, out.Bounds(), &image.Uniform{background}, image.Point{}, draw.Src)
	draw.Draw(out, drawing.Bounds().Add(image.Point{0, captionHeight()}), drawing, image.Point{}, draw.Src)
	render.EachGlyphPixel(p.caption, func(col, row int) {
		for dy := range captionScale {
			for dx := range captionScale {
				out.SetRGBA(margin+col*captionScale+dx, 4+row*captionScale+dy, captionColor)
			}
		}
	})
	return out, nil
}

// WritePNG writes the picture to path, making its directory first.
func (p *Picture) WritePNG(path string) error {
	img, err := p.Image()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("picture: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("picture: %w", err)
	}
	return nil
}

// lifted returns p raised by lift.
func lifted(p geom.Vec3) geom.Vec3 { return geom.Vec3{p[0], p[1] + lift, p[2]} }
