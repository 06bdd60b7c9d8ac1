package query

import (
	"fmt"

	"github.com/archenav/archenav/internal/fastgeom"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/go-gl/mathgl/mgl32"
)

// PortalPoints returns the left and right end of the edge shared by the
// adjacent polygons from and to, seen walking from from into to, and the
// types of both polygons (dtNavMeshQuery::getPortalPoints). For an off-mesh
// connection both ends are its end point. Polygons that are not linked give
// ErrInvalidParam.
func (q *Query) PortalPoints(from, to navmesh.Ref) (left, right geom.Vec3, fromType, toType navmesh.PolyType, err error) {
	snap := q.mesh.Snapshot()
	fromTile, fromPoly, err := snap.TileAndPoly(from)
	if err != nil {
		return left, right, 0, 0, fmt.Errorf("query: portal points: from: %w", err)
	}
	toTile, toPoly, err := snap.TileAndPoly(to)
	if err != nil {
		return left, right, 0, 0, fmt.Errorf("query: portal points: to: %w", err)
	}
	left, right, ok := portalPoints(from, fromPoly, fromTile, to, toPoly, toTile)
	if !ok {
		return left, right, 0, 0, fmt.Errorf("query: portal points: %#x and %#x are not linked: %w", uint64(from), uint64(to), ErrInvalidParam)
	}
	return left, right, fromPoly.Type(), toPoly.Type(), nil
}

// EdgeMidPoint returns the middle of the portal between the adjacent
// polygons from and to (dtNavMeshQuery::getEdgeMidPoint).
func (q *Query) EdgeMidPoint(from, to navmesh.Ref) (geom.Vec3, error) {
	left, right, _, _, err := q.PortalPoints(from, to)
	if err != nil {
		return geom.Vec3{}, err
	}
	return midPoint(left, right), nil
}

func midPoint(left, right geom.Vec3) geom.Vec3 {
	return geom.Vec3{(left[0] + right[0]) * 0.5, (left[1] + right[1]) * 0.5, (left[2] + right[2]) * 0.5}
}

// portalPoints finds the portal from fromPoly into toPoly; ok is false when
// fromPoly has no link to to.
func portalPoints(from navmesh.Ref, fromPoly *navmesh.Poly, fromTile *navmesh.Tile,
	to navmesh.Ref, toPoly *navmesh.Poly, toTile *navmesh.Tile) (left, right geom.Vec3, ok bool) {
	l, r, ok := portal(from, fromPoly, fromTile, to, toPoly, toTile)
	return l.Vec3(), r.Vec3(), ok
}

// portal is portalPoints on points, for the straight path's funnel.
func portal(from navmesh.Ref, fromPoly *navmesh.Poly, fromTile *navmesh.Tile,
	to navmesh.Ref, toPoly *navmesh.Poly, toTile *navmesh.Tile) (left, right fastgeom.Point, ok bool) {
	links := fromTile.Links
	var link *navmesh.Link
	for i := fromPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
		if links[i].Ref == to {
			link = &links[i]
			break
		}
	}
	if link == nil {
		return left, right, false
	}

	// An off-mesh connection's portal is its end point on the linked side.
	if fromPoly.Type() == navmesh.PolyTypeOffMeshConnection {
		for i := fromPoly.FirstLink; i != navmesh.NullLink; i = links[i].Next {
			if links[i].Ref == to {
				v := fastgeom.Load(&fromTile.Verts[fromPoly.Verts[links[i].Edge]])
				return v, v, true
			}
		}
		return left, right, false
	}
	if toPoly.Type() == navmesh.PolyTypeOffMeshConnection {
		toLinks := toTile.Links
		for i := toPoly.FirstLink; i != navmesh.NullLink; i = toLinks[i].Next {
			if toLinks[i].Ref == from {
				v := fastgeom.Load(&toTile.Verts[toPoly.Verts[toLinks[i].Edge]])
				return v, v, true
			}
		}
		return left, right, false
	}

	v0 := fastgeom.Load(&fromTile.Verts[fromPoly.Verts[link.Edge]])
	v1 := fastgeom.Load(&fromTile.Verts[fromPoly.Verts[nextVertSelect(int(link.Edge), int(fromPoly.VertCount))]])
	// A link across a tile border may cover only part of the edge.
	if link.Side != 0xff && (link.BMin != 0 || link.BMax != 255) {
		const s = float32(1.0 / 255.0)
		tmin := float32(link.BMin) * s
		tmax := float32(link.BMax) * s
		return fastgeom.Lerp(v0, v1, tmin), fastgeom.Lerp(v0, v1, tmax), true
	}
	return v0, v1, true
}

