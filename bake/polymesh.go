package bake

import (
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/navmesh"
)

// ErrTooManyVertices is returned when a mesh would need more vertices than
// 16-bit indices can address.
var ErrTooManyVertices = errors.New("too many vertices")

// ErrTooManyPolygons is returned when a mesh would hold more polygons than
// 16-bit indices can address or than its buffers were sized for.
var ErrTooManyPolygons = errors.New("too many polygons")

// maxPolyMeshVertices is the vertex budget of BuildPolyMesh: the sum of the
// contours' vertex counts must stay below it (0xfffe in Recast).
const maxPolyMeshVertices = 0xfffe

// BuildPolyMesh triangulates the contours of cset and merges the triangles
// into convex polygons of up to maxVertsPerPoly vertices (rcBuildPolyMesh).
// Vertices flagged BorderVertex are removed where the mesh allows, and
// polygon edges on the tile border get the neighbour code 0x8000|side (side
// 0: x = 0, 1: z = Height, 2: x = Width, 3: z = 0) when cset has a border.
// The result's Flags are all zero; Areas and Regions come from the
// contours.
//
// maxVertsPerPoly [Limit: 3..navmesh.MaxVertsPerPoly]
func BuildPolyMesh(cset *ContourSet, maxVertsPerPoly int) (*PolyMesh, error) {
	return buildPolyMesh(cset, maxVertsPerPoly, nil)
}

// buildPolyMesh is BuildPolyMesh with a warning log.
func buildPolyMesh(cset *ContourSet, nvp int, log *buildLog) (*PolyMesh, error) {
	var buffers polyMeshBuffers
	return buffers.build(cset, nvp, log)
}

// polyMeshBuffers keeps the working memory of poly mesh building between
// builds; the mesh built is a copy.
type polyMeshBuffers struct {
	welder                                vertexWelder
	polys, regions, contourPolys, scratch []uint16
	areas                                 []uint8
	removable                             []bool
	indices, tris                         []int
	adjacency                             meshAdjacency
}

