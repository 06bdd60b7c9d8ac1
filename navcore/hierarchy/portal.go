package hierarchy

import (
	"fmt"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// portalOf returns the two ends of the portal that link crosses, from
// polygon fromPoly of fromTile into polygon toPoly of toTile, as Detour's
// getPortalPoints does (query.Query.PortalPoints): an off-mesh connection's
// portal is its end point on the linked side, and a link across a tile
// border covers the part of the edge its BMin and BMax give.
func portalOf(fromTile *navmesh.Tile, fromPoly *navmesh.Poly, link *navmesh.Link, fromRef navmesh.Ref,
	toTile *navmesh.Tile, toPoly *navmesh.Poly) (left, right geom.Vec3) {
	if fromPoly.Type() == navmesh.PolyTypeOffMeshConnection {
		v := fromTile.Verts[fromPoly.Verts[link.Edge]]
		return v, v
	}
	if toPoly.Type() == navmesh.PolyTypeOffMeshConnection {
		for i := toPoly.FirstLink; i != navmesh.NullLink; i = toTile.Links[i].Next {
			if toTile.Links[i].Ref == fromRef {
				v := toTile.Verts[toPoly.Verts[toTile.Links[i].Edge]]
				return v, v
			}
		}
		v := toTile.Verts[toPoly.Verts[0]]
		return v, v
	}
	next := int(link.Edge) + 1
	if next >= int(fromPoly.VertCount) {
		next = 0
	}
	v0, v1 := fromTile.Verts[fromPoly.Verts[link.Edge]], fromTile.Verts[fromPoly.Verts[next]]
	if link.Side != 0xff && (link.BMin != 0 || link.BMax != 255) {
		const s = float32(1.0 / 255.0)
		return lerp(v0, v1, float32(link.BMin)*s), lerp(v0, v1, float32(link.BMax)*s)
	}
	return v0, v1
}

// portalMid is the middle of the portal link crosses (Detour's
// getEdgeMidPoint), the point path searches place a polygon's node at.
func portalMid(fromTile *navmesh.Tile, fromPoly *navmesh.Poly, link *navmesh.Link, fromRef navmesh.Ref,
	toTile *navmesh.Tile, toPoly *navmesh.Poly) geom.Vec3 {
	l, r := portalOf(fromTile, fromPoly, link, fromRef, toTile, toPoly)
	return geom.Vec3{(l[0] + r[0]) * 0.5, (l[1] + r[1]) * 0.5, (l[2] + r[2]) * 0.5}
}

func lerp(a, b geom.Vec3, t float32) geom.Vec3 {
	return geom.Vec3{a[0] + float32((b[0]-a[0])*t), a[1] + float32((b[1]-a[1])*t), a[2] + float32((b[2]-a[2])*t)}
}

// CorridorCost returns the cost of walking the polygon corridor path from
// startPos to endPos under filter's default cost rule, as the A* searches
// count it: from startPos to the middle of each portal in turn, then to
// endPos, each leg costing its length times the area cost of the polygon it
// crosses. It is the measure by which this package compares its corridors
// with query.Query.FindPath's. The error wraps query.ErrInvalidRef when a
// polygon of path is not in snap or two consecutive polygons are not linked,
// and query.ErrInvalidParam for an empty path, a nil snapshot or a nil
// filter.
func CorridorCost(snap *navmesh.Snapshot, filter *query.Filter, startPos, endPos geom.Vec3, path []navmesh.Ref) (float32, error) {
	if snap == nil || filter == nil || len(path) == 0 {
		return 0, fmt.Errorf("hierarchy: corridor cost: empty path, nil snapshot or nil filter: %w", query.ErrInvalidParam)
	}
	model := modelOf(filter)
	pos := startPos
	var total float32
	for i := 0; i+1 < len(path); i++ {
		fromTile, fromPoly, err := snap.TileAndPoly(path[i])
		if err != nil {
			return 0, fmt.Errorf("hierarchy: corridor cost: polygon %d: %w", i, err)
		}
		toTile, toPoly, err := snap.TileAndPoly(path[i+1])
		if err != nil {
			return 0, fmt.Errorf("hierarchy: corridor cost: polygon %d: %w", i+1, err)
		}
		link := findLink(fromTile, fromPoly, path[i+1])
		if link == nil {
			return 0, fmt.Errorf("hierarchy: corridor cost: polygons %d and %d are not linked: %w", i, i+1, query.ErrInvalidRef)
		}
		mid := portalMid(fromTile, fromPoly, link, path[i], toTile, toPoly)
		total += model.cost(&pos, &mid, fromTile, fromPoly)
		pos = mid
	}
	lastTile, lastPoly, err := snap.TileAndPoly(path[len(path)-1])
	if err != nil {
		return 0, fmt.Errorf("hierarchy: corridor cost: last polygon: %w", err)
	}
	return total + model.cost(&pos, &endPos, lastTile, lastPoly), nil
}

// findLink returns the first link of poly (in tile) to ref, nil if none.
func findLink(tile *navmesh.Tile, poly *navmesh.Poly, ref navmesh.Ref) *navmesh.Link {
	for i := poly.FirstLink; i != navmesh.NullLink; i = tile.Links[i].Next {
		if tile.Links[i].Ref == ref {
			return &tile.Links[i]
		}
	}
	return nil
}
