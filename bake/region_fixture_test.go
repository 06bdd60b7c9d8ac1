package bake

import (
	"fmt"
	"strings"
)

// testSpan is one open span of a hand-made compact heightfield.
type testSpan struct {
	y    int
	area uint8
}

// testFieldClimb and testFieldHeight are the walkable climb and height the
// hand-made fields are connected with [Units: cells].
const (
	testFieldClimb  = 2
	testFieldHeight = 4
)

// newTestField builds a single-layer compact heightfield from rows of cells
// along z (row 0 is z = 0), all spans at y = 0:
// '#' no span, '.' walkable span, 'x' span with NullArea, 'a'..'z' spans of
// user areas 1..26.
func newTestField(rows ...string) *CompactHeightfield {
	columns := make([][]testSpan, len(rows[0])*len(rows))
	for z, row := range rows {
		if len(row) != len(rows[0]) {
			panic(fmt.Sprintf("row %d has %d cells, want %d", z, len(row), len(rows[0])))
		}
		for x, cell := range row {
			i := x + z*len(rows[0])
			switch {
			case cell == '#':
			case cell == '.':
				columns[i] = []testSpan{{0, WalkableArea}}
			case cell == 'x':
				columns[i] = []testSpan{{0, NullArea}}
			case cell >= 'a' && cell <= 'z':
				columns[i] = []testSpan{{0, uint8(cell-'a') + 1}}
			default:
				panic(fmt.Sprintf("unknown cell %q", cell))
			}
		}
	}
	return newTestFieldFromColumns(len(rows[0]), len(rows), columns)
}

// newTestFieldFromColumns builds a compact heightfield from the spans of
// each column (x + z*width), bottom to top, connecting neighbours the way
// the compact stage does: the first span of the neighbour column whose
// shared opening is at least testFieldHeight and whose floor is within
// testFieldClimb.
func newTestFieldFromColumns(width, height int, columns [][]testSpan) *CompactHeightfield {
	chf := &CompactHeightfield{
		Width:          width,
		Height:         height,
		WalkableHeight: testFieldHeight,
		WalkableClimb:  testFieldClimb,
		CellSize:       0.5,
		CellHeight:     0.25,
		Cells:          make([]CompactCell, width*height),
	}
	chf.BMax = [3]float32{float32(width) * chf.CellSize, 10, float32(height) * chf.CellSize}
	for i, column := range columns {
		chf.Cells[i] = CompactCell{Index: uint32(len(chf.Spans)), Count: uint32(len(column))}
		for j, s := range column {
			top := 255
			if j+1 < len(column) {
				top = column[j+1].y - s.y
			}
			span := CompactSpan{Y: uint16(s.y)}
			span.SetHeight(uint8(min(top, 255)))
			chf.Spans = append(chf.Spans, span)
			chf.Areas = append(chf.Areas, s.area)
		}
	}
	for z := 0; z < height; z++ {
		for x := 0; x < width; x++ {
			c := chf.Cells[x+z*width]
			for i := int(c.Index); i < int(c.Index+c.Count); i++ {
				s := &chf.Spans[i]
				var connections [4]uint16
				for dir := 0; dir < 4; dir++ {
					connection := uint16(NotConnected)
					nx, nz := x+DirOffsetX(dir), z+DirOffsetZ(dir)
					if nx >= 0 && nz >= 0 && nx < width && nz < height {
						nc := chf.Cells[nx+nz*width]
						for k := int(nc.Index); k < int(nc.Index+nc.Count); k++ {
							ns := chf.Spans[k]
							bottom := max(int(s.Y), int(ns.Y))
							top := min(int(s.Y)+s.Height(), int(ns.Y)+ns.Height())
							climb := int(ns.Y) - int(s.Y)
							if top-bottom >= testFieldHeight && climb >= -testFieldClimb && climb <= testFieldClimb {
								connection = uint16(k - int(nc.Index))
								break
							}
						}
					}
					connections[dir] = connection
				}
				s.SetConnections(connections)
			}
		}
	}
	return chf
}

