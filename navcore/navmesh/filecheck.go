package navmesh

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/geom"
)

// tileDataProblem says what is wrong with a TileData and where: a section
// and an element index in it (-1 for the section as a whole).
type tileDataProblem struct {
	section dnavSection
	index   int
	what    string
}

func (p *tileDataProblem) describe() string {
	if p.index < 0 {
		return fmt.Sprintf("%s: %s", p.section, p.what)
	}
	return fmt.Sprintf("%s[%d]: %s", p.section, p.index, p.what)
}

func problemf(section dnavSection, index int, format string, args ...any) *tileDataProblem {
	return &tileDataProblem{section: section, index: index, what: fmt.Sprintf(format, args...)}
}

// inspectTileData checks that a TileData holds together well enough for a
// Mesh to use without indexing outside any array: header counts equal the
// slice lengths, ground polygons come first and off-mesh polygons after
// them, every index points inside its array, floats are finite. It returns
// nil when the data is sound.
func inspectTileData(d *TileData) *tileDataProblem {
	if problem := checkTileHeader(d); problem != nil {
		return problem
	}
	if problem := checkFinite(sectionVerts, d.Verts); problem != nil {
		return problem
	}
	if problem := checkPolys(d); problem != nil {
		return problem
	}
	if problem := checkDetailMeshes(d); problem != nil {
		return problem
	}
	if problem := checkFinite(sectionDetailVerts, d.DetailVerts); problem != nil {
		return problem
	}
	if problem := checkBVTree(d); problem != nil {
		return problem
	}
	return checkOffMeshConnections(d)
}

func checkTileHeader(d *TileData) *tileDataProblem {
	h := &d.Header
	for _, c := range []struct {
		name   string
		count  int32
		length int
	}{
		{"PolyCount", h.PolyCount, len(d.Polys)},
		{"VertCount", h.VertCount, len(d.Verts)},
		{"DetailMeshCount", h.DetailMeshCount, len(d.DetailMeshes)},
		{"DetailVertCount", h.DetailVertCount, len(d.DetailVerts)},
		{"DetailTriCount", h.DetailTriCount, len(d.DetailTris)},
		{"BVNodeCount", h.BVNodeCount, len(d.BVTree)},
		{"OffMeshConCount", h.OffMeshConCount, len(d.OffMeshConnections)},
	} {
		if c.count < 0 || int(c.count) != c.length {
			return problemf(sectionHeader, -1, "%s is %d but there are %d", c.name, c.count, c.length)
		}
	}
	switch {
	case h.MaxLinkCount < 0:
		return problemf(sectionHeader, -1, "MaxLinkCount %d is negative", h.MaxLinkCount)
	case h.PolyCount == 0 || h.PolyCount > 1<<PolyBits:
		return problemf(sectionHeader, -1, "PolyCount %d outside 1..%d", h.PolyCount, 1<<PolyBits)
	case h.VertCount > maxTileVerts:
		return problemf(sectionHeader, -1, "VertCount %d above %d", h.VertCount, maxTileVerts)
	case h.OffMeshBase < 0 || h.OffMeshBase+h.OffMeshConCount != h.PolyCount:
		return problemf(sectionHeader, -1, "OffMeshBase %d + OffMeshConCount %d != PolyCount %d", h.OffMeshBase, h.OffMeshConCount, h.PolyCount)
	case h.DetailMeshCount != h.OffMeshBase:
		return problemf(sectionHeader, -1, "DetailMeshCount %d != ground polygon count %d", h.DetailMeshCount, h.OffMeshBase)
	case !geom.IsFinite(h.BMin) || !geom.IsFinite(h.BMax) || h.BMin[0] > h.BMax[0] || h.BMin[1] > h.BMax[1] || h.BMin[2] > h.BMax[2]:
		return problemf(sectionHeader, -1, "bounds %v..%v not finite and ordered", h.BMin, h.BMax)
	case !isFinite32(h.WalkableHeight) || !isFinite32(h.WalkableRadius) || !isFinite32(h.WalkableClimb):
		return problemf(sectionHeader, -1, "agent settings %v, %v, %v not finite", h.WalkableHeight, h.WalkableRadius, h.WalkableClimb)
	case !isFinite32(h.BVQuantFactor) || !(h.BVQuantFactor > 0):
		return problemf(sectionHeader, -1, "BVQuantFactor %v not positive and finite", h.BVQuantFactor)
	}
	return nil
}

func checkFinite(section dnavSection, verts []mgl32.Vec3) *tileDataProblem {
	for i, v := range verts {
		if !geom.IsFinite(v) {
			return problemf(section, i, "%v is not finite", v)
		}
	}
	return nil
}

