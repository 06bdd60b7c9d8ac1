package bake

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// tilesWithGeometry returns the grid index (x + y·tilesX) of every tile
// whose field, the tile with its border, may overlap the box of a
// triangle, in grid order, within area: the only tiles a bake can get spans in, since a
// tile rasterizes just the triangles whose box overlaps its field. The
// others are empty and need no bake. The tile ranges are widened by one
// tile on each side against float rounding, so the set errs on the side of
// baking an empty tile. It fails with ErrTooManyTiles once more than limit
// tiles qualify. Its cost grows with the triangles and the rows they
// span, never with the empty part of the grid: two floors 100 km apart cost
// two small ranges, not 10^8 tiles.
func (b *TileBaker) tilesWithGeometry(area TileRange, limit int) ([]int32, error) {
	border := float32(float32(b.borderSize) * b.settings.CellSize)
	size := b.tileWorldSize
	// tileOf returns the tile, clamped to 0..count-1, that coordinate v
	// (relative to the grid's origin) falls in, moved by shift tiles.
	tileOf := func(v float32, shift, count int) int32 {
		t := math.Floor(float64(v/size)) + float64(shift)
		return int32(min(max(t, 0), float64(count-1)))
	}
	type tileRange struct{ x0, x1, y0, y1 int32 }
	ranges := make([]tileRange, len(b.boxes))
	for i, box := range b.boxes {
		ranges[i] = tileRange{
			x0: tileOf(box[0][0]-b.bmin[0]-border, -1, b.tilesX),
			x1: tileOf(box[1][0]-b.bmin[0]+border, 1, b.tilesX),
			y0: tileOf(box[0][2]-b.bmin[2]-border, -1, b.tilesY),
			y1: tileOf(box[1][2]-b.bmin[2]+border, 1, b.tilesY),
		}
	}
	slices.SortFunc(ranges, func(a, c tileRange) int { return cmp.Compare(a.y0, c.y0) })

	var tiles []int32
	var active []tileRange
	type span struct{ x0, x1 int32 }
	var row []span
	next := 0 // the first range not yet active
	for y := int32(area.MinY); y <= int32(area.MaxY); y++ {
		if len(active) == 0 {
			if next == len(ranges) {
				break
			}
			y = max(y, ranges[next].y0) // jump over the empty rows
			if y > int32(area.MaxY) {
				break
			}
		}
		for next < len(ranges) && ranges[next].y0 <= y {
			active = append(active, ranges[next])
			next++
		}
		row = row[:0]
		kept := active[:0]
		for _, r := range active {
			if r.y1 >= y {
				row = append(row, span{r.x0, r.x1})
				kept = append(kept, r)
			}
		}
		active = kept
		slices.SortFunc(row, func(a, c span) int { return cmp.Compare(a.x0, c.x0) })
		for i := 0; i < len(row); {
			x0, x1 := row[i].x0, row[i].x1
			for i++; i < len(row) && row[i].x0 <= x1+1; i++ {
				x1 = max(x1, row[i].x1)
			}
			x0, x1 = max(x0, int32(area.MinX)), min(x1, int32(area.MaxX))
			if x0 > x1 {
				continue
			}
			if len(tiles)+int(x1-x0+1) > limit {
				return nil, fmt.Errorf("bake: tiled build: more than %d of the %d×%d tiles have geometry within their border (Settings.MaxTiles): %w",
					limit, b.tilesX, b.tilesY, ErrTooManyTiles)
			}
			for x := x0; x <= x1; x++ {
				tiles = append(tiles, x+y*int32(b.tilesX))
			}
		}
	}
	return tiles, nil
}
