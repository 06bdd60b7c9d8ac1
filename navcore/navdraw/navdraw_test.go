package navdraw_test

import (
	"context"
	"image/color"
	"math"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl32"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/bake"
	"github.com/archenav/archenav/navcore/debugdraw"
	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navdraw"
	"github.com/archenav/archenav/navcore/navmesh"
)

// record draws with draw into a new Recorder.
func record(draw func(d debugdraw.Drawer)) *debugdraw.Recorder {
	r := &debugdraw.Recorder{}
	draw(r)
	return r
}

// groundPolys calls visit for every ground polygon of snap.
func groundPolys(snap *navmesh.Snapshot, visit func(tile *navmesh.Tile, index int)) {
	for i := range snap.MaxTiles() {
		tile := snap.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		for p := range tile.Polys {
			if tile.Polys[p].Type() == navmesh.PolyTypeGround {
				visit(tile, p)
			}
		}
	}
}

// areaXZ returns the area of the polygon through points seen from above.
func areaXZ(points []mgl32.Vec3) float64 {
	sum := 0.0
	for i := range points {
		a, b := points[i], points[(i+1)%len(points)]
		sum += float64(float64(a[0])*float64(b[2])) - float64(float64(b[0])*float64(a[2]))
	}
	return float64(math.Abs(sum) / 2)
}

func lengthXZ(a, b mgl32.Vec3) float64 {
	return math.Hypot(float64(b[0]-a[0]), float64(b[2]-a[2]))
}

func polygonOutline(tile *navmesh.Tile, index int) []mgl32.Vec3 {
	poly := &tile.Polys[index]
	out := make([]mgl32.Vec3, poly.VertCount)
	for j := range out {
		out[j] = tile.Verts[poly.Verts[j]]
	}
	return out
}

func TestPolygonsFillEveryDetailTriangleOnce(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	style := navdraw.DefaultStyle()
	r := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Polygons, style) })

	wantTriangles, wantArea := 0, 0.0
	groundPolys(snap, func(tile *navmesh.Tile, index int) {
		wantTriangles += int(tile.Data.DetailMeshes[index].TriCount)
		wantArea += areaXZ(polygonOutline(tile, index))
	})
	require.Equal(t, wantTriangles, r.Len(), "one triangle per detail triangle, nothing else")
	assert.Equal(t, wantTriangles, r.Count(debugdraw.KindTriangle))
	gotArea := 0.0
	for _, p := range r.Primitives {
		gotArea += areaXZ(p.Vertices[:])
		assert.Equal(t, debugdraw.AreaColor(0, style.PolygonAlpha), p.Color, "the dungeon is all ground")
	}
	assert.InDelta(t, wantArea, gotArea, wantArea*1e-5, "the triangles tile the polygons")
}

// edgeClass returns which edge layer edge j of ground polygon index of tile
// belongs to, from its neighbour code and links alone.
func edgeClass(tile *navmesh.Tile, index, j int) navdraw.Layers {
	neighbour := tile.Polys[index].Neighbours[j]
	switch {
	case neighbour == 0:
		return navdraw.Walls
	case neighbour&navmesh.ExternalLink != 0:
		return navdraw.TileBorders
	case int(neighbour)-1 > index:
		return navdraw.InnerEdges
	}
	return 0 // the other side of an inner edge
}

