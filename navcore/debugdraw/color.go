package debugdraw

import "image/color"

// IndexColor returns a colour for a small integer (a region, a tile, a
// contour), the same for the same number, with alpha a. Neighbouring numbers
// get clearly different colours: the bits of i spread over the three
// channels, four levels each (duIntToCol).
func IndexColor(i int, a uint8) color.NRGBA {
	bit := func(b int) int { return (i >> b) & 1 }
	r := bit(1) + bit(3)*2 + 1
	g := bit(2) + bit(4)*2 + 1
	b := bit(0) + bit(5)*2 + 1
	return color.NRGBA{uint8(r * 63), uint8(g * 63), uint8(b * 63), a}
}

// GroundBlue is the colour of the default walkable area: area 0 in a
// navmesh (the ground area after RecastDemo's mapping) and area 63 in the
// bake (its walkable area).
var GroundBlue = color.NRGBA{0, 192, 255, 255}

// AreaColor returns the colour of polygon area id area (0..63) with alpha a:
// GroundBlue for 0 and 63, IndexColor for the others (duDebugDraw::areaToCol).
func AreaColor(area uint8, a uint8) color.NRGBA {
	if area == 0 || area == 63 {
		return WithAlpha(GroundBlue, a)
	}
	return IndexColor(int(area), a)
}

// WithAlpha returns c with alpha a (duTransCol).
func WithAlpha(c color.NRGBA, a uint8) color.NRGBA {
	c.A = a
	return c
}

// Darken returns c at half brightness, alpha kept (duDarkenCol).
func Darken(c color.NRGBA) color.NRGBA {
	return color.NRGBA{c.R >> 1, c.G >> 1, c.B >> 1, c.A}
}

// Scale returns c with its red, green and blue multiplied by f, alpha kept
// (duMultCol with f = d/256); results above 255 saturate.
//
// f [Limit: >= 0]
func Scale(c color.NRGBA, f float32) color.NRGBA {
	channel := func(v uint8) uint8 {
		s := float32(v) * f
		switch {
		case !(s > 0):
			return 0
		case s >= 255:
			return 255
		}
		return uint8(s)
	}
	return color.NRGBA{channel(c.R), channel(c.G), channel(c.B), c.A}
}

// Lerp blends from a (t = 0) to b (t = 1), alpha included (duLerpCol with
// u = 255t). t is clamped to 0..1.
func Lerp(a, b color.NRGBA, t float32) color.NRGBA {
	switch {
	case !(t > 0): // NaN too
		t = 0
	case t > 1:
		t = 1
	}
	mix := func(x, y uint8) uint8 { return uint8(float32(x) + float32((float32(y)-float32(x))*t) + 0.5) }
	return color.NRGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), mix(a.A, b.A)}
}
