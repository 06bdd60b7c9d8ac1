package scene

import (
	"errors"
	"image/color"
	"slices"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navmesh"
)

// NavmeshLayer is the drawable outline of a navmesh, taken once from the
// mesh: ground polygons with their fill colors (by area, brighter when
// higher), the edges between polygons, the walls (edges with no neighbour),
// the tile borders and the off-mesh connections.
type NavmeshLayer struct {
	// Min and Max bound every vertex [Units: world units].
	Min, Max geom.Vec3
	// Tiles and Polygons count what was taken from the mesh.
	Tiles, Polygons int

	vertices    []geom.Vec3 // all polygon vertices, polygon after polygon
	polys       []layerPoly // sorted by height, lowest first
	polyIndex   map[navmesh.Ref]int
	innerEdges  []edge
	walls       []edge
	tileBorders []edge
	offMesh     []edge

	points []render.Point // scratch for drawing
}

type layerPoly struct {
	first, count int // into vertices
	height       float32
	area         uint8
	fill         color.RGBA
}

type edge struct {
	a, b  geom.Vec3
	color color.RGBA
	poly  int // for inner edges: the polygon (in taking order) whose fill it darkens
}

// NewNavmeshLayer takes the outline of every tile of mesh.
func NewNavmeshLayer(mesh *navmesh.Mesh) (*NavmeshLayer, error) {
	if mesh == nil {
		return nil, errors.New("scene: navmesh layer: nil mesh")
	}
	snap := mesh.Snapshot()
	layer := &NavmeshLayer{polyIndex: map[navmesh.Ref]int{}}
	first := true
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil || tile.Header == nil {
			continue
		}
		layer.Tiles++
		base := tile.PolyRefBase()
		for p := range tile.Polys {
			poly := &tile.Polys[p]
			if poly.Type() == navmesh.PolyTypeOffMeshConnection {
				if poly.VertCount >= 2 {
					layer.offMesh = append(layer.offMesh, edge{a: tile.Verts[poly.Verts[0]], b: tile.Verts[poly.Verts[1]], color: OffMeshLink})
				}
				continue
			}
			lp := layerPoly{first: len(layer.vertices), count: int(poly.VertCount), area: poly.Area()}
			for v := 0; v < int(poly.VertCount); v++ {
				vertex := tile.Verts[poly.Verts[v]]
				layer.vertices = append(layer.vertices, vertex)
				lp.height += vertex[1]
				if first {
					layer.Min, layer.Max, first = vertex, vertex, false
				}
				layer.Min, layer.Max = geom.Min(layer.Min, vertex), geom.Max(layer.Max, vertex)
			}
			if lp.count > 0 {
				lp.height /= float32(lp.count)
			}
			layer.polyIndex[base|navmesh.Ref(p)] = len(layer.polys)
			layer.polys = append(layer.polys, lp)
			layer.addEdges(tile, p)
		}
	}
	if first {
		return nil, errors.New("scene: navmesh layer: the mesh has no polygons")
	}
	layer.Polygons = len(layer.polys)
	layer.shadePolygons()
	return layer, nil
}

// addEdges records the polygon's walls and tile borders, and each inner edge
// once (from the polygon with the lower index).
func (l *NavmeshLayer) addEdges(tile *navmesh.Tile, polyIndex int) {
	poly := &tile.Polys[polyIndex]
	n := int(poly.VertCount)
	for j := 0; j < n; j++ {
		a, b := tile.Verts[poly.Verts[j]], tile.Verts[poly.Verts[(j+1)%n]]
		neighbour := poly.Neighbours[j]
		switch {
		case neighbour == 0:
			l.walls = append(l.walls, edge{a: a, b: b, color: Wall})
		case neighbour&navmesh.ExternalLink != 0:
			l.tileBorders = append(l.tileBorders, edge{a: a, b: b, color: TileBorder})
		case int(neighbour)-1 > polyIndex:
			l.innerEdges = append(l.innerEdges, edge{a: a, b: b, poly: len(l.polys) - 1}) // colored by shadePolygons
		}
	}
}

// shadePolygons gives each polygon its fill (area color, brightness by
// height) and sorts them lowest first, so upper floors are drawn over lower
// ones; inner edges take the darker shade of the floor they lie on.
func (l *NavmeshLayer) shadePolygons() {
	span := l.Max[1] - l.Min[1]
	for i := range l.polys {
		p := &l.polys[i]
		shade := heightShades - 1
		if span > 0 {
			shade = int((p.height - l.Min[1]) / span * heightShades)
			shade = min(max(shade, 0), heightShades-1)
		}
		p.fill = areaShade(p.area, shade)
	}
	for i := range l.innerEdges {
		l.innerEdges[i].color = edgeShade(l.polys[l.innerEdges[i].poly].fill)
	}
	order := make([]int, len(l.polys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch ha, hb := l.polys[a].height, l.polys[b].height; {
		case ha < hb:
			return -1
		case ha > hb:
			return 1
		}
		return 0
	})
	sorted := make([]layerPoly, len(l.polys))
	newIndex := make([]int, len(l.polys))
	for to, from := range order {
		sorted[to] = l.polys[from]
		newIndex[from] = to
	}
	for ref, i := range l.polyIndex {
		l.polyIndex[ref] = newIndex[i]
	}
	l.polys = sorted
}

// Draw draws the navmesh: polygons, inner edges, tile borders, walls and
// off-mesh connections, in that order.
func (l *NavmeshLayer) Draw(c render.Canvas, v View) {
	for _, p := range l.polys {
		l.points = l.points[:0]
		for _, vertex := range l.vertices[p.first : p.first+p.count] {
			l.points = append(l.points, v.ToScreen(vertex))
		}
		c.Polygon(l.points, p.fill)
	}
	thin := max(1, v.Pixels(0.05))
	for _, e := range l.innerEdges {
		c.Line(v.ToScreen(e.a), v.ToScreen(e.b), thin, e.color)
	}
	for _, e := range l.tileBorders {
		c.Line(v.ToScreen(e.a), v.ToScreen(e.b), thin, e.color)
	}
	wall := max(2, v.Pixels(0.12))
	for _, e := range l.walls {
		c.Line(v.ToScreen(e.a), v.ToScreen(e.b), wall, e.color)
	}
	for _, e := range l.offMesh {
		a, b := v.ToScreen(e.a), v.ToScreen(e.b)
		c.Line(a, b, thin*2, e.color)
		c.Circle(a, 3, 0, e.color)
		c.Circle(b, 3, 1, e.color)
	}
}

// DrawPolygon fills the polygon ref (if the layer has it) with color.
func (l *NavmeshLayer) DrawPolygon(c render.Canvas, v View, ref navmesh.Ref, color color.RGBA) {
	i, ok := l.polyIndex[ref]
	if !ok {
		return
	}
	p := l.polys[i]
	l.points = l.points[:0]
	for _, vertex := range l.vertices[p.first : p.first+p.count] {
		l.points = append(l.points, v.ToScreen(vertex))
	}
	c.Polygon(l.points, color)
}

// Walls returns the number of wall edges.
func (l *NavmeshLayer) Walls() int { return len(l.walls) }

// TileBorders returns the number of polygon edges on tile borders.
func (l *NavmeshLayer) TileBorders() int { return len(l.tileBorders) }
