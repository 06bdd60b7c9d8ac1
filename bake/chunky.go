package bake

import (
	"github.com/archenav/archenav/internal/glibcsort"
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
// triangles (PartitionedMesh::PartitionMesh with 256 triangles per chunk)
// on up to workers goroutines. The indices must be valid.
func newChunkyMesh(vertices []mgl32.Vec3, triangles [][3]int32, workers int) *chunkyMesh {
	if len(triangles) == 0 {
		return &chunkyMesh{}
	}
	bounds := make([]triangleBounds, len(triangles))
	for i, t := range triangles {
		v := vertices[t[0]]
		b := triangleBounds{minX: v[0], maxX: v[0], minZ: v[2], maxZ: v[2], index: int32(i)}
		for _, corner := range t[1:] {
			v := vertices[corner]
			b.minX = minFloat(b.minX, v[0])
			b.maxX = maxFloat(b.maxX, v[0])
			b.minZ = minFloat(b.minZ, v[2])
			b.maxZ = maxFloat(b.maxZ, v[2])
		}
		bounds[i] = b
	}

	m := &chunkyMesh{
		nodes:     make([]chunkyNode, subtreeNodeCount(len(bounds))),
		triangles: make([]int32, len(bounds)),
	}
	// Below the first levels of splits each subtree is built on a
	// goroutine of its own.
	concurrentLevels := 0
	for 1<<concurrentLevels < workers {
		concurrentLevels++
	}
	m.subdivide(bounds, make([]triangleBounds, len(bounds)), 0, 0, concurrentLevels)
	for _, n := range m.nodes {
		if n.leaf {
			m.maxChunkTriangles = max(m.maxChunkTriangles, int(n.count))
		}
	}
	return m
}

// subtreeNodeCount returns the number of nodes of the subtree over count
// triangles: the splits depend only on the count.
func subtreeNodeCount(count int) int {
	if count <= trianglesPerChunk {
		return 1
	}
	split := count / 2
	return 1 + subtreeNodeCount(split) + subtreeNodeCount(count-split)
}

// subdivide writes the subtree over bounds at node index, its triangles
// from triangle first on: a leaf when few enough triangles remain,
// otherwise a node split at the median of the longest axis of its box.
// scratch is as long as bounds. While concurrentLevels is positive, the
// second half of a split is built on another goroutine.
func (m *chunkyMesh) subdivide(bounds, scratch []triangleBounds, index, first, concurrentLevels int) {
	minX, minZ, maxX, maxZ := totalBounds(bounds)
	node := &m.nodes[index]
	*node = chunkyNode{minX: minX, minZ: minZ, maxX: maxX, maxZ: maxZ}

	if len(bounds) <= trianglesPerChunk {
		node.leaf = true
		node.first = int32(first)
		node.count = int32(len(bounds))
		for i, b := range bounds {
			m.triangles[first+i] = b.index
		}
		return
	}

	sortBoundsGlibc(bounds, scratch, maxX-minX < maxZ-minZ)
	split := len(bounds) / 2
	node.count = int32(subtreeNodeCount(len(bounds)))
	left, right := index+1, index+1+subtreeNodeCount(split)
	if concurrentLevels <= 0 {
		m.subdivide(bounds[:split], scratch[:split], left, first, 0)
		m.subdivide(bounds[split:], scratch[split:], right, first+split, 0)
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.subdivide(bounds[split:], scratch[split:], right, first+split, concurrentLevels-1)
	}()
	m.subdivide(bounds[:split], scratch[:split], left, first, concurrentLevels-1)
	<-done
}

// sortBoundsGlibc sorts triangle boxes by their smallest x (byZ false) or z
// (byZ true) with RecastDemo's comparator, the float difference truncated to
// an int, in glibc qsort's order. The comparator is not a proper order (keys
// less than one unit apart tie, and ties do not chain), so only glibc's
// algorithm, comparing the same pairs, reaches the same order. scratch must
// be at least as long as items.
func sortBoundsGlibc(items, scratch []triangleBounds, byZ bool) {
	if byZ {
		glibcsort.Sort(items, scratch, func(a, b *triangleBounds) int { return cInt(a.minZ - b.minZ) })
	} else {
		glibcsort.Sort(items, scratch, func(a, b *triangleBounds) int { return cInt(a.minX - b.minX) })
	}
}

// totalBounds returns the xz box around every box of bounds (not empty).
func totalBounds(bounds []triangleBounds) (minX, minZ, maxX, maxZ float32) {
	minX, minZ, maxX, maxZ = bounds[0].minX, bounds[0].minZ, bounds[0].maxX, bounds[0].maxZ
	for _, b := range bounds[1:] {
		minX = minFloat(minX, b.minX)
		minZ = minFloat(minZ, b.minZ)
		maxX = maxFloat(maxX, b.maxX)
		maxZ = maxFloat(maxZ, b.maxZ)
	}
	return minX, minZ, maxX, maxZ
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
