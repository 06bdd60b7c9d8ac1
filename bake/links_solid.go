package bake

// solidField is the level's solid voxels as the link search reads them:
// the columns of the level's cell grid (origin at the level's minimum
// corner, cells CellSize wide and CellHeight high, the grid of a solo bake
// and of a tiled bake's tile cores alike).
type solidField interface {
	// column returns the solid spans of column (x, z), bottom to top, each
	// [bottom, top] in cells above the grid's origin; none outside the
	// field. A field that must copy them does so into *scratch (grown as
	// needed), so the result is valid until the next call with scratch.
	column(x, z int, scratch *[][2]uint16) [][2]uint16
}

// heightfieldSolid reads the solid spans of a solo bake's heightfield.
type heightfieldSolid struct{ hf *Heightfield }

func (s heightfieldSolid) column(x, z int, scratch *[][2]uint16) [][2]uint16 {
	hf := s.hf
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return nil
	}
	spans := (*scratch)[:0]
	for i := hf.Columns[x+z*hf.Width]; i != -1; i = hf.Pool[i].Next {
		spans = append(spans, [2]uint16{hf.Pool[i].Min, hf.Pool[i].Max})
	}
	*scratch = spans
	return spans
}

// spansReachInto reports whether one of spans reaches into the open height
// range (low, high) [Units: cells].
func spansReachInto(spans [][2]uint16, low, high float32) bool {
	for _, span := range spans {
		if float32(span[0]) >= high {
			return false // spans go up the column
		}
		if float32(span[1]) > low {
			return true
		}
	}
	return false
}

// spansTopWithin reports whether one of spans has its top in [low, high]
// [Units: cells].
func spansTopWithin(spans [][2]uint16, low, high float32) bool {
	for _, span := range spans {
		top := float32(span[1])
		if top > high {
			return false
		}
		if top >= low {
			return true
		}
	}
	return false
}

// spansAcross reports whether one of spans reaches from under below to
// over above [Units: cells].
func spansAcross(spans [][2]uint16, below, above float32) bool {
	for _, span := range spans {
		if float32(span[0]) >= below {
			return false
		}
		if float32(span[1]) > above {
			return true
		}
	}
	return false
}

// solidColumns is a copy of the solid spans of a width × height block of
// a heightfield's columns: the spans of column x + z·width are
// spans[starts[i]:starts[i+1]], bottom to top.
type solidColumns struct {
	width, height int
	starts        []uint32
	spans         [][2]uint16
}

// copySolidColumns copies the spans of the width × height columns of hf
// from column (x0, z0) on.
func copySolidColumns(hf *Heightfield, x0, z0, width, height int) *solidColumns {
	c := &solidColumns{width: width, height: height, starts: make([]uint32, 0, width*height+1)}
	for z := range height {
		for x := range width {
			c.starts = append(c.starts, uint32(len(c.spans)))
			for i := hf.Columns[(x+x0)+(z+z0)*hf.Width]; i != -1; i = hf.Pool[i].Next {
				c.spans = append(c.spans, [2]uint16{hf.Pool[i].Min, hf.Pool[i].Max})
			}
		}
	}
	c.starts = append(c.starts, uint32(len(c.spans)))
	return c
}

// column returns the spans of column (x, z) of the block, none outside it.
func (c *solidColumns) column(x, z int, _ *[][2]uint16) [][2]uint16 {
	if x < 0 || z < 0 || x >= c.width || z >= c.height {
		return nil
	}
	i := x + z*c.width
	return c.spans[c.starts[i]:c.starts[i+1]]
}

// tiledSolid reads the solid spans of a tiled bake from its tiles' cores.
type tiledSolid struct {
	tileSize       int
	tilesX, tilesY int
	// tiles holds each tile's core columns by grid index x + y·tilesX;
	// tiles without geometry have none.
	tiles map[int]*solidColumns
}

func (s *tiledSolid) column(x, z int, _ *[][2]uint16) [][2]uint16 {
	if x < 0 || z < 0 {
		return nil
	}
	tx, tz := x/s.tileSize, z/s.tileSize
	if tx >= s.tilesX || tz >= s.tilesY {
		return nil
	}
	c := s.tiles[tx+tz*s.tilesX]
	if c == nil {
		return nil
	}
	return c.column(x-tx*s.tileSize, z-tz*s.tileSize, nil)
}
