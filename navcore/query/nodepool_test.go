package query

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/archenav/archenav/navcore/internal/testmesh"
	"github.com/archenav/archenav/navcore/navmesh"
)

// TestNodePoolBucketsSpreadPolygons: the polygons of a few tiles, as an
// A* search meets them, land in distinct buckets of a pool with as many
// buckets as nodes, nearly all of them (Detour's quarter-size table with
// its hash gives chains of four in a full pool).
func TestNodePoolBucketsSpreadPolygons(t *testing.T) {
	for _, tc := range []struct {
		name         string
		polyBits     int
		tiles, polys int
	}{
		{"one tile", 16, 1, 2048},
		{"four tiles of 512", 10, 4, 512},
		{"eight tiles of 256", 10, 8, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pool := newNodePool(2048, nodeHashSize(2048))
			seen := map[uint32]bool{}
			for tile := range tc.tiles {
				for poly := range tc.polys {
					ref := navmesh.Ref(tile+17)<<tc.polyBits | navmesh.Ref(poly)
					b := pool.bucket(ref)
					require.Less(t, int(b), len(pool.first))
					seen[b] = true
				}
			}
			assert.GreaterOrEqual(t, len(seen), tc.tiles*tc.polys*6/10, "distinct buckets")
		})
	}
}

// TestNodePoolClearForgetsEveryNode: after a small search (its buckets
// emptied one by one) and a large one (the whole table cleared), no node
// is found again and fresh nodes come out numbered from 1.
func TestNodePoolClearForgetsEveryNode(t *testing.T) {
	for _, used := range []int{3, 1500} {
		pool := newNodePool(2048, nodeHashSize(2048))
		for i := range used {
			require.NotNil(t, pool.get(navmesh.Ref(1000+7*i), uint8(i%4)))
		}
		pool.clear()
		for i := range used {
			assert.Nil(t, pool.find(navmesh.Ref(1000+7*i), uint8(i%4)), "node %d of %d", i, used)
		}
		assert.Zero(t, slices.Max(pool.first), "every bucket empty after %d nodes", used)
		assert.Equal(t, uint32(1), pool.get(5, 0).index)
	}
}

func TestNodePoolGet(t *testing.T) {
	pool := newNodePool(4, 2)

	a := pool.get(10, 0)
	require.NotNil(t, a)
	assert.Equal(t, uint32(1), a.index, "nodes are numbered in request order from 1")
	assert.Equal(t, navmesh.Ref(10), a.ref)
	assert.Zero(t, a.flags)

	a.flags = nodeOpen
	a.total = 5
	assert.Same(t, a, pool.get(10, 0), "same ref and state give the same node")

	b := pool.get(10, 2)
	require.NotNil(t, b)
	assert.NotSame(t, a, b, "another state is another node")
	assert.Equal(t, uint32(2), b.index)

	c := pool.get(11, 0)
	d := pool.get(12, 0)
	require.NotNil(t, c)
	require.NotNil(t, d)
	assert.Equal(t, 4, pool.nodeCount())
	assert.Nil(t, pool.get(13, 0), "the pool is full")
	assert.Same(t, c, pool.get(11, 0), "existing nodes are still found when full")

	assert.Same(t, a, pool.find(10, 0))
	assert.Nil(t, pool.find(10, 1))
	assert.Nil(t, pool.find(13, 0))
	assert.Same(t, b, pool.at(2))
	assert.Nil(t, pool.at(0))

	var found [maxStatesPerNode]*node
	n := pool.findAll(10, found[:])
	require.Equal(t, 2, n)
	assert.Same(t, b, found[0], "newest first, like the hash chain")
	assert.Same(t, a, found[1])
	assert.Equal(t, 1, pool.findAll(10, found[:1]), "findAll stops at the buffer size")

	pool.clear()
	assert.Zero(t, pool.nodeCount())
	assert.Nil(t, pool.find(10, 0))
	fresh := pool.get(12, 0)
	assert.Equal(t, uint32(1), fresh.index)
	assert.Zero(t, fresh.total, "a reused node starts cleared")
	assert.Zero(t, fresh.flags)
}

func TestNodeQueueMatchesDetourOrder(t *testing.T) {
	// The pop order Detour 1.6.0's dtNodeQueue gives for the same pushes,
	// decrease-keys and ties (computed with DetourNode.cpp: a program that
	// makes these calls on dtNodes with the same totals and prints the
	// ids popped).
	want := []navmesh.Ref{35, 1, 10, 33, 34, 16, 38, 39, 13, 25, 29, 28, 14, 8, 36, 4, 10, 1, 30, 7, 26, 12, 18, 0, 22, 3, 19, 9, 23, 2, 11, 5, 13, 6, 27, 20, 21, 37, 24, 31, 15, 17, 32}
	rng := &testmesh.LCG{State: 5}
	pool := newNodePool(40, 16)
	nodes := pool.nodes
	q := newNodeQueue(pool)
	for i := range nodes {
		nodes[i].total = float32(int(rng.Next() * 5))
		nodes[i].ref = navmesh.Ref(i)
		nodes[i].flags = nodeOpen
		q.push(&nodes[i])
	}
	for i := 0; i < len(nodes); i += 7 {
		nodes[i].total -= 2
		q.modify(&nodes[i])
	}
	var got []navmesh.Ref
	for range 10 {
		n := q.pop()
		n.flags = 0
		got = append(got, n.ref)
	}
	// As a search does: closed nodes come back on the list, open ones
	// only get cheaper.
	for i := range 15 {
		switch {
		case nodes[i].flags == 0:
			nodes[i].total = 1
			nodes[i].flags = nodeOpen
			q.push(&nodes[i])
		case nodes[i].total > 1:
			nodes[i].total = 1
			q.modify(&nodes[i])
		}
	}
	for !q.empty() {
		got = append(got, q.pop().ref)
	}
	assert.Equal(t, want, got)
}

