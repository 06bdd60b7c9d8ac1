package bake

import (
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
)

// BuildPolyMeshDetail builds, for every polygon of mesh, a triangle mesh
// that follows the height of the walkable surface in chf
// (rcBuildPolyMeshDetail). chf must be the compact heightfield the mesh was
// built from, with its regions.
//
// sampleDist is the spacing of the height samples along edges and inside
// polygons; 0 or less samples only the polygon corners [Units: world units].
// sampleMaxError is how far the detail surface may stray from the samples
// [Limit: >= 0] [Units: world units].
//
// Detail vertices are in world units (the polygon's own vertices first in
// each sub-mesh); triangles index a sub-mesh's vertices and carry edge flags
// (navmesh.DetailEdgeBoundary for edges on the polygon outline). A mesh with
// no vertices or polygons gives an empty detail mesh.
func BuildPolyMeshDetail(mesh *PolyMesh, chf *CompactHeightfield, sampleDist, sampleMaxError float32) (*PolyMeshDetail, error) {
	return buildPolyMeshDetail(mesh, chf, sampleDist, sampleMaxError, nil)
}

// detailBuilder holds the per-polygon working state and scratch buffers of
// a detail mesh build.
type detailBuilder struct {
	chf                *CompactHeightfield
	sampleDist         float32
	sampleMaxError     float32
	heightSearchRadius int
	patch              heightPatch
	log                *buildLog

	verts       []geom.Vec3
	hull        []int
	tris        []int // 4 per triangle
	delaunay    delaunay
	samples     []int // 4 per sample: x, height, z, added
	queue       []int // 3 per entry: x, z, span
	triBases    []triangleBasis
	edgeSamples [maxVertsPerEdge + 1]geom.Vec3

	// Per build: the patch bounds of each polygon (xMin, xMax, zMin, zMax),
	// the memory of the height patches and the polygon being built.
	bounds    [][4]int
	patchData []uint16
	poly      []geom.Vec3

	// Per build: the spans of each region (indexRegions).
	regionStart, regionFill []int
	regionSpans             []uint32
}

// forget drops the builder's references to the last build's heightfield
// and log, keeping its memory.
func (b *detailBuilder) forget() {
	b.chf, b.log, b.delaunay.log = nil, nil, nil
}

// buildPolyMeshDetail is BuildPolyMeshDetail with a warning log.
func buildPolyMeshDetail(mesh *PolyMesh, chf *CompactHeightfield, sampleDist, sampleMaxError float32, log *buildLog) (*PolyMeshDetail, error) {
	var b detailBuilder
	return b.build(mesh, chf, sampleDist, sampleMaxError, log)
}

