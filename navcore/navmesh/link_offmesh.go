package navmesh

import (
	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// connectExtOffMeshLinks lands the off-mesh connections of slot target that
// end beyond its side facing slot tile (side -1: connections ending inside
// the target, for the tile itself or another layer of its column) on the
// nearest polygon of tile (dtNavMesh::connectExtOffMeshLinks). The
// connection's end vertex is snapped onto the landing polygon; a
// bidirectional connection also gets a link back from it.
func (e *edit) connectExtOffMeshLinks(tile, target uint32, side int) {
	oppositeSide := uint8(noSide)
	if side != -1 {
		oppositeSide = uint8(geom.OppositeSide(side))
	}
	cons := e.tile(target).Data.OffMeshConnections
	for i := range cons {
		con := &cons[i]
		if con.Side != oppositeSide {
			continue
		}
		// Skip connections whose start could not be linked.
		if e.tile(target).Polys[con.Poly].FirstLink == NullLink {
			continue
		}
		halfExtents := mgl32.Vec3{con.Radius, e.tile(target).Data.Header.WalkableClimb, con.Radius}
		ref, nearest, ok := e.tile(tile).nearestLandingPoly(con.End, halfExtents, con.Radius)
		if !ok {
			continue
		}
		targetDraft := e.draftOf(target)
		targetDraft.setVert(targetDraft.tile.Polys[con.Poly].Verts[1], nearest)
		targetDraft.addLink(uint32(con.Poly), Link{Ref: ref, Edge: 1, Side: oppositeSide})

		if con.Flags&OffMeshBidirectional != 0 {
			landSide := uint8(noSide)
			if side != -1 {
				landSide = uint8(side)
			}
			conRef := targetDraft.tile.PolyRefBase() | Ref(con.Poly)
			e.draftOf(tile).addLink(ref.PolyIndex(), Link{Ref: conRef, Edge: 0xff, Side: landSide})
		}
	}
}
