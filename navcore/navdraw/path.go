package navdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navmesh"
	"github.com/archenav/archenav/navcore/query"
)

// Polygon fills polygon ref with fill: a ground polygon with its detail
// triangles, an off-mesh connection with its arc (duDebugDrawNavMeshPoly).
// A ref that is not valid in snap draws nothing.
func Polygon(d debugdraw.Drawer, snap *navmesh.Snapshot, ref navmesh.Ref, fill color.NRGBA, style Style) {
	if d == nil {
		return
	}
	if snap == nil {
		return
	}
	tile, poly, err := snap.TileAndPoly(ref)
	if err != nil {
		return
	}
	index := int(ref.PolyIndex())
	if poly.Type() == navmesh.PolyTypeOffMeshConnection {
		if con, err := snap.OffMeshConnectionByRef(ref); err == nil {
			var headStart float32
			if con.Flags&navmesh.OffMeshBidirectional != 0 {
				headStart = 0.6
			}
			debugdraw.Arc(d, con.Start, con.End, style.OffMeshLift, headStart, 0.6, style.OffMeshWidth, fill)
		}
		return
	}
	fillPolygon(d, tile, index, fill)
}

// Corridor fills each polygon of path (a FindPath result, a crowd
// corridor) with Style.Corridor.
func Corridor(d debugdraw.Drawer, snap *navmesh.Snapshot, path []navmesh.Ref, style Style) {
	if d == nil {
		return
	}
	for _, ref := range path {
		Polygon(d, snap, ref, style.Corridor, style)
	}
}

// StraightPath draws a straight path (FindStraightPath, or an agent's
// corners) as lines through its points with a dot at each, lifted by
// Style.PathLift; the step from an off-mesh connection's start to its end
// is drawn as an arc.
func StraightPath(d debugdraw.Drawer, points []query.StraightPathPoint, style Style) {
	if d == nil {
		return
	}
	lift := mgl32.Vec3{0, style.PathLift, 0}
	for i := 1; i < len(points); i++ {
		a, b := points[i-1].Pos.Add(lift), points[i].Pos.Add(lift)
		if points[i-1].Flags&query.StraightPathOffMeshConnection != 0 {
			debugdraw.Arc(d, a, b, style.OffMeshLift, 0, 0.6, style.PathWidth, style.Path)
			continue
		}
		d.Line(a, b, style.PathWidth, style.Path)
	}
	for _, p := range points {
		d.Point(p.Pos.Add(lift), style.PathCornerSize, style.Path)
	}
}

// Search draws the nodes of a search (query.Query.SearchNodes): the
// polygons it closed filled with Style.ClosedPolygon, then a line from each
// node to its parent and a dot at each node, lifted by Style.SearchLift
// (duDebugDrawNavMeshNodes and the closed list of
// duDebugDrawNavMeshWithClosedList). A polygon with several closed nodes is
// filled once.
func Search(d debugdraw.Drawer, snap *navmesh.Snapshot, nodes []query.SearchNode, style Style) {
	if d == nil || snap == nil {
		return
	}
	filled := make(map[navmesh.Ref]bool)
	for _, n := range nodes {
		if n.Closed && !filled[n.Ref] {
			filled[n.Ref] = true
			Polygon(d, snap, n.Ref, style.ClosedPolygon, style)
		}
	}
	lift := mgl32.Vec3{0, style.SearchLift, 0}
	for _, n := range nodes {
		if n.Parent >= 0 && n.Parent < len(nodes) {
			d.Line(n.Position.Add(lift), nodes[n.Parent].Position.Add(lift), style.SearchParentWidth, style.SearchParent)
		}
	}
	for _, n := range nodes {
		d.Point(n.Position.Add(lift), style.SearchNodeSize, style.SearchNode)
	}
}
