package navmesh

import (
	"github.com/go-gl/mathgl/mgl32"
)

// meshNullIndex marks an unused vertex slot in a poly-mesh polygon
// (RC_MESH_NULL_IDX).
const meshNullIndex uint16 = 0xffff

// polyMeshBorderFlag is set in a poly-mesh neighbour code for an edge
// without an inner neighbour; the low four bits then hold the portal
// direction, or polyMeshWallDirection for a plain wall.
const polyMeshBorderFlag uint16 = 0x8000

// polyMeshWallDirection is the direction nibble of a wall edge.
const polyMeshWallDirection uint16 = 0xf

// BuildParams is the input of BuildTileData (dtNavMeshCreateParams): one
// tile's polygon mesh in cell units, its optional height-detail mesh and
// its off-mesh connections.
type BuildParams struct {
	// Verts are the polygon-mesh vertices, x, y, z in cells relative to
	// BMin [Limit: 1..65534 vertices] [Units: cells]
	Verts [][3]uint16
	// Polys holds 2*VertsPerPoly values per polygon: the vertex indices
	// padded with 0xffff, then one neighbour code per edge (the index of
	// the neighbouring polygon, or 0x8000|direction with direction 0..3 for
	// a portal on the tile border and 0xf for a wall).
	Polys []uint16
	// PolyFlags holds the user flags of each polygon [Size: polygon count]
	PolyFlags []uint16
	// PolyAreas holds the area id of each polygon [Size: polygon count]
	// [Limit: 0..63]
	PolyAreas []uint8
	// VertsPerPoly is the most vertices a polygon has; Polys has a stride
	// of 2*VertsPerPoly [Limit: 3..MaxVertsPerPoly]
	VertsPerPoly int

	// DetailMeshes has, for each polygon, the first vertex, vertex count,
	// first triangle and triangle count of its detail sub-mesh. Leave the
	// three detail slices empty to triangulate the polygons instead.
	DetailMeshes [][4]uint32
	// DetailVerts are the detail-mesh vertices; each sub-mesh starts with
	// its polygon's own vertices [Units: world units]
	DetailVerts []mgl32.Vec3
	// DetailTris are the detail triangles: three vertex indices relative to
	// the sub-mesh's first vertex and the edge flags.
	DetailTris [][4]uint8

	// OffMeshConnections are the off-mesh connections of the level. Only
	// those starting inside this tile are stored in it; the others still
	// reserve links for their end points that land here.
	OffMeshConnections []OffMeshConnectionParams

	// UserID is the caller's id for the tile.
	UserID uint32
	// TileX, TileY and TileLayer place the tile in the mesh's tile grid.
	TileX, TileY, TileLayer int32
	// BMin and BMax bound the tile [Units: world units]
	BMin, BMax mgl32.Vec3

	// WalkableHeight is the agent height [Units: world units]
	WalkableHeight float32
	// WalkableRadius is the agent radius [Units: world units]
	WalkableRadius float32
	// WalkableClimb is the highest ledge an agent can step up or down
	// [Units: world units]
	WalkableClimb float32
	// CellSize is the xz size of a cell [Limit: > 0] [Units: world units]
	CellSize float32
	// CellHeight is the y size of a cell [Limit: > 0] [Units: world units]
	CellHeight float32

	// BuildBVTree asks for a bounding-volume tree over the polygons (not
	// needed for small tiles or layered meshes).
	BuildBVTree bool
}

// OffMeshConnectionParams describes one off-mesh connection given to
// BuildTileData.
type OffMeshConnectionParams struct {
	// Start and End are the end points [Units: world units]
	Start, End mgl32.Vec3
	// Radius is how far from each end point a polygon may lie and still
	// connect [Limit: >= 0] [Units: world units]
	Radius float32
	// Flags are the user flags of the connection's polygon.
	Flags uint16
	// Area is the area id of the connection's polygon [Limit: 0..63]
	Area uint8
	// Bidirectional connections can be taken from End to Start too.
	Bidirectional bool
	// UserID is the caller's id for the connection.
	UserID uint32
}

