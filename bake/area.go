package bake

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// ErodeWalkableArea marks as not walkable every span closer than radius cells
// to the edge of the walkable surface, so an agent of that radius can be
// treated as a point (rcErodeWalkableArea). Distances are chamfer distances
// (2 per axis step, 3 per diagonal step) capped at 255. A radius of 0 leaves
// the field as it is; for radii above 127, where the reference's 8-bit
// threshold wraps around, every span is eroded.
func (chf *CompactHeightfield) ErodeWalkableArea(radius int) error {
	_, err := chf.erode(radius, nil)
	return err
}

// erode is ErodeWalkableArea with a reusable distance buffer, which it
// returns.
func (chf *CompactHeightfield) erode(radius int, distances []uint8) ([]uint8, error) {
	if radius < 0 {
		return distances, fmt.Errorf("bake: erode walkable area: radius %d is negative", radius)
	}
	distances = chf.boundaryDistances(distances)
	chf.erodeByDistances(distances, radius)
	return distances, nil
}

// erodeByDistances clears the area of every span closer than radius to the
// boundary, given the spans' boundaryDistances: the part of the erosion
// that depends on the radius.
func (chf *CompactHeightfield) erodeByDistances(distances []uint8, radius int) {
	threshold := radius * 2
	for i, d := range distances {
		if int(d) < threshold {
			chf.Areas[i] = NullArea
		}
	}
}

// boundaryDistances returns for each span its chamfer distance to the nearest
// span that is not walkable or misses a walkable neighbour, capped at 255,
// in distances resized to the span count.
func (chf *CompactHeightfield) boundaryDistances(distances []uint8) []uint8 {
	width, height := chf.Width, chf.Height
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	distances = resize(distances, len(spans))
	for i := range distances {
		distances[i] = 0xff
	}
	steps := [4]int{-1, width, 1, -width} // column index step of directions 0..3

	// Boundary spans start at distance 0.
	for column, cell := range cells {
		for i := cell.Index; i < cell.Index+cell.Count; i++ {
			if areas[i] == NullArea {
				distances[i] = 0
				continue
			}
			span := &spans[i]
			for dir := range 4 {
				con := span.Connection(dir)
				if con == NotConnected || areas[int(cells[column+steps[dir]].Index)+con] == NullArea {
					distances[i] = 0
					break
				}
			}
		}
	}

	// relax lowers the distance of span i in column through its neighbour a
	// in direction dir (cost 2) and a's neighbour in direction diagonalDir
	// (cost 3 in total).
	relax := func(column int, i uint32, dir, diagonalDir int) {
		con := spans[i].Connection(dir)
		if con == NotConnected {
			return
		}
		aColumn := column + steps[dir]
		a := cells[aColumn].Index + uint32(con)
		if d := min(distances[a], 253) + 2; d < distances[i] {
			distances[i] = d
		}
		con = spans[a].Connection(diagonalDir)
		if con == NotConnected {
			return
		}
		b := cells[aColumn+steps[diagonalDir]].Index + uint32(con)
		if d := min(distances[b], 252) + 3; d < distances[i] {
			distances[i] = d
		}
	}

	// Forward pass: from the -x, -z, (-x,-z) and (+x,-z) neighbours.
	for z := range height {
		for x := range width {
			column := x + z*width
			cell := cells[column]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				relax(column, i, 0, 3)
				relax(column, i, 3, 2)
			}
		}
	}
	// Backward pass: from the +x, +z, (+x,+z) and (-x,+z) neighbours.
	for z := height - 1; z >= 0; z-- {
		for x := width - 1; x >= 0; x-- {
			column := x + z*width
			cell := cells[column]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				relax(column, i, 2, 1)
				relax(column, i, 1, 0)
			}
		}
	}
	return distances
}

// MedianFilterWalkableArea replaces the area of each walkable span by the
// median of its own area and those of its eight neighbours, where missing or
// non-walkable neighbours count with the span's own area
// (rcMedianFilterWalkableArea). It smooths the edges of marked areas.
func (chf *CompactHeightfield) MedianFilterWalkableArea() {
	width, height := chf.Width, chf.Height
	filtered := make([]uint8, len(chf.Areas))
	for z := range height {
		for x := range width {
			cell := chf.Cells[x+z*width]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				own := chf.Areas[i]
				if own == NullArea {
					filtered[i] = own
					continue
				}
				var window [9]uint8
				for k := range window {
					window[k] = own
				}
				span := &chf.Spans[i]
				for dir := range 4 {
					if span.Connection(dir) == NotConnected {
						continue
					}
					a := neighbourSpan(chf, x, z, span, dir)
					if chf.Areas[a] != NullArea {
						window[dir*2] = chf.Areas[a]
					}
					diagonalDir := (dir + 1) & 3
					if chf.Spans[a].Connection(diagonalDir) == NotConnected {
						continue
					}
					ax, az := x+DirOffsetX(dir), z+DirOffsetZ(dir)
					b := neighbourSpan(chf, ax, az, &chf.Spans[a], diagonalDir)
					if chf.Areas[b] != NullArea {
						window[dir*2+1] = chf.Areas[b]
					}
				}
				insertionSort(window[:])
				filtered[i] = window[4]
			}
		}
	}
	copy(chf.Areas, filtered)
}