// edgeMidPoint is the middle of the portal from fromPoly into toPoly.
func edgeMidPoint(from navmesh.Ref, fromPoly *navmesh.Poly, fromTile *navmesh.Tile,
	to navmesh.Ref, toPoly *navmesh.Poly, toTile *navmesh.Tile) (geom.Vec3, bool) {
	left, right, ok := portal(from, fromPoly, fromTile, to, toPoly, toTile)
	if !ok {
		return geom.Vec3{}, false
	}
	return geom.Vec3{(left.X + right.X) * 0.5, (left.Y + right.Y) * 0.5, (left.Z + right.Z) * 0.5}, true
}

// linkMidPoint is edgeMidPoint for a search that holds the link from
// fromPoly into toPoly, without walking fromPoly's links again: when
// neither polygon is an off-mesh connection the portal is the link's edge
// (the part BMin/BMax give for a link across a tile border), and the link
// is the one edgeMidPoint would find as long as it is the first of
// fromPoly's links into toPoly. The searches meet a polygon's links in list
// order and key nodes by (polygon, crossed tile side); every link of one
// polygon into another has the same side (the direction of the other's
// tile, or none inside the tile), so later links lead to the node the first
// one has already placed, and the searches call this only for a new node.
// Off-mesh connections take edgeMidPoint's walk.
func linkMidPoint(link *navmesh.Link, from navmesh.Ref, fromPoly *navmesh.Poly, fromTile *navmesh.Tile,
	to navmesh.Ref, toPoly *navmesh.Poly, toTile *navmesh.Tile) (geom.Vec3, bool) {
	if (fromPoly.AreaAndType|toPoly.AreaAndType)>>6 != uint8(navmesh.PolyTypeGround) {
		return edgeMidPoint(from, fromPoly, fromTile, to, toPoly, toTile)
	}
	return linkEdgeMidPoint(link, fromPoly, fromTile.Verts), true
}

// linkEdgeMidPoint is the middle of the part of poly's edge that link
// covers (all of it but for a link across a tile border); verts are the
// tile's vertices.
func linkEdgeMidPoint(link *navmesh.Link, poly *navmesh.Poly, verts []mgl32.Vec3) geom.Vec3 {
	v0 := fastgeom.Load(&verts[poly.Verts[link.Edge]])
	v1 := fastgeom.Load(&verts[poly.Verts[nextVert(int(link.Edge), int(poly.VertCount))]])
	if link.Side != 0xff && (link.BMin != 0 || link.BMax != 255) {
		const s = float32(1.0 / 255.0)
		v0, v1 = fastgeom.Lerp(v0, v1, float32(link.BMin)*s), fastgeom.Lerp(v0, v1, float32(link.BMax)*s)
	}
	return geom.Vec3{(v0.X + v1.X) * 0.5, (v0.Y + v1.Y) * 0.5, (v0.Z + v1.Z) * 0.5}
}

// nextVert returns (i+1) % n for 0 <= i < n without a division.
func nextVert(i, n int) int {
	if i+1 < n {
		return i + 1
	}
	return 0
}

// nextVertSelect is nextVert without a branch, for portal: which edge of a
// polygon a portal lies on is data, and as a branch it mispredicted about
// 2.6 times a straight path on nav_test (cachegrind); without, the straight
// path on the 1 km level ran about 6 % faster. n-1-(i+1) is negative, its
// sign bits all ones, exactly when i+1 == n. The A* loop keeps nextVert:
// there this form cost about 190 instructions a dungeon path (0.6 %) for
// no time measured.
func nextVertSelect(i, n int) int {
	j := i + 1
	return j &^ ((n - 1 - j) >> 63)
}

// flatTile returns the tile of ref in flat, a snapshot's TileSlots, nil
// when its slot is beyond flat.
func flatTile(flat []*navmesh.Tile, ref navmesh.Ref) *navmesh.Tile {
	if i := ref.TileIndex(); i < uint32(len(flat)) {
		return flat[i]
	}
	return nil
}
