package bake

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/go-gl/mathgl/mgl32"
)

// ErrWorkLimit: the bake's estimated work (WorkEstimate) is above
// Settings.MaxWork, or its rasterization walked more spans than that.
var ErrWorkLimit = errors.New("bake: estimated work over the limit")

// DefaultMaxWork is the work limit of a bake whose Settings.MaxWork is 0:
// 2^30 work units (1.07 billion), about two minutes of one core at the
// typical 100 ns a unit (WorkEstimate.Time; only stacked floors come near
// the slowest, 2 µs). RecastDemo's levels need about a million (solo or in 32-cell
// tiles), the 1 km level of benchmarks/bigworld 121 million in its 64-cell
// tiles and 655 million baked solo, so a level of about 3 km × 3 km at
// 0.3 m cells passes tiled; 125 floors of 10 m × 10 m stacked 3 m apart
// at a cell size of 0.01 in 64-cell tiles need 2.0 billion (221 s of
// CPU time), dungeon.obj tiled at a cell size of 0.01 with 64-cell tiles
// 3.5 billion, at 0.001 (hours) 32 trillion.
const DefaultMaxWork = 1 << 30

// regionPassCells is the grid side per watershed pass over a grid's cells
// in WorkEstimate.Regions: the watershed floods the distance field level by
// level, and the deepest level grows with the side of the open space
// [Units: cells].
const regionPassCells = 64

// WorkEstimate is the work a bake will do, counted before it starts in
// work units, about one cell or span handled by one stage: its grids'
// cells, the watershed's passes over them and the cells the triangles
// cover. Stage by stage a bake's time grows with these (the rasterization
// with the cells each triangle covers, the filters, the compact
// heightfield, erosion and distance field with the cells and spans, the
// watershed with the cells times the number of flood levels), so the
// total stands for its time: on one core of a 2020s x86-64 machine a unit
// takes 10 to 100 ns, open floors (long floods) at the top of that range,
// and up to 300 ns where floors stack over the same cells (every later
// stage handles each floor's spans: 500 floors of 20 m × 20 m, 4.5
// million units, bake in about 1 s).
type WorkEstimate struct {
	// Grids is the number of grids the bake fills: 1 for a solo bake, the
	// tiles with geometry for a tiled one.
	Grids int64
	// Cells sums the grids' Width × Height, borders included.
	Cells int64
	// Regions is the watershed's extra passes: each grid's cells times
	// its shorter side / 64; 0 for the monotone and layer partitions.
	Regions int64
	// Footprint sums, over the triangles of each grid, the cells of the
	// part of the triangle's xz bounding box inside the grid: what the
	// rasterizer clips, and a bound on the spans it makes.
	Footprint int64
	// Triangles is the level's triangles, repeated ones included: each
	// is hashed and sorted to leave out the repeats
	// (Geometry.WithoutRepeatedTriangles) before anything is baked, then
	// indexed, and counts triangleWork (4) units. It is set by the bakes
	// and EstimateWork, not by Config.EstimatedWork.
	Triangles int64
	// cut is set when the count stopped early, past a limit: the total is
	// then a lower bound.
	cut bool
}

// triangleWork is the work units of one of the level's triangles
// (WorkEstimate.Triangles): a triangle repeated a million times, 4 million
// units, takes 0.7 to 1 s of CPU time to read from its OBJ and leave out.
const triangleWork = 4

// Total returns the estimate in work units: Cells + Regions + Footprint +
// 4 × Triangles.
func (w WorkEstimate) Total() int64 {
	return w.Cells + w.Regions + w.Footprint + triangleWork*w.Triangles
}

// add adds o to w.
func (w *WorkEstimate) add(o WorkEstimate) {
	w.Grids += o.Grids
	w.Cells += o.Cells
	w.Regions += o.Regions
	w.Footprint += o.Footprint
	w.Triangles += o.Triangles
}

// String prints the total and its parts.
func (w WorkEstimate) String() string {
	atLeast := "about "
	if w.cut {
		atLeast = "at least "
	}
	return fmt.Sprintf("%s%s work units (%d grids of %d cells, %d watershed, %d covered by triangles, %d triangles)",
		atLeast, formatCount(w.Total()), w.Grids, w.Cells, w.Regions, w.Footprint, w.Triangles)
}