func insertionSort(values []uint8) {
	for i := 1; i < len(values); i++ {
		v := values[i]
		j := i - 1
		for ; j >= 0 && values[j] > v; j-- {
			values[j+1] = values[j]
		}
		values[j+1] = v
	}
}

// footprint returns the cell range [minX, maxX] × [minZ, maxZ] covered by the
// world box [bmin, bmax] clamped to the field, with the box's vertical range
// in cells, and false when the box misses the field in x or z. Coordinates
// are truncated toward zero, as in the reference.
func (chf *CompactHeightfield) footprint(bmin, bmax mgl32.Vec3) (minX, minY, minZ, maxX, maxY, maxZ int, ok bool) {
	minX = cInt((bmin[0] - chf.BMin[0]) / chf.CellSize)
	minY = cInt((bmin[1] - chf.BMin[1]) / chf.CellHeight)
	minZ = cInt((bmin[2] - chf.BMin[2]) / chf.CellSize)
	maxX = cInt((bmax[0] - chf.BMin[0]) / chf.CellSize)
	maxY = cInt((bmax[1] - chf.BMin[1]) / chf.CellHeight)
	maxZ = cInt((bmax[2] - chf.BMin[2]) / chf.CellSize)
	if maxX < 0 || minX >= chf.Width || maxZ < 0 || minZ >= chf.Height {
		return 0, 0, 0, 0, 0, 0, false
	}
	minX, minZ = max(minX, 0), max(minZ, 0)
	maxX, maxZ = min(maxX, chf.Width-1), min(maxZ, chf.Height-1)
	return minX, minY, minZ, maxX, maxY, maxZ, true
}

// MarkBoxArea gives area to the walkable spans whose floor lies in the box
// [bmin, bmax] (rcMarkBoxArea).
func (chf *CompactHeightfield) MarkBoxArea(bmin, bmax mgl32.Vec3, area uint8) error {
	box := BoxVolume{Min: bmin, Max: bmax, Area: area}
	if err := box.Validate(); err != nil {
		return fmt.Errorf("bake: mark box area: %w", err)
	}
	minX, minY, minZ, maxX, maxY, maxZ, ok := chf.footprint(bmin, bmax)
	if !ok {
		return nil
	}
	for z := minZ; z <= maxZ; z++ {
		for x := minX; x <= maxX; x++ {
			chf.markColumn(x, z, minY, maxY, area)
		}
	}
	return nil
}

// markColumn gives area to the walkable spans of column (x, z) whose floor
// lies in [minY, maxY] cells.
func (chf *CompactHeightfield) markColumn(x, z, minY, maxY int, area uint8) {
	cell := chf.Cells[x+z*chf.Width]
	for i := cell.Index; i < cell.Index+cell.Count; i++ {
		y := int(chf.Spans[i].Y)
		if y < minY || y > maxY || chf.Areas[i] == NullArea {
			continue
		}
		chf.Areas[i] = area
	}
}

// MarkConvexPolyArea gives area to the walkable spans whose column centre lies
// inside the polygon vertices (xz-plane; convex in practice, any simple
// polygon works) and whose floor lies between minY and maxY
// (rcMarkConvexPolyArea).
func (chf *CompactHeightfield) MarkConvexPolyArea(vertices []mgl32.Vec3, minY, maxY float32, area uint8) error {
	volume := ConvexVolume{Vertices: vertices, MinY: minY, MaxY: maxY, Area: area}
	if err := volume.Validate(); err != nil {
		return fmt.Errorf("bake: mark convex poly area: %w", err)
	}
	bmin, bmax := vertices[0], vertices[0]
	for _, v := range vertices[1:] {
		bmin = geom.Min(bmin, v)
		bmax = geom.Max(bmax, v)
	}
	bmin[1], bmax[1] = minY, maxY
	minX, minCellY, minZ, maxX, maxCellY, maxZ, ok := chf.footprint(bmin, bmax)
	if !ok {
		return nil
	}
	for z := minZ; z <= maxZ; z++ {
		for x := minX; x <= maxX; x++ {
			cell := chf.Cells[x+z*chf.Width]
			for i := cell.Index; i < cell.Index+cell.Count; i++ {
				if chf.Areas[i] == NullArea {
					continue
				}
				if y := int(chf.Spans[i].Y); y < minCellY || y > maxCellY {
					continue
				}
				centre := mgl32.Vec3{
					chf.BMin[0] + float32((float32(x)+0.5)*chf.CellSize),
					0,
					chf.BMin[2] + float32((float32(z)+0.5)*chf.CellSize),
				}
				if geom.PointInPolygon(centre, vertices) {
					chf.Areas[i] = area
				}
			}
		}
	}
	return nil
}

