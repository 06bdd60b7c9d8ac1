package scene

import (
	"image/color"

	"github.com/archenav/archenav/navcore/navmesh"
)

// The scene's fixed colors. Everything drawn uses these, the area shades and
// the agent hues, so a GIF of the scene fits one small palette exactly.
var (
	Background     = color.RGBA{28, 30, 36, 255}
	Wall           = color.RGBA{12, 14, 18, 255}
	InnerEdge      = color.RGBA{36, 84, 112, 255}
	TileBorder     = color.RGBA{236, 200, 72, 255}
	OffMeshLink    = color.RGBA{220, 120, 240, 255}
	AgentOutline   = color.RGBA{16, 16, 20, 255}
	VelocityLine   = color.RGBA{250, 250, 250, 255}
	TextColor      = color.RGBA{240, 240, 240, 255}
	TextBackground = color.RGBA{20, 22, 28, 255}
	CorridorFill   = color.RGBA{64, 48, 0, 80} // premultiplied, blends
	CornerMark     = color.RGBA{255, 255, 120, 255}
	NeighbourLine  = color.RGBA{120, 255, 160, 255}
	BoundaryLine   = color.RGBA{255, 90, 60, 255}
)

// heightShades is how many brightness steps show polygon height: higher
// floors are drawn brighter, so stacked levels stay apart.
const heightShades = 4

// areaBase returns the base color of a polygon area, after RecastDemo's
// sample areas: ground (0, and the default walkable area 63) light blue,
// water deep blue, road tan, door brown, grass green, jump yellow; other
// areas from a small table.
func areaBase(area uint8) color.RGBA {
	switch area {
	case 0, navmesh.MaxAreas - 1: // ground
		return color.RGBA{72, 160, 210, 255}
	case 1: // water
		return color.RGBA{40, 80, 200, 255}
	case 2: // road
		return color.RGBA{170, 150, 110, 255}
	case 3: // door
		return color.RGBA{150, 100, 60, 255}
	case 4: // grass
		return color.RGBA{80, 160, 70, 255}
	case 5: // jump
		return color.RGBA{200, 180, 60, 255}
	}
	table := [...]color.RGBA{
		{190, 90, 90, 255},
		{130, 90, 180, 255},
		{80, 170, 170, 255},
		{200, 140, 170, 255},
	}
	return table[int(area)%len(table)]
}

// areaShade returns the fill color of an area at height step shade
// (0..heightShades-1).
func areaShade(area uint8, shade int) color.RGBA {
	base := areaBase(area)
	factor := 0.62 + 0.38*float32(shade)/float32(heightShades-1)
	return scaleColor(base, factor)
}

func scaleColor(c color.RGBA, factor float32) color.RGBA {
	return color.RGBA{uint8(float32(c.R) * factor), uint8(float32(c.G) * factor), uint8(float32(c.B) * factor), c.A}
}

// agentHues are the agent colors, given out by agent index.
var agentHues = [...]color.RGBA{
	{255, 128, 0, 255},
	{255, 80, 120, 255},
	{120, 220, 60, 255},
	{250, 220, 40, 255},
	{180, 110, 255, 255},
	{40, 220, 210, 255},
}

// AgentHue returns the color of agent i.
func AgentHue(i int) color.RGBA { return agentHues[i%len(agentHues)] }

// pathShade is the color of agent i's path and target.
func pathShade(i int) color.RGBA {
	h := AgentHue(i)
	return color.RGBA{uint8((uint16(h.R) + 255) / 2), uint8((uint16(h.G) + 255) / 2), uint8((uint16(h.B) + 255) / 2), 255}
}

// Palette returns every opaque color the scene draws with on layer (for a
// GIF palette; translucent overlays are not part of it).
func Palette(layer *NavmeshLayer) color.Palette {
	seen := map[color.RGBA]bool{}
	var out color.Palette
	add := func(c color.RGBA) {
		if c.A == 255 && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, c := range []color.RGBA{Background, Wall, InnerEdge, TileBorder, OffMeshLink, AgentOutline, VelocityLine, TextColor, TextBackground, CornerMark, NeighbourLine, BoundaryLine} {
		add(c)
	}
	for _, c := range obstacleColors {
		add(c)
	}
	for i := range agentHues {
		add(AgentHue(i))
		add(pathShade(i))
	}
	if layer != nil {
		for _, p := range layer.polys {
			add(p.fill)
		}
	}
	return out
}