// The time of one work unit on one core: typical for RecastDemo's levels,
// the 1 km level of benchmarks/bigworld and big bakes, and the slowest seen,
// stacked floors (see WorkEstimate.Time).
const (
	typicalUnitTime = 100 * time.Nanosecond
	slowestUnitTime = 2000 * time.Nanosecond
)

// Time returns how long the bake should take on workers goroutines with a
// core each (a solo bake uses one; a tiled bake at most one a grid): the
// units shared among the workers, times 100 ns a unit (typical) and times
// 2 µs (the slowest). One run of navtool bake on a 2-core x86-64 machine
// at a load average of about 24 (benchmarks/results-2026-12-05-hardening.txt)
// took, in CPU time of the whole process (reading the OBJ included) per
// unit: 65 to 226 ns for RecastDemo's three levels solo, tiled and as a
// tile cache; 86 ns for the 1 km level of benchmarks/bigworld in 64-cell
// tiles; 34 to 100 ns for open squares of 150 to 600 m; 188 to 946 ns
// for 125 to 2000 floors stacked over one 10 m square, the slowest kind of
// level (each floor adds spans to every column, and the estimate counts
// the columns once); 210 to 244 ns for a triangle repeated a million
// times. 125 such floors at a cell size of 0.01 in 64-cell tiles took
// 221 s of CPU time for 2.0 billion units (110 ns) at a load of about 1.
// A busier machine or a slower core takes longer.
func (w WorkEstimate) Time(workers int) (typical, slowest time.Duration) {
	workers = int(min(max(int64(workers), 1), max(w.Grids, 1)))
	units := float64(w.Total()) / float64(workers)
	return time.Duration(units * float64(typicalUnitTime)), time.Duration(units * float64(slowestUnitTime))
}

// formatCount prints n with a metric suffix, 3 significant digits.
func formatCount(n int64) string {
	value := float64(n)
	for _, s := range []string{"", " thousand", " million", " billion", " trillion"} {
		if math.Abs(value) < 1000 {
			return fmt.Sprintf("%.3g%s", value, s)
		}
		value /= 1000
	}
	return fmt.Sprintf("%.3g quadrillion", value)
}

// gridWork is the work of one grid of cfg's size without its triangles.
func (c *Config) gridWork() WorkEstimate {
	cells := int64(c.Width) * int64(c.Height)
	w := WorkEstimate{Grids: 1, Cells: cells}
	if c.Partition == PartitionWatershed {
		w.Regions = cells * int64(min(c.Width, c.Height)) / regionPassCells
	}
	return w
}

// EstimatedWork returns the work of baking the grid of c (a solo bake's, or
// one tile's with its border) over the triangles of g: its cells, the
// watershed's passes and the cells the triangles' bounding boxes cover
// inside the grid. It reads each triangle once and allocates nothing, so a
// bake that rebuilds single tiles can check each before it starts.
func (c *Config) EstimatedWork(g *Geometry) WorkEstimate {
	w := c.gridWork()
	if g == nil {
		return w
	}
	for _, t := range g.Triangles {
		if !validTriangle(t, len(g.Vertices)) {
			continue
		}
		v0, v1, v2 := g.Vertices[t[0]], g.Vertices[t[1]], g.Vertices[t[2]]
		w.Footprint += c.footprint(
			mgl32.Vec3{min(v0[0], v1[0], v2[0]), 0, min(v0[2], v1[2], v2[2])},
			mgl32.Vec3{max(v0[0], v1[0], v2[0]), 0, max(v0[2], v1[2], v2[2])})
	}
	return w
}

// validTriangle reports whether t indexes vertexCount vertices.
func validTriangle(t [3]int32, vertexCount int) bool {
	return t[0] >= 0 && t[1] >= 0 && t[2] >= 0 &&
		int(t[0]) < vertexCount && int(t[1]) < vertexCount && int(t[2]) < vertexCount
}

// footprint returns the cells of c's grid under the xz box [bmin, bmax].
func (c *Config) footprint(bmin, bmax mgl32.Vec3) int64 {
	inverse := 1 / float64(c.CellSize)
	cells := func(lo, hi, origin float32, size int) int64 {
		first := math.Floor((float64(lo) - float64(origin)) * inverse)
		last := math.Floor((float64(hi) - float64(origin)) * inverse)
		first, last = max(first, 0), min(last, float64(size-1))
		if !(last >= first) {
			return 0
		}
		return int64(last-first) + 1
	}
	return cells(bmin[0], bmax[0], c.BMin[0], c.Width) * cells(bmin[2], bmax[2], c.BMin[2], c.Height)
}

