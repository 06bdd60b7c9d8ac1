package hierarchy

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// costModel is what a hierarchy's costs depend on: the default rules of a
// query.Filter (area costs and the include/exclude flag rule).
type costModel struct {
	areaCost         [navmesh.MaxAreas]float32
	include, exclude uint16
}

// modelOf returns the cost model of filter, which must have no Custom rule.
func modelOf(filter *query.Filter) costModel {
	return costModel{areaCost: filter.AreaCost, include: filter.IncludeFlags, exclude: filter.ExcludeFlags}
}

// matches reports whether filter costs and passes exactly as the model.
func (m *costModel) matches(filter *query.Filter) bool {
	return filter != nil && filter.Custom == nil &&
		filter.IncludeFlags == m.include && filter.ExcludeFlags == m.exclude &&
		filter.AreaCost == m.areaCost
}

// passes is the filter's default pass rule.
func (m *costModel) passes(poly *navmesh.Poly) bool {
	return poly.Flags&m.include != 0 && poly.Flags&m.exclude == 0
}

// cost is the filter's default cost of moving from a to b across poly of
// tile.
func (m *costModel) cost(a, b *geom.Vec3, tile *navmesh.Tile, poly *navmesh.Poly) float32 {
	return float32(distance(a, b) * m.areaCostOf(tile, poly))
}

// areaCostOf is the filter's default cost per unit of length across poly
// of tile: its area's cost, or a runtime link's own Cost
// (navmesh.LinkDesc.Cost) when it has one.
func (m *costModel) areaCostOf(tile *navmesh.Tile, poly *navmesh.Poly) float32 {
	areaCost := m.areaCost[poly.AreaAndType&0x3f]
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		return tile.OffMeshAreaCost(areaCost)
	}
	return areaCost
}

// distance is the straight-line distance from a to b, the arithmetic of
// Detour's dtVdist.
func distance(a, b *geom.Vec3) float32 {
	dx := b[0] - a[0]
	dy := b[1] - a[1]
	dz := b[2] - a[2]
	return geom.Sqrt(float32(dx*dx) + float32(dy*dy) + float32(dz*dz))
}
