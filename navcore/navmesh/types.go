package navmesh

import (
	"sync/atomic"

	"github.com/go-gl/mathgl/mgl32"
)

// MaxVertsPerPoly is the largest number of vertices a navmesh polygon can have
// (DT_VERTS_PER_POLYGON).
const MaxVertsPerPoly = 6

// MaxAreas is the number of distinct area ids (0..63).
const MaxAreas = 64

// NullLink marks the end of a polygon's link list and an unused link.
const NullLink uint32 = 0xffffffff

// ExternalLink is set in a polygon neighbour code when the edge lies on the
// tile border; the low bits then hold the border side (0..7) the edge faces.
const ExternalLink uint16 = 0x8000

// OffMeshBidirectional is the off-mesh connection flag for links usable both
// ways.
const OffMeshBidirectional uint8 = 1

// DetailEdgeBoundary is set in a detail triangle's edge flags for an edge on
// the polygon's boundary.
const DetailEdgeBoundary = 0x01

// PolyType tells ground polygons from off-mesh connection polygons.
type PolyType uint8

// Polygon types.
const (
	// PolyTypeGround is an ordinary walkable polygon.
	PolyTypeGround PolyType = 0
	// PolyTypeOffMeshConnection is a two-vertex polygon standing for an
	// off-mesh connection (a jump, a ladder, a door...).
	PolyTypeOffMeshConnection PolyType = 1
)

// Params describe the tile grid of a Mesh (dtNavMeshParams).
type Params struct {
	// Origin of tile (0, 0) [Units: world units]
	Origin mgl32.Vec3
	// TileWidth is the size of a tile along x [Limit: > 0] [Units: world units]
	TileWidth float32
	// TileHeight is the size of a tile along z [Limit: > 0] [Units: world units]
	TileHeight float32
	// MaxTiles is how many tiles the mesh can hold at once [Limit: 1..2^28]
	MaxTiles int
	// MaxPolys is the most polygons one tile may have [Limit: 1..2^20]
	MaxPolys int
}

// Poly is one convex polygon of a tile (dtPoly). Its vertices index the
// tile's Verts, in the winding the Recast pipeline produces.
type Poly struct {
	// FirstLink indexes the tile's Links: the head of this polygon's link
	// list, NullLink when it has none. It is runtime state: in a TileData
	// it means nothing (a Mesh may have used the data's polygons for its
	// tile and written it, see TileData), and files, fingerprints and
	// saved states ignore it there.
	FirstLink uint32
	// Verts are indices into the tile's vertices; only the first VertCount
	// are used.
	Verts [MaxVertsPerPoly]uint16
	// Neighbours holds one code per edge: 0 for a wall, 1+index of the
	// neighbouring polygon inside the tile, or ExternalLink|side for an edge
	// on the tile border.
	Neighbours [MaxVertsPerPoly]uint16
	// Flags are user flags that filters include or exclude.
	Flags uint16
	// VertCount is the number of vertices used [Limit: 2..MaxVertsPerPoly]
	VertCount uint8
	// AreaAndType packs the area id (low 6 bits) and the PolyType (high 2).
	AreaAndType uint8
}

// Area returns the polygon's area id (0..63).
func (p *Poly) Area() uint8 { return p.AreaAndType & 0x3f }

// Type returns whether the polygon is ground or an off-mesh connection.
func (p *Poly) Type() PolyType { return PolyType(p.AreaAndType >> 6) }

// SetArea sets the area id, keeping the type [Limit: 0..63].
func (p *Poly) SetArea(area uint8) { p.AreaAndType = p.AreaAndType&0xc0 | area&0x3f }

// SetType sets the polygon type, keeping the area.
func (p *Poly) SetType(t PolyType) { p.AreaAndType = p.AreaAndType&0x3f | uint8(t)<<6 }

// PolyDetail locates one polygon's sub-mesh in the tile's detail arrays
// (dtPolyDetail).
type PolyDetail struct {
	// VertBase is the index of the sub-mesh's first extra vertex in DetailVerts.
	VertBase uint32
	// TriBase is the index of its first triangle in DetailTris.
	TriBase uint32
	// VertCount is the number of extra vertices (beyond the polygon's own).
	VertCount uint8
	// TriCount is the number of triangles.
	TriCount uint8
}