// maxWork returns the work limit of s.
func (s *Settings) maxWork() int64 {
	if s.MaxWork == 0 {
		return DefaultMaxWork
	}
	return s.MaxWork
}

// checkWork refuses a bake whose estimate is above the settings' limit;
// what names the bake in the error.
func (s *Settings) checkWork(what string, estimate WorkEstimate) error {
	limit := s.maxWork()
	if estimate.Total() <= limit {
		return nil
	}
	return fmt.Errorf("bake: %s needs %v, over the limit of %s (Settings.MaxWork, \"maxWork\" in navtool's settings; raise it to bake anyway, or raise CellSize): %w",
		what, estimate, formatCount(limit), ErrWorkLimit)
}

// tilesWork returns the work of baking tiles (grid indices x + y·tilesX,
// as tilesWithGeometry lists them) of b's grid: per tile its grid with
// the border, and the cells of each triangle's bounding box inside it.
// It walks each triangle's tiles once, so its cost grows with the
// triangles and the tiles they reach, not with the grid; it stops
// counting once the total is past limit.
func (b *TileBaker) tilesWork(tiles []int32, limit int64) WorkEstimate {
	w := b.tileConfig.gridWork()
	w.Grids, w.Cells, w.Regions = int64(len(tiles))*w.Grids, int64(len(tiles))*w.Cells, int64(len(tiles))*w.Regions
	w.Triangles = int64(len(b.geometry.Triangles) + b.skippedTriangles)
	if len(tiles) == 0 {
		return w
	}
	if w.Total() > limit {
		w.cut = true
		return w
	}
	baked := make(map[int32]bool, len(tiles))
	for _, t := range tiles {
		baked[t] = true
	}
	border := float32(float32(b.borderSize) * b.settings.CellSize)
	size := b.tileWorldSize
	tileOf := func(v float32, count int) int {
		return int(min(max(math.Floor(float64(v/size)), 0), float64(count-1)))
	}
	cfg := *b.tileConfig
	for _, box := range b.boxes {
		x0 := tileOf(box[0][0]-b.bmin[0]-border, b.tilesX)
		x1 := tileOf(box[1][0]-b.bmin[0]+border, b.tilesX)
		y0 := tileOf(box[0][2]-b.bmin[2]-border, b.tilesY)
		y1 := tileOf(box[1][2]-b.bmin[2]+border, b.tilesY)
		for ty := y0; ty <= y1; ty++ {
			for tx := x0; tx <= x1; tx++ {
				if !baked[int32(tx+ty*b.tilesX)] {
					continue
				}
				cfg.BMin[0] = b.bmin[0] + float32(float32(tx)*size) - border
				cfg.BMin[2] = b.bmin[2] + float32(float32(ty)*size) - border
				w.Footprint += cfg.footprint(box[0], box[1])
			}
		}
		if w.Total() > limit {
			w.cut = true
			return w
		}
	}
	return w
}

// EstimateWork returns the work of baking g with settings: a solo bake
// when settings.TileSize is 0, else a tiled bake of every tile with
// geometry (as Tiled bakes them). It validates both first, and counts
// what the bake will rasterize: g without its repeated triangles
// (Geometry.WithoutRepeatedTriangles), which every bake leaves out first.
func EstimateWork(g *Geometry, settings Settings) (WorkEstimate, error) {
	if settings.TileSize == 0 {
		if err := g.Validate(); err != nil {
			return WorkEstimate{}, err
		}
		unique, _ := g.WithoutRepeatedTriangles()
		bmin, bmax, err := levelBounds(unique, settings.CellSize)
		if err != nil {
			return WorkEstimate{}, err
		}
		cfg, err := settings.Config(bmin, bmax)
		if err != nil {
			return WorkEstimate{}, err
		}
		w := cfg.EstimatedWork(unique)
		w.Triangles = int64(len(g.Triangles))
		return w, nil
	}
	b, err := newTileBaker(g, settings, TiledOptions{})
	if err != nil {
		return WorkEstimate{}, err
	}
	b.boxes = triangleBoxes(b.geometry) // without the repeated triangles
	tiles, err := b.tilesWithGeometry(b.GridRange(), math.MaxInt)
	if err != nil {
		return WorkEstimate{}, err
	}
	return b.tilesWork(tiles, math.MaxInt64), nil
}