// regionMap renders the regions of each cell, one row per z: '#' for no
// span, one character per span for a single span and "(…)" bottom to top
// for stacked spans; '-' is region 0, '*' a border region, '1'..'9' and
// 'A'.. ids 1..35.
func regionMap(chf *CompactHeightfield) []string {
	rows := make([]string, chf.Height)
	for z := range rows {
		var row strings.Builder
		for x := 0; x < chf.Width; x++ {
			c := chf.Cells[x+z*chf.Width]
			switch c.Count {
			case 0:
				row.WriteByte('#')
			case 1:
				row.WriteByte(regionSymbol(chf.Spans[c.Index].Region))
			default:
				row.WriteByte('(')
				for i := c.Index; i < c.Index+c.Count; i++ {
					row.WriteByte(regionSymbol(chf.Spans[i].Region))
				}
				row.WriteByte(')')
			}
		}
		rows[z] = row.String()
	}
	return rows
}

// regionSymbol is the character regionMap draws for a region id.
func regionSymbol(region uint16) byte {
	switch {
	case region == 0:
		return '-'
	case region&BorderRegion != 0:
		return '*'
	case region < 10:
		return byte('0' + region)
	case region < 36:
		return byte('A' + region - 10)
	}
	return '?'
}

// distanceRows renders chf.Dist of the lowest span of each cell as rows of
// numbers, "-" for a cell without span.
func distanceRows(chf *CompactHeightfield) []string {
	rows := make([]string, chf.Height)
	for z := range rows {
		cells := make([]string, chf.Width)
		for x := range cells {
			c := chf.Cells[x+z*chf.Width]
			if c.Count == 0 {
				cells[x] = "-"
				continue
			}
			cells[x] = fmt.Sprint(chf.Dist[c.Index])
		}
		rows[z] = strings.Join(cells, " ")
	}
	return rows
}

// Hand-made fields shared by the region and contour tests.

// fieldWithObstacle is a flat 20×20 field with a 4×4 pillar in the middle.
func fieldWithObstacle() *CompactHeightfield {
	rows := make([]string, 20)
	for z := range rows {
		if z >= 8 && z < 12 {
			rows[z] = "........####........"
		} else {
			rows[z] = "...................."
		}
	}
	return newTestField(rows...)
}

// fieldWithIsland is a 14×10 room next to a separate 3×3 island.
func fieldWithIsland() *CompactHeightfield {
	return newTestField(
		"..........#...",
		"..........#...",
		"..........#...",
		"..........####",
		"..........####",
		"..........####",
		"..........####",
		"..........####",
		"..........####",
		"..........####",
	)
}

// fieldWithAreas is a 12×8 field whose left part is area 1 ('a') and has a
// strip of NullArea spans ('x') on the right.
func fieldWithAreas() *CompactHeightfield {
	return newTestField(
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
		"aaaaa......x",
	)
}

// fieldWithBridge is a 16×16 floor at y = 0 with a ramp (x 1..4, rising 2
// cells per cell) leading up to a bridge at y = 10 over the floor (x 5..14),
// both 4 cells wide (z 6..9): the bridge and the floor under it overlap.
func fieldWithBridge() *CompactHeightfield {
	const size = 16
	columns := make([][]testSpan, size*size)
	for z := 0; z < size; z++ {
		for x := 0; x < size; x++ {
			onStrip := z >= 6 && z < 10
			switch {
			case onStrip && x >= 1 && x <= 4:
				columns[x+z*size] = []testSpan{{2 * x, WalkableArea}}
			case onStrip && x >= 5 && x <= 14:
				columns[x+z*size] = []testSpan{{0, WalkableArea}, {10, WalkableArea}}
			default:
				columns[x+z*size] = []testSpan{{0, WalkableArea}}
			}
		}
	}
	return newTestFieldFromColumns(size, size, columns)
}
