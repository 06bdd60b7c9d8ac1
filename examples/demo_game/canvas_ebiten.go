//go:build ebiten

package main

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"github.com/archenav/archenav/examples/demo_game/render"
)

// ebitenCanvas is render.Canvas on an ebiten image, anti-aliased.
type ebitenCanvas struct {
	target   *ebiten.Image
	white    *ebiten.Image // 1×1 white source for filled shapes
	glyphs   map[rune]*ebiten.Image
	path     vector.Path
	vertices []ebiten.Vertex
	indices  []uint16
}

var _ render.Canvas = (*ebitenCanvas)(nil)

// newEbitenCanvas returns a canvas; call retarget before drawing.
func newEbitenCanvas() *ebitenCanvas {
	white := ebiten.NewImage(3, 3)
	white.Fill(color.White)
	return &ebitenCanvas{
		white:  white.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image),
		glyphs: glyphAtlas(),
	}
}

// glyphAtlas draws every printable ASCII character once, white on
// transparent, with the demo's bitmap font.
func glyphAtlas() map[rune]*ebiten.Image {
	const first, last = 32, 126
	raster := render.NewRaster((last-first+1)*render.GlyphWidth, render.GlyphHeight)
	for r := rune(first); r <= last; r++ {
		raster.Text(render.Point{X: float32(int(r-first) * render.GlyphWidth)}, string(r), 1, color.RGBA{255, 255, 255, 255})
	}
	atlas := ebiten.NewImageFromImage(raster.Image())
	glyphs := make(map[rune]*ebiten.Image, last-first+1)
	for r := rune(first); r <= last; r++ {
		x := int(r-first) * render.GlyphWidth
		glyphs[r] = atlas.SubImage(image.Rect(x, 0, x+render.GlyphWidth, render.GlyphHeight)).(*ebiten.Image)
	}
	return glyphs
}

func (c *ebitenCanvas) retarget(target *ebiten.Image) { c.target = target }

func (c *ebitenCanvas) Size() (width, height int) {
	b := c.target.Bounds()
	return b.Dx(), b.Dy()
}

func (c *ebitenCanvas) Clear(col color.RGBA) { c.target.Fill(col) }

func (c *ebitenCanvas) Line(a, b render.Point, width float32, col color.RGBA) {
	if width <= 0 {
		return
	}
	vector.StrokeLine(c.target, a.X, a.Y, b.X, b.Y, width, col, true)
}

func (c *ebitenCanvas) Polygon(points []render.Point, col color.RGBA) {
	if len(points) < 3 {
		return
	}
	if convex(points) {
		c.fillConvex(points, col)
		return
	}
	c.path = vector.Path{}
	c.path.MoveTo(points[0].X, points[0].Y)
	for _, p := range points[1:] {
		c.path.LineTo(p.X, p.Y)
	}
	c.path.Close()
	c.vertices, c.indices = c.path.AppendVerticesAndIndicesForFilling(c.vertices[:0], c.indices[:0])
	r, g, b, a := col.RGBA()
	for i := range c.vertices {
		v := &c.vertices[i]
		v.SrcX, v.SrcY = 1, 1
		v.ColorR, v.ColorG, v.ColorB, v.ColorA = float32(r)/0xffff, float32(g)/0xffff, float32(b)/0xffff, float32(a)/0xffff
	}
	op := &ebiten.DrawTrianglesOptions{FillRule: ebiten.FillRuleEvenOdd, AntiAlias: true}
	op.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	c.target.DrawTriangles(c.vertices, c.indices, c.white, op)
}

// fillConvex fills a convex polygon as a triangle fan. Unlike the general
// path fill it needs no stencil pass, so consecutive fills batch into one
// draw call: navmesh polygons and corridor overlays are all convex.
func (c *ebitenCanvas) fillConvex(points []render.Point, col color.RGBA) {
	r, g, b, a := col.RGBA()
	c.vertices, c.indices = c.vertices[:0], c.indices[:0]
	for _, p := range points {
		c.vertices = append(c.vertices, ebiten.Vertex{
			DstX: p.X, DstY: p.Y, SrcX: 1, SrcY: 1,
			ColorR: float32(r) / 0xffff, ColorG: float32(g) / 0xffff, ColorB: float32(b) / 0xffff, ColorA: float32(a) / 0xffff,
		})
	}
	for i := 2; i < len(points); i++ {
		c.indices = append(c.indices, 0, uint16(i-1), uint16(i))
	}
	op := &ebiten.DrawTrianglesOptions{}
	op.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	c.target.DrawTriangles(c.vertices, c.indices, c.white, op)
}

// convex reports whether points outline a convex polygon (either winding;
// collinear points allowed), small enough for 16-bit indices.
func convex(points []render.Point) bool {
	if len(points) > 1<<15 {
		return false
	}
	sign := 0
	n := len(points)
	for i := range points {
		a, b, c := points[i], points[(i+1)%n], points[(i+2)%n]
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		switch {
		case cross > 0 && sign < 0, cross < 0 && sign > 0:
			return false
		case cross > 0:
			sign = 1
		case cross < 0:
			sign = -1
		}
	}
	return sign != 0
}

func (c *ebitenCanvas) Circle(center render.Point, radius, stroke float32, col color.RGBA) {
	if radius <= 0 {
		return
	}
	if stroke <= 0 || stroke >= radius {
		vector.DrawFilledCircle(c.target, center.X, center.Y, radius, col, true)
		return
	}
	vector.StrokeCircle(c.target, center.X, center.Y, radius-stroke/2, stroke, col, true)
}

func (c *ebitenCanvas) Text(at render.Point, s string, scale int, col color.RGBA) {
	scale = max(scale, 1)
	x, y := at.X, at.Y
	for _, r := range s {
		if r == '\n' {
			x, y = at.X, y+float32(render.GlyphHeight*scale)
			continue
		}
		glyph, ok := c.glyphs[r]
		if !ok {
			glyph = c.glyphs['?']
		}
		op := &ebiten.DrawImageOptions{}
		op.GeoM.Scale(float64(scale), float64(scale))
		op.GeoM.Translate(float64(x), float64(y))
		op.ColorScale.ScaleWithColor(col)
		c.target.DrawImage(glyph, op)
		x += float32(render.GlyphWidth * scale)
	}
}
