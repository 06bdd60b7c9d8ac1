package bake

import "fmt"

// ContourBuildFlags choose which contour edges BuildContours splits when they
// are longer than the maximum edge length (rcBuildContoursFlags).
type ContourBuildFlags int

const (
	// TessellateWallEdges splits long edges along walls, the solid border of
	// the walkable area (RC_CONTOUR_TESS_WALL_EDGES). RecastDemo uses it.
	TessellateWallEdges ContourBuildFlags = 0x01
	// TessellateAreaEdges splits long edges between two areas
	// (RC_CONTOUR_TESS_AREA_EDGES).
	TessellateAreaEdges ContourBuildFlags = 0x02
)

// contourWalkLimit bounds the steps of one outline walk, as in the C++.
const contourWalkLimit = 40000

// BuildContours traces the outline of every region of chf and simplifies it
// (rcBuildContours). Regions must have been built first (BuildRegions,
// BuildRegionsMonotone or BuildLayerRegions).
//
// maxError is the largest distance a simplified wall or area edge may stray
// from the raw outline [Limit: >= 0] [Units: cells]; maxEdgeLen is the
// longest edge the edges selected by flags may keep, 0 to never split
// [Limit: >= 0] [Units: cells].
//
// Each Contour has its vertices relative to the set's BMin (the tile border
// removed), with the neighbour region and BorderVertex/AreaBorder flags in
// the fourth value. Holes (contours wound clockwise) are merged into their
// region's outline; a merged hole stays in the set with no Verts (its
// RawVerts kept), exactly like the C++, so len(Contours) equals the C++
// contour count. Regions whose outline simplifies to fewer than three
// vertices get no contour. Problems the C++ only logs (a hole that cannot be
// merged, a region with several or no outlines) are appended to the set's
// Warnings.
func BuildContours(chf *CompactHeightfield, maxError float32, maxEdgeLen int, flags ContourBuildFlags) (*ContourSet, error) {
	var buffers contourBuffers
	// Built aside: a stage stopped by a malformed field returns no set.
	set := &ContourSet{}
	if err := buffers.build(chf, maxError, maxEdgeLen, flags, set); err != nil {
		return nil, err
	}
	return set, nil
}

// contourBuffers keeps the working memory of contour building between
// builds.
type contourBuffers struct {
	edges           []uint8
	raw, simplified [][4]int32
}

// build is BuildContours into set, reusing the memory of set's contours
// and of the buffers. On error set holds a partial result.
func (b *contourBuffers) build(chf *CompactHeightfield, maxError float32, maxEdgeLen int, flags ContourBuildFlags, set *ContourSet) (err error) {
	defer recoverMalformedField("build contours", &err)
	if err := checkCompactLayout(chf); err != nil {
		return fmt.Errorf("bake: build contours: %w", err)
	}
	if chf.BorderSize < 0 || 2*chf.BorderSize > chf.Width || 2*chf.BorderSize > chf.Height {
		return fmt.Errorf("bake: build contours: border size %d does not fit a %d×%d grid", chf.BorderSize, chf.Width, chf.Height)
	}

	w, h := chf.Width, chf.Height
	borderSize := chf.BorderSize
	contours := set.Contours[:0]
	if cap(contours) == 0 {
		contours = make([]Contour, 0, max(int(chf.MaxRegions), 8))
	}
	*set = ContourSet{
		BMin:       chf.BMin,
		BMax:       chf.BMax,
		CellSize:   chf.CellSize,
		CellHeight: chf.CellHeight,
		Width:      chf.Width - 2*borderSize,
		Height:     chf.Height - 2*borderSize,
		BorderSize: borderSize,
		MaxError:   maxError,
	}
	if borderSize > 0 {
		pad := float32(float32(borderSize) * chf.CellSize)
		set.BMin[0] += pad
		set.BMin[2] += pad
		set.BMax[0] -= pad
		set.BMax[2] -= pad
	}

	edges, err := markRegionEdges(chf, b.edges)
	b.edges = edges
	if err != nil {
		return fmt.Errorf("bake: build contours: %w", err)
	}

	raw, simplified := b.raw, b.simplified
	defer func() { b.raw, b.simplified = raw, simplified }()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := chf.Cells[x+y*w]
			for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
				if edges[i] == 0 || edges[i] == 0xf {
					edges[i] = 0
					continue
				}
				region := chf.Spans[i].Region
				if region == 0 || region&BorderRegion != 0 {
					continue
				}

				raw = walkContour(x, y, i, chf, edges, raw[:0])
				simplified = simplifyContour(raw, simplified[:0], maxError, maxEdgeLen, flags)
				simplified = removeDegenerateSegments(simplified)
				if len(simplified) < 3 {
					continue
				}

				// Reuse the vertex arrays of a contour of an earlier build.
				if len(contours) < cap(contours) {
					contours = contours[:len(contours)+1]
				} else {
					contours = append(contours, Contour{})
				}
				contour := &contours[len(contours)-1]
				contour.Verts = append(contour.Verts[:0], simplified...)
				contour.RawVerts = append(contour.RawVerts[:0], raw...)
				contour.Region = region
				contour.Area = chf.Areas[i]
				if borderSize > 0 {
					removeBorderOffset(contour.Verts, borderSize)
					removeBorderOffset(contour.RawVerts, borderSize)
				}
			}
		}
	}
	set.Contours = contours

	mergeHoles(set, int(chf.MaxRegions))
	return nil
}

// removeBorderOffset shifts vertices from field cells to tile cells.
func removeBorderOffset(verts [][4]int32, borderSize int) {
	for j := range verts {
		verts[j][0] -= int32(borderSize)
		verts[j][2] -= int32(borderSize)
	}
}

