package bake

import (
	"math"

	"github.com/archenav/archenav/navcore/geom"
	"github.com/go-gl/mathgl/mgl32"
)

// trianglesPerChunk is the most triangles a leaf of the chunky mesh holds,
// as in RecastDemo.
const trianglesPerChunk = 256

// chunkyMesh is a k-d tree over the triangles of a Geometry in the xz-plane
// (RecastDemo's PartitionedMesh, formerly rcChunkyTriMesh). Each leaf, a
// chunk, holds up to trianglesPerChunk triangles. A tile is built from the
// triangles of every chunk whose box overlaps it, chunk by chunk in tree
// order: that order is the rasterization order, so the tree is built exactly
// as the C++ builds it, down to its sort.
type chunkyMesh struct {
	// nodes in depth-first order. A leaf's triangles are
	// triangles[first : first+count]; an inner node's escape is the number
	// of nodes of its subtree, itself included, so that skipping it goes to
	// index + escape.
	nodes []chunkyNode
	// triangles are the indices of the Geometry's triangles, leaf by leaf.
	triangles []int32
	// maxChunkTriangles is the largest triangle count of a leaf.
	maxChunkTriangles int
}

// chunkyNode is one node of a chunkyMesh: the xz box of its triangles and
// either its triangle range (a leaf) or its subtree size (an inner node).
type chunkyNode struct {
	// minX, minZ, maxX and maxZ bound the triangles of the subtree
	// [Units: world units]
	minX, minZ, maxX, maxZ float32
	// leaf tells a leaf from an inner node.
	leaf bool
	// first is, for a leaf, the index in chunkyMesh.triangles of its first
	// triangle.
	first int32
	// count is, for a leaf, its number of triangles; for an inner node, the
	// number of nodes in its subtree (itself included).
	count int32
}

// triangleBounds is the xz box of one triangle of the input, with its index.
type triangleBounds struct {
	minX, minZ, maxX, maxZ float32
	index                  int32
}

// newChunkyMesh builds the chunk tree over the triangles of vertices and
// triangles (PartitionedMesh::PartitionMesh with 256 triangles per chunk).
// The indices must be valid.
func newChunkyMesh(vertices []mgl32.Vec3, triangles [][3]int32) *chunkyMesh {
	if len(triangles) == 0 {
		return &chunkyMesh{}
	}
	bounds := make([]triangleBounds, len(triangles))
	for i, t := range triangles {
		v := vertices[t[0]]
		b := triangleBounds{minX: v[0], maxX: v[0], minZ: v[2], maxZ: v[2], index: int32(i)}
		for _, corner := range t[1:] {
			v := vertices[corner]
			b.minX = cMin(v[0], b.minX)
			b.maxX = cMax(v[0], b.maxX)
			b.minZ = cMin(v[2], b.minZ)
			b.maxZ = cMax(v[2], b.maxZ)
		}
		bounds[i] = b
	}

	// The C++ sizes its node array to four nodes per chunk; a median split
	// never needs more, so the tree here simply grows.
	chunks := int(geom.Ceil(float32(len(triangles)) / float32(trianglesPerChunk)))
	m := &chunkyMesh{
		nodes:     make([]chunkyNode, 0, 4*chunks),
		triangles: make([]int32, 0, len(triangles)),
	}
	scratch := make([]triangleBounds, len(bounds))
	m.subdivide(bounds, scratch)
	for _, n := range m.nodes {
		if n.leaf {
			m.maxChunkTriangles = max(m.maxChunkTriangles, int(n.count))
		}
	}
	return m
}

// subdivide adds the subtree over bounds to the tree: a leaf when few enough
// triangles remain, otherwise a node split at the median of the longest axis
// of its box. scratch is as long as bounds.
func (m *chunkyMesh) subdivide(bounds, scratch []triangleBounds) {
	index := len(m.nodes)
	minX, minZ, maxX, maxZ := totalBounds(bounds)
	m.nodes = append(m.nodes, chunkyNode{minX: minX, minZ: minZ, maxX: maxX, maxZ: maxZ})

	if len(bounds) <= trianglesPerChunk {
		m.nodes[index].leaf = true
		m.nodes[index].first = int32(len(m.triangles))
		m.nodes[index].count = int32(len(bounds))
		for _, b := range bounds {
			m.triangles = append(m.triangles, b.index)
		}
		return
	}

	sortBoundsGlibc(bounds, scratch, maxX-minX < maxZ-minZ)
	split := len(bounds) / 2
	m.subdivide(bounds[:split], scratch[:split])
	m.subdivide(bounds[split:], scratch[split:])
	m.nodes[index].count = int32(len(m.nodes) - index)
}

// totalBounds returns the xz box around every box of bounds (not empty).
func totalBounds(bounds []triangleBounds) (minX, minZ, maxX, maxZ float32) {
	minX, minZ, maxX, maxZ = bounds[0].minX, bounds[0].minZ, bounds[0].maxX, bounds[0].maxZ
	for _, b := range bounds[1:] {
		minX = cMin(b.minX, minX)
		minZ = cMin(b.minZ, minZ)
		maxX = cMax(b.maxX, maxX)
		maxZ = cMax(b.maxZ, maxZ)
	}
	return minX, minZ, maxX, maxZ
}

// truncateToInt32 converts like x86's cvttss2si: toward zero, and
// 0x80000000 for values an int32 cannot hold.
func truncateToInt32(f float32) int {
	if !(f > -2147483649 && f < 2147483648) {
		return math.MinInt32
	}
	return int(int32(f))
}

// cMin is std::min(a, b) for floats: b when b < a, else a.
func cMin(a, b float32) float32 {
	if b < a {
		return b
	}
	return a
}

// cMax is std::max(a, b) for floats: b when a < b, else a.
func cMax(a, b float32) float32 {
	if a < b {
		return b
	}
	return a
}

// overlappingChunks appends to dst the leaves whose box overlaps the xz
// rectangle [minX, maxX] × [minZ, maxZ] (edges included), in tree order
// (PartitionedMesh::GetNodesOverlappingRect), and returns it.
func (m *chunkyMesh) overlappingChunks(minX, minZ, maxX, maxZ float32, dst []int32) []int32 {
	for i := 0; i < len(m.nodes); {
		n := &m.nodes[i]
		overlap := minX <= n.maxX && maxX >= n.minX && minZ <= n.maxZ && maxZ >= n.minZ
		switch {
		case n.leaf && overlap:
			dst = append(dst, int32(i))
			i++
		case n.leaf || overlap:
			i++
		default:
			i += int(n.count)
		}
	}
	return dst
}

// chunkTriangles returns the triangle indices of leaf node i.
func (m *chunkyMesh) chunkTriangles(i int32) []int32 {
	n := &m.nodes[i]
	return m.triangles[n.first : n.first+n.count]
}