// DetailTri is one detail triangle: three vertex indices and edge flags.
// An index below the polygon's VertCount names a polygon vertex; the others
// name DetailVerts[VertBase+index-VertCount]. Flags hold two bits per edge
// (see DetailEdgeBoundary).
type DetailTri [4]uint8

// EdgeFlags returns the two flag bits of edge (0..2) of a detail
// triangle.
func (t DetailTri) EdgeFlags(edge int) uint8 { return (t[3] >> (edge * 2)) & 0x3 }

// Link connects a polygon edge to a neighbouring polygon (dtLink).
type Link struct {
	// Ref is the neighbour polygon.
	Ref Ref
	// Next indexes the next link of the same polygon, or NullLink.
	Next uint32
	// Edge is the index of the polygon edge that owns the link.
	Edge uint8
	// Side is the tile side crossed by a border link (0..7), 0xff inside the
	// tile.
	Side uint8
	// BMin and BMax give the part of the edge the link covers, in 1/255ths,
	// for links across tile borders; both 0 for links inside a tile and for
	// off-mesh links.
	BMin, BMax uint8
}

// BVNode is a node of a tile's bounding-volume tree over quantised polygon
// bounds (dtBVNode).
type BVNode struct {
	// BMin and BMax are the node bounds in quantised tile-local units.
	BMin, BMax [3]uint16
	// Index is the polygon index for a leaf, or minus the escape offset (the
	// number of nodes to skip) for an interior node.
	Index int32
}

// OffMeshConnection is a link between two points that is not walked on the
// surface, such as a jump or a ladder (dtOffMeshConnection).
type OffMeshConnection struct {
	// Start and End are the endpoints [Units: world units]
	Start, End mgl32.Vec3
	// Radius is the snap radius at each end [Limit: >= 0] [Units: world units]
	Radius float32
	// Poly is the index of the connection's polygon within the tile.
	Poly uint16
	// Flags holds OffMeshBidirectional when it can be taken both ways.
	Flags uint8
	// Side is the tile side the end point lies beyond (0..7), or 0xff when it
	// lies inside the tile.
	Side uint8
	// UserID is the caller's id for the connection.
	UserID uint32
}

// TileHeader describes a tile's contents (dtMeshHeader without the magic
// and version, which belong to the file formats).
type TileHeader struct {
	// X, Y and Layer place the tile in the mesh's tile grid.
	X, Y, Layer int32
	// UserID is the caller's id for the tile.
	UserID uint32
	// PolyCount is the number of polygons, off-mesh connections included
	// [Limit: <= the mesh's MaxPolys].
	PolyCount int32
	// VertCount is the number of polygon vertices.
	VertCount int32
	// MaxLinkCount is the number of links the tile has room for.
	MaxLinkCount int32
	// DetailMeshCount is the number of detail sub-meshes, one per ground
	// polygon.
	DetailMeshCount int32
	// DetailVertCount is the number of extra detail vertices.
	DetailVertCount int32
	// DetailTriCount is the number of detail triangles.
	DetailTriCount int32
	// BVNodeCount is the number of BV tree nodes, 0 without a tree.
	BVNodeCount int32
	// OffMeshConCount is the number of off-mesh connections.
	OffMeshConCount int32
	// OffMeshBase is the index of the first off-mesh connection polygon.
	OffMeshBase int32
	// WalkableHeight, WalkableRadius and WalkableClimb are the agent
	// settings the tile was baked for [Units: world units]
	WalkableHeight, WalkableRadius, WalkableClimb float32
	// BMin and BMax bound the tile [Units: world units]
	BMin, BMax mgl32.Vec3
	// BVQuantFactor converts world units to BV tree units (1 / cell size).
	BVQuantFactor float32
}

