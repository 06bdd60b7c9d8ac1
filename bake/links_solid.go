package bake

// solidField is the level's solid voxels as the link search reads them:
// the columns of the level's cell grid (origin at the level's minimum
// corner, cells CellSize wide and CellHeight high, the grid of a solo bake
// and of a tiled bake's tile cores alike).
type solidField interface {
	// blocked reports whether column (x, z) holds a solid span that
	// reaches into the open height range (low, high) [Units: cells above
	// the grid's origin]. Columns outside the field are empty.
	blocked(x, z int, low, high float32) bool
	// topWithin reports whether column (x, z) holds a solid span whose top
	// lies in [low, high] [Units: cells above the grid's origin].
	topWithin(x, z int, low, high float32) bool
	// spanAcross reports whether column (x, z) holds a solid span from
	// below below to above above [Units: cells above the grid's origin].
	spanAcross(x, z int, below, above float32) bool
}

// heightfieldSolid reads the solid spans of a solo bake's heightfield.
type heightfieldSolid struct{ hf *Heightfield }

func (s heightfieldSolid) blocked(x, z int, low, high float32) bool {
	hf := s.hf
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return false
	}
	for i := hf.Columns[x+z*hf.Width]; i != -1; i = hf.Pool[i].Next {
		span := &hf.Pool[i]
		if float32(span.Min) >= high {
			return false // spans go up the column
		}
		if float32(span.Max) > low {
			return true
		}
	}
	return false
}

func (s heightfieldSolid) topWithin(x, z int, low, high float32) bool {
	hf := s.hf
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return false
	}
	for i := hf.Columns[x+z*hf.Width]; i != -1; i = hf.Pool[i].Next {
		top := float32(hf.Pool[i].Max)
		if top > high {
			return false
		}
		if top >= low {
			return true
		}
	}
	return false
}

func (s heightfieldSolid) spanAcross(x, z int, below, above float32) bool {
	hf := s.hf
	if x < 0 || z < 0 || x >= hf.Width || z >= hf.Height {
		return false
	}
	for i := hf.Columns[x+z*hf.Width]; i != -1; i = hf.Pool[i].Next {
		span := &hf.Pool[i]
		if float32(span.Min) >= below {
			return false
		}
		if float32(span.Max) > above {
			return true
		}
	}
	return false
}

// solidColumns is a copy of the solid spans of one tile's core (its
// TileSize × TileSize cells without the border): the spans of core column
// x + z·size are spans[starts[i]:starts[i+1]], bottom to top.
type solidColumns struct {
	starts []uint32
	spans  [][2]uint16
}

// copySolidColumns copies the spans of the core of hf, a tile field with
// border cells on each side around size × size core cells.
func copySolidColumns(hf *Heightfield, border, size int) *solidColumns {
	c := &solidColumns{starts: make([]uint32, 0, size*size+1)}
	for z := range size {
		for x := range size {
			c.starts = append(c.starts, uint32(len(c.spans)))
			for i := hf.Columns[(x+border)+(z+border)*hf.Width]; i != -1; i = hf.Pool[i].Next {
				c.spans = append(c.spans, [2]uint16{hf.Pool[i].Min, hf.Pool[i].Max})
			}
		}
	}
	c.starts = append(c.starts, uint32(len(c.spans)))
	return c
}

// tiledSolid reads the solid spans of a tiled bake from its tiles' cores.
type tiledSolid struct {
	tileSize       int
	tilesX, tilesY int
	// tiles holds each tile's core columns by grid index x + y·tilesX;
	// tiles without geometry have none.
	tiles map[int]*solidColumns
}

// column returns the spans of column (x, z), bottom to top.
func (s *tiledSolid) column(x, z int) [][2]uint16 {
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
	i := (x - tx*s.tileSize) + (z-tz*s.tileSize)*s.tileSize
	return c.spans[c.starts[i]:c.starts[i+1]]
}

func (s *tiledSolid) topWithin(x, z int, low, high float32) bool {
	for _, span := range s.column(x, z) {
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

func (s *tiledSolid) spanAcross(x, z int, below, above float32) bool {
	for _, span := range s.column(x, z) {
		if float32(span[0]) >= below {
			return false
		}
		if float32(span[1]) > above {
			return true
		}
	}
	return false
}

func (s *tiledSolid) blocked(x, z int, low, high float32) bool {
	for _, span := range s.column(x, z) {
		if float32(span[0]) >= high {
			return false
		}
		if float32(span[1]) > low {
			return true
		}
	}
	return false
}
