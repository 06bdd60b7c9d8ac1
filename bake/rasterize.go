package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// RasterizeTriangle adds the spans a triangle touches to the field
// (rcRasterizeTriangle). See RasterizeTriangles.
func (hf *Heightfield) RasterizeTriangle(v0, v1, v2 mgl32.Vec3, area uint8, mergeThreshold int) error {
	if area > MaxAreaID {
		return fmt.Errorf("bake: rasterize triangle: area %d above %d", area, MaxAreaID)
	}
	if !geom.IsFinite(v0) || !geom.IsFinite(v1) || !geom.IsFinite(v2) {
		return fmt.Errorf("bake: rasterize triangle: vertices %v %v %v are not finite", v0, v1, v2)
	}
	r := newRasterizer(hf, mergeThreshold)
	r.triangle(v0, v1, v2, area)
	return nil
}

// RasterizeTriangles adds the spans of each triangle to the field, in order,
// triangle i with area id areas[i] (rcRasterizeTriangles).
//
// The rasterization is conservative: a triangle fills every cell its xz
// footprint overlaps at all, from the lowest to the highest point of the part
// of it inside the cell, rounded outwards to whole cells and clamped to the
// field's height range; parts outside the field are clipped away. New spans
// merge with the spans they touch (see AddSpan); mergeThreshold is normally
// the walkable climb in cells.
//
// Every index, referenced vertex and area is checked before anything is
// rasterized, so an error leaves the field unchanged (but for a bake's
// work limit, ErrWorkLimit, which stops part way).
func (hf *Heightfield) RasterizeTriangles(vertices []mgl32.Vec3, triangles [][3]int32, areas []uint8, mergeThreshold int) error {
	if len(areas) != len(triangles) {
		return fmt.Errorf("bake: rasterize triangles: %d areas for %d triangles", len(areas), len(triangles))
	}
	for i, t := range triangles {
		for _, index := range t {
			if index < 0 || int(index) >= len(vertices) {
				return fmt.Errorf("bake: rasterize triangle %d: vertex index %d outside 0..%d", i, index, len(vertices)-1)
			}
			if !geom.IsFinite(vertices[index]) {
				return fmt.Errorf("bake: rasterize triangle %d: vertex %d %v is not finite", i, index, vertices[index])
			}
		}
		if areas[i] > MaxAreaID {
			return fmt.Errorf("bake: rasterize triangle %d: area %d above %d", i, areas[i], MaxAreaID)
		}
	}
	r := newRasterizer(hf, mergeThreshold)
	// Insertion hints for the columns, valid for this call only: nothing
	// else changes the spans meanwhile.
	hf.hints = resize(hf.hints, len(hf.Columns))
	for i := range hf.hints {
		hf.hints[i] = noSpan
	}
	r.hints = hf.hints
	for i, t := range triangles {
		r.triangle(vertices[t[0]], vertices[t[1]], vertices[t[2]], areas[i])
		if hf.maxWalk > 0 && r.walked > hf.maxWalk {
			return fmt.Errorf("bake: rasterize triangle %d: the spans inserted so far walked past %d spans up their columns, over the limit of %s (Settings.MaxWork): the level stacks many floors over the same cells, out of height order: %w",
				i, r.walked, formatCount(hf.maxWalk), ErrWorkLimit)
		}
	}
	return nil
}

// maxClipVertices bounds the polygons the clipper produces. A triangle cut by
// two rows and two columns has at most 7 corners; the slack absorbs rounding
// on badly conditioned input, and corners beyond it are dropped instead of
// overrunning (the reference's 7-corner buffers overflow there).
const maxClipVertices = 16

// clipPolygon holds the corners of a polygon being clipped to the grid. One
// cut of a polygon of at most maxClipVertices corners adds at most two
// corners per input corner to either side, so twice that room is never
// overrun; the corners past maxClipVertices are then dropped.
type clipPolygon [2 * maxClipVertices]mgl32.Vec3

