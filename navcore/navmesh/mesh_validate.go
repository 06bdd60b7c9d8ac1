package navmesh

import (
	"fmt"
)

// validateTileData checks that data can be linked and queried without an
// out-of-range index: header counts equal the slice lengths, and every
// vertex, neighbour, detail, BV-tree and off-mesh index points inside the
// tile. The error wraps ErrInvalidData and says what is wrong where.
func validateTileData(data *TileData, params Params) error {
	if data == nil {
		return fmt.Errorf("%w: nil tile data", ErrInvalidData)
	}
	if err := checkTileData(data, params); err != nil {
		h := &data.Header
		return fmt.Errorf("%w: tile (%d, %d, layer %d): %s", ErrInvalidData, h.X, h.Y, h.Layer, err)
	}
	return nil
}

// dataError is a validation failure, wrapped into ErrInvalidData by
// validateTileData.
type dataError string

func (e dataError) Error() string { return string(e) }

func invalid(format string, args ...any) error { return dataError(fmt.Sprintf(format, args...)) }

func checkTileData(data *TileData, params Params) error {
	h := &data.Header
	counts := []struct {
		name   string
		header int32
		actual int
	}{
		{"polygon", h.PolyCount, len(data.Polys)},
		{"vertex", h.VertCount, len(data.Verts)},
		{"detail mesh", h.DetailMeshCount, len(data.DetailMeshes)},
		{"detail vertex", h.DetailVertCount, len(data.DetailVerts)},
		{"detail triangle", h.DetailTriCount, len(data.DetailTris)},
		{"BV node", h.BVNodeCount, len(data.BVTree)},
		{"off-mesh connection", h.OffMeshConCount, len(data.OffMeshConnections)},
	}
	for _, c := range counts {
		if int(c.header) != c.actual {
			return invalid("header %s count %d but %d given", c.name, c.header, c.actual)
		}
	}
	if len(data.Polys) > params.MaxPolys {
		return invalid("%d polygons, mesh allows %d per tile", len(data.Polys), params.MaxPolys)
	}
	if h.MaxLinkCount < 0 || int(h.MaxLinkCount) > maxUsefulLinks(data) {
		return invalid("link count %d outside 0..%d", h.MaxLinkCount, maxUsefulLinks(data))
	}
	if h.OffMeshBase < 0 || h.OffMeshBase > h.PolyCount {
		return invalid("off-mesh base %d outside 0..%d", h.OffMeshBase, h.PolyCount)
	}
	if !finite(h.WalkableClimb) || !finite(h.BVQuantFactor) {
		return invalid("walkable climb %v or BV quantisation factor %v not finite", h.WalkableClimb, h.BVQuantFactor)
	}
	for i := range data.Polys {
		if err := checkPoly(data, i); err != nil {
			return err
		}
	}
	for i, node := range data.BVTree {
		if node.Index >= 0 && node.Index >= h.PolyCount {
			return invalid("BV node %d: polygon %d out of range", i, node.Index)
		}
		if node.Index < 0 && (node.Index == -1<<31 || i-int(node.Index) > len(data.BVTree)) {
			return invalid("BV node %d: escape offset %d beyond the tree", i, -int64(node.Index))
		}
	}
	for i := range data.OffMeshConnections {
		con := &data.OffMeshConnections[i]
		if int(con.Poly) >= len(data.Polys) || data.Polys[con.Poly].Type() != PolyTypeOffMeshConnection {
			return invalid("off-mesh connection %d: polygon %d is not an off-mesh polygon", i, con.Poly)
		}
	}
	return nil
}

// incomingOffMeshLinkAllowance is the link budget a tile may carry beyond its
// own edges and connections, for off-mesh connections stored in other tiles
// that land on this one (the C++ builder counts those too, and the tile data
// does not say how many there are).
const incomingOffMeshLinkAllowance = 1 << 16

// maxUsefulLinks bounds MaxLinkCount by what the C++ builder can ask for:
// every edge linked, up to two portal links per edge, two links per off-mesh
// connection end, plus an allowance for connections landing from other
// tiles. It stops a corrupt header from allocating gigabytes.
func maxUsefulLinks(data *TileData) int {
	return len(data.Polys)*MaxVertsPerPoly*3 + len(data.OffMeshConnections)*4 + incomingOffMeshLinkAllowance
}

func checkPoly(data *TileData, i int) error {
	h := &data.Header
	poly := &data.Polys[i]
	nv := int(poly.VertCount)
	switch poly.Type() {
	case PolyTypeGround:
		if nv < 3 || nv > MaxVertsPerPoly {
			return invalid("polygon %d: %d vertices, want 3..%d", i, nv, MaxVertsPerPoly)
		}
	case PolyTypeOffMeshConnection:
		if nv != 2 {
			return invalid("off-mesh polygon %d: %d vertices, want 2", i, nv)
		}
		if con := i - int(h.OffMeshBase); con < 0 || con >= len(data.OffMeshConnections) {
			return invalid("off-mesh polygon %d: no connection at %d (off-mesh base %d)", i, con, h.OffMeshBase)
		}
	default:
		return invalid("polygon %d: unknown type %d", i, poly.Type())
	}
	for j := range nv {
		if int(poly.Verts[j]) >= len(data.Verts) {
			return invalid("polygon %d: vertex %d index %d out of range", i, j, poly.Verts[j])
		}
		nei := poly.Neighbours[j]
		switch {
		case nei&ExternalLink != 0:
			if nei&^(ExternalLink|7) != 0 {
				return invalid("polygon %d: edge %d border code %#x, want side 0..7", i, j, nei)
			}
		case int(nei) > len(data.Polys):
			return invalid("polygon %d: edge %d neighbour %d out of range", i, j, nei-1)
		}
	}
	if poly.Type() == PolyTypeOffMeshConnection {
		return nil
	}
	if i >= len(data.DetailMeshes) {
		return invalid("polygon %d: no detail mesh (%d given)", i, len(data.DetailMeshes))
	}
	detail := &data.DetailMeshes[i]
	if uint64(detail.VertBase)+uint64(detail.VertCount) > uint64(len(data.DetailVerts)) {
		return invalid("polygon %d: detail vertices %d+%d beyond %d", i, detail.VertBase, detail.VertCount, len(data.DetailVerts))
	}
	if uint64(detail.TriBase)+uint64(detail.TriCount) > uint64(len(data.DetailTris)) {
		return invalid("polygon %d: detail triangles %d+%d beyond %d", i, detail.TriBase, detail.TriCount, len(data.DetailTris))
	}
	limit := nv + int(detail.VertCount)
	for k := range uint32(detail.TriCount) {
		tri := data.DetailTris[detail.TriBase+k]
		for _, v := range tri[:3] {
			if int(v) >= limit {
				return invalid("polygon %d: detail triangle %d vertex %d beyond %d", i, k, v, limit)
			}
		}
	}
	return nil
}
