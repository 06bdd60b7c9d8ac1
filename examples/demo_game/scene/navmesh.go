package scene

import (
	"cmp"
	"errors"
	"image/color"
	"slices"

	"github.com/archenav/archenav/examples/demo_game/render"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/geom"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// NavmeshLayer draws a navmesh with archenav's navdraw: ground polygons with
// their fill colors (by area, brighter when higher, higher floors over lower
// ones), the edges between polygons, the walls, the tile borders and the
// off-mesh connections. It draws the mesh's snapshot taken when it was made
// or last refreshed (Refresh), so that holes carved by obstacles show.
type NavmeshLayer struct {
	// Min and Max bound every vertex of the first snapshot; they stay put
	// through refreshes, so that a view fitted to them does too
	// [Units: world units].
	Min, Max geom.Vec3
	// Tiles and Polygons count what was taken from the mesh.
	Tiles, Polygons int

	mesh        *navmesh.Mesh
	snapshot    *navmesh.Snapshot
	polys       []layerPoly // sorted by height, lowest first
	polyIndex   map[navmesh.Ref]int
	walls       []edge
	tileBorders []edge

	recorder debugdraw.Recorder // the last drawing, reused
	drawer   Drawer
}

type layerPoly struct {
	centre geom.Vec3
	height float32
	area   uint8
	fill   color.RGBA
}

type edge struct{ a, b geom.Vec3 }

// navmeshLayers is what the scene shows of the navmesh.
const navmeshLayers = navdraw.Polygons | navdraw.InnerEdges | navdraw.TileBorders | navdraw.Walls | navdraw.OffMeshConnections

// NewNavmeshLayer takes the polygons of every tile of mesh.
func NewNavmeshLayer(mesh *navmesh.Mesh) (*NavmeshLayer, error) {
	if mesh == nil {
		return nil, errors.New("scene: navmesh layer: nil mesh")
	}
	layer := &NavmeshLayer{mesh: mesh}
	bmin, bmax, ok := layer.take(mesh.Snapshot())
	if !ok {
		return nil, errors.New("scene: navmesh layer: the mesh has no polygons")
	}
	layer.Min, layer.Max = bmin, bmax
	layer.shadePolygons()
	return layer, nil
}

// Refresh takes the mesh's current snapshot when its version differs from
// the one drawn (tiles rebuilt by the tile cache, flags changed) and
// reports whether it did: the caller then draws the layer again.
func (l *NavmeshLayer) Refresh() bool {
	snap := l.mesh.Snapshot()
	if snap.Version() == l.snapshot.Version() {
		return false
	}
	l.take(snap)
	l.shadePolygons()
	return true
}

// take reads the polygons and edges of snap and returns the bounds of their
// vertices; ok is false when there is no polygon.
func (l *NavmeshLayer) take(snap *navmesh.Snapshot) (bmin, bmax geom.Vec3, ok bool) {
	l.snapshot = snap
	l.Tiles, l.Polygons = 0, 0
	l.polys, l.walls, l.tileBorders = l.polys[:0], l.walls[:0], l.tileBorders[:0]
	l.polyIndex = map[navmesh.Ref]int{}
	first := true
	for i := 0; i < snap.MaxTiles(); i++ {
		tile := snap.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		l.Tiles++
		base := tile.PolyRefBase()
		for p := range tile.Polys {
			poly := &tile.Polys[p]
			if poly.Type() == navmesh.PolyTypeOffMeshConnection {
				continue
			}
			lp := layerPoly{area: poly.Area()}
			for v := 0; v < int(poly.VertCount); v++ {
				vertex := tile.Verts[poly.Verts[v]]
				lp.centre = geom.Add(lp.centre, vertex)
				if first {
					bmin, bmax, first = vertex, vertex, false
				}
				bmin, bmax = geom.Min(bmin, vertex), geom.Max(bmax, vertex)
			}
			if poly.VertCount > 0 {
				lp.centre = geom.Scale(lp.centre, 1/float32(poly.VertCount))
			}
			lp.height = lp.centre[1]
			l.polyIndex[base|navmesh.Ref(p)] = len(l.polys)
			l.polys = append(l.polys, lp)
			l.addEdges(tile, p)
		}
	}
	l.Polygons = len(l.polys)
	return bmin, bmax, !first
}

// addEdges records the polygon's walls and tile borders.
func (l *NavmeshLayer) addEdges(tile *navmesh.Tile, polyIndex int) {
	poly := &tile.Polys[polyIndex]
	n := int(poly.VertCount)
	for j := 0; j < n; j++ {
		e := edge{a: tile.Verts[poly.Verts[j]], b: tile.Verts[poly.Verts[(j+1)%n]]}
		switch neighbour := poly.Neighbours[j]; {
		case neighbour == 0:
			l.walls = append(l.walls, e)
		case neighbour&navmesh.ExternalLink != 0:
			l.tileBorders = append(l.tileBorders, e)
		}
	}
}

// shadePolygons gives each polygon its fill (area color, brightness by
// height) and sorts them lowest first.
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
	order := make([]int, len(l.polys))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(l.polys[a].height, l.polys[b].height) })
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