// checkEdges checks, tile by tile, that the lines of layer lie on the edges
// of that class and cover each exactly: per edge, the lines on it add up to
// its length.
func checkEdges(t *testing.T, snap *navmesh.Snapshot, layer navdraw.Layers, style navdraw.Style, colourOf func(tile *navmesh.Tile, index, j int) color.NRGBA) {
	t.Helper()
	edges, lines := 0, 0
	for i := range snap.MaxTiles() {
		tile := snap.Tile(i)
		if tile == nil || tile.Data == nil {
			continue
		}
		r := record(func(d debugdraw.Drawer) { navdraw.Tile(d, tile, layer, style) })
		require.Equal(t, r.Len(), r.Count(debugdraw.KindLine))
		lines += r.Len()
		used := make([]bool, r.Len())
		for index := range tile.Polys {
			if tile.Polys[index].Type() != navmesh.PolyTypeGround {
				continue
			}
			outline := polygonOutline(tile, index)
			for j := range outline {
				if edgeClass(tile, index, j) != layer {
					continue
				}
				edges++
				a, b := outline[j], outline[(j+1)%len(outline)]
				covered := 0.0
				for k, p := range r.Primitives {
					if used[k] || !onSegment(p.Vertices[0], a, b) || !onSegment(p.Vertices[1], a, b) {
						continue
					}
					used[k] = true
					covered += lengthXZ(p.Vertices[0], p.Vertices[1])
					assert.Equal(t, colourOf(tile, index, j), p.Color)
				}
				assert.InDelta(t, lengthXZ(a, b), covered, 1e-3, "%v edge %d of polygon %d covered once", layer, j, index)
			}
		}
		for k := range used {
			assert.True(t, used[k], "%v line %d lies on an edge of its class", layer, k)
		}
	}
	assert.Positive(t, edges)
	assert.GreaterOrEqual(t, lines, edges, "at least one line per edge")
}

// onSegment reports whether p lies on the segment a-b seen from above, and
// less than two units from it in height: the detail mesh may leave the
// straight edge on stairs, but floors above floors lie farther apart (at
// least an agent's height, 2 in the dungeon).
func onSegment(p, a, b mgl32.Vec3) bool {
	ab := mgl32.Vec2{b[0] - a[0], b[2] - a[2]}
	ap := mgl32.Vec2{p[0] - a[0], p[2] - a[2]}
	length := ab.Len()
	if length == 0 {
		return false
	}
	along := (float32(ap[0]*ab[0]) + float32(ap[1]*ab[1])) / length
	across := (float32(ab[0]*ap[1]) - float32(ab[1]*ap[0])) / length
	if !(math.Abs(float64(across)) < 1e-3 && along > -1e-3 && along < length+1e-3) {
		return false
	}
	height := a[1] + (b[1]-a[1])*along/length
	return math.Abs(float64(p[1]-height)) < 2
}

func TestWallsAndInnerEdgesFollowThePolygonEdges(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	style := navdraw.DefaultStyle()
	checkEdges(t, snap, navdraw.Walls, style, func(*navmesh.Tile, int, int) color.NRGBA { return style.Wall })
	checkEdges(t, snap, navdraw.InnerEdges, style, func(*navmesh.Tile, int, int) color.NRGBA { return style.InnerEdge })
	borders := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.TileBorders, style) })
	assert.Zero(t, borders.Len(), "a solo tile has no tile borders")
}

func TestVerticesAndTileBounds(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	tile := snap.Tile(0)
	style := navdraw.DefaultStyle()
	r := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Vertices, style) })
	require.Equal(t, len(tile.Verts), r.Count(debugdraw.KindPoint))
	for i, p := range r.Primitives {
		assert.Equal(t, tile.Verts[i], p.Vertices[0])
	}
	r = record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.TileBounds, style) })
	require.Equal(t, 12, r.Count(debugdraw.KindLine))
	bmin, bmax, _ := r.Bounds()
	assert.Equal(t, tile.Data.Header.BMin, bmin)
	assert.Equal(t, tile.Data.Header.BMax, bmax)
}

func TestBVTreeBoxesHoldTheirPolygons(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	tile := snap.Tile(0)
	require.NotEmpty(t, tile.Data.BVTree)
	r := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.BVTree, navdraw.DefaultStyle()) })
	leaves := 0
	// The root's escape offset gives the nodes of the tree; the C++ layout
	// has one zero node more.
	require.Less(t, tile.Data.BVTree[0].Index, int32(0))
	nodes := tile.Data.BVTree[:-tile.Data.BVTree[0].Index]
	assert.Len(t, tile.Data.BVTree, len(nodes)+1)
	for _, node := range nodes {
		if node.Index < 0 {
			continue
		}
		box := &debugdraw.Recorder{Primitives: r.Primitives[leaves*12 : leaves*12+12]}
		bmin, bmax, _ := box.Bounds()
		// The tree stores bounds truncated to whole cells: a box may end
		// up to a cell short of its polygon's far side. Its heights are those
		// of the detail mesh, so the polygon's own vertices are checked
		// across only, its extra detail vertices in full.
		cell := 1 / tile.Data.Header.BVQuantFactor
		inside := func(v mgl32.Vec3, axes ...int) {
			for _, k := range axes {
				assert.True(t, v[k] >= bmin[k]-1e-3 && v[k] <= bmax[k]+cell+1e-3, "leaf %d holds %v (axis %d) of polygon %d in %v..%v", leaves, v, k, node.Index, bmin, bmax)
			}
		}
		for _, v := range polygonOutline(tile, int(node.Index)) {
			inside(v, 0, 2)
		}
		detail := tile.Data.DetailMeshes[node.Index]
		for _, v := range tile.Data.DetailVerts[detail.VertBase : detail.VertBase+uint32(detail.VertCount)] {
			inside(v, 0, 1, 2)
		}
		leaves++
	}
	assert.Equal(t, 12*leaves, r.Len(), "one box per leaf")
	assert.Equal(t, int(tile.Data.Header.PolyCount)-int(tile.Data.Header.OffMeshConCount), leaves, "a leaf per ground polygon")
}