// build is buildPolyMesh on the buffers' memory.
func (m *polyMeshBuffers) build(cset *ContourSet, nvp int, log *buildLog) (*PolyMesh, error) {
	if cset == nil {
		return nil, errors.New("bake: build poly mesh: nil contour set")
	}
	if nvp < 3 || nvp > navmesh.MaxVertsPerPoly {
		return nil, fmt.Errorf("bake: build poly mesh: %d vertices per polygon, want 3..%d", nvp, navmesh.MaxVertsPerPoly)
	}

	maxVertices, maxTris, maxVertsPerContour := 0, 0, 0
	for i := range cset.Contours {
		n := len(cset.Contours[i].Verts)
		if n < 3 {
			continue
		}
		maxVertices += n
		maxTris += n - 2
		maxVertsPerContour = max(maxVertsPerContour, n)
	}
	if maxVertices >= maxPolyMeshVertices {
		return nil, fmt.Errorf("bake: build poly mesh: %d contour vertices, max %d: %w", maxVertices, maxPolyMeshVertices-1, ErrTooManyVertices)
	}

	m.welder.reset(maxVertices)
	m.polys = resize(m.polys, maxTris*nvp*2)
	m.regions = resize(m.regions, maxTris)
	m.areas = resize(m.areas, maxTris)
	m.removable = resize(m.removable, maxVertices)
	clear(m.removable)
	b := &polyMeshBuilder{
		nvp:       nvp,
		maxPolys:  maxTris,
		welder:    &m.welder,
		polys:     m.polys,
		regions:   m.regions,
		areas:     m.areas,
		removable: m.removable,
		log:       log,
	}
	for i := range b.polys {
		b.polys[i] = MeshNullIndex
	}

	m.indices = resize(m.indices, maxVertsPerContour)
	m.tris = slices.Grow(m.tris[:0], maxVertsPerContour*3)
	m.contourPolys = resize(m.contourPolys, maxVertsPerContour*nvp)
	m.scratch = resize(m.scratch, nvp)
	indices, tris, contourPolys, scratch := m.indices, m.tris, m.contourPolys, m.scratch
	defer func() { m.tris = tris }()

	for ci := range cset.Contours {
		contour := &cset.Contours[ci]
		n := len(contour.Verts)
		if n < 3 {
			continue
		}

		for j := range n {
			indices[j] = j
		}
		var complete bool
		tris, complete = triangulate(contour.Verts, indices[:n], tris[:0])
		if !complete {
			log.warnf("build poly mesh: bad triangulation of contour %d", ci)
		}

		for j, v := range contour.Verts {
			indices[j] = int(b.welder.add(uint16(v[0]), uint16(v[1]), uint16(v[2])))
			if v[3]&BorderVertex != 0 {
				b.removable[indices[j]] = true
			}
		}

		count := 0
		for i := range contourPolys {
			contourPolys[i] = MeshNullIndex
		}
		for t := 0; t+2 < len(tris); t += 3 {
			a, bb, c := tris[t], tris[t+1], tris[t+2]
			if a == bb || a == c || bb == c {
				continue
			}
			row := contourPolys[count*nvp:]
			row[0] = uint16(indices[a])
			row[1] = uint16(indices[bb])
			row[2] = uint16(indices[c])
			count++
		}
		if count == 0 {
			continue
		}
		count = mergeIntoConvex(contourPolys, count, nvp, b.welder.verts, scratch, nil, nil)

		for j := range count {
			if b.polyCount >= b.maxPolys {
				return nil, fmt.Errorf("bake: build poly mesh: more than %d polygons: %w", b.maxPolys, ErrTooManyPolygons)
			}
			copy(b.poly(b.polyCount)[:nvp], contourPolys[j*nvp:(j+1)*nvp])
			b.regions[b.polyCount] = contour.Region
			b.areas[b.polyCount] = contour.Area
			b.polyCount++
		}
	}

	if err := b.removeBorderVertices(); err != nil {
		return nil, fmt.Errorf("bake: build poly mesh: %w", err)
	}

	verts := b.welder.verts
	polys := b.polys[:b.polyCount*nvp*2]
	m.adjacency.build(polys, b.polyCount, len(verts), nvp)
	if cset.BorderSize > 0 {
		markPortalEdges(polys, b.polyCount, nvp, verts, cset.Width, cset.Height)
	}

	return &PolyMesh{
		Verts:           slices.Clone(verts),
		Polys:           slices.Clone(polys),
		Regions:         slices.Clone(b.regions[:b.polyCount]),
		Flags:           make([]uint16, b.polyCount),
		Areas:           slices.Clone(b.areas[:b.polyCount]),
		PolyCount:       b.polyCount,
		MaxVertsPerPoly: nvp,
		BMin:            cset.BMin,
		BMax:            cset.BMax,
		CellSize:        cset.CellSize,
		CellHeight:      cset.CellHeight,
		BorderSize:      cset.BorderSize,
		MaxEdgeError:    cset.MaxError,
	}, nil
}

// polyMeshBuilder is the poly mesh under construction: polygon rows of
// 2*nvp values (vertices, then neighbours) with room for maxPolys.
type polyMeshBuilder struct {
	nvp       int
	maxPolys  int
	welder    *vertexWelder
	polys     []uint16
	regions   []uint16
	areas     []uint8
	polyCount int
	// removable marks vertices that came from border contour vertices.
	removable []bool
	log       *buildLog
}

// poly returns the row of polygon i (2*nvp values).
func (b *polyMeshBuilder) poly(i int) []uint16 {
	return b.polys[i*b.nvp*2 : (i+1)*b.nvp*2]
}

// removeBorderVertices removes every vertex flagged removable that
// canRemoveVertex allows, re-triangulating the holes.
func (b *polyMeshBuilder) removeBorderVertices() error {
	for i := 0; i < len(b.welder.verts); i++ {
		if !b.removable[i] {
			continue
		}
		if !b.canRemoveVertex(uint16(i)) {
			continue
		}
		if err := b.removeVertex(uint16(i)); err != nil {
			return fmt.Errorf("remove border vertex %d: %w", i, err)
		}
		copy(b.removable[i:], b.removable[i+1:len(b.welder.verts)+1])
		i--
	}
	return nil
}

// buildMeshAdjacency fills the neighbour half of each polygon row with the
// index of the polygon across each edge; edges without a neighbour keep
// MeshNullIndex. Edges are matched through a per-vertex list in the order
// Recast uses.
func buildMeshAdjacency(polys []uint16, polyCount, vertCount, nvp int) {
	var adjacency meshAdjacency
	adjacency.build(polys, polyCount, vertCount, nvp)
}

