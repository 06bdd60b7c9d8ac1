package bake

import "slices"

// vertexBucketCount is the number of hash buckets used to weld vertices
// (a power of two).
const vertexBucketCount = 1 << 12

// vertexWelder collects unique poly mesh vertices: a vertex at the same x
// and z as an existing one and within 2 cells of its height is the same
// vertex. The bucket chains are searched newest first, as in Recast, which
// decides which of several close vertices a new one snaps to.
type vertexWelder struct {
	verts   [][3]uint16
	buckets [vertexBucketCount]int32
	next    []int32
}

// newVertexWelder makes a welder with room for capacity vertices.
func newVertexWelder(capacity int) *vertexWelder {
	w := &vertexWelder{}
	w.reset(capacity)
	return w
}

// reset empties the welder, keeping its memory, with room for capacity
// vertices.
func (w *vertexWelder) reset(capacity int) {
	w.verts = slices.Grow(w.verts[:0], capacity)
	w.next = slices.Grow(w.next[:0], capacity)
	for i := range w.buckets {
		w.buckets[i] = -1
	}
}

// vertexBucket hashes x and z into a bucket index (computeVertexHash with
// y = 0).
func vertexBucket(x, z uint16) int {
	const (
		primeX uint32 = 0x8da6b343
		primeZ uint32 = 0xcb1ab31f
	)
	n := primeX*uint32(x) + primeZ*uint32(z)
	return int(n & (vertexBucketCount - 1))
}

// add returns the index of the vertex x, y, z, appending it when no welded
// match exists. Indices wrap at 16 bits like the C++; callers check the
// vertex count.
func (w *vertexWelder) add(x, y, z uint16) uint16 {
	bucket := vertexBucket(x, z)
	for i := w.buckets[bucket]; i != -1; i = w.next[i] {
		v := &w.verts[i]
		dy := int(v[1]) - int(y)
		if v[0] == x && dy >= -2 && dy <= 2 && v[2] == z {
			return uint16(i)
		}
	}
	i := int32(len(w.verts))
	w.verts = append(w.verts, [3]uint16{x, y, z})
	w.next = append(w.next, w.buckets[bucket])
	w.buckets[bucket] = i
	return uint16(i)
}