// build is buildPolyMeshDetail on the builder's memory; the detail mesh
// built is new.
func (b *detailBuilder) build(mesh *PolyMesh, chf *CompactHeightfield, sampleDist, sampleMaxError float32, log *buildLog) (*PolyMeshDetail, error) {
	if mesh == nil || chf == nil {
		return nil, errors.New("bake: build detail mesh: nil poly mesh or compact heightfield")
	}
	if len(mesh.Verts) == 0 || mesh.PolyCount == 0 {
		return &PolyMeshDetail{}, nil
	}
	if err := checkPolyMeshShape(mesh); err != nil {
		return nil, fmt.Errorf("bake: build detail mesh: %w", err)
	}
	if err := checkCompactCells(chf); err != nil {
		return nil, fmt.Errorf("bake: build detail mesh: %w", err)
	}

	nvp := mesh.MaxVertsPerPoly
	bs := chf.BorderSize

	// Patch bounds per polygon, one cell wider than its vertices.
	b.bounds = resize(b.bounds, mesh.PolyCount)
	bounds := b.bounds
	maxPatchWidth, maxPatchHeight, polyVertCount := 0, 0, 0
	for i := range bounds {
		row := mesh.Polys[i*nvp*2 : i*nvp*2+nvp]
		xMin, xMax, zMin, zMax := chf.Width, 0, chf.Height, 0
		n := polyVertexCount(row, nvp)
		if n < 3 {
			return nil, fmt.Errorf("bake: build detail mesh: polygon %d has %d vertices", i, n)
		}
		for _, vi := range row[:n] {
			if int(vi) >= len(mesh.Verts) {
				return nil, fmt.Errorf("bake: build detail mesh: polygon %d names vertex %d of %d", i, vi, len(mesh.Verts))
			}
			v := &mesh.Verts[vi]
			if int(v[0]) > chf.Width-2*bs || int(v[2]) > chf.Height-2*bs {
				return nil, fmt.Errorf("bake: build detail mesh: polygon %d vertex %d lies outside the %d×%d heightfield", i, vi, chf.Width, chf.Height)
			}
			xMin = min(xMin, int(v[0]))
			xMax = max(xMax, int(v[0]))
			zMin = min(zMin, int(v[2]))
			zMax = max(zMax, int(v[2]))
		}
		polyVertCount += n
		xMin = max(0, xMin-1)
		xMax = min(chf.Width, xMax+1)
		zMin = max(0, zMin-1)
		zMax = min(chf.Height, zMax+1)
		if xMin >= xMax || zMin >= zMax || xMax+bs > chf.Width || zMax+bs > chf.Height {
			return nil, fmt.Errorf("bake: build detail mesh: polygon %d lies outside the %d×%d heightfield", i, chf.Width, chf.Height)
		}
		bounds[i] = [4]int{xMin, xMax, zMin, zMax}
		maxPatchWidth = max(maxPatchWidth, xMax-xMin)
		maxPatchHeight = max(maxPatchHeight, zMax-zMin)
	}

	b.chf = chf
	b.indexRegions(chf)
	b.sampleDist, b.sampleMaxError = sampleDist, sampleMaxError
	b.heightSearchRadius = max(1, cInt(geom.Ceil(mesh.MaxEdgeError)))
	b.log, b.delaunay.log = log, log
	b.verts = slices.Grow(b.verts[:0], 256)
	b.hull = slices.Grow(b.hull[:0], maxDetailVerts)
	b.tris = slices.Grow(b.tris[:0], 512)
	b.samples = slices.Grow(b.samples[:0], 512)
	b.queue = slices.Grow(b.queue[:0], 512)
	b.patchData = resize(b.patchData, maxPatchWidth*maxPatchHeight)
	patchData := b.patchData

	vertCapacity := polyVertCount + polyVertCount/2
	out := &PolyMeshDetail{
		Meshes: make([][4]uint32, 0, mesh.PolyCount),
		Verts:  make([]geom.Vec3, 0, vertCapacity),
		Tris:   make([][4]uint8, 0, vertCapacity*2),
	}

	cellSize := mesh.CellSize
	cellHeight := mesh.CellHeight
	origin := mesh.BMin
	poly := slices.Grow(b.poly[:0], nvp)
	defer func() { b.poly = poly }()
	for i := 0; i < mesh.PolyCount; i++ {
		row := mesh.Polys[i*nvp*2 : i*nvp*2+nvp]
		row = row[:polyVertexCount(row, nvp)]
		poly = poly[:0]
		for _, vi := range row {
			v := &mesh.Verts[vi]
			poly = append(poly, geom.Vec3{float32(v[0]) * cellSize, float32(v[1]) * cellHeight, float32(v[2]) * cellSize})
		}

		bd := bounds[i]
		b.patch = heightPatch{xMin: bd[0], zMin: bd[2], width: bd[1] - bd[0], height: bd[3] - bd[2]}
		b.patch.data = patchData[:b.patch.width*b.patch.height]
		if err := b.gatherHeights(row, mesh.Verts, mesh.Regions[i]); err != nil {
			return nil, fmt.Errorf("bake: build detail mesh: polygon %d: %w", i, err)
		}

		b.buildPolyDetail(poly)

		// To world units; the extra cell of height lifts the detail mesh
		// onto the top of the floor spans, as Recast does.
		lift := origin[1] + chf.CellHeight
		for j := range b.verts {
			v := &b.verts[j]
			v[0] += origin[0]
			v[1] += lift
			v[2] += origin[2]
		}

		ntris := len(b.tris) / 4
		out.Meshes = append(out.Meshes, [4]uint32{uint32(len(out.Verts)), uint32(len(b.verts)), uint32(len(out.Tris)), uint32(ntris)})
		out.Verts = append(out.Verts, b.verts...)
		for j := 0; j < ntris; j++ {
			t := b.tris[j*4 : j*4+4]
			out.Tris = append(out.Tris, [4]uint8{uint8(t[0]), uint8(t[1]), uint8(t[2]), uint8(t[3])})
		}
	}
	return out, nil
}

// checkCompactCells verifies that the cell table of chf matches its size
// and points inside its spans.
func checkCompactCells(chf *CompactHeightfield) error {
	if chf.Width <= 0 || chf.Height <= 0 || len(chf.Cells) != chf.Width*chf.Height {
		return fmt.Errorf("compact heightfield of %d×%d has %d cells", chf.Width, chf.Height, len(chf.Cells))
	}
	for i := range chf.Cells {
		c := &chf.Cells[i]
		if uint64(c.Index)+uint64(c.Count) > uint64(len(chf.Spans)) {
			return fmt.Errorf("compact cell %d points past the %d spans", i, len(chf.Spans))
		}
	}
	return nil
}

// MergePolyMeshDetails concatenates detail meshes, in order, rebasing each
// sub-mesh's first vertex and triangle (rcMergePolyMeshDetails). Nil
// entries are skipped.
func MergePolyMeshDetails(meshes []*PolyMeshDetail) (*PolyMeshDetail, error) {
	totalMeshes, totalVerts, totalTris := 0, 0, 0
	for i, d := range meshes {
		if d == nil {
			continue
		}
		for j, m := range d.Meshes {
			if uint64(m[0])+uint64(m[1]) > uint64(len(d.Verts)) || uint64(m[2])+uint64(m[3]) > uint64(len(d.Tris)) {
				return nil, fmt.Errorf("bake: merge detail meshes: mesh %d sub-mesh %d points past its vertices or triangles", i, j)
			}
		}
		totalMeshes += len(d.Meshes)
		totalVerts += len(d.Verts)
		totalTris += len(d.Tris)
	}
	if uint64(totalVerts) > 0xffffffff || uint64(totalTris) > 0xffffffff {
		return nil, errors.New("bake: merge detail meshes: too many vertices or triangles for 32-bit offsets")
	}

	out := &PolyMeshDetail{
		Meshes: make([][4]uint32, 0, totalMeshes),
		Verts:  make([]geom.Vec3, 0, totalVerts),
		Tris:   make([][4]uint8, 0, totalTris),
	}
	for _, d := range meshes {
		if d == nil {
			continue
		}
		vertBase := uint32(len(out.Verts))
		triBase := uint32(len(out.Tris))
		for _, m := range d.Meshes {
			out.Meshes = append(out.Meshes, [4]uint32{vertBase + m[0], m[1], triBase + m[2], m[3]})
		}
		out.Verts = append(out.Verts, d.Verts...)
		out.Tris = append(out.Tris, d.Tris...)
	}
	return out, nil
}
