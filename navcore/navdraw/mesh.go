package navdraw

import (
	"fmt"
	"image/color"
	"strings"

	"github.com/go-gl/mathgl/mgl32"

	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// Layers choose what Mesh and Tile draw.
type Layers uint32

// The navmesh layers, drawn in this order (all of one layer over all tiles
// before the next).
const (
	// Polygons fills every ground polygon with its detail triangles (one
	// triangle each), coloured by Style.
	Polygons Layers = 1 << iota
	// InnerEdges draws the edges between two polygons of a tile, once per
	// edge, along the detail mesh.
	InnerEdges
	// Walls draws the polygon edges with no neighbour, along the detail
	// mesh.
	Walls
	// TileBorders draws the polygon edges on a tile border: Style.Portal
	// where the edge has a link into the next tile, Style.OpenBorder where
	// it has none.
	TileBorders
	// TileBounds draws the box of each tile (its header's bounds).
	TileBounds
	// OffMeshConnections draws each off-mesh connection: an arc from start
	// to end (arrow heads at the ends it can be entered from), a circle of
	// its radius at each end (Style.OffMeshUnlinked when that end has no
	// link), the snap from each end to the mesh and a short upright tick.
	OffMeshConnections
	// Vertices draws a dot at every polygon vertex.
	Vertices
	// BVTree draws the box of every BV tree leaf.
	BVTree
)

// DefaultLayers is what a navmesh picture usually shows.
const DefaultLayers = Polygons | InnerEdges | Walls | TileBorders | OffMeshConnections

// AllLayers is every navmesh layer.
const AllLayers = Polygons | InnerEdges | Walls | TileBorders | TileBounds | OffMeshConnections | Vertices | BVTree

var layerNames = []struct {
	layer Layers
	name  string
}{
	{Polygons, "polygons"},
	{InnerEdges, "edges"},
	{Walls, "walls"},
	{TileBorders, "borders"},
	{TileBounds, "tiles"},
	{OffMeshConnections, "offmesh"},
	{Vertices, "vertices"},
	{BVTree, "bvtree"},
}

// String returns the layers' names joined by commas, as ParseLayers reads
// them.
func (l Layers) String() string {
	var names []string
	for _, n := range layerNames {
		if l&n.layer != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, ",")
}

// LayerNames returns the name of every layer ParseLayers knows, in drawing
// order.
func LayerNames() []string {
	names := make([]string, len(layerNames))
	for i, n := range layerNames {
		names[i] = n.name
	}
	return names
}

// ParseLayers reads comma-separated layer names (see LayerNames; "mesh" is
// DefaultLayers and "all" AllLayers). Blanks around names are ignored.
func ParseLayers(s string) (Layers, error) {
	var layers Layers
	for _, field := range strings.Split(s, ",") {
		name := strings.TrimSpace(field)
		switch name {
		case "":
			continue
		case "mesh":
			layers |= DefaultLayers
			continue
		case "all":
			layers |= AllLayers
			continue
		}
		found := false
		for _, n := range layerNames {
			if n.name == name {
				layers |= n.layer
				found = true
			}
		}
		if !found {
			return 0, fmt.Errorf("navdraw: unknown layer %q (known: mesh, all, %s)", name, strings.Join(LayerNames(), ", "))
		}
	}
	return layers, nil
}

// Mesh draws layers of every tile of snap.
func Mesh(d debugdraw.Drawer, snap *navmesh.Snapshot, layers Layers, style Style) {
	if d == nil {
		return
	}
	if snap == nil {
		return
	}
	for _, n := range layerNames {
		if layers&n.layer == 0 {
			continue
		}
		for i := range snap.MaxTiles() {
			if tile := snap.Tile(i); tile != nil && tile.Data != nil {
				drawLayer(d, tile, n.layer, &style)
			}
		}
	}
}

// Tile draws layers of one tile (for a cache per tile that redraws only the
// tiles that changed).
func Tile(d debugdraw.Drawer, tile *navmesh.Tile, layers Layers, style Style) {
	if d == nil {
		return
	}
	if tile == nil || tile.Data == nil {
		return
	}
	for _, n := range layerNames {
		if layers&n.layer != 0 {
			drawLayer(d, tile, n.layer, &style)
		}
	}
}

func drawLayer(d debugdraw.Drawer, tile *navmesh.Tile, layer Layers, style *Style) {
	switch layer {
	case Polygons:
		for i := range tile.Polys {
			if tile.Polys[i].Type() == navmesh.PolyTypeGround {
				fillPolygon(d, tile, i, style.polygonFill(tile, i))
			}
		}
	case InnerEdges, Walls, TileBorders:
		drawEdges(d, tile, layer, style)
	case TileBounds:
		debugdraw.BoxWire(d, tile.Data.Header.BMin, tile.Data.Header.BMax, style.TileBoundsWidth, style.TileBounds)
	case OffMeshConnections:
		drawOffMeshConnections(d, tile, style)
	case Vertices:
		for _, v := range tile.Verts {
			d.Point(v, style.VertexSize, style.Vertex)
		}
	case BVTree:
		drawBVTree(d, tile, style)
	}
}

// polygonVertex returns vertex k of the detail triangle numbering of
// polygon index: the polygon's own vertices first, then its detail
// vertices. ok is false for an index out of range.
func polygonVertex(tile *navmesh.Tile, index int, detail *navmesh.PolyDetail, k uint8) (mgl32.Vec3, bool) {
	poly := &tile.Polys[index]
	if k < poly.VertCount {
		v := int(poly.Verts[k])
		if v >= len(tile.Verts) {
			return mgl32.Vec3{}, false
		}
		return tile.Verts[v], true
	}
	i := int(detail.VertBase) + int(k-poly.VertCount)
	if i >= len(tile.Data.DetailVerts) {
		return mgl32.Vec3{}, false
	}
	return tile.Data.DetailVerts[i], true
}

// detailOf returns the detail sub-mesh of ground polygon index, nil when the
// tile has none for it.
func detailOf(tile *navmesh.Tile, index int) *navmesh.PolyDetail {
	if index >= len(tile.Data.DetailMeshes) {
		return nil
	}
	detail := &tile.Data.DetailMeshes[index]
	if detail.TriCount == 0 || int(detail.TriBase)+int(detail.TriCount) > len(tile.Data.DetailTris) {
		return nil
	}
	return detail
}

// fillPolygon fills ground polygon index with its detail triangles, or
// with a fan of its outline when it has no detail mesh.
func fillPolygon(d debugdraw.Drawer, tile *navmesh.Tile, index int, fill color.NRGBA) {
	poly := &tile.Polys[index]
	detail := detailOf(tile, index)
	if detail == nil {
		count := int(poly.VertCount)
		for j := 2; j < count; j++ {
			a, okA := vertexAt(tile, poly, 0)
			b, okB := vertexAt(tile, poly, j-1)
			c, okC := vertexAt(tile, poly, j)
			if okA && okB && okC {
				d.Triangle(a, b, c, fill)
			}
		}
		return
	}
	for _, tri := range tile.Data.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)] {
		a, okA := polygonVertex(tile, index, detail, tri[0])
		b, okB := polygonVertex(tile, index, detail, tri[1])
		c, okC := polygonVertex(tile, index, detail, tri[2])
		if okA && okB && okC {
			d.Triangle(a, b, c, fill)
		}
	}
}

