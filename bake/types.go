package bake

import (
	"github.com/go-gl/mathgl/mgl32"
)

// Area ids with a meaning to the pipeline. Any other value 1..62 is a user
// area that the pipeline carries through unchanged.
const (
	// NullArea marks spans and triangles that are not walkable.
	NullArea uint8 = 0
	// WalkableArea is the default area of walkable spans (RC_WALKABLE_AREA).
	WalkableArea uint8 = 63
)

// SpanHeightBits is the number of bits of a span's height limits; heights
// are clamped to MaxSpanHeight.
const SpanHeightBits = 13

// MaxSpanHeight is the largest span height in cells (RC_SPAN_MAX_HEIGHT).
// Geometry more than MaxSpanHeight cells above the bottom of the level (of
// the tile, in a tiled bake) is flattened onto that height, as Recast does:
// with the default CellHeight of 0.2 that is 1638.2 world units. The limit
// is kept, so that bakes stay byte-identical to Recast's and the spans fit
// the layouts of its formats; instead the bake warns (BuildStats.Warnings,
// navtool's `warnings`, see Heightfield.ClampWarning) with the CellHeight
// that would bake the whole height range.
const MaxSpanHeight = 1<<SpanHeightBits - 1

// NotConnected marks a missing neighbour in a compact span's connections
// (RC_NOT_CONNECTED, there 0x3f: Recast stores a neighbour's index in its
// column in 6 bits, so a span more than 62 spans up its column cannot be
// linked, and a column of stacked floors loses all but the lowest 63).
// Here the index has 12 bits, so a column may hold 4095 spans, more than
// the span height limit leaves room for (MaxSpanHeight / 2).
const NotConnected = 0xfff

// BorderRegion is set in region ids of spans inside the tile border
// (RC_BORDER_REG).
const BorderRegion uint16 = 0x8000

// Contour vertex flags stored in the fourth value of a contour vertex.
const (
	// BorderVertex marks a vertex on the tile border (RC_BORDER_VERTEX).
	BorderVertex = 0x10000
	// AreaBorder marks a vertex on a border between areas (RC_AREA_BORDER).
	AreaBorder = 0x20000
	// ContourRegionMask extracts the neighbour region id (RC_CONTOUR_REG_MASK).
	ContourRegionMask = 0xffff
)

// MeshNullIndex marks an unused vertex or neighbour slot in a PolyMesh
// (RC_MESH_NULL_IDX).
const MeshNullIndex uint16 = 0xffff

// Span is one solid interval of a heightfield column (rcSpan). Spans are
// stored in the Heightfield's pool and chained by index.
type Span struct {
	// Min is the bottom of the span, inclusive [Limit: < Max] [Units: cells]
	Min uint16
	// Max is the top of the span, exclusive [Limit: <= MaxSpanHeight] [Units: cells]
	Max uint16
	// Area is the area id of the span's top surface.
	Area uint8
	// Next is the pool index of the next span up the column, -1 for none.
	Next int32
}

// Heightfield is the voxel field that triangles are rasterized into
// (rcHeightfield): for each cell of a Width × Height grid, a column of solid
// spans sorted bottom to top.
type Heightfield struct {
	// Width and Height are the grid size along x and z [Units: cells]
	Width, Height int
	// BMin and BMax bound the field [Units: world units]
	BMin, BMax mgl32.Vec3
	// CellSize is the xz size of a cell [Limit: > 0] [Units: world units]
	CellSize float32
	// CellHeight is the y size of a cell [Limit: > 0] [Units: world units]
	CellHeight float32
	// Columns holds, per cell x + z*Width, the pool index of the lowest span,
	// -1 for an empty column.
	Columns []int32
	// Pool holds every span; free ones are chained from FreeList.
	Pool []Span
	// FreeList is the pool index of the first free span, -1 for none.
	FreeList int32
	// hints is RasterizeTriangles' scratch: each column's last insertion
	// point.
	hints []int32
	// maxWalk, when positive, stops RasterizeTriangles with ErrWorkLimit
	// once its span insertions have walked past more spans than this: a
	// bake sets it to Settings.MaxWork.
	maxWalk int64
	// ClampedSpans counts the spans the rasterizer cut at MaxSpanHeight
	// since the last Reset: parts of triangles more than MaxSpanHeight
	// cells above BMin[1], which Recast too flattens onto that height. A
	// bake warns about them (see ClampWarning).
	ClampedSpans int
}

// CompactCell locates a column's spans in CompactHeightfield.Spans.
type CompactCell struct {
	// Index of the first span of the column.
	Index uint32
	// Count of spans in the column.
	Count uint32
}