// clipIndexMask keeps clipPolygon indices in range without bounds checks.
const clipIndexMask = 2*maxClipVertices - 1

// rasterizer holds the per-call constants and clip buffers of triangle
// rasterization.
type rasterizer struct {
	field             *Heightfield
	inverseCellSize   float32
	inverseCellHeight float32
	mergeThreshold    int
	buffers           [4]clipPolygon
	// hints holds each column's insertion hint (see addSpan), nil for none.
	hints []int32
	// walked counts the spans the insertions walked past or merged.
	walked int64
}

func newRasterizer(hf *Heightfield, mergeThreshold int) *rasterizer {
	return &rasterizer{
		field:             hf,
		inverseCellSize:   1 / hf.CellSize,
		inverseCellHeight: 1 / hf.CellHeight,
		mergeThreshold:    mergeThreshold,
	}
}

// triangle rasterizes one triangle: it clips the triangle into the rows it
// spans, each row into its columns, and adds one span per cell covering the
// height range of the piece in that cell (rasterizeTri).
func (r *rasterizer) triangle(v0, v1, v2 mgl32.Vec3, area uint8) {
	hf := r.field
	triMin := geom.Min(geom.Min(v0, v1), v2)
	triMax := geom.Max(geom.Max(v0, v1), v2)
	if !overlapBoxes(triMin, triMax, hf.BMin, hf.BMax) {
		return
	}

	width, height := hf.Width, hf.Height
	bmin := hf.BMin
	fieldHeight := hf.BMax[1] - hf.BMin[1]
	cellSize := hf.CellSize

	// Row -1 takes the part of the triangle before the field so that row 0
	// starts with a clean cut.
	z0 := clampInt(cInt((triMin[2]-bmin[2])*r.inverseCellSize), -1, height-1)
	z1 := clampInt(cInt((triMax[2]-bmin[2])*r.inverseCellSize), 0, height-1)

	remaining, row, cell, scratch := &r.buffers[0], &r.buffers[1], &r.buffers[2], &r.buffers[3]
	remaining[0], remaining[1], remaining[2] = v0, v1, v2
	remainingCount := 3

	for z := z0; z <= z1; z++ {
		cellZ := bmin[2] + float32(float32(z)*cellSize)
		var rowCount int
		rowCount, remainingCount = dividePoly(remaining[:remainingCount], row, cell, cellZ+cellSize, 2)
		remaining, cell = cell, remaining
		if rowCount < 3 || z < 0 {
			continue
		}

		minX, maxX := row[0][0], row[0][0]
		for i := 1; i < rowCount; i++ {
			minX = minFloat(minX, row[i][0])
			maxX = maxFloat(maxX, row[i][0])
		}
		x0 := cInt((minX - bmin[0]) * r.inverseCellSize)
		x1 := cInt((maxX - bmin[0]) * r.inverseCellSize)
		if x1 < 0 || x0 >= width {
			continue
		}
		x0 = clampInt(x0, -1, width-1)
		x1 = clampInt(x1, 0, width-1)

		rowRemaining := rowCount
		for x := x0; x <= x1; x++ {
			cellX := bmin[0] + float32(float32(x)*cellSize)
			var cellCount int
			cellCount, rowRemaining = dividePoly(row[:rowRemaining], cell, scratch, cellX+cellSize, 0)
			row, scratch = scratch, row
			if cellCount < 3 || x < 0 {
				continue
			}

			// The built-in min and max differ from the reference's rcMin and
			// rcMax only on the sign of zero, which changes no cell below,
			// and on NaNs, which clipping makes only from coordinates beyond
			// ±1.7e38. They compile without branches, which corner heights
			// would mispredict.
			spanMin, spanMax := cell[0][1], cell[0][1]
			for i := 1; i < cellCount; i++ {
				spanMin = min(spanMin, cell[i][1])
				spanMax = max(spanMax, cell[i][1])
			}
			spanMin -= bmin[1]
			spanMax -= bmin[1]
			if spanMax < 0 || spanMin > fieldHeight {
				continue
			}
			spanMin = maxFloat(spanMin, 0)
			spanMax = minFloat(spanMax, fieldHeight)

			// The reference lets the bottom reach MaxSpanHeight, which makes
			// its top overflow the 13-bit field; keep one cell of room.
			if spanMax*r.inverseCellHeight > MaxSpanHeight {
				hf.ClampedSpans++ // flattened, as in Recast: the bake warns
			}
			bottom := clampInt(cInt(geom.Floor(spanMin*r.inverseCellHeight)), 0, MaxSpanHeight-1)
			top := clampInt(cInt(geom.Ceil(spanMax*r.inverseCellHeight)), bottom+1, MaxSpanHeight)
			column := x + z*width
			var hint *int32
			if r.hints != nil {
				hint = &r.hints[column]
			}
			r.walked += int64(hf.addSpan(column, uint16(bottom), uint16(top), area, r.mergeThreshold, hint))
		}
	}
}

