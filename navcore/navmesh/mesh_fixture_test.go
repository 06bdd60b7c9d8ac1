package navmesh

import (
	"math"
	"slices"

	"github.com/go-gl/mathgl/mgl32"
)

// Hand-built tiles for the tests. Polygons are given as vertex loops in the
// Recast winding (clockwise seen from +y with x right and z down the page,
// i.e. a negative shoelace sum over x,z). Neighbour codes are derived: a
// shared edge links the two polygons, an edge on the tile bounds becomes
// ExternalLink|side, any other edge is a wall. Each polygon gets the trivial
// detail fan dtCreateNavMeshData makes when no detail mesh is given.

const (
	testTileSize = float32(10)
	testClimb    = float32(0.9)
	testCellSize = float32(0.5)
)

// offMeshSpec is an off-mesh connection to add to a fixture tile.
type offMeshSpec struct {
	start, end mgl32.Vec3
	radius     float32
	bidir      bool
	side       uint8
	userID     uint32
}

type tileSpec struct {
	x, y, layer int32
	polys       [][]mgl32.Vec3
	offMesh     []offMeshSpec
	bvTree      bool
	climb       float32 // 0: testClimb
}

// rect returns the loop of the axis-aligned rectangle [x0,x1]×[z0,z1] at
// height y in the Recast winding.
func rect(x0, z0, x1, z1, y float32) []mgl32.Vec3 {
	return []mgl32.Vec3{{x0, y, z0}, {x0, y, z1}, {x1, y, z1}, {x1, y, z0}}
}

func buildTile(spec tileSpec) *TileData {
	climb := spec.climb
	if climb == 0 {
		climb = testClimb
	}
	bmin := mgl32.Vec3{float32(spec.x) * testTileSize, float32(math.Inf(1)), float32(spec.y) * testTileSize}
	bmax := mgl32.Vec3{bmin[0] + testTileSize, float32(math.Inf(-1)), bmin[2] + testTileSize}

	data := &TileData{}
	vertIndex := func(v mgl32.Vec3) uint16 {
		if i := slices.Index(data.Verts, v); i >= 0 {
			return uint16(i)
		}
		data.Verts = append(data.Verts, v)
		return uint16(len(data.Verts) - 1)
	}
	for _, loop := range spec.polys {
		p := Poly{VertCount: uint8(len(loop)), Flags: 1}
		for j, v := range loop {
			p.Verts[j] = vertIndex(v)
			bmin[1] = min(bmin[1], v[1])
			bmax[1] = max(bmax[1], v[1])
		}
		data.Polys = append(data.Polys, p)
	}
	// Neighbour codes.
	for i := range data.Polys {
		p := &data.Polys[i]
		nv := int(p.VertCount)
		for j := range nv {
			a, b := p.Verts[j], p.Verts[(j+1)%nv]
			p.Neighbours[j] = borderCode(data.Verts[a], data.Verts[b], bmin, bmax)
			for k := range data.Polys {
				q := &data.Polys[k]
				for m := range int(q.VertCount) {
					if k != i && q.Verts[m] == b && q.Verts[(m+1)%int(q.VertCount)] == a {
						p.Neighbours[j] = uint16(k + 1)
					}
				}
			}
		}
	}
	// Trivial detail fans, as dtCreateNavMeshData makes them.
	for i := range data.Polys {
		nv := int(data.Polys[i].VertCount)
		data.DetailMeshes = append(data.DetailMeshes, PolyDetail{
			TriBase: uint32(len(data.DetailTris)), TriCount: uint8(nv - 2),
		})
		for j := 2; j < nv; j++ {
			flags := uint8(1 << 2)
			if j == 2 {
				flags |= 1 << 0
			}
			if j == nv-1 {
				flags |= 1 << 4
			}
			data.DetailTris = append(data.DetailTris, DetailTri{0, uint8(j - 1), uint8(j), flags})
		}
	}
	groundPolys := len(data.Polys)
	edgeCount, portalCount := 0, 0
	for _, p := range data.Polys {
		for j := range int(p.VertCount) {
			edgeCount++
			if p.Neighbours[j]&ExternalLink != 0 {
				portalCount++
			}
		}
	}
	offMeshLinks := 0
	for i, om := range spec.offMesh {
		p := Poly{VertCount: 2, Flags: 1}
		p.SetType(PolyTypeOffMeshConnection)
		p.Verts[0] = uint16(len(data.Verts))
		p.Verts[1] = uint16(len(data.Verts) + 1)
		data.Verts = append(data.Verts, om.start, om.end)
		data.Polys = append(data.Polys, p)
		con := OffMeshConnection{
			Start: om.start, End: om.end, Radius: om.radius,
			Poly: uint16(groundPolys + i), Side: om.side, UserID: om.userID,
		}
		if om.bidir {
			con.Flags = OffMeshBidirectional
		}
		data.OffMeshConnections = append(data.OffMeshConnections, con)
		offMeshLinks += 2
	}
	data.Header = TileHeader{
		X: spec.x, Y: spec.y, Layer: spec.layer,
		PolyCount:       int32(len(data.Polys)),
		VertCount:       int32(len(data.Verts)),
		MaxLinkCount:    int32(edgeCount + portalCount*2 + offMeshLinks*2),
		DetailMeshCount: int32(len(data.DetailMeshes)),
		DetailTriCount:  int32(len(data.DetailTris)),
		OffMeshConCount: int32(len(data.OffMeshConnections)),
		OffMeshBase:     int32(groundPolys),
		WalkableHeight:  2, WalkableRadius: 0.6, WalkableClimb: climb,
		BMin: bmin, BMax: bmax,
		BVQuantFactor: 1 / testCellSize,
	}
	if spec.bvTree {
		data.BVTree = flatBVTree(data, groundPolys)
		data.Header.BVNodeCount = int32(len(data.BVTree))
	}
	return data
}