// markRegionEdges returns, per span, a bit for each direction whose
// neighbour is missing or in another region; spans outside any region or in
// the tile border get 0. A region id above chf.MaxRegions is an error.
// The marks go to edges resized to the span count.
func markRegionEdges(chf *CompactHeightfield, edges []uint8) ([]uint8, error) {
	cells, spans := chf.Cells, chf.Spans
	offsets := cellOffsets(chf.Width)
	edges = resize(edges, len(spans))
	clear(edges)
	for cell, c := range cells {
		for i, end := int(c.Index), int(c.Index+c.Count); i < end; i++ {
			s := &spans[i]
			if s.Region == 0 || s.Region&BorderRegion != 0 {
				continue
			}
			if s.Region > chf.MaxRegions {
				return edges, fmt.Errorf("span %d has region %d above MaxRegions %d", i, s.Region, chf.MaxRegions)
			}
			var same uint8
			for dir := 0; dir < 4; dir++ {
				var neighbour uint16
				if con := s.Connection(dir); con != NotConnected {
					neighbour = spans[int(cells[cell+offsets[dir]].Index)+con].Region
				}
				if neighbour == s.Region {
					same |= 1 << dir
				}
			}
			edges[i] = same ^ 0xf
		}
	}
	return edges, nil
}

// walkContour follows the edges of span i's region clockwise from its first
// marked edge, clearing each edge visited, and appends one raw vertex per
// edge: the edge's corner x, height, z in cells and, in the fourth value,
// the region beyond the edge with BorderVertex and AreaBorder flags.
func walkContour(x, y, i int, chf *CompactHeightfield, edges []uint8, points [][4]int32) [][4]int32 {
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	offsets := cellOffsets(chf.Width)
	dir := 0
	for edges[i]&(1<<dir) == 0 {
		dir++
	}
	startDir, startIndex := dir, i
	area := areas[i]
	cell := x + y*chf.Width

	for iteration := 1; iteration < contourWalkLimit; iteration++ {
		s := &spans[i]
		if edges[i]&(1<<dir) != 0 {
			height, isBorderVertex := cornerHeight(cell, i, dir, chf)
			px, pz := x, y
			switch dir {
			case 0:
				pz++
			case 1:
				px++
				pz++
			case 2:
				px++
			}
			isAreaBorder := false
			neighbour := 0
			if con := s.Connection(dir); con != NotConnected {
				ai := int(cells[cell+offsets[dir]].Index) + con
				neighbour = int(spans[ai].Region)
				isAreaBorder = area != areas[ai]
			}
			if isBorderVertex {
				neighbour |= BorderVertex
			}
			if isAreaBorder {
				neighbour |= AreaBorder
			}
			points = append(points, [4]int32{int32(px), int32(height), int32(pz), int32(neighbour)})

			edges[i] &^= 1 << dir
			dir = (dir + 1) & 3
		} else {
			con := s.Connection(dir)
			if con == NotConnected {
				// Cannot happen on a consistent field: the edge is open.
				return points
			}
			x += DirOffsetX(dir)
			y += DirOffsetZ(dir)
			cell += offsets[dir]
			i = int(cells[cell].Index) + con
			dir = (dir + 3) & 3
		}
		if startIndex == i && startDir == dir {
			break
		}
	}
	return points
}

// cornerHeight returns the height of the corner clockwise after edge dir of
// span i of cell (the highest floor among the up to four spans around it)
// and whether the corner is a border vertex: one where two cells of the same
// tile-border region meet two interior cells of one area, which the poly
// mesh stage removes.
func cornerHeight(cell, i, dir int, chf *CompactHeightfield) (int, bool) {
	cells, spans, areas := chf.Cells, chf.Spans, chf.Areas
	offsets := cellOffsets(chf.Width)
	s := &spans[i]
	height := int(s.Y)
	nextDir := (dir + 1) & 3

	// Region and area of the four cells around the corner.
	var regions [4]uint32
	regions[0] = uint32(s.Region) | uint32(areas[i])<<16

	if con := s.Connection(dir); con != NotConnected {
		ac := cell + offsets[dir]
		ai := int(cells[ac].Index) + con
		as := &spans[ai]
		height = max(height, int(as.Y))
		regions[1] = uint32(as.Region) | uint32(areas[ai])<<16
		if con := as.Connection(nextDir); con != NotConnected {
			ai2 := int(cells[ac+offsets[nextDir]].Index) + con
			as2 := &spans[ai2]
			height = max(height, int(as2.Y))
			regions[2] = uint32(as2.Region) | uint32(areas[ai2])<<16
		}
	}
	if con := s.Connection(nextDir); con != NotConnected {
		ac := cell + offsets[nextDir]
		ai := int(cells[ac].Index) + con
		as := &spans[ai]
		height = max(height, int(as.Y))
		regions[3] = uint32(as.Region) | uint32(areas[ai])<<16
		if con := as.Connection(dir); con != NotConnected {
			ai2 := int(cells[ac+offsets[dir]].Index) + con
			as2 := &spans[ai2]
			height = max(height, int(as2.Y))
			regions[2] = uint32(as2.Region) | uint32(areas[ai2])<<16
		}
	}

	for j := 0; j < 4; j++ {
		a := regions[j]
		b := regions[(j+1)&3]
		c := regions[(j+2)&3]
		d := regions[(j+3)&3]
		twoSameExteriors := a&b&uint32(BorderRegion) != 0 && a == b
		twoInteriors := (c|d)&uint32(BorderRegion) == 0
		interiorsSameArea := c>>16 == d>>16
		noZeros := a != 0 && b != 0 && c != 0 && d != 0
		if twoSameExteriors && twoInteriors && interiorsSameArea && noZeros {
			return height, true
		}
	}
	return height, false
}
