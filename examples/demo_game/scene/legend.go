package scene

import (
	"image/color"

	"github.com/archenav/archenav/examples/demo_game/render"
)

// LegendEntry is one item of a legend line: a swatch and its label.
type LegendEntry struct {
	// Label is printed after the swatch (the bitmap font prints it in
	// capitals).
	Label string
	// Color colours the swatch.
	Color color.RGBA
	// Swatch is the swatch's shape.
	Swatch Swatch
}

// Swatch is the shape of a legend entry's swatch.
type Swatch int

// The swatches.
const (
	// SwatchDot is an agent: a dot of the entry's colour.
	SwatchDot Swatch = iota
	// SwatchHatch is a square of ground hatched like MeshDifference's
	// regions.
	SwatchHatch
	// SwatchLine is a line of the entry's colour across ground, as
	// NavmeshLayer.DrawOutline draws.
	SwatchLine
)

// LegendWidth returns the width of the legend line at font scale
// [Units: pixels].
func LegendWidth(entries []LegendEntry, scale int) int {
	width := 0
	for i, e := range entries {
		text, _ := render.TextSize(e.Label)
		width += swatchSize(scale) + scale*3 + text*scale
		if i > 0 {
			width += legendGap * scale
		}
	}
	return width
}

// legendGap is the space between two entries [Units: pixels at scale 1].
const legendGap = 10

func swatchSize(scale int) int { return render.GlyphHeight*scale - scale }

// DrawLegend prints the entries on one line from at (its top-left corner)
// in the bitmap font at scale, each after its swatch.
func DrawLegend(c render.Canvas, at render.Point, scale int, entries []LegendEntry) {
	x := at.X
	size := float32(swatchSize(scale))
	for i, e := range entries {
		if i > 0 {
			x += float32(legendGap * scale)
		}
		switch e.Swatch {
		case SwatchHatch:
			render.FillRect(c, x, at.Y, x+size, at.Y+size, areaShade(0, heightShades-1))
			for k := float32(0); k < 2*size; k += hatchSpacing {
				// The diagonal x + y = k inside the square.
				a := render.Point{X: x + min(k, size), Y: at.Y + max(0, k-size)}
				b := render.Point{X: x + max(0, k-size), Y: at.Y + min(k, size)}
				c.Line(a, b, hatchWidth, SmallOnlyHatch)
			}
		case SwatchLine:
			render.FillRect(c, x, at.Y, x+size, at.Y+size, areaShade(0, heightShades-1))
			c.Line(render.Point{X: x, Y: at.Y + float32(size/2)}, render.Point{X: x + size, Y: at.Y + float32(size/2)}, float32(max(2, scale)), e.Color)
		default:
			c.Circle(render.Point{X: x + float32(size/2), Y: at.Y + float32(size/2)}, size/2, 0, e.Color)
			c.Circle(render.Point{X: x + float32(size/2), Y: at.Y + float32(size/2)}, size/2, max(1, size/8), AgentOutline)
		}
		x += size + float32(scale*3)
		c.Text(render.Point{X: x, Y: at.Y}, e.Label, scale, TextColor)
		width, _ := render.TextSize(e.Label)
		x += float32(width * scale)
	}
}