// meshAdjacency keeps the edge lists of buildMeshAdjacency between builds.
type meshAdjacency struct {
	firstEdge, nextEdge []int32
	edges               []meshEdge
}

// meshEdge is a polygon edge and the one or two polygons along it.
type meshEdge struct {
	vert     [2]uint16
	polyEdge [2]uint16
	poly     [2]uint16
}

// build is buildMeshAdjacency on the lists' memory.
func (a *meshAdjacency) build(polys []uint16, polyCount, vertCount, nvp int) {
	maxEdges := polyCount * nvp
	a.firstEdge = resize(a.firstEdge, vertCount)
	a.nextEdge = resize(a.nextEdge, maxEdges)
	firstEdge, nextEdge := a.firstEdge, a.nextEdge
	edges := slices.Grow(a.edges[:0], maxEdges)
	defer func() { a.edges = edges }()
	for i := range firstEdge {
		firstEdge[i] = -1
	}

	edgeEnds := func(row []uint16, j int) (uint16, uint16) {
		v1 := row[0]
		if j+1 < nvp && row[j+1] != MeshNullIndex {
			v1 = row[j+1]
		}
		return row[j], v1
	}

	for i := 0; i < polyCount; i++ {
		row := polys[i*nvp*2:]
		for j := 0; j < nvp; j++ {
			if row[j] == MeshNullIndex {
				break
			}
			v0, v1 := edgeEnds(row, j)
			if v0 < v1 {
				nextEdge[len(edges)] = firstEdge[v0]
				firstEdge[v0] = int32(len(edges))
				edges = append(edges, meshEdge{
					vert:     [2]uint16{v0, v1},
					poly:     [2]uint16{uint16(i), uint16(i)},
					polyEdge: [2]uint16{uint16(j), 0},
				})
			}
		}
	}

	for i := 0; i < polyCount; i++ {
		row := polys[i*nvp*2:]
		for j := 0; j < nvp; j++ {
			if row[j] == MeshNullIndex {
				break
			}
			v0, v1 := edgeEnds(row, j)
			if v0 <= v1 {
				continue
			}
			for e := firstEdge[v1]; e != -1; e = nextEdge[e] {
				edge := &edges[e]
				if edge.vert[1] == v0 && edge.poly[0] == edge.poly[1] {
					edge.poly[1] = uint16(i)
					edge.polyEdge[1] = uint16(j)
					break
				}
			}
		}
	}

	for i := range edges {
		e := &edges[i]
		if e.poly[0] == e.poly[1] {
			continue
		}
		polys[int(e.poly[0])*nvp*2+nvp+int(e.polyEdge[0])] = e.poly[1]
		polys[int(e.poly[1])*nvp*2+nvp+int(e.polyEdge[1])] = e.poly[0]
	}
}

// markPortalEdges gives every unconnected polygon edge lying on the tile
// border (x = 0, z = height, x = width, z = 0) the neighbour code
// navmesh.ExternalLink|side.
func markPortalEdges(polys []uint16, polyCount, nvp int, verts [][3]uint16, width, height int) {
	for i := 0; i < polyCount; i++ {
		row := polys[i*nvp*2 : (i+1)*nvp*2]
		for j := 0; j < nvp; j++ {
			if row[j] == MeshNullIndex {
				break
			}
			if row[nvp+j] != MeshNullIndex {
				continue
			}
			nj := j + 1
			if nj >= nvp || row[nj] == MeshNullIndex {
				nj = 0
			}
			va := &verts[row[j]]
			vb := &verts[row[nj]]
			switch {
			case va[0] == 0 && vb[0] == 0:
				row[nvp+j] = navmesh.ExternalLink | 0
			case int(va[2]) == height && int(vb[2]) == height:
				row[nvp+j] = navmesh.ExternalLink | 1
			case int(va[0]) == width && int(vb[0]) == width:
				row[nvp+j] = navmesh.ExternalLink | 2
			case va[2] == 0 && vb[2] == 0:
				row[nvp+j] = navmesh.ExternalLink | 3
			}
		}
	}
}