// BuildTileData builds the runtime data of one navmesh tile from a polygon
// mesh (dtCreateNavMeshData): vertices in world units, polygons with
// portal codes on the tile border, the detail mesh (or a fan triangulation
// of each polygon when none is given), the BV tree and the off-mesh
// connections that start inside the tile. The result matches the C++ tile
// blob byte for byte once written with WriteDNAV.
//
// The result shares no memory with p. Invalid parameters give an error
// wrapping ErrInvalidBuildParams.
func BuildTileData(p *BuildParams) (*TileData, error) {
	shape, err := validateBuildParams(p)
	if err != nil {
		return nil, err
	}

	offMesh := shape.offMesh
	groundPolyCount := shape.polyCount
	totalPolyCount := groundPolyCount + offMesh.storedCount
	totalVertCount := len(p.Verts) + 2*offMesh.storedCount

	data := withPolysClaim(&TileData{
		Verts:              make([]mgl32.Vec3, 0, totalVertCount),
		Polys:              make([]Poly, totalPolyCount),
		DetailMeshes:       make([]PolyDetail, groundPolyCount),
		OffMeshConnections: make([]OffMeshConnection, 0, offMesh.storedCount),
	})

	data.Verts = appendWorldVerts(data.Verts, p)
	for i, c := range p.OffMeshConnections {
		if offMesh.stored(i) {
			data.Verts = append(data.Verts, c.Start, c.End)
		}
	}

	edgeCount, portalCount := storeGroundPolys(data.Polys[:groundPolyCount], p)
	storeOffMeshPolys(data.Polys[groundPolyCount:], p, offMesh, len(p.Verts))

	if len(p.DetailMeshes) > 0 {
		data.DetailVerts, data.DetailTris = storeDetailMeshes(data.DetailMeshes, data.Polys, p, shape.uniqueDetailVertCount)
	} else {
		data.DetailTris = triangulatePolys(data.DetailMeshes, data.Polys[:groundPolyCount], shape.fanTriCount)
	}

	if p.BuildBVTree {
		data.BVTree = buildBVTree(p, groundPolyCount)
	}

	data.OffMeshConnections = appendOffMeshConnections(data.OffMeshConnections, p, offMesh, groundPolyCount)

	data.Header = TileHeader{
		X:               p.TileX,
		Y:               p.TileY,
		Layer:           p.TileLayer,
		UserID:          p.UserID,
		PolyCount:       int32(totalPolyCount),
		VertCount:       int32(totalVertCount),
		MaxLinkCount:    int32(edgeCount + 2*portalCount + 2*offMesh.linkedEndCount),
		DetailMeshCount: int32(groundPolyCount),
		DetailVertCount: int32(len(data.DetailVerts)),
		DetailTriCount:  int32(len(data.DetailTris)),
		BVNodeCount:     int32(len(data.BVTree)),
		OffMeshConCount: int32(len(data.OffMeshConnections)),
		OffMeshBase:     int32(groundPolyCount),
		WalkableHeight:  p.WalkableHeight,
		WalkableRadius:  p.WalkableRadius,
		WalkableClimb:   p.WalkableClimb,
		BMin:            p.BMin,
		BMax:            p.BMax,
		BVQuantFactor:   1 / p.CellSize,
	}
	dropEmptySlices(data)
	return data, nil
}

// appendWorldVerts converts the poly-mesh vertices from cells to world
// units, rounding each operation as the C++ does.
func appendWorldVerts(dst []mgl32.Vec3, p *BuildParams) []mgl32.Vec3 {
	cellSize, cellHeight := p.CellSize, p.CellHeight
	for _, v := range p.Verts {
		dst = append(dst, mgl32.Vec3{
			p.BMin[0] + float32(float32(v[0])*cellSize),
			p.BMin[1] + float32(float32(v[1])*cellHeight),
			p.BMin[2] + float32(float32(v[2])*cellSize),
		})
	}
	return dst
}

// storeGroundPolys fills the ground polygons from the poly mesh and returns
// the number of edges and of border portals (the C++ link budget counts).
func storeGroundPolys(polys []Poly, p *BuildParams) (edgeCount, portalCount int) {
	nvp := p.VertsPerPoly
	for i := range polys {
		src := p.Polys[i*2*nvp : (i+1)*2*nvp]
		poly := &polys[i]
		poly.FirstLink = NullLink
		poly.Flags = p.PolyFlags[i]
		poly.SetArea(p.PolyAreas[i])
		poly.SetType(PolyTypeGround)
		for j := 0; j < nvp; j++ {
			if src[j] == meshNullIndex {
				break
			}
			edgeCount++
			poly.Verts[j] = src[j]
			code := src[nvp+j]
			if code&polyMeshBorderFlag != 0 {
				direction := code & 0xf
				if direction != polyMeshWallDirection {
					portalCount++
				}
				poly.Neighbours[j] = portalNeighbourCode(direction)
			} else {
				poly.Neighbours[j] = code + 1
			}
			poly.VertCount++
		}
	}
	return edgeCount, portalCount
}