func TestNodeQueuePopsCheapestFirst(t *testing.T) {
	rng := &testmesh.LCG{State: 1}
	pool := newNodePool(200, 64)
	nodes := pool.nodes
	q := newNodeQueue(pool)
	for i := range nodes {
		nodes[i].total = rng.Next() * 100
		q.push(&nodes[i])
	}
	assert.Same(t, q.top(), q.top())
	last := float32(-1)
	for !q.empty() {
		n := q.pop()
		assert.GreaterOrEqual(t, n.total, last)
		last = n.total
	}
}

// TestReverseChain reverses a chain a ← b ← c ← d (each node's parent is the
// one before) in which c was reached from b through a shortcut (its link to
// b is detached): afterwards the parent indices lead a → b → c → d and the
// mark sits on b, whose link now leads to c.
func TestReverseChain(t *testing.T) {
	pool := newNodePool(8, 4)
	a, b, c, d := pool.get(1, 0), pool.get(2, 0), pool.get(3, 0), pool.get(4, 0)
	b.parent, c.parent, d.parent = a.index, b.index, c.index
	c.flags = nodeClosed | nodeParentDetached
	b.flags = nodeClosed

	first, err := pool.reverseChain(d)
	require.NoError(t, err)
	var refs []navmesh.Ref
	var detached []bool
	for nd := first; nd != nil; nd = pool.at(nd.parent) {
		refs = append(refs, nd.ref)
		detached = append(detached, nd.flags&nodeParentDetached != 0)
	}
	assert.Same(t, a, first, "the search start comes first")
	assert.Equal(t, []navmesh.Ref{1, 2, 3, 4}, refs)
	assert.Equal(t, []bool{false, true, false, false}, detached)
	assert.Equal(t, nodeClosed, c.flags, "other flags stay")
	assert.Equal(t, nodeClosed|nodeParentDetached, b.flags)
	e := pool.get(5, 0)
	first, err = pool.reverseChain(e)
	require.NoError(t, err)
	assert.Same(t, e, first, "a one-node chain is itself")
	assert.Zero(t, e.parent)
}

// TestParentCycleEnds: parents that lead round in a circle (which no search
// builds) give errParentCycle from the walks along them, which leave the
// nodes as they were, instead of walking for ever.
func TestParentCycleEnds(t *testing.T) {
	q, err := New(testmesh.Dungeon(t), 8)
	require.NoError(t, err)
	pool := q.nodes
	a, b, c := pool.get(1, 0), pool.get(2, 0), pool.get(3, 0)
	a.parent, b.parent, c.parent = c.index, a.index, b.index
	_, err = pool.reverseChain(c)
	require.ErrorIs(t, err, errParentCycle)
	assert.Equal(t, [3]uint32{c.index, a.index, b.index}, [3]uint32{a.parent, b.parent, c.parent}, "untouched")
	_, _, err = q.pathToNode(c, make([]navmesh.Ref, 4))
	require.ErrorIs(t, err, ErrInvalidParam)
	_, _, err = reverseAndWrite(pool, c, make([]navmesh.Ref, 4))
	require.ErrorIs(t, err, errParentCycle)
}

// TestLocalQueue checks the local searches' queue: first in first out, full
// at localSearchQueue nodes.
func TestLocalQueue(t *testing.T) {
	q, err := New(testmesh.Dungeon(t), 64)
	require.NoError(t, err)
	tile := q.Mesh().Snapshot().Tile(0)
	start := tile.PolyRefBase() | 5
	queue := q.startLocalSearch(start)
	require.False(t, queue.empty())
	first := queue.pop()
	assert.Equal(t, start, first.ref)
	assert.Equal(t, nodeClosed, first.flags)
	assert.True(t, queue.empty())

	pool := newNodePool(localSearchQueue+1, 16)
	for i := range localSearchQueue {
		assert.True(t, queue.push(pool.get(navmesh.Ref(i+1), 0)))
	}
	assert.False(t, queue.push(pool.get(999, 0)), "full")
	for i := range localSearchQueue {
		assert.Equal(t, navmesh.Ref(i+1), queue.pop().ref)
	}
	assert.True(t, queue.empty())
}