// dividePoly splits the polygon in along the plane where coordinate axis
// equals offset: corners at or below go to below, corners at or above to
// above, and each crossing edge adds its crossing point to both. It returns
// the corner counts, at most maxClipVertices each: the corners past that are
// dropped (dividePoly).
//
// Corners are read and written one float at a time: copying whole Vec3s
// that were just stored as separate floats stalls on store forwarding.
func dividePoly(in []mgl32.Vec3, below, above *clipPolygon, offset float32, axis int) (belowCount, aboveCount int) {
	n := min(len(in), maxClipVertices)
	if n == 0 {
		return 0, 0
	}
	in = in[:n]
	// Corner b is the one before corner a, starting with the last.
	bx, by, bz := in[n-1][0], in[n-1][1], in[n-1][2]
	deltaB := offset - in[n-1][axis]
	for a := range in {
		ax, ay, az := in[a][0], in[a][1], in[a][2]
		deltaA := offset - in[a][axis]
		if (deltaA >= 0) != (deltaB >= 0) {
			s := deltaB / (deltaB - deltaA)
			x := bx + float32((ax-bx)*s)
			y := by + float32((ay-by)*s)
			z := bz + float32((az-bz)*s)
			v := &below[belowCount&clipIndexMask]
			v[0], v[1], v[2] = x, y, z
			belowCount++
			v = &above[aboveCount&clipIndexMask]
			v[0], v[1], v[2] = x, y, z
			aboveCount++
			// A corner on the plane was just added as the crossing point.
			if deltaA > 0 {
				v = &below[belowCount&clipIndexMask]
				v[0], v[1], v[2] = ax, ay, az
				belowCount++
			} else if deltaA < 0 {
				v = &above[aboveCount&clipIndexMask]
				v[0], v[1], v[2] = ax, ay, az
				aboveCount++
			}
		} else {
			// Same side: corners on the plane go to both polygons.
			if deltaA >= 0 {
				v := &below[belowCount&clipIndexMask]
				v[0], v[1], v[2] = ax, ay, az
				belowCount++
			}
			if deltaA <= 0 {
				v := &above[aboveCount&clipIndexMask]
				v[0], v[1], v[2] = ax, ay, az
				aboveCount++
			}
		}
		bx, by, bz, deltaB = ax, ay, az, deltaA
	}
	return min(belowCount, maxClipVertices), min(aboveCount, maxClipVertices)
}

// overlapBoxes reports whether two boxes overlap, touching included; NaN
// coordinates never overlap (the reference's overlapBounds).
func overlapBoxes(aMin, aMax, bMin, bMax mgl32.Vec3) bool {
	return aMin[0] <= bMax[0] && aMax[0] >= bMin[0] &&
		aMin[1] <= bMax[1] && aMax[1] >= bMin[1] &&
		aMin[2] <= bMax[2] && aMax[2] >= bMin[2]
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