// TileData is the immutable content of one tile as built by BuildTileData or
// read from a file: what a C++ tile blob holds, minus its links.
//
// A Mesh modifies nothing of a TileData given to it but its polygons'
// FirstLink, which is runtime state (files, fingerprints and saved states
// ignore it): the first Mesh to add a TileData made by BuildTileData or a
// reader (ReadDNAV, ReadMSET, Load...) uses its Polys as the tile's
// polygon array, as the C++ uses the tile blob, instead of a copy, and
// links them there. Any other addition of the same data (to a second
// mesh, again after RemoveTile, or of a copy of the struct sharing its
// arrays) and a TileData made by hand get a copy. Later changes of the
// tile (links to new neighbours, SetPolyFlags, SetPolyArea) go to copies,
// so Flags and areas in Polys stay as given.
type TileData struct {
	// Header places the tile and gives the lengths of the slices below.
	Header TileHeader
	// claim is the polygon claim of data whose Polys were made with it
	// (withPolysClaim), read and written atomically through polysClaim.
	// It sits in the padding after Header, so it costs no allocation
	// and no byte of its own.
	claim uint32
	// Verts are the polygon vertices [Units: world units]
	Verts []mgl32.Vec3
	// Polys are the polygons: the ground polygons, then one two-vertex
	// polygon per off-mesh connection, from Header.OffMeshBase on.
	Polys []Poly
	// DetailMeshes locate each ground polygon's detail sub-mesh.
	DetailMeshes []PolyDetail
	// DetailVerts are the extra vertices of the detail sub-meshes
	// [Units: world units]
	DetailVerts []mgl32.Vec3
	// DetailTris are the triangles of the detail sub-meshes.
	DetailTris []DetailTri
	// BVTree is the bounding-volume tree over the ground polygons, empty when
	// the tile was built without one.
	BVTree []BVNode
	// OffMeshConnections are the off-mesh connections starting in the tile.
	OffMeshConnections []OffMeshConnection

	// polysClaim is taken by the first tile that uses Polys in place. It
	// points at the claim field of the TileData made with Polys and is
	// shared by every copy of the struct (a copy keeps that TileData
	// alive), so that of all the TileData values sharing one polygon array
	// at most one tile ever writes into it; nil (a TileData made by hand)
	// never lets a tile use Polys in place.
	polysClaim *uint32
	// link describes the runtime link whose tile this data makes
	// (linkTileData), nil for a tile of the grid. It lives here rather
	// than in Tile, where it would take a size class more per version:
	// TileData's own size class (288 bytes) has the room.
	link *linkInfo
}

// withPolysClaim makes data's Polys claimable in place: for constructors
// whose Polys are freshly allocated and shared with no other TileData.
// Once taken, a claim is never given back while the tile may be read:
// only an edit that is abandoned before publishing releases it.
func withPolysClaim(data *TileData) *TileData {
	data.claim = 0
	data.polysClaim = &data.claim
	return data
}

// claimPolys takes data's polygon array for a tile to use in place and
// reports whether it got it.
func (d *TileData) claimPolys() bool {
	return d.polysClaim != nil && atomic.CompareAndSwapUint32(d.polysClaim, 0, 1)
}

// releasePolys gives back a claim taken by claimPolys, for a tile that was
// never published.
func (d *TileData) releasePolys() { atomic.StoreUint32(d.polysClaim, 0) }

// WithOwnPolys returns a shallow copy of d with a polygon array of its own
// (FirstLink reset) and a fresh claim on it, so that the first Mesh it is
// added to links its polygons in place even where d's polygons are already
// linked in place by another mesh (which would make that Mesh copy them).
// The other arrays stay shared with d: no Mesh modifies them. It costs
// one polygon array (32 bytes a polygon); nil gives nil.
func (d *TileData) WithOwnPolys() *TileData {
	if d == nil {
		return nil
	}
	own := *d
	own.Polys = clonePolys(d.Polys)
	return withPolysClaim(&own)
}

// clonePolys returns a copy of polys without their FirstLink (NullLink in
// the copy): the one field a tile using them in place may be writing, so
// that copying never reads it.
func clonePolys(polys []Poly) []Poly {
	if polys == nil {
		return nil
	}
	out := make([]Poly, len(polys))
	for i := range polys {
		src, dst := &polys[i], &out[i]
		dst.FirstLink = NullLink
		dst.Verts = src.Verts
		dst.Neighbours = src.Neighbours
		dst.Flags = src.Flags
		dst.VertCount = src.VertCount
		dst.AreaAndType = src.AreaAndType
	}
	return out
}