// CompactSpan is the open space above a solid span (rcCompactSpan), 12
// bytes where the C++ one has 8, for neighbour links of 12 bits instead of
// 6 (see NotConnected): read and write its links with Connection and
// SetConnection, its height with Height and SetHeight.
type CompactSpan struct {
	// Y is the floor of the open space [Units: cells]
	Y uint16
	// Region is the region id, 0 for none.
	Region uint16
	// links holds, per direction (0..3: -x, +z, +x, -z), the index of the
	// connected span within the neighbour column, or NotConnected, in its
	// low 12 bits; the high 4 bits of links[0] and links[1] hold the low
	// and the high half of the open space's height.
	links [4]uint16
}

// CompactHeightfield is the walkable open space of a Heightfield with
// neighbour connections (rcCompactHeightfield).
type CompactHeightfield struct {
	Width, Height int
	// WalkableHeight, WalkableClimb and BorderSize are the settings the field
	// was built with [Units: cells]
	WalkableHeight, WalkableClimb, BorderSize int
	// MaxDistance is the largest distance of the field before its blur; no
	// value of Dist exceeds it.
	MaxDistance uint16
	// MaxRegions bounds the region ids after partitioning: every region id
	// but BorderRegion ones is below it. Like the C++ it counts the id the
	// partition would have handed out next (and, with a border, the four
	// border ids), so n regions usually give n+1.
	MaxRegions uint16
	BMin, BMax mgl32.Vec3
	CellSize   float32
	CellHeight float32
	// Cells has Width*Height entries.
	Cells []CompactCell
	// Spans has one entry per open span.
	Spans []CompactSpan
	// Dist is the distance field, one value per span, nil before it is built.
	Dist []uint16
	// Areas holds the area id of each span.
	Areas []uint8
	// Warnings collects problems a stage noticed but built through, as the
	// C++ logs them (e.g. overlapping regions); stages append to it.
	Warnings []string
	// unlinkedLayer is BuildCompactHeightfield's highest neighbour index too
	// high up its column to be linked, 0 for none (CompactStats.UnlinkedLayer).
	unlinkedLayer int
}

// Contour is the simplified outline of one region (rcContour). Each vertex is
// x, y, z in cells and a fourth value holding the neighbour region id in its
// low 16 bits plus the BorderVertex and AreaBorder flags.
type Contour struct {
	Verts    [][4]int32
	RawVerts [][4]int32
	Region   uint16
	Area     uint8
}

// ContourSet holds the contours of a CompactHeightfield (rcContourSet).
type ContourSet struct {
	Contours   []Contour
	BMin, BMax mgl32.Vec3
	CellSize   float32
	CellHeight float32
	Width      int
	Height     int
	BorderSize int
	MaxError   float32
	// Warnings collects problems BuildContours noticed but built through
	// (e.g. a hole it could not merge into its region's outline).
	Warnings []string
}

// PolyMesh is the convex polygon mesh built from a ContourSet (rcPolyMesh).
type PolyMesh struct {
	// Verts are x, y, z in cells relative to BMin.
	Verts [][3]uint16
	// Polys holds 2*MaxVertsPerPoly values per polygon: the vertex indices,
	// MeshNullIndex-padded, then one neighbour code per edge (the polygon
	// index of the neighbour, MeshNullIndex for a wall, or 0x8000|side for
	// an edge on the tile border).
	Polys []uint16
	// Regions, Flags and Areas have one value per polygon.
	Regions []uint16
	Flags   []uint16
	Areas   []uint8
	// PolyCount is the number of polygons.
	PolyCount int
	// MaxVertsPerPoly is the stride of Polys divided by 2 [Limit: 3..6]
	MaxVertsPerPoly int
	// BMin and BMax bound the mesh; vertices are relative to BMin
	// [Units: world units]
	BMin, BMax mgl32.Vec3
	// CellSize and CellHeight are the cell size the mesh was built with
	// [Units: world units]
	CellSize   float32
	CellHeight float32
	// BorderSize is the tile border of the heightfield the mesh came from,
	// 0 for a solo mesh [Units: cells]
	BorderSize int
	// MaxEdgeError is the contour simplification error the mesh was built
	// with; the detail mesh searches heights this far [Units: cells]
	MaxEdgeError float32
}

// PolyMeshDetail holds a height-detail triangle mesh for each polygon of a
// PolyMesh (rcPolyMeshDetail).
type PolyMeshDetail struct {
	// Meshes has per polygon: first vertex, vertex count, first triangle,
	// triangle count.
	Meshes [][4]uint32
	// Verts are world-unit positions.
	Verts []mgl32.Vec3
	// Tris are three vertex indices relative to the sub-mesh's first vertex
	// plus edge flags.
	Tris [][4]uint8
}