// portalNeighbourCode turns a poly-mesh portal direction (0 = -x, 1 = +z,
// 2 = +x, 3 = -z) into the tile neighbour code ExternalLink|side. Walls and
// unknown directions give 0, as in the C++.
func portalNeighbourCode(direction uint16) uint16 {
	switch direction {
	case 0:
		return ExternalLink | 4
	case 1:
		return ExternalLink | 2
	case 2:
		return ExternalLink | 0
	case 3:
		return ExternalLink | 6
	}
	return 0
}

// storeOffMeshPolys fills the two-vertex polygons of the stored off-mesh
// connections; their vertices follow the poly-mesh vertices.
func storeOffMeshPolys(polys []Poly, p *BuildParams, offMesh offMeshClassification, vertBase int) {
	n := 0
	for i, c := range p.OffMeshConnections {
		if !offMesh.stored(i) {
			continue
		}
		poly := &polys[n]
		poly.FirstLink = NullLink
		poly.VertCount = 2
		poly.Verts[0] = uint16(vertBase + 2*n)
		poly.Verts[1] = uint16(vertBase + 2*n + 1)
		poly.Flags = c.Flags
		poly.SetArea(c.Area)
		poly.SetType(PolyTypeOffMeshConnection)
		n++
	}
}

// appendOffMeshConnections appends the records of the stored off-mesh
// connections, whose polygons follow the ground polygons.
func appendOffMeshConnections(dst []OffMeshConnection, p *BuildParams, offMesh offMeshClassification, polyBase int) []OffMeshConnection {
	for i, c := range p.OffMeshConnections {
		if !offMesh.stored(i) {
			continue
		}
		con := OffMeshConnection{
			Start:  c.Start,
			End:    c.End,
			Radius: c.Radius,
			Poly:   uint16(polyBase + len(dst)),
			Side:   offMesh.endClass[i],
			UserID: c.UserID,
		}
		if c.Bidirectional {
			con.Flags = OffMeshBidirectional
		}
		dst = append(dst, con)
	}
	return dst
}

// storeDetailMeshes copies the detail mesh, dropping from each sub-mesh the
// leading vertices that repeat its polygon's vertices.
func storeDetailMeshes(meshes []PolyDetail, polys []Poly, p *BuildParams, uniqueVertCount int) ([]mgl32.Vec3, []DetailTri) {
	verts := make([]mgl32.Vec3, 0, uniqueVertCount)
	for i := range meshes {
		src := p.DetailMeshes[i]
		vertBase := int(src[0])
		vertCount := int(src[1])
		polyVertCount := int(polys[i].VertCount)
		meshes[i] = PolyDetail{
			VertBase:  uint32(len(verts)),
			VertCount: uint8(vertCount - polyVertCount),
			TriBase:   src[2],
			TriCount:  uint8(src[3]),
		}
		verts = append(verts, p.DetailVerts[vertBase+polyVertCount:vertBase+vertCount]...)
	}
	tris := make([]DetailTri, len(p.DetailTris))
	for i, t := range p.DetailTris {
		tris[i] = DetailTri(t)
	}
	return verts, tris
}

// triangulatePolys builds the stand-in detail mesh used when none is given:
// a triangle fan over each polygon's own vertices, with the boundary edges
// flagged.
func triangulatePolys(meshes []PolyDetail, polys []Poly, triCount int) []DetailTri {
	tris := make([]DetailTri, 0, triCount)
	for i := range polys {
		vertCount := int(polys[i].VertCount)
		meshes[i] = PolyDetail{TriBase: uint32(len(tris)), TriCount: uint8(vertCount - 2)}
		for j := 2; j < vertCount; j++ {
			flags := uint8(DetailEdgeBoundary << 2)
			if j == 2 {
				flags |= DetailEdgeBoundary << 0
			}
			if j == vertCount-1 {
				flags |= DetailEdgeBoundary << 4
			}
			tris = append(tris, DetailTri{0, uint8(j - 1), uint8(j), flags})
		}
	}
	return tris
}
