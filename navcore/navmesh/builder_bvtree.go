package navmesh

import (
	"math"

	"github.com/archenav/archenav/internal/glibcsort"
)

// bvItem is one polygon's quantised bounds while the BV tree is built.
type bvItem struct {
	bmin, bmax [3]uint16
	poly       int32
}

// buildBVTree builds the bounding-volume tree of the ground polygons
// (createBVTree): bounds quantised by 1/CellSize on every axis, split on the
// longest axis at the median after sorting as the C++ qsort does. The tree
// has 2*polyCount nodes, the last of which stays zero, as in the C++ tile
// layout.
func buildBVTree(p *BuildParams, polyCount int) []BVNode {
	// One allocation for the items and the sort's scratch.
	buffer := make([]bvItem, 2*polyCount)
	items, scratch := buffer[:polyCount], buffer[polyCount:]
	if len(p.DetailMeshes) > 0 {
		detailPolyBounds(items, p)
	} else {
		polyMeshPolyBounds(items, p)
	}
	nodes := make([]BVNode, 2*polyCount)
	next := 0
	subdivideBV(items, scratch, 0, len(items), &next, nodes)
	return nodes
}

// detailPolyBounds bounds each polygon by its detail sub-mesh, quantised
// relative to the tile's BMin.
func detailPolyBounds(items []bvItem, p *BuildParams) {
	quantFactor := 1 / p.CellSize
	for i := range items {
		mesh := p.DetailMeshes[i]
		verts := p.DetailVerts[mesh[0] : mesh[0]+mesh[1]]
		minX, minY, minZ := verts[0][0], verts[0][1], verts[0][2]
		maxX, maxY, maxZ := minX, minY, minZ
		for _, v := range verts[1:] {
			minX, minY, minZ = minC(minX, v[0]), minC(minY, v[1]), minC(minZ, v[2])
			maxX, maxY, maxZ = maxC(maxX, v[0]), maxC(maxY, v[1]), maxC(maxZ, v[2])
		}
		item := &items[i]
		item.poly = int32(i)
		item.bmin = [3]uint16{
			quantizeBV((minX - p.BMin[0]) * quantFactor),
			quantizeBV((minY - p.BMin[1]) * quantFactor),
			quantizeBV((minZ - p.BMin[2]) * quantFactor),
		}
		item.bmax = [3]uint16{
			quantizeBV((maxX - p.BMin[0]) * quantFactor),
			quantizeBV((maxY - p.BMin[1]) * quantFactor),
			quantizeBV((maxZ - p.BMin[2]) * quantFactor),
		}
	}
}

// polyMeshPolyBounds bounds each polygon by its poly-mesh vertices, with y
// rescaled from cell heights to cell sizes.
func polyMeshPolyBounds(items []bvItem, p *BuildParams) {
	nvp := p.VertsPerPoly
	for i := range items {
		indices := p.Polys[i*2*nvp : i*2*nvp+nvp]
		item := &items[i]
		item.poly = int32(i)
		item.bmin = p.Verts[indices[0]]
		item.bmax = item.bmin
		for _, index := range indices[1:] {
			if index == meshNullIndex {
				break
			}
			v := p.Verts[index]
			for axis := 0; axis < 3; axis++ {
				item.bmin[axis] = min(item.bmin[axis], v[axis])
				item.bmax[axis] = max(item.bmax[axis], v[axis])
			}
		}
		item.bmin[1] = truncateToUint16(floor32(float32(item.bmin[1]) * p.CellHeight / p.CellSize))
		item.bmax[1] = truncateToUint16(ceil32(float32(item.bmax[1]) * p.CellHeight / p.CellSize))
	}
}

// subdivideBV writes the subtree over items[imin:imax] at nodes[*next] in
// depth-first order. A leaf stores its polygon; an inner node stores minus
// the number of nodes in its subtree (the escape offset). scratch is as
// long as items.
func subdivideBV(items, scratch []bvItem, imin, imax int, next *int, nodes []BVNode) {
	count := imax - imin
	current := *next
	node := &nodes[current]
	*next++

	if count == 1 {
		node.BMin = items[imin].bmin
		node.BMax = items[imin].bmax
		node.Index = items[imin].poly
		return
	}

	node.BMin, node.BMax = items[imin].bmin, items[imin].bmax
	for _, item := range items[imin+1 : imax] {
		for axis := 0; axis < 3; axis++ {
			node.BMin[axis] = min(node.BMin[axis], item.bmin[axis])
			node.BMax[axis] = max(node.BMax[axis], item.bmax[axis])
		}
	}
	axis := longestAxis(node.BMax[0]-node.BMin[0], node.BMax[1]-node.BMin[1], node.BMax[2]-node.BMin[2])
	glibcsort.Sort(items[imin:imax], scratch, compareBVItemsAlong[axis])

	split := imin + count/2
	subdivideBV(items, scratch, imin, split, next, nodes)
	subdivideBV(items, scratch, split, imax, next, nodes)
	node.Index = -int32(*next - current)
}

// compareBVItemsAlong orders items by their minimum along x, y or z
// (compareItemX, Y and Z).
var compareBVItemsAlong = [3]func(a, b *bvItem) int{
	func(a, b *bvItem) int { return int(a.bmin[0]) - int(b.bmin[0]) },
	func(a, b *bvItem) int { return int(a.bmin[1]) - int(b.bmin[1]) },
	func(a, b *bvItem) int { return int(a.bmin[2]) - int(b.bmin[2]) },
}

// longestAxis returns 0, 1 or 2 for the largest extent; ties go to the
// lower axis.
func longestAxis(x, y, z uint16) int {
	axis, longest := 0, x
	if y > longest {
		axis, longest = 1, y
	}
	if z > longest {
		axis = 2
	}
	return axis
}

// quantizeBV converts a scaled coordinate to BV units like the C++
// (int) cast followed by a clamp to 0..0xffff. Values outside the int32
// range (and NaN) become INT_MIN on x86 and so clamp to 0.
func quantizeBV(f float32) uint16 {
	if !(f > -2147483648 && f < 2147483648) {
		return 0
	}
	return uint16(max(0, min(int32(f), 0xffff)))
}

// truncateToUint16 converts like the C++ (unsigned short) cast of a float
// on x86: to int32 first (INT_MIN when out of range), then the low 16 bits.
func truncateToUint16(f float32) uint16 {
	if !(f > -2147483648 && f < 2147483648) {
		return 0
	}
	return uint16(int32(f))
}

func floor32(f float32) float32 { return float32(math.Floor(float64(f))) }

func ceil32(f float32) float32 { return float32(math.Ceil(float64(f))) }