// vertexAt returns vertex j of poly.
func vertexAt(tile *navmesh.Tile, poly *navmesh.Poly, j int) (mgl32.Vec3, bool) {
	v := int(poly.Verts[j])
	if v >= len(tile.Verts) {
		return mgl32.Vec3{}, false
	}
	return tile.Verts[v], true
}

// onEdgeTolerance is how far (squared, in the xz plane) a detail vertex may
// lie from a polygon edge and still count as on it [Units: world units²].
const onEdgeTolerance = 0.01 * 0.01

// drawEdges draws the edges of layer (InnerEdges, Walls or TileBorders) of
// every ground polygon of tile.
func drawEdges(d debugdraw.Drawer, tile *navmesh.Tile, layer Layers, style *Style) {
	for index := range tile.Polys {
		poly := &tile.Polys[index]
		if poly.Type() != navmesh.PolyTypeGround {
			continue
		}
		count := int(poly.VertCount)
		for j := range count {
			neighbour := poly.Neighbours[j]
			var stroke color.NRGBA
			var width float32
			switch {
			case neighbour == 0:
				if layer != Walls {
					continue
				}
				stroke, width = style.Wall, style.WallWidth
			case neighbour&navmesh.ExternalLink != 0:
				if layer != TileBorders {
					continue
				}
				stroke, width = style.OpenBorder, style.BorderWidth
				if hasLink(tile, poly, uint8(j)) {
					stroke = style.Portal
				}
			default:
				// An inner edge, once: from the polygon with the lower index.
				if layer != InnerEdges || int(neighbour)-1 < index {
					continue
				}
				stroke, width = style.InnerEdge, style.InnerEdgeWidth
			}
			drawPolygonEdge(d, tile, index, j, width, stroke)
		}
	}
}

// hasLink reports whether poly has a link on edge.
func hasLink(tile *navmesh.Tile, poly *navmesh.Poly, edge uint8) bool {
	for k, steps := poly.FirstLink, 0; k != navmesh.NullLink && int(k) < len(tile.Links) && steps < len(tile.Links); k, steps = tile.Links[k].Next, steps+1 {
		if tile.Links[k].Edge == edge {
			return true
		}
	}
	return false
}