// style returns the navdraw style of the scene at view v: the scene's
// palette (opaque, so that frames fit one GIF palette) and widths that
// follow the zoom.
func (l *NavmeshLayer) style(v View) navdraw.Style {
	style := navdraw.DefaultStyle()
	style.PolygonColor = func(tile *navmesh.Tile, index int) color.NRGBA {
		if i, ok := l.polyIndex[tile.PolyRefBase()|navmesh.Ref(index)]; ok {
			return straight(l.polys[i].fill)
		}
		return straight(areaShade(tile.Polys[index].Area(), heightShades-1))
	}
	thin := max(1, v.Pixels(0.05))
	style.InnerEdge, style.InnerEdgeWidth = straight(InnerEdge), thin
	style.Wall, style.WallWidth = straight(Wall), max(2, v.Pixels(0.12))
	style.Portal, style.OpenBorder, style.BorderWidth = straight(TileBorder), straight(TileBorder), thin
	style.OffMesh, style.OffMeshUnlinked, style.OffMeshWidth = straight(OffMeshLink), straight(BoundaryLine), thin*2
	style.Corridor = straight(CorridorFill)
	return style
}

// Draw draws the navmesh: polygons (higher floors over lower ones), inner
// edges, tile borders, walls and off-mesh connections, in that order.
func (l *NavmeshLayer) Draw(c render.Canvas, v View) {
	l.recorder.Reset()
	navdraw.Mesh(&l.recorder, l.snapshot, navmeshLayers, l.style(v))
	// The polygon layer comes first: its triangles, lowest first.
	triangles := 0
	for triangles < l.recorder.Len() && l.recorder.Primitives[triangles].Kind == debugdraw.KindTriangle {
		triangles++
	}
	slices.SortStableFunc(l.recorder.Primitives[:triangles], func(a, b debugdraw.Primitive) int {
		return cmp.Compare(a.Vertices[0][1]+a.Vertices[1][1]+a.Vertices[2][1], b.Vertices[0][1]+b.Vertices[1][1]+b.Vertices[2][1])
	})
	l.replay(c, v)
}

// DrawCorridor fills the polygons of path (each once) with CorridorFill.
func (l *NavmeshLayer) DrawCorridor(c render.Canvas, v View, path []navmesh.Ref) {
	l.recorder.Reset()
	navdraw.Corridor(&l.recorder, l.snapshot, path, l.style(v))
	l.replay(c, v)
}

func (l *NavmeshLayer) replay(c render.Canvas, v View) {
	l.drawer.Canvas, l.drawer.View = c, v
	l.recorder.Replay(&l.drawer)
	l.drawer.Canvas = nil
}

// Walls returns the number of wall edges.
func (l *NavmeshLayer) Walls() int { return len(l.walls) }

// TileBorders returns the number of polygon edges on tile borders.
func (l *NavmeshLayer) TileBorders() int { return len(l.tileBorders) }

// DrawOutline draws the navmesh's walls (the edges of its polygons with no
// neighbour) in col, width pixels wide: the outline of where its agents'
// centres may go, drawn over another type's mesh.
func (l *NavmeshLayer) DrawOutline(c render.Canvas, v View, width float32, col color.RGBA) {
	for _, e := range l.walls {
		c.Line(v.ToScreen(e.a), v.ToScreen(e.b), width, col)
	}
}
