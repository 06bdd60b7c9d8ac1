package bake

import (
	"errors"
	"fmt"
	"slices"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// MergePolyMeshes joins poly meshes of neighbouring tiles into one mesh
// (rcMergePolyMeshes). Vertices are moved into the frame of the union of the
// meshes' bounds and welded; polygons keep their regions, areas and flags,
// adjacency is rebuilt, and portal edges survive only on the sides that lie
// on the outer border of the union. All meshes must share the cell size and
// MaxVertsPerPoly. The result has BorderSize 0 and MaxEdgeError 0.
func MergePolyMeshes(meshes []*PolyMesh) (*PolyMesh, error) {
	if len(meshes) == 0 {
		return nil, errors.New("bake: merge poly meshes: no meshes")
	}
	first := meshes[0]
	if first == nil {
		return nil, errors.New("bake: merge poly meshes: mesh 0 is nil")
	}
	nvp := first.MaxVertsPerPoly
	if nvp < 3 || nvp > navmesh.MaxVertsPerPoly {
		return nil, fmt.Errorf("bake: merge poly meshes: %d vertices per polygon, want 3..%d", nvp, navmesh.MaxVertsPerPoly)
	}
	out := &PolyMesh{
		MaxVertsPerPoly: nvp,
		CellSize:        first.CellSize,
		CellHeight:      first.CellHeight,
		BMin:            first.BMin,
		BMax:            first.BMax,
	}

	maxVerts, maxPolys := 0, 0
	for i, m := range meshes {
		if m == nil {
			return nil, fmt.Errorf("bake: merge poly meshes: mesh %d is nil", i)
		}
		if m.MaxVertsPerPoly != nvp {
			return nil, fmt.Errorf("bake: merge poly meshes: mesh %d has %d vertices per polygon, mesh 0 has %d", i, m.MaxVertsPerPoly, nvp)
		}
		if err := checkPolyMeshShape(m); err != nil {
			return nil, fmt.Errorf("bake: merge poly meshes: mesh %d: %w", i, err)
		}
		out.BMin = geom.Min(out.BMin, m.BMin)
		out.BMax = geom.Max(out.BMax, m.BMax)
		maxVerts += len(m.Verts)
		maxPolys += m.PolyCount
	}
	if maxPolys > 0xffff {
		return nil, fmt.Errorf("bake: merge poly meshes: %d polygons, max %d: %w", maxPolys, 0xffff, ErrTooManyPolygons)
	}

	welder := newVertexWelder(maxVerts)
	out.Polys = make([]uint16, maxPolys*2*nvp)
	for i := range out.Polys {
		out.Polys[i] = MeshNullIndex
	}
	out.Regions = make([]uint16, 0, maxPolys)
	out.Areas = make([]uint8, 0, maxPolys)
	out.Flags = make([]uint16, 0, maxPolys)

	cellSize := out.CellSize
	// cellOffset rounds a world distance to whole cells like the C++:
	// (unsigned short)floorf(d/cs+0.5f).
	cellOffset := func(d float32) uint16 {
		return uint16(cInt(geom.Floor(d/cellSize + 0.5)))
	}
	var remap []uint16
	for _, m := range meshes {
		ox := cellOffset(m.BMin[0] - out.BMin[0])
		oz := cellOffset(m.BMin[2] - out.BMin[2])
		// Whether the mesh lies on the border of the merged mesh in each
		// portal direction (0 = -x, 1 = +z, 2 = +x, 3 = -z).
		onSide := [4]bool{
			ox == 0,
			cellOffset(out.BMax[2]-m.BMax[2]) == 0,
			cellOffset(out.BMax[0]-m.BMax[0]) == 0,
			oz == 0,
		}
		onBorder := onSide[0] || onSide[1] || onSide[2] || onSide[3]

		remap = remap[:0]
		for _, v := range m.Verts {
			remap = append(remap, welder.add(v[0]+ox, v[1], v[2]+oz))
		}

		for j := 0; j < m.PolyCount; j++ {
			target := out.Polys[out.PolyCount*2*nvp : (out.PolyCount+1)*2*nvp]
			source := m.Polys[j*2*nvp : (j+1)*2*nvp]
			out.Regions = append(out.Regions, m.Regions[j])
			out.Areas = append(out.Areas, m.Areas[j])
			out.Flags = append(out.Flags, m.Flags[j])
			out.PolyCount++
			for k := 0; k < nvp; k++ {
				if source[k] == MeshNullIndex {
					break
				}
				if int(source[k]) >= len(remap) {
					return nil, fmt.Errorf("bake: merge poly meshes: polygon %d names vertex %d of %d", j, source[k], len(remap))
				}
				target[k] = remap[source[k]]
			}
			if !onBorder {
				continue
			}
			for k := nvp; k < 2*nvp; k++ {
				code := source[k]
				if code&0x8000 == 0 || code == MeshNullIndex {
					continue
				}
				// Portals on the merged mesh's border stay portals.
				if dir := code & 0xf; dir < 4 && onSide[dir] {
					target[k] = code
				}
			}
		}
	}

	if len(welder.verts) > 0xffff {
		return nil, fmt.Errorf("bake: merge poly meshes: %d vertices, max %d: %w", len(welder.verts), 0xffff, ErrTooManyVertices)
	}
	out.Verts = slices.Clip(welder.verts)
	buildMeshAdjacency(out.Polys, out.PolyCount, len(out.Verts), nvp)
	return out, nil
}

// CopyPolyMesh returns a deep copy of src (rcCopyPolyMesh).
func CopyPolyMesh(src *PolyMesh) (*PolyMesh, error) {
	if src == nil {
		return nil, errors.New("bake: copy poly mesh: nil mesh")
	}
	dst := *src
	dst.Verts = slices.Clone(src.Verts)
	dst.Polys = slices.Clone(src.Polys)
	dst.Regions = slices.Clone(src.Regions)
	dst.Flags = slices.Clone(src.Flags)
	dst.Areas = slices.Clone(src.Areas)
	return &dst, nil
}

// checkPolyMeshShape verifies that a mesh's slices match its counts.
func checkPolyMeshShape(m *PolyMesh) error {
	switch {
	case m.PolyCount < 0:
		return fmt.Errorf("negative polygon count %d", m.PolyCount)
	case len(m.Polys) < m.PolyCount*2*m.MaxVertsPerPoly:
		return fmt.Errorf("%d polygon values for %d polygons of %d vertices", len(m.Polys), m.PolyCount, m.MaxVertsPerPoly)
	case len(m.Regions) < m.PolyCount, len(m.Areas) < m.PolyCount, len(m.Flags) < m.PolyCount:
		return fmt.Errorf("regions, areas or flags shorter than %d polygons", m.PolyCount)
	}
	return nil
}
