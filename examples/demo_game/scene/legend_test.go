package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/archenav/archenav/examples/demo_game/render"
)

// TestLegendDrawsEverySwatch: each entry's swatch shows its colour, the
// text fits the width LegendWidth gives, and nothing is drawn beyond it.
func TestLegendDrawsEverySwatch(t *testing.T) {
	entries := []LegendEntry{
		{Label: "small r0.6", Color: AgentHue(TypeHue(0))},
		{Label: "large r1.8", Color: AgentHue(TypeHue(1))},
		{Label: "large mesh edge", Color: LargeOutline, Swatch: SwatchLine},
		{Label: "only small", Swatch: SwatchHatch},
	}
	for _, scale := range []int{1, 2} {
		width := LegendWidth(entries, scale)
		canvas := render.NewRaster(width+40, 40)
		canvas.Clear(TextBackground)
		DrawLegend(canvas, render.Point{X: 4, Y: 4}, scale, entries)
		for _, c := range []interface{ RGBA() (r, g, b, a uint32) }{AgentHue(0), AgentHue(4), LargeOutline, SmallOnlyHatch, TextColor} {
			assert.Positive(t, countPixels(canvas, c), "scale %d: colour %v", scale, c)
		}
		img := canvas.Image()
		for y := 0; y < 40; y++ {
			for x := 4 + width + 1; x < width+40; x++ {
				assert.Equal(t, TextBackground, img.RGBAAt(x, y), "scale %d: nothing right of the legend", scale)
			}
		}
	}
	assert.NotEqual(t, AgentHue(TypeHue(0)), AgentHue(TypeHue(1)), "two types, two colours")
}