// MarkCylinderArea gives area to the walkable spans whose column centre lies
// within radius of base in the xz-plane and whose floor lies between base's
// height and height above it (rcMarkCylinderArea).
func (chf *CompactHeightfield) MarkCylinderArea(base mgl32.Vec3, radius, height float32, area uint8) error {
	cylinder := CylinderVolume{Base: base, Radius: radius, Height: height, Area: area}
	if err := cylinder.Validate(); err != nil {
		return fmt.Errorf("bake: mark cylinder area: %w", err)
	}
	bmin := mgl32.Vec3{base[0] - radius, base[1], base[2] - radius}
	bmax := mgl32.Vec3{base[0] + radius, base[1] + height, base[2] + radius}
	minX, minY, minZ, maxX, maxY, maxZ, ok := chf.footprint(bmin, bmax)
	if !ok {
		return nil
	}
	radiusSqr := radius * radius
	for z := minZ; z <= maxZ; z++ {
		for x := minX; x <= maxX; x++ {
			centreX := chf.BMin[0] + float32((float32(x)+0.5)*chf.CellSize)
			centreZ := chf.BMin[2] + float32((float32(z)+0.5)*chf.CellSize)
			dx, dz := centreX-base[0], centreZ-base[2]
			if float32(dx*dx)+float32(dz*dz) >= radiusSqr {
				continue
			}
			chf.markColumn(x, z, minY, maxY, area)
		}
	}
	return nil
}

// MarkAreaVolumes applies the area volumes of g to the field: first the
// convex volumes (as RecastDemo does after erosion), then the boxes, then the
// cylinders, each in order, so later volumes win where they overlap. Nothing
// is marked unless every volume is valid.
func (chf *CompactHeightfield) MarkAreaVolumes(g *Geometry) error {
	if err := g.validateVolumes(); err != nil {
		return err
	}
	for _, v := range g.ConvexVolumes {
		_ = chf.MarkConvexPolyArea(v.Vertices, v.MinY, v.MaxY, v.Area)
	}
	for _, b := range g.BoxVolumes {
		_ = chf.MarkBoxArea(b.Min, b.Max, b.Area)
	}
	for _, c := range g.CylinderVolumes {
		_ = chf.MarkCylinderArea(c.Base, c.Radius, c.Height, c.Area)
	}
	return nil
}

// OffsetPoly appends to dst the polygon verts with every edge moved offset
// world units along its normal in the xz-plane, and returns it
// (rcOffsetPoly). For corners that run counter-clockwise when plotted with x
// to the right and z up, a positive offset grows the polygon and a negative
// one shrinks it. Convex corners sharper than the miter limit (1.2) are
// bevelled into two corners; y values are kept.
func OffsetPoly(dst, verts []mgl32.Vec3, offset float32) []mgl32.Vec3 {
	const miterLimit = float32(1.20)
	n := len(verts)
	for i := range n {
		a, b, c := verts[(i+n-1)%n], verts[i], verts[(i+1)%n]

		prevDir := safeNormalize2D(b[0]-a[0], b[2]-a[2])
		currDir := safeNormalize2D(c[0]-b[0], c[2]-b[2])
		cross := float32(currDir[0]*prevDir[1]) - float32(prevDir[0]*currDir[1])

		// Left-hand normals of the two edges and their average, the miter.
		prevNormX, prevNormZ := -prevDir[1], prevDir[0]
		currNormX, currNormZ := -currDir[1], currDir[0]
		miterX := (prevNormX + currNormX) * 0.5
		miterZ := (prevNormZ + currNormZ) * 0.5
		miterSqr := float32(miterX*miterX) + float32(miterZ*miterZ)
		bevel := miterSqr*miterLimit*miterLimit < 1
		if miterSqr > offsetEpsilon {
			scale := 1 / miterSqr
			miterX *= scale
			miterZ *= scale
		}

		if bevel && cross < 0 {
			d := (1 - (float32(prevDir[0]*currDir[0]) + float32(prevDir[1]*currDir[1]))) * 0.5
			dst = append(dst,
				mgl32.Vec3{b[0] + float32((-prevNormX+float32(prevDir[0]*d))*offset), b[1], b[2] + float32((-prevNormZ+float32(prevDir[1]*d))*offset)},
				mgl32.Vec3{b[0] + float32((-currNormX-float32(currDir[0]*d))*offset), b[1], b[2] + float32((-currNormZ-float32(currDir[1]*d))*offset)})
			continue
		}
		dst = append(dst, mgl32.Vec3{b[0] - float32(miterX*offset), b[1], b[2] - float32(miterZ*offset)})
	}
	return dst
}

// offsetEpsilon is the squared length under which OffsetPoly leaves a vector
// unscaled.
const offsetEpsilon = float32(1e-6)

// safeNormalize2D returns (x, z) scaled to unit length, or unchanged when its
// squared length is at most offsetEpsilon (rcVsafeNormalize with y = 0).
func safeNormalize2D(x, z float32) [2]float32 {
	sqr := float32(x*x) + float32(z*z)
	if sqr > offsetEpsilon {
		inverse := 1 / geom.Sqrt(sqr)
		x *= inverse
		z *= inverse
	}
	return [2]float32{x, z}
}
