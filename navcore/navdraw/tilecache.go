package navdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/tilecache"
)

// TileCacheLayer draws one heightfield layer of a tile cache (or of a
// bake's layer stage), in the layer's own colour (debugdraw.IndexColor of
// its index in the tile plus one) as duDebugDrawTileCacheLayerAreas does:
// the box around its usable cells, a square (two triangles) on every cell
// with ground tinted by its area, and a line on every cell side that is a
// portal to another layer, raised a cell. cellSize and cellHeight are the
// cache's (tilecache.Params). A layer whose grids are shorter than its
// header says draws nothing.
//
// cellSize, cellHeight [Limit: > 0] [Units: world units]
func TileCacheLayer(d debugdraw.Drawer, layer *tilecache.Layer, cellSize, cellHeight float32, style Style) {
	if d == nil {
		return
	}
	if layer == nil {
		return
	}
	base := debugdraw.IndexColor(int(layer.Header.TLayer)+1, 255)
	const tint = 32.0 / 255
	layerCells(d, layer, cellSize, cellHeight, func(i int) color.NRGBA {
		switch area := layer.Areas[i]; area {
		case tilecache.WalkableArea:
			return debugdraw.Lerp(base, color.NRGBA{0, 192, 255, 64}, tint)
		case tilecache.NullArea:
			return debugdraw.Lerp(base, color.NRGBA{0, 0, 0, 64}, tint)
		default:
			return debugdraw.Lerp(base, style.areaColor(area, 255), tint)
		}
	})
}

// TileCacheLayerRegions draws the regions of a layer's build stages as
// duDebugDrawTileCacheLayerRegions does: TileCacheLayer's box, squares and
// portal lines, each square in its region's colour (debugdraw.IndexColor
// of the region, blended with the layer's colour). Cells without a region
// take the colour of region 255. Stages whose grids are shorter than the
// header says draw nothing.
//
// cellSize, cellHeight [Limit: > 0] [Units: world units]
func TileCacheLayerRegions(d debugdraw.Drawer, stages *tilecache.LayerStages, cellSize, cellHeight float32) {
	if d == nil {
		return
	}
	if stages == nil {
		return
	}
	layer := &stages.Layer
	if cells := int(layer.Header.Width) * int(layer.Header.Height); len(stages.Regions) < cells {
		return
	}
	base := debugdraw.IndexColor(int(layer.Header.TLayer)+1, 255)
	layerCells(d, layer, cellSize, cellHeight, func(i int) color.NRGBA {
		return debugdraw.Lerp(base, debugdraw.IndexColor(int(stages.Regions[i]), 255), 192.0/255)
	})
}

// layerCells draws the box around a layer's usable cells, a square on
// every cell with ground in the colour cellColor gives its index, and the
// portal sides.
func layerCells(d debugdraw.Drawer, layer *tilecache.Layer, cellSize, cellHeight float32, cellColor func(i int) color.NRGBA) {
	h := &layer.Header
	width, height := int(h.Width), int(h.Height)
	cells := width * height
	if cells == 0 || len(layer.Heights) < cells || len(layer.Areas) < cells || len(layer.Cons) < cells {
		return
	}
	base := debugdraw.IndexColor(int(h.TLayer)+1, 255)
	debugdraw.BoxWire(d,
		mgl32.Vec3{h.BMin[0] + float32(float32(h.MinX)*cellSize), h.BMin[1], h.BMin[2] + float32(float32(h.MinY)*cellSize)},
		mgl32.Vec3{h.BMin[0] + float32(float32(int(h.MaxX)+1)*cellSize), h.BMax[1], h.BMin[2] + float32(float32(int(h.MaxY)+1)*cellSize)},
		2, debugdraw.WithAlpha(base, 128))
	for y := range height {
		for x := range width {
			i := x + y*width
			if layer.Heights[i] == 0xff {
				continue
			}
			fx, fz := h.BMin[0]+float32(float32(x)*cellSize), h.BMin[2]+float32(float32(y)*cellSize)
			fy := h.BMin[1] + float32(float32(int(layer.Heights[i])+1)*cellHeight)
			debugdraw.Quad(d,
				mgl32.Vec3{fx, fy, fz}, mgl32.Vec3{fx, fy, fz + cellSize},
				mgl32.Vec3{fx + cellSize, fy, fz + cellSize}, mgl32.Vec3{fx + cellSize, fy, fz},
				cellColor(i))
		}
	}
	// The side of a cell each direction (-x, +y, +x, -y) crosses, as corner
	// offsets from the cell's minimum corner.
	sides := [4][4]float32{{0, 0, 0, 1}, {0, 1, 1, 1}, {1, 1, 1, 0}, {1, 0, 0, 0}}
	portal := color.NRGBA{255, 255, 255, 255}
	for y := range height {
		for x := range width {
			i := x + y*width
			if layer.Heights[i] == 0xff {
				continue
			}
			fy := h.BMin[1] + float32(float32(int(layer.Heights[i])+2)*cellHeight)
			for dir, side := range sides {
				if layer.Cons[i]&(1<<(dir+4)) == 0 {
					continue
				}
				d.Line(
					mgl32.Vec3{h.BMin[0] + float32((float32(x)+side[0])*cellSize), fy, h.BMin[2] + float32((float32(y)+side[1])*cellSize)},
					mgl32.Vec3{h.BMin[0] + float32((float32(x)+side[2])*cellSize), fy, h.BMin[2] + float32((float32(y)+side[3])*cellSize)},
					2, portal)
			}
		}
	}
}
