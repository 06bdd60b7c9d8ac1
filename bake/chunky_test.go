package bake

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChunkyMeshMatchesRecastDemo compares the chunk tree of each test mesh
// with RecastDemo's PartitionedMesh: node count, largest chunk, the
// triangles (as vertex indices) in chunk order, and every node as the C++
// stores it (xz bounds, then triangle index or negative escape, then
// triangle count), hashed with FNV-1a; built on 1 to 8 goroutines.
func TestChunkyMeshMatchesRecastDemo(t *testing.T) {
	tests := []struct {
		mesh                    string
		nodes, maxTriangles     int
		trianglesHash, nodeHash uint64
	}{
		{"dungeon", 127, 159, 0xb1ed1a2fb4f343c9, 0xafa58754dfaf8ff6},
		{"nav_test", 15, 202, 0x9467e0cfdf0adfb2, 0xceeb44593fd89122},
		{"undulating", 63, 163, 0xed6256dbce6ba3fa, 0x87ae930ffb935b9c},
	}
	for _, tt := range tests {
		for _, workers := range []int{1, 2, 3, 8} {
			t.Run(fmt.Sprintf("%s/workers=%d", tt.mesh, workers), func(t *testing.T) {
				g := loadTestMesh(t, tt.mesh)
				m := newChunkyMesh(g.Vertices, g.Triangles, workers)
				assert.Len(t, m.nodes, tt.nodes)
				assert.Equal(t, tt.maxTriangles, m.maxChunkTriangles)

				h := fnv.New64a()
				var buf []byte
				for _, ti := range m.triangles {
					buf = buf[:0]
					for _, v := range g.Triangles[ti] {
						buf = binary.LittleEndian.AppendUint32(buf, uint32(v))
					}
					h.Write(buf)
				}
				assert.Equal(t, tt.trianglesHash, h.Sum64(), "triangles in chunk order")

				h = fnv.New64a()
				for _, n := range m.nodes {
					buf = buf[:0]
					for _, f := range []float32{n.minX, n.minZ, n.maxX, n.maxZ} {
						buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(f))
					}
					triIndex, count := n.first, n.count
					if !n.leaf {
						triIndex, count = -n.count, 0
					}
					buf = binary.LittleEndian.AppendUint32(buf, uint32(triIndex))
					buf = binary.LittleEndian.AppendUint32(buf, uint32(count))
					h.Write(buf)
				}
				assert.Equal(t, tt.nodeHash, h.Sum64(), "nodes")
			})
		}
	}
}

// TestChunkyMeshStructure checks the tree invariants on a random soup: every
// triangle sits in exactly one leaf, leaves hold at most 256 triangles,
// boxes contain their triangles and children, and escapes skip subtrees.
func TestChunkyMeshStructure(t *testing.T) {
	g := randomSoup(rand.New(rand.NewPCG(1, 2)), 3000)
	m := newChunkyMesh(g.Vertices, g.Triangles, 1)

	seen := make([]int, len(g.Triangles))
	var check func(i int) int // returns the index after the subtree
	check = func(i int) int {
		n := m.nodes[i]
		if n.leaf {
			require.LessOrEqual(t, int(n.count), trianglesPerChunk)
			for _, ti := range m.chunkTriangles(int32(i)) {
				seen[ti]++
				for _, v := range g.Triangles[ti] {
					p := g.Vertices[v]
					assert.True(t, p[0] >= n.minX && p[0] <= n.maxX && p[2] >= n.minZ && p[2] <= n.maxZ)
				}
			}
			return i + 1
		}
		end := i + int(n.count)
		next := i + 1
		children := 0
		for next < end {
			c := m.nodes[next]
			assert.True(t, c.minX >= n.minX && c.maxX <= n.maxX && c.minZ >= n.minZ && c.maxZ <= n.maxZ)
			next = check(next)
			children++
		}
		assert.Equal(t, end, next)
		assert.Equal(t, 2, children)
		return end
	}
	require.Equal(t, len(m.nodes), check(0))
	for i, c := range seen {
		require.Equal(t, 1, c, "triangle %d", i)
	}
}

// TestChunkyMeshOverlap compares the rectangle query with a scan of every
// leaf, for random rectangles; the order must be tree order.
func TestChunkyMeshOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := randomSoup(rng, 2000)
	m := newChunkyMesh(g.Vertices, g.Triangles, 1)
	for range 500 {
		x0, z0 := float32(rng.Float32()*120)-10, float32(rng.Float32()*120)-10
		x1, z1 := x0+float32(rng.Float32()*30), z0+float32(rng.Float32()*30)
		var want []int32
		for i, n := range m.nodes {
			if n.leaf && x0 <= n.maxX && x1 >= n.minX && z0 <= n.maxZ && z1 >= n.minZ {
				want = append(want, int32(i))
			}
		}
		got := m.overlappingChunks(x0, z0, x1, z1, nil)
		require.Equal(t, want, got)
	}
	assert.Empty(t, m.overlappingChunks(1000, 1000, 1001, 1001, nil))
	assert.Empty(t, newChunkyMesh(nil, nil, 1).overlappingChunks(-1, -1, 1, 1, nil))
}

func randomSoup(rng *rand.Rand, triangles int) *Geometry {
	g := &Geometry{}
	for i := range triangles {
		x, z := float32(rng.Float32()*100), float32(rng.Float32()*100)
		for range 3 {
			g.Vertices = append(g.Vertices, [3]float32{x + float32(rng.Float32()*3), rng.Float32(), z + float32(rng.Float32()*3)})
		}
		g.Triangles = append(g.Triangles, [3]int32{int32(3 * i), int32(3*i + 1), int32(3*i + 2)})
	}
	return g
}

// TestSortBoundsGlibc checks the merge order glibc gives for RecastDemo's
// truncating comparator, where values closer than 1 tie
// (internal/glibcsort checks the sort itself against glibc).
func TestSortBoundsGlibc(t *testing.T) {
	// Not transitive: 0.0 ~ 0.6 ~ 1.2 but 0.0 < 1.2. glibc sorts
	// [1.2, 0.6, 0.0] as [1.2] + sort([0.6, 0.0]) = [1.2] + [0.6, 0.0]
	// (tie), then merges: 1.2 vs 0.6 tie -> 1.2 first, then 0.6, 0.0.
	values := []triangleBounds{{minX: 1.2}, {minX: 0.6}, {minX: 0}}
	sortBoundsGlibc(values, make([]triangleBounds, 3), false)
	assert.Equal(t, []float32{1.2, 0.6, 0}, []float32{values[0].minX, values[1].minX, values[2].minX})
	// [0.0, 1.2, 0.5, 2.0]: halves [0.0, 1.2] (in order) and [0.5, 2.0];
	// merge: 0.0 vs 0.5 tie -> 0.0; 1.2 vs 0.5 tie -> 1.2; then 0.5, 2.0.
	values = []triangleBounds{{minX: 0}, {minX: 1.2}, {minX: 0.5}, {minX: 2}}
	sortBoundsGlibc(values, make([]triangleBounds, 4), false)
	assert.Equal(t, []float32{0, 1.2, 0.5, 2}, []float32{values[0].minX, values[1].minX, values[2].minX, values[3].minX})
	// The same along z.
	values = []triangleBounds{{minZ: 0}, {minZ: 1.2}, {minZ: 0.5}, {minZ: 2}}
	sortBoundsGlibc(values, make([]triangleBounds, 4), true)
	assert.Equal(t, []float32{0, 1.2, 0.5, 2}, []float32{values[0].minZ, values[1].minZ, values[2].minZ, values[3].minZ})
}