func TestMeshDrawsLayerAfterLayer(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	style := navdraw.DefaultStyle()
	all := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.AllLayers, style) })
	var want []debugdraw.Primitive
	for _, name := range navdraw.LayerNames() {
		layer, err := navdraw.ParseLayers(name)
		require.NoError(t, err)
		want = append(want, record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, layer, style) }).Primitives...)
	}
	assert.Equal(t, want, all.Primitives)
	one := record(func(d debugdraw.Drawer) { navdraw.Tile(d, snap.Tile(0), navdraw.AllLayers, style) })
	assert.Equal(t, all.Primitives, one.Primitives, "a one-tile mesh draws as its tile")

	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.Mesh(d, nil, navdraw.AllLayers, style) }).Len())
	assert.Zero(t, record(func(d debugdraw.Drawer) { navdraw.Tile(d, nil, navdraw.AllLayers, style) }).Len())
}

func TestPolygonColours(t *testing.T) {
	snap := testmesh.Dungeon(t).Snapshot()
	style := navdraw.DefaultStyle()
	style.ColorByTile = true
	r := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Polygons, style) })
	for _, p := range r.Primitives {
		require.Equal(t, debugdraw.IndexColor(1, style.PolygonAlpha), p.Color)
	}
	style.AreaColor = func(area uint8) color.NRGBA { return color.NRGBA{1, 2, 3, 4} }
	style.ColorByTile = false
	r = record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Polygons, style) })
	assert.Equal(t, color.NRGBA{1, 2, 3, style.PolygonAlpha}, r.Primitives[0].Color, "AreaColor at PolygonAlpha")
	style.PolygonColor = func(tile *navmesh.Tile, index int) color.NRGBA { return color.NRGBA{uint8(index), 0, 0, 255} }
	r = record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.Polygons, style) })
	last := r.Primitives[r.Len()-1].Color
	assert.Equal(t, color.NRGBA{uint8(117), 0, 0, 255}, last, "the last polygon of 118")
}