// drawPolygonEdge draws edge j of ground polygon index along its detail
// triangles: every detail edge flagged as on the polygon boundary that lies
// on edge j. Without a detail mesh (or when no detail edge lies on it) the
// straight edge is drawn.
func drawPolygonEdge(d debugdraw.Drawer, tile *navmesh.Tile, index, j int, width float32, stroke color.NRGBA) {
	poly := &tile.Polys[index]
	v0, ok0 := vertexAt(tile, poly, j)
	v1, ok1 := vertexAt(tile, poly, (j+1)%int(poly.VertCount))
	if !ok0 || !ok1 {
		return
	}
	drawn := false
	if detail := detailOf(tile, index); detail != nil {
		for _, tri := range tile.Data.DetailTris[detail.TriBase : detail.TriBase+uint32(detail.TriCount)] {
			for k := range 3 {
				if tri.EdgeFlags(k)&navmesh.DetailEdgeBoundary == 0 {
					continue
				}
				a, okA := polygonVertex(tile, index, detail, tri[k])
				b, okB := polygonVertex(tile, index, detail, tri[(k+1)%3])
				if okA && okB && distanceToLine2D(a, v0, v1) < onEdgeTolerance && distanceToLine2D(b, v0, v1) < onEdgeTolerance {
					d.Line(a, b, width, stroke)
					drawn = true
				}
			}
		}
	}
	if !drawn {
		d.Line(v0, v1, width, stroke)
	}
}

// distanceToLine2D returns the squared xz distance from p to the line
// through a and b.
func distanceToLine2D(p, a, b mgl32.Vec3) float32 {
	abx, abz := b[0]-a[0], b[2]-a[2]
	dx, dz := p[0]-a[0], p[2]-a[2]
	lengthSqr := float32(abx*abx) + float32(abz*abz)
	t := float32(abx*dx) + float32(abz*dz)
	if lengthSqr != 0 {
		t /= lengthSqr
	}
	dx = a[0] + float32(t*abx) - p[0]
	dz = a[2] + float32(t*abz) - p[2]
	return float32(dx*dx) + float32(dz*dz)
}

// drawOffMeshConnections draws the off-mesh connections of tile.
func drawOffMeshConnections(d debugdraw.Drawer, tile *navmesh.Tile, style *Style) {
	tick := color.NRGBA{0, 48, 64, 196}
	for i := range tile.Data.OffMeshConnections {
		con := &tile.Data.OffMeshConnections[i]
		index := int(con.Poly)
		if index >= len(tile.Polys) {
			continue
		}
		poly := &tile.Polys[index]
		stroke := style.OffMesh
		if stroke == (color.NRGBA{}) {
			stroke = debugdraw.Darken(style.areaColor(poly.Area(), 220))
		}
		startLinked, endLinked := hasLink(tile, poly, 0), hasLink(tile, poly, 1)
		width := style.OffMeshWidth
		if a, ok := vertexAt(tile, poly, 0); ok {
			d.Line(a, con.Start, width, stroke)
		}
		if b, ok := vertexAt(tile, poly, 1); ok && poly.VertCount > 1 {
			d.Line(b, con.End, width, stroke)
		}
		for end, linked := range [2]bool{startLinked, endLinked} {
			p := con.Start
			if end == 1 {
				p = con.End
			}
			ring := stroke
			if !linked {
				ring = style.OffMeshUnlinked
			}
			debugdraw.Circle(d, p.Add(mgl32.Vec3{0, 0.1, 0}), con.Radius, width, ring)
			d.Line(p, p.Add(mgl32.Vec3{0, 0.2, 0}), width, tick)
		}
		var headStart float32
		if con.Flags&navmesh.OffMeshBidirectional != 0 {
			headStart = 0.6
		}
		debugdraw.Arc(d, con.Start, con.End, style.OffMeshLift, headStart, 0.6, width, stroke)
	}
}

// drawBVTree draws the box of every leaf of tile's BV tree: of the nodes
// under the root (the C++ layout leaves an unused zero node at the end).
func drawBVTree(d debugdraw.Drawer, tile *navmesh.Tile, style *Style) {
	if !(tile.Data.Header.BVQuantFactor > 0) || len(tile.Data.BVTree) == 0 {
		return
	}
	cell := 1 / tile.Data.Header.BVQuantFactor
	origin := tile.Data.Header.BMin
	end := 1 // a root leaf is the whole tree
	if root := tile.Data.BVTree[0].Index; root < 0 {
		end = min(int(-root), len(tile.Data.BVTree))
	}
	for i := range end {
		node := &tile.Data.BVTree[i]
		if node.Index < 0 { // an interior node
			continue
		}
		var bmin, bmax mgl32.Vec3
		for k := range 3 {
			bmin[k] = origin[k] + float32(float32(node.BMin[k])*cell)
			bmax[k] = origin[k] + float32(float32(node.BMax[k])*cell)
		}
		debugdraw.BoxWire(d, bmin, bmax, style.BVNodeWidth, style.BVNode)
	}
}
