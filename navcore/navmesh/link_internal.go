package navmesh

import "github.com/go-gl/mathgl/mgl32"

// noSide is the Side of a link that does not cross a tile border.
const noSide = 0xff

// connectIntLinks links the polygons of a new tile to their neighbours
// inside it (dtNavMesh::connectIntLinks). Edges are visited backwards so each
// list ends up in edge order.
func connectIntLinks(d *draft) {
	polys := d.polys()
	base := d.tile.PolyRefBase()
	for i := range polys {
		poly := &polys[i]
		poly.FirstLink = NullLink
		if poly.Type() == PolyTypeOffMeshConnection {
			continue
		}
		for j := int(poly.VertCount) - 1; j >= 0; j-- {
			nei := poly.Neighbours[j]
			if nei == 0 || nei&ExternalLink != 0 {
				continue
			}
			d.addLink(uint32(i), Link{Ref: base | Ref(nei-1), Edge: uint8(j), Side: noSide})
		}
	}
}

// baseOffMeshLinks connects the start of each off-mesh connection of a new
// tile to the nearest polygon of the tile, both ways, and snaps the
// connection's first vertex onto it (dtNavMesh::baseOffMeshLinks).
func baseOffMeshLinks(d *draft) {
	t := d.tile
	base := t.PolyRefBase()
	for i := range t.Data.OffMeshConnections {
		con := &t.Data.OffMeshConnections[i]
		halfExtents := mgl32.Vec3{con.Radius, t.Data.Header.WalkableClimb, con.Radius}
		ref, nearest, ok := t.nearestLandingPoly(con.Start, halfExtents, con.Radius)
		if !ok {
			continue
		}
		d.setVert(t.Polys[con.Poly].Verts[0], nearest)
		d.addLink(uint32(con.Poly), Link{Ref: ref, Edge: 0, Side: noSide})
		// The start is always linked back to the connection.
		d.addLink(ref.PolyIndex(), Link{Ref: base | Ref(con.Poly), Edge: 0xff, Side: noSide})
	}
}

// nearestLandingPoly finds the polygon an off-mesh connection end at p with
// the given radius lands on: the nearest polygon in the box, kept only when
// its nearest point is within radius of p in the xz-plane.
func (t *Tile) nearestLandingPoly(p, halfExtents mgl32.Vec3, radius float32) (Ref, mgl32.Vec3, bool) {
	ref, nearest := t.FindNearestPoly(p, halfExtents)
	if ref == 0 {
		return 0, nearest, false
	}
	dx, dz := nearest[0]-p[0], nearest[2]-p[2]
	if float32(dx*dx)+float32(dz*dz) > radius*radius {
		return 0, nearest, false
	}
	return ref, nearest, true
}
