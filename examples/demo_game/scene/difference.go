package scene

import (
	"errors"
	"image/color"
	"math"
	"slices"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// MeshDifference hatches the places where a small agent type's navmesh
// reaches and a large type's does not: the passages too narrow for the
// large agents. A large type's mesh is eroded farther from every wall, so
// the small mesh also has a thin band along each wall that the large one
// lacks; that band (anything narrower than a minimum width, measured from
// the large mesh) is left out, so the hatching shows the places the large
// agents cannot get to rather than outlining the whole level.
//
// It works on pixels seen from above: both meshes' polygons are filled
// into a mask at the canvas's size; of the pixels only the small mesh
// covers, those farther than half the minimum width from the large mesh
// are kept and grown back by half that width within the small-only
// pixels, and what that marks is hatched with diagonal lines. Stacked floors are flattened: a small-only
// spot under or over a floor of the large mesh is not hatched.
type MeshDifference struct {
	// minWidth is the width of the narrowest small-only region hatched
	// [Units: world units].
	minWidth float32

	small, large *NavmeshLayer

	// What was computed, for which canvas size, view and mesh versions.
	width, height              int
	view                       View
	smallVersion, largeVersion uint64
	segments                   [][2]render.Point
	marked                     []bool // the small-only pixels, row by row
	hatched                    int

	// Scratch reused between computations: the two footprints, the
	// eroded core and a distance field.
	smallPixels, largePixels, corePixels []bool
	distance                             []int32

	mask     *render.Raster
	recorder debugdraw.Recorder
	drawer   Drawer
}

// hatchSpacing and hatchWidth are the hatching's line spacing (along a
// row) and line width [Units: pixels].
const (
	hatchSpacing = 6
	hatchWidth   = 1.5
)

// NewMeshDifference returns the difference of small's mesh minus large's,
// hatching regions at least minWidth wide: wider than the band along the
// walls, (large radius - small radius) and more at a corner, plus the
// meshes' rounding [Limit: > 0, finite] [Units: world units].
func NewMeshDifference(small, large *NavmeshLayer, minWidth float32) (*MeshDifference, error) {
	if small == nil || large == nil {
		return nil, errors.New("scene: mesh difference: nil layer")
	}
	if !(minWidth > 0) || math.IsInf(float64(minWidth), 0) {
		return nil, errors.New("scene: mesh difference: the minimum width must be positive and finite")
	}
	return &MeshDifference{minWidth: minWidth, small: small, large: large}, nil
}

// Draw hatches the small-only regions on c at view v with SmallOnlyHatch,
// computing them again when the canvas size, the view or either layer's
// snapshot (Refresh) has changed since the last call.
func (d *MeshDifference) Draw(c render.Canvas, v View) {
	width, height := c.Size()
	if width != d.width || height != d.height || v != d.view ||
		d.small.snapshot.Version() != d.smallVersion || d.large.snapshot.Version() != d.largeVersion || d.mask == nil {
		d.compute(width, height, v)
	}
	for _, s := range d.segments {
		c.Line(s[0], s[1], hatchWidth, SmallOnlyHatch)
	}
}

// Pixels returns how many pixels the last Draw marked as small-only (the
// hatched regions, between the hatch lines too).
func (d *MeshDifference) Pixels() int { return d.hatched }

// compute marks the small-only pixels at the canvas size and view and
// turns them into hatch segments.
func (d *MeshDifference) compute(width, height int, v View) {
	d.width, d.height, d.view = width, height, v
	d.smallVersion, d.largeVersion = d.small.snapshot.Version(), d.large.snapshot.Version()
	if d.mask == nil {
		d.mask = render.NewRaster(width, height)
	} else if w, h := d.mask.Size(); w != width || h != height {
		d.mask = render.NewRaster(width, height)
	}
	n := width * height
	d.smallPixels = d.footprint(d.smallPixels[:0], d.small.snapshot, v)
	d.largePixels = d.footprint(d.largePixels[:0], d.large.snapshot, v)
	d.corePixels = slices.Grow(d.corePixels[:0], n)[:n]
	d.marked = slices.Grow(d.marked[:0], n)[:n]
	// Erode: keep the small-only pixels farther than radius from the large
	// mesh; then grow them back by radius inside the small-only region.
	radius := chamferUnits(v.Pixels(d.minWidth / 2))
	d.distance = distanceField(d.distance, d.largePixels, width, height)
	for i := range d.corePixels {
		d.corePixels[i] = d.smallPixels[i] && !d.largePixels[i] && d.distance[i] > radius
	}
	d.distance = distanceField(d.distance, d.corePixels, width, height)
	d.hatched = 0
	for i := range d.marked {
		d.marked[i] = d.smallPixels[i] && !d.largePixels[i] && d.distance[i] <= radius
		if d.marked[i] {
			d.hatched++
		}
	}
	d.segments = hatchSegments(d.segments[:0], d.marked, width, height)
}

// footprint fills the ground polygons of snap into the mask and appends
// the covered pixels to dst.
func (d *MeshDifference) footprint(dst []bool, snap *navmesh.Snapshot, v View) []bool {
	d.mask.Clear(color.RGBA{0, 0, 0, 255})
	style := navdraw.DefaultStyle()
	style.PolygonColor = func(*navmesh.Tile, int) color.NRGBA { return color.NRGBA{255, 255, 255, 255} }
	d.recorder.Reset()
	navdraw.Mesh(&d.recorder, snap, navdraw.Polygons, style)
	d.drawer.Canvas, d.drawer.View = d.mask, v
	d.recorder.Replay(&d.drawer)
	d.drawer.Canvas = nil
	pix := d.mask.Image().Pix
	for i := 0; i < len(pix); i += 4 {
		dst = append(dst, pix[i] != 0)
	}
	return dst
}

// chamferUnits converts a distance in pixels to distanceField's units.
func chamferUnits(pixels float32) int32 {
	return int32(min(pixels*3, math.MaxInt32/4))
}

// distanceField fills dst (grown to the image's size) with every pixel's
// distance to the nearest set pixel of seeds, a 3-4 chamfer distance
// (within 8 % of the Euclidean one) in thirds of a pixel (chamferUnits);
// a huge value everywhere when no pixel is set.
func distanceField(dst []int32, seeds []bool, width, height int) []int32 {
	const far = math.MaxInt32 / 2
	d := slices.Grow(dst[:0], len(seeds))[:len(seeds)]
	for i, s := range seeds {
		if s {
			d[i] = 0
		} else {
			d[i] = far
		}
	}
	relax := func(i, j int, cost int32) {
		if d[j]+cost < d[i] {
			d[i] = d[j] + cost
		}
	}
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			i := y*width + x
			if x > 0 {
				relax(i, i-1, 3)
			}
			if y > 0 {
				relax(i, i-width, 3)
				if x > 0 {
					relax(i, i-width-1, 4)
				}
				if x+1 < width {
					relax(i, i-width+1, 4)
				}
			}
		}
	}
	for y := height - 1; y >= 0; y-- {
		for x := width - 1; x >= 0; x-- {
			i := y*width + x
			if x+1 < width {
				relax(i, i+1, 3)
			}
			if y+1 < height {
				relax(i, i+width, 3)
				if x+1 < width {
					relax(i, i+width+1, 4)
				}
				if x > 0 {
					relax(i, i+width-1, 4)
				}
			}
		}
	}
	return d
}

// hatchSegments appends to dst the runs of marked pixels along the
// diagonals x + y = k·hatchSpacing, as segments between pixel centres.
func hatchSegments(dst [][2]render.Point, marked []bool, width, height int) [][2]render.Point {
	for k := 0; k < width+height; k += hatchSpacing {
		start := -1
		// Walk the diagonal x + y = k from its top end down to the left.
		x0 := min(k, width-1)
		flush := func(x, y int) {
			if start >= 0 {
				sx, sy := start, k-start
				dst = append(dst, [2]render.Point{
					{X: float32(sx) + 0.5 + 0.5, Y: float32(sy) + 0.5 - 0.5},
					{X: float32(x) + 0.5 - 0.5, Y: float32(y) + 0.5 + 0.5},
				})
				start = -1
			}
		}
		lastX, lastY := -1, -1
		for x := x0; x >= 0; x-- {
			y := k - x
			if y >= height {
				break
			}
			if marked[y*width+x] {
				if start < 0 {
					start = x
				}
				lastX, lastY = x, y
			} else {
				flush(lastX, lastY)
			}
		}
		flush(lastX, lastY)
	}
	return dst
}