// borderCode returns ExternalLink|side for an edge lying on the tile bounds,
// 0 otherwise.
func borderCode(a, b, bmin, bmax mgl32.Vec3) uint16 {
	switch {
	case a[0] == bmax[0] && b[0] == bmax[0]:
		return ExternalLink | 0
	case a[2] == bmax[2] && b[2] == bmax[2]:
		return ExternalLink | 2
	case a[0] == bmin[0] && b[0] == bmin[0]:
		return ExternalLink | 4
	case a[2] == bmin[2] && b[2] == bmin[2]:
		return ExternalLink | 6
	}
	return 0
}

// flatBVTree makes a valid two-level BV tree: a root over everything whose
// escape index skips the whole tree, then one leaf per ground polygon.
func flatBVTree(data *TileData, groundPolys int) []BVNode {
	h := &data.Header
	quant := func(v, origin float32, up bool) uint16 {
		f := (v - origin) * h.BVQuantFactor
		if up {
			f = float32(math.Ceil(float64(f)))
		}
		return uint16(max(0, min(int(f), 0xffff)))
	}
	root := BVNode{BMin: [3]uint16{0xffff, 0xffff, 0xffff}, Index: -int32(groundPolys + 1)}
	nodes := []BVNode{root}
	for i := range groundPolys {
		p := &data.Polys[i]
		var node BVNode
		node.BMin = [3]uint16{0xffff, 0xffff, 0xffff}
		node.Index = int32(i)
		for _, vi := range p.Verts[:p.VertCount] {
			v := data.Verts[vi]
			for k := range 3 {
				node.BMin[k] = min(node.BMin[k], quant(v[k], h.BMin[k], false))
				node.BMax[k] = max(node.BMax[k], quant(v[k], h.BMin[k], true))
			}
		}
		for k := range 3 {
			nodes[0].BMin[k] = min(nodes[0].BMin[k], node.BMin[k])
			nodes[0].BMax[k] = max(nodes[0].BMax[k], node.BMax[k])
		}
		nodes = append(nodes, node)
	}
	return nodes
}

// cloneTileData deep-copies data so a test can corrupt the copy.
func cloneTileData(data *TileData) *TileData {
	c := *data
	c.Verts = slices.Clone(data.Verts)
	c.Polys = slices.Clone(data.Polys)
	c.DetailMeshes = slices.Clone(data.DetailMeshes)
	c.DetailVerts = slices.Clone(data.DetailVerts)
	c.DetailTris = slices.Clone(data.DetailTris)
	c.BVTree = slices.Clone(data.BVTree)
	c.OffMeshConnections = slices.Clone(data.OffMeshConnections)
	return &c
}

func testParams(maxTiles int) Params {
	return Params{TileWidth: testTileSize, TileHeight: testTileSize, MaxTiles: maxTiles, MaxPolys: 64}
}

// linksOf returns the links of polygon ip of t in list order.
func linksOf(t *Tile, ip int) []Link {
	var out []Link
	for l := t.Polys[ip].FirstLink; l != NullLink; l = t.Links[l].Next {
		out = append(out, t.Links[l])
	}
	return out
}

// totalLinks counts the links in use in t.
func totalLinks(t *Tile) int {
	n := 0
	for i := range t.Polys {
		n += len(linksOf(t, i))
	}
	return n
}

// Two adjacent tiles: A at (0,0) split at z=5, B at (1,0) split at z=3, so
// the portals across x=10 cover different parts of each edge.
func tileA() tileSpec {
	return tileSpec{x: 0, y: 0, polys: [][]mgl32.Vec3{rect(0, 0, 10, 5, 0), rect(0, 5, 10, 10, 0)}}
}

func tileB() tileSpec {
	return tileSpec{x: 1, y: 0, polys: [][]mgl32.Vec3{rect(10, 0, 20, 3, 0), rect(10, 3, 20, 10, 0)}}
}