func TestParseLayers(t *testing.T) {
	tests := []struct {
		in   string
		want navdraw.Layers
	}{
		{"", 0},
		{"mesh", navdraw.DefaultLayers},
		{"all", navdraw.AllLayers},
		{"polygons, walls", navdraw.Polygons | navdraw.Walls},
		{"mesh,tiles,bvtree", navdraw.DefaultLayers | navdraw.TileBounds | navdraw.BVTree},
	}
	for _, tt := range tests {
		got, err := navdraw.ParseLayers(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	_, err := navdraw.ParseLayers("polygons,wals")
	assert.ErrorContains(t, err, `unknown layer "wals"`)
	assert.Equal(t, "polygons,walls", (navdraw.Polygons | navdraw.Walls).String())
	back, err := navdraw.ParseLayers(navdraw.AllLayers.String())
	require.NoError(t, err)
	assert.Equal(t, navdraw.AllLayers, back)
}

// tiledDungeon bakes the dungeon in tiles of 32 cells with two off-mesh
// connections: one between two points on the mesh, one whose end lies far
// above it (so that end has no link).
var tiledDungeon = sync.OnceValues(func() (*navmesh.Mesh, error) {
	level, err := bake.LoadOBJ("../../testdata/dungeon.obj")
	if err != nil {
		return nil, err
	}
	start := mgl32.Vec3{21.8053551, 25.1112499, -86.806427} // on the mesh (a reference pair's start)
	level.OffMeshConnections = []bake.OffMeshConnection{
		{Start: start, End: start.Add(mgl32.Vec3{-2, 0, 1}), Radius: 0.5, Bidirectional: true, Flags: 1},
		{Start: start, End: start.Add(mgl32.Vec3{0, 40, 0}), Radius: 0.5, Flags: 1},
	}
	result, err := bake.Tiled(context.Background(), level, bake.DefaultSettings(), bake.TiledOptions{TileSize: 32, Workers: 1})
	if err != nil {
		return nil, err
	}
	return result.NavMesh()
})

func TestTileBordersShowLinks(t *testing.T) {
	mesh, err := tiledDungeon()
	require.NoError(t, err)
	style := navdraw.DefaultStyle()
	linked := func(tile *navmesh.Tile, index, j int) bool {
		poly := &tile.Polys[index]
		for k := poly.FirstLink; k != navmesh.NullLink; k = tile.Links[k].Next {
			if int(tile.Links[k].Edge) == j {
				return true
			}
		}
		return false
	}
	colour := func(tile *navmesh.Tile, index, j int) color.NRGBA {
		if linked(tile, index, j) {
			return style.Portal
		}
		return style.OpenBorder
	}
	checkEdges(t, mesh.Snapshot(), navdraw.TileBorders, style, colour)

	// Without one tile, its neighbours' borders facing it are open.
	before := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, mesh.Snapshot(), navdraw.TileBorders, style) })
	var removed *navmesh.TileData
	for i := range mesh.MaxTiles() {
		if tile := mesh.Tile(i); removed == nil && tile != nil && tile.Data != nil && linkedBorders(tile) > 0 {
			removed, err = mesh.RemoveTile(tile.Ref())
			require.NoError(t, err)
		}
	}
	require.NotNil(t, removed)
	checkEdges(t, mesh.Snapshot(), navdraw.TileBorders, style, colour)
	after := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, mesh.Snapshot(), navdraw.TileBorders, style) })
	open := func(r *debugdraw.Recorder) int {
		n := 0
		for _, p := range r.Primitives {
			if p.Color == style.OpenBorder {
				n++
			}
		}
		return n
	}
	assert.Greater(t, open(after), open(before), "borders towards the missing tile are open")
	_, err = mesh.AddTile(removed, 0)
	require.NoError(t, err)
}

// linkedBorders counts the tile border edges of tile with a link.
func linkedBorders(tile *navmesh.Tile) int {
	n := 0
	for i := range tile.Links {
		if tile.Links[i].Side != 0xff && tile.Links[i].Ref != 0 {
			n++
		}
	}
	return n
}

func TestOffMeshConnectionsMarkUnlinkedEnds(t *testing.T) {
	mesh, err := tiledDungeon()
	require.NoError(t, err)
	snap := mesh.Snapshot()
	style := navdraw.DefaultStyle()
	connections := 0
	for i := range snap.MaxTiles() {
		if tile := snap.Tile(i); tile != nil {
			connections += len(tile.Data.OffMeshConnections)
		}
	}
	require.Equal(t, 2, connections)
	r := record(func(d debugdraw.Drawer) { navdraw.Mesh(d, snap, navdraw.OffMeshConnections, style) })
	// Per connection: 2 snap lines, 2 rings, 2 ticks, the arc and its heads.
	perConnection := 2 + 2*debugdraw.CircleSegments + 2 + debugdraw.ArcSegments
	heads := 2 * 3 // the bidirectional one has two heads, the other one
	assert.Equal(t, 2*perConnection+heads, r.Count(debugdraw.KindLine))
	unlinked := 0
	for _, p := range r.Primitives {
		if p.Color == style.OffMeshUnlinked {
			unlinked++
			assert.InDelta(t, 25.1112499+40+0.1, p.Vertices[0][1], 1e-3, "the ring of the end in the air")
		}
	}
	assert.Equal(t, debugdraw.CircleSegments, unlinked, "one unlinked end: one red ring")
}
