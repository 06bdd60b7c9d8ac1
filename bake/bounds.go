package bake

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// MaxGridSide is the most cells a level may span along x or z at its cell
// size: 2^24, as far as float32 coordinates tell cells apart (a level
// 2^24 cells wide has cells at its far side no finer than its coordinates'
// rounding). Past it the bake fails with ErrLevelTooWide, naming the
// vertex that stretches the level [Units: cells].
const MaxGridSide = 1 << 24

// ErrLevelTooWide: the level's vertices span more than MaxGridSide cells
// along x or z.
var ErrLevelTooWide = errors.New("bake: level wider than the grid allows")

// levelBounds returns g's bounds (Geometry.Bounds) after checking that they
// span at most MaxGridSide cells of cellSize along x and z. The error names
// the vertex that stretches the level: of the two at the ends of the axis,
// the one farther from the median of the vertices, with its OBJ line when g
// has VertexLines.
func levelBounds(g *Geometry, cellSize float32) (bmin, bmax mgl32.Vec3, err error) {
	bmin, bmax = g.Bounds()
	if !finite(cellSize) || cellSize <= 0 {
		return bmin, bmax, fmt.Errorf("bake: settings: CellSize %v must be positive and finite", cellSize)
	}
	for _, axis := range [2]int{0, 2} {
		cells := (float64(bmax[axis]) - float64(bmin[axis])) / float64(cellSize)
		if cells <= MaxGridSide {
			continue
		}
		name := "xyz"[axis : axis+1]
		culprit := g.outlier(axis, bmin[axis], bmax[axis])
		v := g.Vertices[culprit]
		line := ""
		if culprit < len(g.VertexLines) {
			line = fmt.Sprintf(" (obj line %d)", g.VertexLines[culprit])
		}
		return bmin, bmax, fmt.Errorf("bake: vertex %d%s at %v stretches the level to %.3g cells along %s at CellSize %v, more than the %d cells (MaxGridSide) float32 coordinates tell apart; the median vertex lies at %s %.6g: %w",
			culprit, line, v, cells, name, cellSize, MaxGridSide, name, g.median(axis), ErrLevelTooWide)
	}
	return bmin, bmax, nil
}

// outlier returns the vertex at lo or hi along axis that lies farther from
// the vertices' median.
func (g *Geometry) outlier(axis int, lo, hi float32) int {
	median := float64(g.median(axis))
	low, high := -1, -1
	for i, v := range g.Vertices {
		if v[axis] == lo && low < 0 {
			low = i
		}
		if v[axis] == hi && high < 0 {
			high = i
		}
	}
	if median-float64(lo) > float64(hi)-median {
		return low
	}
	return high
}

// median returns the median vertex coordinate along axis (on an error
// path only: it sorts a copy).
func (g *Geometry) median(axis int) float32 {
	values := make([]float32, len(g.Vertices))
	for i, v := range g.Vertices {
		values[i] = v[axis]
	}
	slices.Sort(values)
	if len(values) == 0 {
		return float32(math.NaN())
	}
	return values[len(values)/2]
}
