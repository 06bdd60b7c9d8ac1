package navdraw

import (
	"image/color"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/tilecache"
)

// portalOffsets are the cell steps (x, z) towards the tile a portal of
// each direction (-x, +z, +x, -z) leads into.
var portalOffsets = [4][2]float32{{-1, 0}, {0, 1}, {1, 0}, {0, -1}}

// portalTick draws the short line from the middle of a portal edge a–b two
// cells towards the tile it leads into.
func portalTick(d debugdraw.Drawer, a, b mgl32.Vec3, direction uint8, cellSize float32, style *Style) {
	if direction > 3 {
		return
	}
	mid := mgl32.Vec3{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2}
	off := portalOffsets[direction]
	d.Line(mid, mgl32.Vec3{mid[0] + float32(off[0]*2*cellSize), mid[1], mid[2] + float32(off[1]*2*cellSize)}, style.ContourWidth, style.PortalMark)
}

// TileCacheContours draws the region contours of a layer's build stages as
// duDebugDrawTileCacheContours does: every edge of contour i as an arrow
// (debugdraw.Arrow, its head half a cell long at the edge's end) in
// debugdraw.IndexColor(i), or Style.Portal with a Style.PortalMark tick
// towards the next tile when it is a portal; then a dot at every corner,
// the contour's colour darkened or Style.PortalMark where the poly mesh
// may remove it. Odd contours are raised a cell so that shared edges show
// both.
//
// cellSize, cellHeight [Limit: > 0] [Units: world units]
func TileCacheContours(d debugdraw.Drawer, stages *tilecache.LayerStages, cellSize, cellHeight float32, style Style) {
	if d == nil {
		return
	}
	if stages == nil {
		return
	}
	origin := stages.Layer.Header.BMin
	at := func(v tilecache.ContourVertex, i int) mgl32.Vec3 {
		return mgl32.Vec3{
			origin[0] + float32(float32(v.X)*cellSize),
			origin[1] + float32(float32(int(v.Height)+1+i&1)*cellHeight),
			origin[2] + float32(float32(v.Z)*cellSize),
		}
	}
	for i, c := range stages.Contours {
		edge := debugdraw.IndexColor(i, 255)
		for j, v := range c.Vertices {
			a, b := at(v, i), at(c.Vertices[(j+1)%len(c.Vertices)], i)
			stroke := edge
			if v.Portal != tilecache.NoPortal {
				stroke = style.Portal
				portalTick(d, a, b, v.Portal, cellSize, &style)
			}
			debugdraw.Arrow(d, a, b, 0, cellSize/2, style.ContourWidth, stroke)
		}
	}
	for i, c := range stages.Contours {
		corner := debugdraw.Darken(debugdraw.IndexColor(i, 255))
		for _, v := range c.Vertices {
			fill := corner
			if v.Removable {
				fill = style.PortalMark
			}
			d.Point(at(v, i), 2*style.ContourWidth, fill)
		}
	}
}

// TileCachePolyMesh draws the poly mesh of a layer's build stages as
// duDebugDrawTileCachePolyMesh does: each polygon filled (a fan of
// triangles) by its area (plain ground in debugdraw.GroundBlue) at
// Style.PolygonAlpha; each edge between two polygons once in
// Style.InnerEdge; each edge with nothing across it in Style.Wall, or in
// Style.Portal with a Style.PortalMark tick when it leads into the next
// tile; and a dot at every vertex in Style.Vertex. Edges and dots are
// raised a little (0.1) over the fills. Polygons whose vertices lie outside
// the stages' vertex list are skipped.
//
// cellSize, cellHeight [Limit: > 0] [Units: world units]
func TileCachePolyMesh(d debugdraw.Drawer, stages *tilecache.LayerStages, cellSize, cellHeight float32, style Style) {
	if d == nil {
		return
	}
	if stages == nil {
		return
	}
	const lift = 0.1
	origin := stages.Layer.Header.BMin
	at := func(index uint16, raise float32) mgl32.Vec3 {
		v := stages.Vertices[index]
		return mgl32.Vec3{
			origin[0] + float32(float32(v[0])*cellSize),
			origin[1] + float32(float32(int(v[1])+1)*cellHeight) + raise,
			origin[2] + float32(float32(v[2])*cellSize),
		}
	}
	valid := func(p *tilecache.LayerPolygon) bool {
		if p.Count < 3 || p.Count > tilecache.MaxLayerPolygonVertices {
			return false
		}
		for _, v := range p.Vertices[:p.Count] {
			if int(v) >= len(stages.Vertices) {
				return false
			}
		}
		return true
	}
	for i := range stages.Polygons {
		p := &stages.Polygons[i]
		if !valid(p) {
			continue
		}
		var fill color.NRGBA
		switch p.Area {
		case tilecache.WalkableArea:
			fill = debugdraw.WithAlpha(debugdraw.GroundBlue, style.PolygonAlpha)
		case tilecache.NullArea:
			fill = color.NRGBA{0, 0, 0, style.PolygonAlpha}
		default:
			fill = style.areaColor(p.Area, style.PolygonAlpha)
		}
		for j := 2; j < p.Count; j++ {
			d.Triangle(at(p.Vertices[0], 0), at(p.Vertices[j-1], 0), at(p.Vertices[j], 0), fill)
		}
	}
	for i := range stages.Polygons {
		p := &stages.Polygons[i]
		if !valid(p) {
			continue
		}
		for j := range p.Count {
			a, b := at(p.Vertices[j], lift), at(p.Vertices[(j+1)%p.Count], lift)
			switch n := p.Neighbours[j]; {
			case n == tilecache.EdgeWall:
				d.Line(a, b, style.WallWidth, style.Wall)
			case n&tilecache.EdgePortal != 0:
				portalTick(d, a, b, uint8(n&0xf), cellSize, &style)
				d.Line(a, b, style.WallWidth, style.Portal)
			case int(n) > i: // once per inner edge
				d.Line(a, b, style.InnerEdgeWidth, style.InnerEdge)
			}
		}
	}
	for i := range stages.Vertices {
		d.Point(at(uint16(i), lift), style.VertexSize, style.Vertex)
	}
}