func checkPolys(d *TileData) *tileDataProblem {
	groundCount := int(d.Header.OffMeshBase)
	for i := range d.Polys {
		p := &d.Polys[i]
		ground := i < groundCount
		switch {
		case ground && p.Type() != PolyTypeGround:
			return problemf(sectionPolys, i, "type %d where a ground polygon belongs", p.Type())
		case !ground && p.Type() != PolyTypeOffMeshConnection:
			return problemf(sectionPolys, i, "type %d where an off-mesh connection polygon belongs", p.Type())
		case ground && (p.VertCount < 3 || p.VertCount > MaxVertsPerPoly):
			return problemf(sectionPolys, i, "%d vertices, want 3..%d", p.VertCount, MaxVertsPerPoly)
		case !ground && p.VertCount != 2:
			return problemf(sectionPolys, i, "off-mesh connection polygon with %d vertices, want 2", p.VertCount)
		}
		for j := 0; j < int(p.VertCount); j++ {
			if int(p.Verts[j]) >= len(d.Verts) {
				return problemf(sectionPolys, i, "vertex %d index %d out of range (%d vertices)", j, p.Verts[j], len(d.Verts))
			}
			code := p.Neighbours[j]
			switch {
			case !ground && code != 0:
				return problemf(sectionPolys, i, "off-mesh connection polygon has neighbour code %#x", code)
			case code&ExternalLink != 0 && code&^ExternalLink > 7:
				return problemf(sectionPolys, i, "edge %d border side %d out of range 0..7", j, code&^ExternalLink)
			case code&ExternalLink == 0 && int(code) > groundCount:
				return problemf(sectionPolys, i, "edge %d neighbour %d out of range (%d ground polygons)", j, int(code)-1, groundCount)
			}
		}
	}
	return nil
}

func checkDetailMeshes(d *TileData) *tileDataProblem {
	for i, m := range d.DetailMeshes {
		if uint64(m.VertBase)+uint64(m.VertCount) > uint64(len(d.DetailVerts)) {
			return problemf(sectionDetailMeshes, i, "vertices %d..%d beyond %d", m.VertBase, uint64(m.VertBase)+uint64(m.VertCount), len(d.DetailVerts))
		}
		if uint64(m.TriBase)+uint64(m.TriCount) > uint64(len(d.DetailTris)) {
			return problemf(sectionDetailMeshes, i, "triangles %d..%d beyond %d", m.TriBase, uint64(m.TriBase)+uint64(m.TriCount), len(d.DetailTris))
		}
		vertCount := int(d.Polys[i].VertCount) + int(m.VertCount)
		for t := m.TriBase; t < m.TriBase+uint32(m.TriCount); t++ {
			a, b, c := int(d.DetailTris[t][0]), int(d.DetailTris[t][1]), int(d.DetailTris[t][2])
			if a >= vertCount || b >= vertCount || c >= vertCount {
				return problemf(sectionDetailTris, int(t), "indices [%d %d %d] beyond the %d vertices of polygon %d", a, b, c, vertCount, i)
			}
		}
	}
	return nil
}

func checkBVTree(d *TileData) *tileDataProblem {
	count := len(d.BVTree)
	for i, n := range d.BVTree {
		if n.Index >= 0 {
			if int(n.Index) >= len(d.Polys) {
				return problemf(sectionBVTree, i, "polygon %d out of range (%d polygons)", n.Index, len(d.Polys))
			}
			continue
		}
		if escape := -int64(n.Index); int64(i)+escape > int64(count) {
			return problemf(sectionBVTree, i, "escape offset %d runs past the %d nodes", escape, count)
		}
	}
	return nil
}

func checkOffMeshConnections(d *TileData) *tileDataProblem {
	base := int(d.Header.OffMeshBase)
	for i, c := range d.OffMeshConnections {
		switch {
		case int(c.Poly) != base+i:
			return problemf(sectionOffMeshCons, i, "polygon %d, want %d (OffMeshBase + index)", c.Poly, base+i)
		case c.Side > 7 && c.Side != insideTile:
			return problemf(sectionOffMeshCons, i, "side %d, want 0..7 or 0xff", c.Side)
		case !geom.IsFinite(c.Start) || !geom.IsFinite(c.End) || !isFinite32(c.Radius) || c.Radius < 0:
			return problemf(sectionOffMeshCons, i, "end points %v, %v and radius %v not finite", c.Start, c.End, c.Radius)
		}
	}
	return nil
}
